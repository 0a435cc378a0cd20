package money_test

import (
	"encoding/json"
	"errors"
	"testing"

	"homologa/simulator/money"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want money.Cents
		ok   bool
	}{
		{"0.00", 0, true}, {"123.45", 12345, true}, {"1000000.01", 100000001, true},
		{"1.5", 0, false}, {"1", 0, false}, {"-1.00", 0, false}, {"1.000", 0, false}, {".50", 0, false},
		{"1e2.00", 0, false}, {"1234567890123456.00", 0, false}, {"", 0, false},
	} {
		got, err := money.Parse(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Parse(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, money.ErrSyntax) {
			t.Errorf("Parse(%q): error %v does not wrap ErrSyntax", tc.in, err)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want money.Cents
		ok   bool
	}{
		{"10", 1000, true}, {"10.5", 1050, true}, {"10.05", 1005, true}, {"-3.25", -325, true}, {" 7 ", 700, true},
		{"10.005", 0, false}, {"abc", 0, false}, {"1,50", 0, false}, {"", 0, false},
	} {
		got, err := money.ParseDecimal(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseDecimal(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestFromJSON(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want money.Cents
		ok   bool
	}{
		{46.34, 4634, true}, {0.1 + 0.2, 30, true}, {46.345, 4635, true}, {"46.34", 4634, true}, {"1e3", 100000, true},
		// Read as written, then half away from zero: a float holds 1.005
		// as 1.00499999….
		{1.005, 101, true}, {-1.005, -101, true}, {"12.345", 1235, true}, {" 8000.5 ", 800050, true}, {1e18, 0, false}, {"1e18", 0, false},
		{json.Number("12.5"), 1250, true}, {true, 0, false}, {nil, 0, false}, {"x", 0, false},
	} {
		got, err := money.FromJSON(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("FromJSON(%v) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		c          money.Cents
		str, jsonN string
	}{
		{12345, "123.45", "123.45"}, {100, "1.00", "1"}, {150, "1.50", "1.5"}, {5, "0.05", "0.05"}, {-50, "-0.50", "-0.5"}, {0, "0.00", "0"},
	} {
		if got := tc.c.String(); got != tc.str {
			t.Errorf("%d.String() = %q, want %q", tc.c, got, tc.str)
		}
		b, _ := json.Marshal(tc.c)
		if string(b) != tc.jsonN {
			t.Errorf("json(%d) = %s, want %s", tc.c, b, tc.jsonN)
		}
		var back money.Cents
		if err := json.Unmarshal(b, &back); err != nil || back != tc.c {
			t.Errorf("round trip of %d: %d, %v", tc.c, back, err)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		c       money.Cents
		weights []int64
		want    []money.Cents
	}{
		{10000, []int64{50, 50}, []money.Cents{5000, 5000}},
		{10000, []int64{1, 1, 1}, []money.Cents{3334, 3333, 3333}},
		{1, []int64{70, 30}, []money.Cents{1, 0}},
		{500, []int64{0, 0}, []money.Cents{0, 0}},
	} {
		got := tc.c.Split(tc.weights)
		var sum money.Cents
		for i := range got {
			sum += got[i]
			if got[i] != tc.want[i] {
				t.Errorf("%d.Split(%v) = %v, want %v", tc.c, tc.weights, got, tc.want)
				break
			}
		}
		if sum != tc.c && tc.weights[0] != 0 {
			t.Errorf("%d.Split(%v) adds up to %d", tc.c, tc.weights, sum)
		}
	}
}
