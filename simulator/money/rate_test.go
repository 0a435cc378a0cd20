package money_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"homologa/simulator/money"
)

func TestParseRate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want money.Rate
		err  error
	}{
		{"0.035", 3_500_000, nil},
		{"25", 2_500_000_000, nil},
		{"-0.11", -11_000_000, nil},
		{" 0.21919743 ", 21_919_743, nil},
		{"+1.5", 150_000_000, nil},
		{"25e-1", 250_000_000, nil},
		{"1E+2", 10_000_000_000, nil},
		{"0001.50", 150_000_000, nil},
		{"10.", 1_000_000_000, nil},
		// Past the eighth place, half away from zero, from the digits.
		{"0.000000005", 1, nil},
		{"0.0000000049999", 0, nil},
		{"-0.000000005", -1, nil},
		{"32.879614500000004", 3_287_961_450, nil},
		{"32.87961449499999", 3_287_961_449, nil},
		{"9e-400", 0, money.ErrSyntax},
		{"1e-99", 0, nil},
		{"0e99", 0, nil},
		{"92233720368.54775807", math.MaxInt64, nil},
		{"92233720368.54775808", 0, money.ErrRange},
		{"1e30", 0, money.ErrRange},
		{"", 0, money.ErrSyntax}, {"-", 0, money.ErrSyntax}, {".5", 0, money.ErrSyntax}, {"1,5", 0, money.ErrSyntax},
		{"1e", 0, money.ErrSyntax}, {"0x10", 0, money.ErrSyntax}, {"1.2.3", 0, money.ErrSyntax}, {"NaN", 0, money.ErrSyntax},
	} {
		got, err := money.ParseRate(tc.in)
		if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("ParseRate(%q) = %d, %v; want %d, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestRateFromJSON(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want money.Rate
		ok   bool
	}{
		{0.1 + 0.2, money.MustParseRate("0.3"), true}, // 0.30000000000000004: read as written, then to 8 places
		{32.8796145, money.MustParseRate("32.8796145"), true},
		{1e-7, 10, true},
		{json.Number("6.1678"), money.MustParseRate("6.1678"), true},
		{"33.3", money.MustParseRate("33.3"), true},
		{100, 100 * money.RateOne, true},
		{money.Rate(7), 7, true},
		{"33,3", 0, false}, // a decimal comma is wire's to rewrite
		{math.Inf(1), 0, false}, {math.NaN(), 0, false}, {true, 0, false}, {nil, 0, false},
	} {
		got, err := money.RateFromJSON(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("RateFromJSON(%v) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestRateString(t *testing.T) {
	for _, tc := range []struct {
		r    money.Rate
		want string
	}{
		{21_919_743, "0.21919743"}, {616_780_000, "6.1678"}, {100 * money.RateOne, "100"}, {-50_000_000, "-0.5"},
		{0, "0"}, {1, "0.00000001"}, {math.MaxInt64, "92233720368.54775807"}, {math.MinInt64 + 1, "-92233720368.54775807"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("Rate(%d).String() = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// A Rate's JSON is the float64 of the same value's, as encoding/json
// writes it: answers that carried floats read the same, exponents and
// all.
func TestRateJSONIsTheFloatsJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 8))
	cases := []int64{0, 1, 5, 12, 99, 100, 101, 21_919_743, 616_780_000, 100_000_000, 123_456_789_012}
	for range 20000 {
		// Up to 15 significant digits: what a float64 says exactly.
		digits := rng.IntN(15) + 1
		n := rng.Int64N(int64(math.Pow10(digits)))
		if rng.IntN(2) == 0 {
			n = -n
		}
		cases = append(cases, n)
	}
	for _, n := range cases {
		got, err := json.Marshal(money.Rate(n))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(float64(n) / 1e8)
		if string(got) != string(want) {
			t.Fatalf("json(Rate(%d)) = %s, want %s", n, got, want)
		}
		var back money.Rate
		if err := json.Unmarshal(got, &back); err != nil || back != money.Rate(n) {
			t.Fatalf("round trip of %d: %d, %v", n, back, err)
		}
	}
}

func TestRateUnmarshal(t *testing.T) {
	var v struct {
		Taxa  money.Rate  `json:"taxa" yaml:"taxa"`
		Custo money.Cents `json:"custo" yaml:"custo"`
	}
	if err := json.Unmarshal([]byte(`{"taxa": "0.035", "custo": 4.9}`), &v); err != nil || v.Taxa != 3_500_000 || v.Custo != 490 {
		t.Errorf("JSON: %+v, %v", v, err)
	}
	if err := json.Unmarshal([]byte(`{"taxa": null}`), &v); err != nil || v.Taxa != 3_500_000 {
		t.Errorf("JSON null: %+v, %v", v, err)
	}
	if err := json.Unmarshal([]byte(`{"taxa": "abc"}`), &v); !errors.Is(err, money.ErrSyntax) {
		t.Errorf("JSON abc: %v", err)
	}
	// YAML hands the text over: 0.035 and 4.90 never pass through a float.
	if err := yaml.Unmarshal([]byte("taxa: 0.035\ncusto: 4.90\n"), &v); err != nil || v.Taxa != 3_500_000 || v.Custo != 490 {
		t.Errorf("YAML: %+v, %v", v, err)
	}
	for _, bad := range []string{"taxa: x\n", "custo: 4.905\n"} {
		if err := yaml.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("YAML %q: no error", bad)
		}
	}
}

func TestRateArithmetic(t *testing.T) {
	r := money.MustParseRate
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"Mul", r("1.5").Mul(r("0.85")), r("1.275")},
		{"MulRounds", r("0.00000003").Mul(r("0.5")), money.Rate(2)},
		{"MulNegativeRoundsAway", r("-0.00000003").Mul(r("0.5")), money.Rate(-2)},
		{"Scale", r("0.21919743").Scale(15000000, 100000), r("32.8796145")},
		{"Round4", r("6.16784999").Round(4), r("6.1678")},
		{"Round4Half", r("6.16785").Round(4), r("6.1679")},
		{"Round2Negative", r("-0.125").Round(2), r("-0.13")},
		{"Cents", r("32.8796145").Cents(), money.Cents(3288)},
		{"CentsHalf", r("0.005").Cents(), money.Cents(1)},
		{"CentsNegativeHalf", r("-0.005").Cents(), money.Cents(-1)},
		{"CentsRate", money.Cents(4634).Rate(), r("46.34")},
		// The README's readjustment: 200000 × 1.061678.
		{"Times", money.Cents(20000000).Times(r("1.061678")), money.Cents(21233560)},
		{"TimesHalf", money.Cents(1).Times(r("0.5")), money.Cents(1)},
		{"Percent", money.Cents(4634).Percent(r("25")), money.Cents(1159)},
		{"PercentNegative", money.Cents(-4634).Percent(r("25")), money.Cents(-1159)},
		{"Scale", money.Cents(4634).Scale(100000, 150000), money.Cents(3089)},
		// 128 bits inside: 10^17 cents × 1 would overflow int64 on the way.
		{"TimesLarge", money.Cents(1e17).Times(money.RateOne), money.Cents(1e17)},
		{"TimesSaturates", money.Cents(math.MaxInt64).Times(2 * money.RateOne), money.Cents(math.MaxInt64)},
		{"ScaleByZeroSaturates", money.Cents(-1).Scale(1, 0), money.Cents(math.MinInt64 + 1)},
		{"Abs", r("-0.5").Abs(), r("0.5")},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestCompoundPercent(t *testing.T) {
	r := money.MustParseRate
	twelve := func(p money.Rate) []money.Rate { return slices.Repeat([]money.Rate{p}, 12) }
	for _, tc := range []struct {
		name   string
		months []money.Rate
		places int
		want   money.Rate
	}{
		// The README's: 0.50 % a month is 6.1678 % a year (1.005¹² − 1 = 0.0616778…).
		{"HalfPercent", twelve(r("0.5")), 4, r("6.1678")},
		{"HalfPercentTo8", twelve(r("0.5")), 8, r("6.16778119")},
		{"IPCA2024", []money.Rate{r("0.42"), r("0.83"), r("0.16"), r("0.38"), r("0.46"), r("0.21"), r("0.38"), r("-0.02"), r("0.44"), r("0.56"), r("0.39"), r("0.52")}, 4, r("4.8313")},
		{"Deflation", twelve(r("-0.1")), 4, r("-1.1934")},
		{"None", nil, 4, 0},
		// Rounded once, from the exact product: 1.23454999 is 1.2345 at
		// four places, where rounding to eight first would not change it
		// but a float's 1.2345499999999999 or 1.23455 could.
		{"RoundedOnce", []money.Rate{r("1.23454999")}, 4, r("1.2345")},
		{"HalfAwayFromZero", []money.Rate{r("-1.23455")}, 4, r("-1.2346")},
	} {
		if got := money.CompoundPercent(tc.months, tc.places); got != tc.want {
			t.Errorf("%s: CompoundPercent = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestApportion(t *testing.T) {
	for _, tc := range []struct {
		c       money.Cents
		weights []int64
		want    []money.Cents
	}{
		{10000, []int64{50, 50}, []money.Cents{5000, 5000}},
		// Equal remainders: the earlier weight first.
		{10000, []int64{1, 1, 1}, []money.Cents{3334, 3333, 3333}},
		// The largest remainder, not the first: 33.33… and 66.66….
		{100, []int64{1, 2}, []money.Cents{33, 67}},
		{100, []int64{3333, 3333, 3334}, []money.Cents{33, 33, 34}},
		{-100, []int64{1, 2}, []money.Cents{-33, -67}},
		{500, []int64{0, 0}, []money.Cents{0, 0}},
		{500, []int64{-5, 5}, []money.Cents{0, 500}},
		{500, nil, []money.Cents{}},
		{1e17, []int64{1e10, 1e10, 1e10}, []money.Cents{33333333333333334, 33333333333333333, 33333333333333333}},
	} {
		got := tc.c.Apportion(tc.weights)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%d.Apportion(%v) = %v, want %v", tc.c, tc.weights, got, tc.want)
		}
	}
}
