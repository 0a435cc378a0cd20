package money

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Cents is an amount in cents of a real. Its JSON form is a number with
// two decimals at most (123.45), as the insurer's APIs write money.
type Cents int64

// maxCents bounds every amount: 10^15 reais in cents fits an int64 with
// room, and is far beyond any premium, capital or charge.
const maxCents = 1e17

// ErrSyntax is wrapped by every parse error.
var ErrSyntax = errors.New("not an amount of money")

// Parse reads the Pix format: digits, a point and exactly two decimals
// ("0.00", "123.45"), no sign, no exponent.
func Parse(s string) (Cents, error) {
	whole, frac, ok := strings.Cut(s, ".")
	if !ok || len(frac) != 2 || whole == "" || len(whole) > 15 || !digits(whole) || !digits(frac) {
		return 0, fmt.Errorf("%q: want digits, a point and two decimals (e.g. 123.45): %w", s, ErrSyntax)
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	return Cents(w*100 + f), nil
}

// ParseDecimal reads a decimal as people and clients write it: an
// optional minus, digits, and up to two decimals after a point ("10",
// "10.5", "-3.25"). More decimals are refused rather than rounded: money
// that cannot be said in cents is a mistake of the sender.
func ParseDecimal(s string) (Cents, error) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	whole, frac, _ := strings.Cut(t, ".")
	if whole == "" || len(whole) > 15 || !digits(whole) || len(frac) > 2 || !digits(frac) {
		return 0, fmt.Errorf("%q: want a number with at most two decimals (e.g. 123.45): %w", s, ErrSyntax)
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	c := Cents(w*100 + f)
	if neg {
		c = -c
	}
	return c, nil
}

// FromFloat converts a JSON number that a document decoded into a float64
// to cents: it reads the float as the decimal its sender wrote (the
// shortest decimal that is that float) and rounds that half away from zero
// to the cent, so 46.345 is 46.35 and 1.005, which a float holds as
// 1.00499999…, is 1.01, as written.
func FromFloat(f float64) (Cents, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f*100) > maxCents {
		return 0, fmt.Errorf("%v: %w", f, ErrSyntax)
	}
	n, err := parseScaled(strconv.FormatFloat(f, 'f', -1, 64), 2)
	return Cents(n), err
}

// FromJSON reads money from a decoded JSON value: a number or a numeric
// string, as the insurer's clients send both.
func FromJSON(v any) (Cents, error) {
	switch x := v.(type) {
	case float64:
		return FromFloat(x)
	case json.Number:
		return ParseDecimal(string(x))
	case string:
		// More than two decimals, or an exponent, are read as written
		// and rounded half away from zero to the cent.
		n, err := parseScaled(strings.TrimSpace(x), 2)
		if err != nil || n > maxCents || n < -maxCents {
			return 0, fmt.Errorf("%q: %w", x, ErrSyntax)
		}
		return Cents(n), nil
	case int:
		return Cents(x) * 100, nil
	case int64:
		return Cents(x) * 100, nil
	case Cents:
		return x, nil
	}
	return 0, fmt.Errorf("%v (%T): %w", v, v, ErrSyntax)
}

// Reais returns whole reais as cents.
func Reais(r int64) Cents { return Cents(r * 100) }

// String writes the Pix format: "123.45", "-0.50".
func (c Cents) String() string {
	sign := ""
	u := uint64(c)
	if c < 0 {
		sign, u = "-", uint64(-c)
	}
	return fmt.Sprintf("%s%d.%02d", sign, u/100, u%100)
}

// MarshalJSON writes the amount as a JSON number with at most two
// decimals: 123.45, 100, 0.5.
func (c Cents) MarshalJSON() ([]byte, error) {
	s := c.String()
	s = strings.TrimSuffix(strings.TrimSuffix(s, "0"), ".0")
	s = strings.TrimSuffix(s, ".")
	return []byte(s), nil
}

// UnmarshalJSON reads a number or a numeric string.
func (c *Cents) UnmarshalJSON(b []byte) error {
	var v any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return err
	}
	x, err := FromJSON(v)
	if err != nil {
		return err
	}
	*c = x
	return nil
}

// UnmarshalText reads an amount as ParseDecimal does, exactly: the
// catalogue's YAML writes money so ("ticketMinimo: 30", "custoFixo: 4.90"),
// and a third decimal is a mistake of the catalogue, not a rounding.
func (c *Cents) UnmarshalText(b []byte) error {
	x, err := ParseDecimal(string(b))
	if err != nil {
		return err
	}
	*c = x
	return nil
}

// Split divides c into shares proportional to weights, to the cent, the
// rounding remainder going to the first shares, so the parts always add
// up to c.
func (c Cents) Split(weights []int64) []Cents {
	out := make([]Cents, len(weights))
	var total int64
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		return out
	}
	var given Cents
	for i, w := range weights {
		out[i] = Cents(int64(c) * w / total)
		given += out[i]
	}
	for i := 0; given < c && len(out) > 0; i = (i + 1) % len(out) {
		out[i]++
		given++
	}
	return out
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
