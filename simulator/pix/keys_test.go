package pix_test

import (
	"strings"
	"testing"

	"homologa/simulator/pix"
)

func TestKeyType(t *testing.T) {
	tests := []struct {
		chave, tipo string
	}{
		{"52998224725", pix.KeyCPF},
		{"11222333000181", pix.KeyCNPJ},
		{"+5511999990001", pix.KeyPhone},
		{"cobranca@demo.homologa.test", pix.KeyEmail},
		{"7d9f0335-8dcc-4054-9bf9-0dbd61d36906", pix.KeyEVP},
		{"12345678900", ""},
		{"Cobranca@Demo.test", ""},
		{"", ""},
		{strings.Repeat("a", 70) + "@b.test", pix.KeyEmail}, // 77 characters
		{strings.Repeat("a", 71) + "@b.test", ""},
	}
	for _, tt := range tests {
		got, err := pix.KeyType(tt.chave)
		if got != tt.tipo || (err == nil) != (tt.tipo != "") {
			t.Errorf("KeyType(%q) = %q, %v; want %q", tt.chave, got, err, tt.tipo)
		}
	}
	for _, k := range pix.DemoKeys {
		if _, err := pix.KeyType(k); err != nil {
			t.Errorf("demo key %s: %v", k, err)
		}
	}
}
