package pix

import (
	"encoding/json"
	"time"

	"homologa/simulator/jsondoc"
)

// doc is a JSON object as the API answers it: requests are kept as the
// partner sent them (after validation), so nothing they said is lost.
type doc = map[string]any

// clone deep-copies a JSON document (maps, lists and scalars).
func clone(d doc) doc {
	if d == nil {
		return nil
	}
	return cloneValue(d).(map[string]any)
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[k] = cloneValue(v)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, v := range x {
			l[i] = cloneValue(v)
		}
		return l
	case []doc:
		l := make([]any, len(x))
		for i, v := range x {
			l[i] = cloneValue(map[string]any(v))
		}
		return l
	case int:
		return float64(x)
	case int64:
		return float64(x)
	}
	return v
}

// marshal is json.Marshal(v) as a string (jsondoc: without reflection).
func marshal(v any) string {
	b, _ := jsondoc.Marshal(v)
	return string(b)
}

// unmarshal decodes a body the sandbox stored itself, which is valid JSON.
func unmarshal(s string) doc {
	var d doc
	json.Unmarshal([]byte(s), &d)
	return d
}

// sub returns the object at key, or nil.
func sub(d doc, key string) doc {
	m, _ := d[key].(map[string]any)
	return m
}

// str returns the string at a dotted path, or "".
func str(d doc, path ...string) string {
	for i, k := range path {
		if i == len(path)-1 {
			s, _ := d[k].(string)
			return s
		}
		if d = sub(d, k); d == nil {
			return ""
		}
	}
	return ""
}

// copyFields copies the fields of src that are present into dst.
func copyFields(dst, src doc, fields ...string) doc {
	for _, f := range fields {
		if v, ok := src[f]; ok {
			dst[f] = v
		}
	}
	return dst
}

// copyStrings copies the fields of src that are non-empty strings into dst.
func copyStrings(dst, src doc, fields ...string) doc {
	for _, f := range fields {
		if v := str(src, f); v != "" {
			dst[f] = v
		}
	}
	return dst
}

// rfc3339 formats a time as the spec's examples do, to the millisecond.
func rfc3339(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// fromNanos reads a time the store keeps as Unix nanoseconds.
func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
