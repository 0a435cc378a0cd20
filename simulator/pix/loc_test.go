package pix

import (
	"database/sql"
	"fmt"
	"regexp"
	"testing"
	"time"

	"homologa/simulator/store"
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

// A location's token is 32 hex digits whose order is its creation's, and
// whose last 20 are random: two made in the same millisecond differ.
func TestLocTokenOrdersByCreation(t *testing.T) {
	at := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	ids := store.RandomIDs{}
	first, same, later := locToken(ids, at), locToken(ids, at), locToken(ids, at.Add(time.Millisecond))
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for _, tok := range []string{first, same, later} {
		if !hex32.MatchString(tok) {
			t.Fatalf("token %q is not 32 hex digits", tok)
		}
	}
	if first == same {
		t.Errorf("two tokens of the same millisecond are equal: %s", first)
	}
	if first[:12] != same[:12] || !(later > first && later > same) {
		t.Errorf("tokens %s, %s (same millisecond) and %s (a millisecond later) are not in creation order", first, same, later)
	}
	for _, at := range []time.Time{at, time.UnixMilli(0), time.UnixMilli(1<<48 - 1), time.UnixMilli(1 << 48), time.UnixMilli(-1), time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)} {
		want := fmt.Sprintf("%012x", uint64(at.UnixMilli())&(1<<48-1))
		if got := locToken(ids, at)[:12]; got != want {
			t.Errorf("token of %v starts %s, want its millisecond's low 48 bits %s", at, got, want)
		}
	}
}
