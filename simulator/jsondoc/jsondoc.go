package jsondoc

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marshal is json.Marshal(v).
func Marshal(v any) ([]byte, error) {
	return Append(make([]byte, 0, 512), v)
}

// Append appends json.Marshal(v) to b.
func Append(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return marshal(b, x) // its error
		}
		return appendFloat(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		return appendObject(b, x)
	case map[string]string:
		if x == nil {
			return append(b, "null"...), nil
		}
		return appendObject(b, x)
	case []any:
		return appendList(b, x)
	case []map[string]any:
		return appendList(b, x)
	case []string:
		return appendList(b, x)
	}
	return marshal(b, v)
}

// marshal appends what encoding/json writes for v.
func marshal(b []byte, v any) ([]byte, error) {
	out, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, out...), nil
}

// appendObject writes a map's entries in the order of their keys' bytes,
// as encoding/json sorts them. The entries are sorted, not the keys, so
// no key is looked up again.
func appendObject[V any](b []byte, m map[string]V) ([]byte, error) {
	type entry struct {
		k string
		v V
	}
	var buf [32]entry
	entries := buf[:0]
	for k, v := range m {
		entries = append(entries, entry{k, v})
	}
	slices.SortFunc(entries, func(x, y entry) int { return strings.Compare(x.k, y.k) })
	b = append(b, '{')
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, e.k)
		b = append(b, ':')
		var err error
		if b, err = Append(b, e.v); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// appendList writes a list; a nil one is null, as encoding/json writes it.
func appendList[V any](b []byte, l []V) ([]byte, error) {
	if l == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, v := range l {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = Append(b, v); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// appendFloat is encoding/json's float64 encoder: the shortest form that
// reads back as f, plain below 1e21 and from 1e-6, an exponent (without
// a leading zero) outside.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hex = "0123456789abcdef"

// htmlSafe are the ASCII bytes a string holds as they are: not control
// characters, quotes, backslashes, < > or &.
var htmlSafe = func() (safe [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		safe[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return safe
}()

// appendString is encoding/json's string encoder with HTML escaping (what
// Marshal does): quotes and backslashes escaped, \b \f \n \r \t by name,
// other control characters and < > & as \u00XX, U+2028 and U+2029 as
// \u2028 and \u2029, each byte of invalid UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if htmlSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
