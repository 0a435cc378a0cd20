package money

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Rate is an exact decimal with eight places, counted in units of 10⁻⁸:
// a rate, a percentage or a factor (a coverage's taxaPor1000, an index's
// month, a commission's percentual), or reais finer than a cent where an
// amount is not rounded yet (premioBase, the premium of capitalBase; a
// premium as a client computed it). Its arithmetic is integer arithmetic,
// rounded half away from zero where a result has more places, so a figure
// is the same on every machine and in every order of operations that the
// rules fix; no float holds one. It holds ±92,233,720,368.54775807.
type Rate int64

// RatePlaces is how many decimal places a Rate keeps.
const RatePlaces = 8

// RateOne is 1 as a Rate.
const RateOne Rate = 100_000_000

// unitsPerCent is how many units of a Rate a cent is.
const unitsPerCent = 1_000_000

// ErrRange is wrapped by a parse error of a number too large to hold; every
// other parse error wraps ErrSyntax.
var ErrRange = errors.New("out of range")

// ParseRate reads a decimal as people and JSON write it: an optional sign,
// digits with an optional point and decimals, an optional exponent
// ("0.21919743", "-3.5", "1e-7", "6.1678E1"). Places past the eighth are
// rounded half away from zero: a client's float noise
// (32.879614500000004) is not an error.
func ParseRate(s string) (Rate, error) {
	n, err := parseScaled(strings.TrimSpace(s), RatePlaces)
	return Rate(n), err
}

// MustParseRate is ParseRate for the sandbox's own constants; it panics on
// a malformed one, as regexp.MustCompile does.
func MustParseRate(s string) Rate {
	r, err := ParseRate(s)
	if err != nil {
		panic(err)
	}
	return r
}

// RateFromJSON reads a rate from a decoded JSON value: a number (as
// encoding/json gives it, a float64, read by the shortest decimal that is
// that float: what the client wrote, up to 15 significant digits), a
// json.Number, or a numeric string.
func RateFromJSON(v any) (Rate, error) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%v: %w", x, ErrSyntax)
		}
		return ParseRate(strconv.FormatFloat(x, 'f', -1, 64))
	case json.Number:
		return ParseRate(string(x))
	case Rate:
		return x, nil
	case string:
		return ParseRate(x)
	case int:
		return RateOne.Scale(int64(x), 1), nil
	case int64:
		return RateOne.Scale(x, 1), nil
	}
	return 0, fmt.Errorf("%v (%T): %w", v, v, ErrSyntax)
}

// String writes the rate as a plain decimal without trailing zeros:
// "0.21919743", "6.1678", "100", "-0.5".
func (r Rate) String() string {
	return string(r.appendDecimal(nil))
}

func (r Rate) appendDecimal(b []byte) []byte {
	u := uabs(int64(r))
	if r < 0 {
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, u/uint64(RateOne), 10)
	frac := u % uint64(RateOne)
	if frac == 0 {
		return b
	}
	var digits [RatePlaces]byte
	for i := RatePlaces - 1; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	return append(append(b, '.'), strings.TrimRight(string(digits[:]), "0")...)
}

// MarshalJSON writes the rate as a JSON number, exactly as encoding/json
// writes the float64 of the same value, so answers that carried floats
// read the same: 0.21919743, 6.1678, 100, and below 10⁻⁶ with an exponent
// (1e-8, 1.2e-7).
func (r Rate) MarshalJSON() ([]byte, error) {
	u := uabs(int64(r))
	if u == 0 || u >= 100 {
		return r.appendDecimal(nil), nil
	}
	var b []byte
	if r < 0 {
		b = append(b, '-')
	}
	d := strconv.FormatUint(u, 10)
	exp := len(d) - 1 - RatePlaces
	mant := strings.TrimRight(d, "0")
	b = append(b, mant[0])
	if len(mant) > 1 {
		b = append(append(b, '.'), mant[1:]...)
	}
	return strconv.AppendInt(append(b, 'e'), int64(exp), 10), nil
}

// UnmarshalJSON reads a number or a numeric string; null leaves the rate
// as it is.
func (r *Rate) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if uq, err := strconv.Unquote(s); err == nil {
		s = uq
	}
	x, err := ParseRate(s)
	if err != nil {
		return err
	}
	*r = x
	return nil
}

// UnmarshalText reads a decimal, as the catalogue's YAML writes it: the
// text, never a float.
func (r *Rate) UnmarshalText(b []byte) error {
	x, err := ParseRate(string(b))
	if err != nil {
		return err
	}
	*r = x
	return nil
}

// Mul returns r × o, rounded half away from zero to eight places.
func (r Rate) Mul(o Rate) Rate { return Rate(mulDiv(int64(r), int64(o), int64(RateOne))) }

// Scale returns r × num ÷ den, rounded half away from zero to eight
// places (den ≠ 0).
func (r Rate) Scale(num, den int64) Rate { return Rate(mulDiv(int64(r), num, den)) }

// Round rounds r half away from zero to places decimals (0 to 8).
func (r Rate) Round(places int) Rate {
	if places >= RatePlaces {
		return r
	}
	unit := pow10(RatePlaces - max(places, 0))
	return Rate(mulDiv(int64(r), 1, unit) * unit)
}

// Abs is |r|.
func (r Rate) Abs() Rate {
	if r < 0 {
		return -r
	}
	return r
}

// Cents rounds r, read as reais, half away from zero to the cent.
func (r Rate) Cents() Cents { return Cents(mulDiv(int64(r), 1, unitsPerCent)) }

// Rate is c in reais as a Rate, exactly.
func (c Cents) Rate() Rate { return Rate(mulDiv(int64(c), unitsPerCent, 1)) }

// Times returns c × r, rounded half away from zero to the cent.
func (c Cents) Times(r Rate) Cents { return Cents(mulDiv(int64(c), int64(r), int64(RateOne))) }

// Percent returns p percent of c (c × p ÷ 100), rounded half away from
// zero to the cent.
func (c Cents) Percent(p Rate) Cents { return Cents(mulDiv(int64(c), int64(p), 100*int64(RateOne))) }

// Scale returns c × num ÷ den, rounded half away from zero to the cent
// (den ≠ 0): a premium that follows its capital, for one.
func (c Cents) Scale(num, den int64) Cents { return Cents(mulDiv(int64(c), num, den)) }

// CompoundPercent compounds percentages, Π(1 + pᵢ/100) − 1, in percent,
// rounded half away from zero to places decimals (0 to 8) from the exact
// product: no intermediate rounding, so the figure does not depend on how
// many months there are or their order.
func CompoundPercent(percents []Rate, places int) Rate {
	places = min(max(places, 0), RatePlaces)
	// Each factor 1 + p/100 is (10¹⁰ + p) / 10¹⁰ in Rate units.
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(RatePlaces+2), nil)
	num, den := big.NewInt(1), big.NewInt(1)
	for _, p := range percents {
		num.Mul(num, new(big.Int).Add(unit, big.NewInt(int64(p))))
		den.Mul(den, unit)
	}
	// (num/den − 1) × 100 × 10^places, rounded, then back to Rate units.
	scaled := new(big.Int).Sub(num, den)
	scaled.Mul(scaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)+2), nil))
	q, rem := new(big.Int).QuoRem(scaled, den, new(big.Int))
	if rem.Abs(rem).Lsh(rem, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(int64(scaled.Sign())))
	}
	if !q.IsInt64() {
		return saturate(q.Sign() < 0)
	}
	return Rate(q.Int64()).Scale(pow10(RatePlaces-places), 1)
}

// Apportion divides c among weights (each ≥ 0; a negative one counts as
// 0) to the cent: each gets its proportion rounded down, and the cents
// left go one each to the largest remainders, equal remainders to the
// earlier weight, so the parts always add up to c. No weight, or weights
// summing to 0, give nothing to anyone.
func (c Cents) Apportion(weights []int64) []Cents {
	out := make([]Cents, len(weights))
	var sum uint64
	for _, w := range weights {
		sum += uint64(max(w, 0))
	}
	if sum == 0 || c == 0 {
		return out
	}
	total := uabs(int64(c))
	rems := make([]uint64, len(weights))
	var given uint64
	for i, w := range weights {
		hi, lo := bits.Mul64(total, uint64(max(w, 0)))
		q, r := bits.Div64(hi, lo, sum) // w ≤ sum: the quotient fits
		out[i], rems[i] = Cents(q), r
		given += q
	}
	for ; given < total; given++ {
		best := 0
		for i := range rems {
			if rems[i] > rems[best] {
				best = i
			}
		}
		out[best]++
		rems[best] = 0
	}
	if c < 0 {
		for i := range out {
			out[i] = -out[i]
		}
	}
	return out
}

// mulDiv is a × b ÷ c rounded half away from zero, in 128 bits so that no
// intermediate product overflows; a result beyond int64 (or c = 0)
// saturates: the sandbox bounds amounts (maxCents) and rates far below.
func mulDiv(a, b, c int64) int64 {
	neg := (a < 0) != (b < 0) != (c < 0)
	ua, ub, uc := uabs(a), uabs(b), uabs(c)
	hi, lo := bits.Mul64(ua, ub)
	if uc == 0 || hi >= uc {
		return int64(saturate(neg))
	}
	q, r := bits.Div64(hi, lo, uc)
	if r >= uc-r {
		q++
	}
	if q > math.MaxInt64 {
		return int64(saturate(neg))
	}
	if neg {
		return -int64(q)
	}
	return int64(q)
}

func saturate(neg bool) Rate {
	if neg {
		return math.MinInt64 + 1
	}
	return math.MaxInt64
}

func pow10(n int) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

func uabs(n int64) uint64 {
	if n < 0 {
		return uint64(^n) + 1
	}
	return uint64(n)
}

// parseScaled reads a decimal (optional sign, digits with an optional
// point, optional exponent) as a count of 10^-places, rounding half away
// from zero past places.
func parseScaled(s string, places int) (int64, error) {
	t := s
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
	exp := 0
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		e, err := strconv.Atoi(t[i+1:])
		if err != nil || e < -100 || e > 100 {
			return 0, fmt.Errorf("%q: %w", s, ErrSyntax)
		}
		t, exp = t[:i], e
	}
	whole, frac, _ := strings.Cut(t, ".")
	if whole == "" || !digits(whole) || !digits(frac) {
		return 0, fmt.Errorf("%q: want a decimal number (e.g. 0.125): %w", s, ErrSyntax)
	}
	// The value is the digits d × 10^(exp − len(frac)); in units of
	// 10^-places, d × 10^k.
	d := strings.TrimLeft(whole+frac, "0")
	k := exp - len(frac) + places
	roundUp := false
	if k < 0 {
		cut := len(d) + k
		switch {
		case cut < 0:
			d = ""
		case cut == 0:
			roundUp, d = d != "" && d[0] >= '5', ""
		default:
			roundUp, d = d[cut] >= '5', d[:cut]
		}
	} else if d != "" {
		if len(d)+k > 19 {
			return 0, fmt.Errorf("%q: %w", s, ErrRange)
		}
		d += strings.Repeat("0", k)
	}
	var n uint64
	if d != "" {
		var err error
		if n, err = strconv.ParseUint(d, 10, 63); err != nil {
			return 0, fmt.Errorf("%q: %w", s, ErrRange)
		}
	}
	if roundUp {
		n++
	}
	if n > math.MaxInt64 {
		return 0, fmt.Errorf("%q: %w", s, ErrRange)
	}
	if neg {
		return -int64(n), nil
	}
	return int64(n), nil
}
