package pix

import (
	"testing"

	"homologa/simulator/pix/duedate"
)

func TestPaymentDateRule(t *testing.T) {
	today := duedate.MustParse("2026-01-05")
	tests := []struct {
		name          string
		codMun, dpp   string
		want, invalid string
	}{
		{"OK today", "", "", "2026-01-05", ""},
		{"OK later", "3550308", "2026-01-09", "2026-01-09", ""},
		{"ErrCodMun", "355030", "", "", "codMun"},
		{"ErrDPP", "", "09/01/2026", "", "DPP"},
		{"ErrDPPPast", "", "2026-01-04", "", "DPP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, v := paymentDateRule(tt.codMun, tt.dpp, today)
			switch {
			case tt.invalid != "" && (v == nil || v.field != tt.invalid):
				t.Errorf("got %v, want field %q", v, tt.invalid)
			case tt.invalid == "" && (v != nil || got.String() != tt.want):
				t.Errorf("got %s, %v; want %s", got, v, tt.want)
			}
		})
	}
}
