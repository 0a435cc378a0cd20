package wire

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/money"
)

// The bodies of the insurer's APIs come from many clients: single items as
// objects or arrays, money as numbers or strings, dates in three layouts
// (SUMMARY §2.3). These helpers read them the way all of them write them.

// Obj reads an object member, empty when absent.
func Obj(m map[string]any, key string) map[string]any {
	v, _ := m[key].(map[string]any)
	if v == nil {
		return map[string]any{}
	}
	return v
}

// Items reads a list that may be one object.
func Items(v any) []map[string]any {
	switch x := v.(type) {
	case map[string]any:
		return []map[string]any{x}
	case []any:
		var out []map[string]any
		for _, it := range x {
			if m, ok := it.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	case []map[string]any:
		return x
	}
	return nil
}

// Str reads a member sent as a string or a number.
func Str(m map[string]any, key string) string {
	switch v := m[key].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// OrDefault is s, or def when s is empty.
func OrDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Money reads an amount sent as a number or a numeric string, to the cent
// (more decimals round half-up). A string may be written the Brazilian
// way, as a masked form field gives it: "R$ 8.000,00", "8000,5" (the
// 2019 client sends renda so, insurance CLIENTS §3.3).
func Money(v any) (money.Cents, error) { return money.FromJSON(brazilian(v)) }

// Rate reads a rate, a percentage or an amount not yet rounded to cents,
// sent as a number or a numeric string (Brazilian or not, as Money), as
// the exact decimal the client wrote, to eight places.
func Rate(v any) (money.Rate, error) { return money.RateFromJSON(brazilian(v)) }

// Decimal reads a number that is neither money nor a rate (a weight or a
// height answered in a questionnaire), sent as a number or a numeric
// string (Brazilian or not, as Money).
func Decimal(v any) (float64, error) {
	switch x := brazilian(v).(type) {
	case float64:
		return x, nil
	case string:
		return strconv.ParseFloat(strings.TrimSpace(x), 64)
	}
	return 0, fmt.Errorf("não é um número")
}

// brazilian rewrites a string amount with a decimal comma ("R$ 1.234,56")
// as a decimal point one ("1234.56"); anything else is left as it is.
func brazilian(v any) any {
	s, ok := v.(string)
	if !ok || !strings.Contains(s, ",") {
		return v
	}
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "R$"))
	return strings.Replace(strings.ReplaceAll(s, ".", ""), ",", ".", 1)
}

// Int reads a whole number sent as a number or a numeric string.
func Int(v any) (int, error) {
	switch x := v.(type) {
	case float64:
		if x != math.Trunc(x) {
			return 0, fmt.Errorf("não é um número inteiro")
		}
		return int(x), nil
	case string:
		return strconv.Atoi(strings.TrimSpace(x))
	}
	return 0, fmt.Errorf("não é um número")
}

// ID writes a numeric id as scenario bindings and references key it.
func ID(n int64) string { return strconv.FormatInt(n, 10) }

// Digits keeps the digits of s (a masked CPF or CNPJ).
func Digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// ISODate echoes a date the client sent in any layout as YYYY-MM-DD
// (SUMMARY §2.3: accept three layouts, answer ISO).
func ISODate(s string) string {
	if t, err := ParseDate(s); err == nil {
		return t.Format(time.DateOnly)
	}
	return s
}

// ParseDate reads YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS[…] and DD-MM-YYYY.
func ParseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.DateOnly, "2006-01-02T15:04:05", time.RFC3339, "2006-01-02T15:04:05.999999999", "02-01-2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
		}
	}
	if len(s) >= 10 {
		if t, err := time.Parse(time.DateOnly, s[:10]); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q não é uma data (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS ou DD-MM-YYYY)", s)
}

// Brasilia is the insurer's time zone: due dates, card expiries and
// payout days are Brasília's.
var Brasilia = time.FixedZone("BRT", -3*60*60)
