package pix

import (
	"reflect"
	"testing"
)

func TestLoteTxids(t *testing.T) {
	tests := []struct {
		name  string
		cobsv []doc
		want  []string
		bad   string // the violated field
	}{
		{"OK", []doc{{"txid": "a"}, {"txid": "b"}}, []string{"a", "b"}, ""},
		{"ErrRepeated", []doc{{"txid": "a"}, {"txid": "b"}, {"txid": "a"}}, nil, "loteCobV.cobsv.2.txid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, v := loteTxids(tt.cobsv)
			if !reflect.DeepEqual(got, tt.want) || (v == nil) != (tt.bad == "") || v != nil && v.field != tt.bad {
				t.Errorf("got %v, %v; want %v, %q", got, v, tt.want, tt.bad)
			}
		})
	}
}

func TestSameSet(t *testing.T) {
	tests := []struct {
		a, b []string
		want bool
	}{
		{[]string{"a", "b"}, []string{"b", "a"}, true},
		{[]string{"a", "b"}, []string{"a"}, false},
		{[]string{"a", "b"}, []string{"a", "c"}, false},
		{[]string{}, []string{}, true},
	}
	for _, tt := range tests {
		if got := sameSet(tt.a, tt.b); got != tt.want {
			t.Errorf("sameSet(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestItemRequest(t *testing.T) {
	item := doc{"txid": "a", "valor": doc{"original": "1.00"}}
	if got := itemRequest(item); got["txid"] != nil || str(got, "valor", "original") != "1.00" {
		t.Errorf("got %v, want the item without txid", got)
	}
	if item["txid"] != "a" {
		t.Error("itemRequest changed the item")
	}
}

func TestLoteItemMachine(t *testing.T) {
	for _, m := range []struct {
		from, to string
		ok       bool
	}{
		{LoteEmProcessamento, LoteCriada, true},
		{LoteEmProcessamento, LoteNegada, true},
		{LoteNegada, LoteEmProcessamento, true},
		{LoteCriada, LoteEmProcessamento, false},
		{LoteNegada, LoteCriada, false},
	} {
		if _, err := loteItemMachine.Check(m.from, m.to); (err == nil) != m.ok {
			t.Errorf("%s → %s: %v, want ok %v", m.from, m.to, err, m.ok)
		}
	}
	if err := loteItemMachine.Validate(); err != nil {
		t.Error(err)
	}
}
