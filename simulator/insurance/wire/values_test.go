package wire_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
)

func TestParseDateReadsWhatClientsSend(t *testing.T) {
	want := time.Date(1986, 3, 15, 0, 0, 0, 0, time.UTC)
	for _, in := range []string{"1986-03-15", "1986-03-15T00:00:00", "1986-03-15T10:20:30Z", "15-03-1986", " 1986-03-15 "} {
		got, err := wire.ParseDate(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ontem", "1986-13-01", "32-01-1986", "15/03/1986"} {
		if _, err := wire.ParseDate(in); err == nil {
			t.Errorf("ParseDate(%q) accepted", in)
		}
	}
}

func TestMoneyReadsNumbersAndStrings(t *testing.T) {
	tests := []struct {
		v    any
		want money.Cents
		ok   bool
	}{
		{46.34, 4634, true}, {"46.34", 4634, true}, {" 1234.5 ", 123450, true}, {float64(100), 10000, true},
		{"46.345", 4635, true}, {"x", 0, false}, {nil, 0, false}, {true, 0, false},
		{"8.000,00", 800000, true}, {"R$ 1.234,56", 123456, true}, {"8000,5", 800050, true}, {"1,2,3", 0, false},
		{7.1134835, 711, true},
	}
	for _, tt := range tests {
		got, err := wire.Money(tt.v)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("Money(%v) = %v, %v; want %v, ok %v", tt.v, got, err, tt.want, tt.ok)
		}
	}
}

func TestItemsReadsOneOrMany(t *testing.T) {
	one := map[string]any{"A": "1"}
	tests := []struct {
		v    any
		want int
	}{
		{one, 1}, {[]any{one, one, "not an object"}, 2}, {nil, 0}, {"x", 0},
	}
	for _, tt := range tests {
		if got := wire.Items(tt.v); len(got) != tt.want {
			t.Errorf("Items(%v) has %d items, want %d", tt.v, len(got), tt.want)
		}
	}
}

func TestInt(t *testing.T) {
	tests := []struct {
		v    any
		want int
		ok   bool
	}{
		{float64(7), 7, true}, {" 10 ", 10, true}, {7.5, 0, false}, {"x", 0, false}, {nil, 0, false},
	}
	for _, tt := range tests {
		got, err := wire.Int(tt.v)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("Int(%v) = %d, %v", tt.v, got, err)
		}
	}
}

func TestViolations(t *testing.T) {
	var vs wire.Violations
	if vs.Err("X", "m") != nil {
		t.Fatal("no violation is an error")
	}
	vs.Add("a.b", "ruim %d", 1)
	vs.Add("c", "ruim")
	e := errs.As(vs.Err("REGRA", "m"))
	if e.Code != errs.Unprocessable || e.Type != "REGRA" || len(e.Violations) != 2 || e.Violations[0].Reason != "ruim 1" {
		t.Errorf("Err = %+v", e)
	}
}

func TestDocumentSize(t *testing.T) {
	if n, err := wire.DocumentSize("f", base64.StdEncoding.EncodeToString([]byte("abc"))); n != 3 || err != nil {
		t.Errorf("DocumentSize = %d, %v", n, err)
	}
	if _, err := wire.DocumentSize("f", "não é base64"); err == nil || !strings.Contains(err.Error(), "f") {
		t.Errorf("DocumentSize of bad base64 = %v", err)
	}
	big := base64.StdEncoding.EncodeToString(make([]byte, wire.MaxDocument+1))
	if _, err := wire.DocumentSize("f", big); err == nil {
		t.Error("a document over the limit was accepted")
	}
}
