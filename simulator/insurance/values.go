package insurance

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The PROPOSTA body comes from many clients: single items as objects or
// arrays, money as numbers or strings, dates in three layouts (SUMMARY
// §2.3). These helpers read it the way all of them write it.

func obj(m map[string]any, key string) map[string]any {
	v, _ := m[key].(map[string]any)
	if v == nil {
		return map[string]any{}
	}
	return v
}

// items reads a list that may be one object.
func items(v any) []map[string]any {
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

func str(m map[string]any, key string) string {
	switch v := m[key].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func moneyOf(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case string:
		return strconv.ParseFloat(strings.TrimSpace(x), 64)
	}
	return 0, fmt.Errorf("not a number")
}

func intOf(v any) (int, error) {
	switch x := v.(type) {
	case float64:
		if x != math.Trunc(x) {
			return 0, fmt.Errorf("not a whole number")
		}
		return int(x), nil
	case string:
		return strconv.Atoi(strings.TrimSpace(x))
	}
	return 0, fmt.Errorf("not a number")
}

func itoa(n int) string { return strconv.Itoa(n) }

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// isoDate echoes a date the client sent in any layout as YYYY-MM-DD
// (SUMMARY §2.3: accept three layouts, answer ISO).
func isoDate(s string) string {
	if t, err := parseDate(s); err == nil {
		return t.Format(time.DateOnly)
	}
	return s
}

// parseDate reads YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS[…] and DD-MM-YYYY.
func parseDate(s string) (time.Time, error) {
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
	return time.Time{}, fmt.Errorf("%q is not a date (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS or DD-MM-YYYY)", s)
}
