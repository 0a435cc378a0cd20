package jsondoc

import (
	"encoding/json"
	"errors"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode reads one JSON value, the whole of data but white space, as
// encoding/json's Decoder with UseNumber does into an any: objects as
// map[string]any (a repeated key's last value kept), arrays as []any
// (empty ones not nil), strings unescaped with invalid UTF-8 and lone
// surrogates as U+FFFD, numbers as json.Number of their text, true, false
// and nil. Data that is not one JSON value is an error that says little:
// the caller words it (httpx.CheckSyntax).
//
// Why: encoding/json scans a body once to check it and again to decode
// it, through reflection, and a Decoder copies it into a buffer of its
// own first; every request body of the partner APIs is decoded.
func Decode(data []byte) (any, error) {
	d := decoder{data: data, text: string(data)}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.space(); d.i != len(d.data) {
		return nil, errSyntax
	}
	return v, nil
}

// maxDepth is encoding/json's limit of nested objects and arrays.
const maxDepth = 10000

var (
	errSyntax = errors.New("invalid JSON")
	errDepth  = errors.New("exceeded max depth")
)

type decoder struct {
	data []byte
	// text is data as one string: a string without escapes is a piece
	// of it, not an allocation of its own.
	text string
	i    int
}

func (d *decoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (any, error) {
	if d.i >= len(d.data) {
		return nil, errSyntax
	}
	switch c := d.data[d.i]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		return d.string()
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	}
	return nil, errSyntax
}

func (d *decoder) literal(word string) error {
	if len(d.data)-d.i < len(word) || string(d.data[d.i:d.i+len(word)]) != word {
		return errSyntax
	}
	d.i += len(word)
	return nil
}

func (d *decoder) object(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	m := make(map[string]any)
	d.i++ // {
	d.space()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return m, nil
	}
	for {
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, errSyntax
		}
		k, err := d.string()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, errSyntax
		}
		d.i++
		d.space()
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		if done, err := d.after('}'); done || err != nil {
			return m, err
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	l := make([]any, 0)
	d.i++ // [
	d.space()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return l, nil
	}
	for {
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		l = append(l, v)
		if done, err := d.after(']'); done || err != nil {
			return l, err
		}
	}
}

// after reads what follows a member or an element: a comma, more to
// come, or the closing bracket (done).
func (d *decoder) after(closing byte) (done bool, err error) {
	d.space()
	if d.i >= len(d.data) {
		return false, errSyntax
	}
	switch d.data[d.i] {
	case ',':
		d.i++
		d.space()
		return false, nil
	case closing:
		d.i++
		return true, nil
	}
	return false, errSyntax
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (d *decoder) number() (any, error) {
	start := d.i
	if d.data[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.data) && d.data[d.i] == '0':
		d.i++
	case d.digits() == 0:
		return nil, errSyntax
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		if d.digits() == 0 {
			return nil, errSyntax
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if d.digits() == 0 {
			return nil, errSyntax
		}
	}
	return json.Number(d.data[start:d.i]), nil
}

func (d *decoder) digits() int {
	n := 0
	for d.i < len(d.data) && '0' <= d.data[d.i] && d.data[d.i] <= '9' {
		d.i++
		n++
	}
	return n
}

// string reads a string at d.i (its opening quote) as encoding/json
// unquotes one.
func (d *decoder) string() (string, error) {
	d.i++ // "
	start := d.i
	for d.i < len(d.data) { // the common string: nothing to change
		c := d.data[d.i]
		if c == '"' {
			s := d.text[start:d.i]
			d.i++
			return s, nil
		}
		if c == '\\' || c < ' ' || c >= utf8.RuneSelf {
			break
		}
		d.i++
	}
	b := append(make([]byte, 0, d.i-start+16), d.data[start:d.i]...)
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			return string(b), nil
		case c < ' ':
			return "", errSyntax
		case c == '\\':
			if d.i+1 >= len(d.data) {
				return "", errSyntax
			}
			switch e := d.data[d.i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(d.data[d.i+2:])
				if r < 0 {
					return "", errSyntax
				}
				d.i += 6
				if utf16.IsSurrogate(r) {
					// A pair makes one rune; anything else, U+FFFD, and
					// what follows is read on its own.
					if r2 := pairOf(d.data[d.i:]); r2 >= 0 {
						if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
							d.i += 6
							b = utf8.AppendRune(b, dec)
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return "", errSyntax
			}
			d.i += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			d.i++
		default:
			r, size := utf8.DecodeRune(d.data[d.i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, unicode.ReplacementChar)
			} else {
				b = append(b, d.data[d.i:d.i+size]...)
			}
			d.i += size
		}
	}
	return "", errSyntax
}

// pairOf is the rune of a \uXXXX escape at the start of b, or -1.
func pairOf(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	return hex4(b[2:])
}

// hex4 is the value of four hex digits at the start of b, or -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
