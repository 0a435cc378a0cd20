package taxid_test

import (
	"testing"

	"homologa/simulator/taxid"
)

func TestCheckCNPJ(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"11222333000181", true},
		{"11222333000182", false},
		{"12ABC34501DE35", true}, // the Receita Federal's alphanumeric example
		{"12ABC34501DE36", false},
		{"12abc34501de35", false}, // callers normalise case first
		{"12ABC34501DEAB", false},
		{"00000000000000", false},
		{"1122233300018", false},
		{"11.222.333/0001-81", false},
	}
	for _, tt := range tests {
		if err := taxid.CheckCNPJ(tt.in); (err == nil) != tt.ok {
			t.Errorf("CheckCNPJ(%q) = %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
	if got := taxid.NormalizeCNPJ("12.abc.345/01de-35"); got != "12ABC34501DE35" {
		t.Errorf("NormalizeCNPJ = %q", got)
	}
}

func TestCheckCPF(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"52998224725", true},
		{"00000000191", true},
		{"52998224724", false},
		{"11111111111", false},
		{"5299822472", false},
		{"529.982.247-25", false},
	}
	for _, tt := range tests {
		if err := taxid.CheckCPF(tt.in); (err == nil) != tt.ok {
			t.Errorf("CheckCPF(%q) = %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
}
