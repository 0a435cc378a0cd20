package pix

import (
	"database/sql"
	"testing"
)

func TestLocRule(t *testing.T) {
	free := &loc{ID: 1, TipoCob: "cob"}
	mine := &loc{ID: 1, TipoCob: "cob", CobID: sql.NullInt64{Int64: 7, Valid: true}}
	tests := []struct {
		name string
		l    *loc
		kind string
		want string
	}{
		{"OK free", free, "cob", ""},
		{"OK already this charge's", mine, "cob", ""},
		{"ErrMissing", nil, "cob", "location inexistente"},
		{"ErrKind", free, "cobv", "a location é do tipo cob e não pode ser usada por uma cobv"},
		{"ErrInUse", &loc{ID: 1, TipoCob: "cob", CobID: sql.NullInt64{Int64: 8, Valid: true}}, "cob", "a location já está em uso por outra cobrança"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := locRule(tt.l, tt.kind, 7); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWithoutLoc(t *testing.T) {
	d := withoutLoc(doc{"loc": doc{}, "location": "x", "pixCopiaECola": "y", "txid": "t"})
	if len(d) != 1 || d["txid"] != "t" {
		t.Errorf("got %v, want only txid", d)
	}
}
