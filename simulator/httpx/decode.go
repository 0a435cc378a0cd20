package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"homologa/simulator/errs"
	"homologa/simulator/jsondoc"
	"homologa/simulator/schema"
)

// DefaultBodyLimit is the request body limit when none is configured.
const DefaultBodyLimit = 1 << 20

// ReadBody reads the request body, answering 413 past limit bytes, or past
// the limit that Outer set on the body when limit is 0.
func ReadBody(r *http.Request, limit int64) ([]byte, error) {
	var src io.Reader = r.Body
	if limit > 0 {
		src = io.LimitReader(r.Body, limit+1)
	}
	b, err := io.ReadAll(src)
	if err != nil {
		return nil, BodyError(err)
	}
	if limit > 0 && int64(len(b)) > limit {
		return nil, TooLarge(limit)
	}
	return b, nil
}

// Replay is a body already read by a middleware that peeked at it, for
// the handler to read again: its bytes, then the error the first read
// ended with (nil for none), so a body cut at the limit still answers
// 413 where the handler reads it, instead of a truncated document.
func Replay(raw []byte, err error) io.ReadCloser {
	if err == nil {
		return io.NopCloser(bytes.NewReader(raw))
	}
	return io.NopCloser(io.MultiReader(bytes.NewReader(raw), failingReader{err}))
}

type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

// TooLarge is the 413 of a body past limit bytes.
func TooLarge(limit int64) *errs.Error {
	return errs.Errorf(errs.TooLarge, "o corpo da requisição passa do limite de %d bytes", limit)
}

// BodyError is the error of a failed read of the request body: 413 past
// the limit Outer set, 408 when the client stopped sending before the
// body's read deadline (BodyDeadline), 400 for anything else. Whoever
// reads a body answers this, never the raw error, which would be a 500.
func BodyError(err error) *errs.Error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return TooLarge(mbe.Limit)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &errs.Error{Code: errs.Invalid, Status: http.StatusRequestTimeout, Err: err,
			Message: "o corpo da requisição não chegou a tempo; envie-o inteiro, sem pausas"}
	}
	return &errs.Error{Code: errs.Invalid, Message: fmt.Sprintf("erro ao ler o corpo da requisição: %v", err), Err: err}
}

// CheckJSONContentType answers 415 when the request declares a content type
// that is not JSON. An absent Content-Type is accepted: several real clients
// omit it on small bodies, and the body is parsed as JSON either way.
func CheckJSONContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		return nil
	}
	return errs.Errorf(errs.UnsupportedMedia, "Content-Type %q não é aceito; envie application/json", ct).WithHeader("Accept", "application/json")
}

// DecodeJSON reads a JSON request body, checks its content type and syntax,
// validates it against the named schema (when schemas and name are set) and
// unmarshals it into v. Every failure is an *errs.Error naming what is wrong.
// On a lenient API, members the schema does not declare are ignored as
// production ignores them (validate).
func DecodeJSON(r *http.Request, schemas *schema.Registry, name string, v any) error {
	if err := CheckJSONContentType(r); err != nil {
		return err
	}
	body, err := ReadBody(r, 0)
	if err != nil {
		return err
	}
	return DecodeJSONIn(r.Context(), body, schemas, name, v)
}

// DecodeOptionalJSON is DecodeJSON for a body that may be left out: an
// empty body (or white space alone) leaves v as it was, and only a body
// sent must be JSON.
func DecodeOptionalJSON(r *http.Request, schemas *schema.Registry, name string, v any) error {
	body, err := ReadBody(r, 0)
	if err != nil || len(bytes.TrimSpace(body)) == 0 {
		return err
	}
	if err := CheckJSONContentType(r); err != nil {
		return err
	}
	return DecodeJSONIn(r.Context(), body, schemas, name, v)
}

// DecodeJSONBytes is DecodeJSON for a body already read, as strict as the
// schema (no request's leniency applies).
func DecodeJSONBytes(body []byte, schemas *schema.Registry, name string, v any) error {
	return DecodeJSONIn(context.Background(), body, schemas, name, v)
}

// DecodeJSONIn is DecodeJSON for a body already read, with the leniency
// of the request ctx belongs to. A routed request's body is validated
// with its route's declared schema (Route.Request): name may be "" for
// it, and naming another is an internal error (routeSchema).
func DecodeJSONIn(ctx context.Context, body []byte, schemas *schema.Registry, name string, v any) error {
	name, err := routeSchema(ctx, schemas, name)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return errs.Errorf(errs.Invalid, "o corpo da requisição está vazio; envie um documento JSON")
	}
	if m, ok := v.(*map[string]any); ok && schemas != nil && name != "" {
		// decodeObject's decoder reads the syntax: the check of it (a scan
		// of the body more) runs only for a body it cannot decode.
		return decodeObject(ctx, body, schemas, name, m)
	}
	if err := CheckSyntax(body); err != nil {
		return err
	}
	if schemas != nil && name != "" {
		vs, err := schemas.Validate(name, body)
		if err == nil && len(vs) > 0 && Lenient(ctx) {
			// Read again without the members the schema does not
			// declare, if those are all that is wrong.
			body, err = withoutUnknown(ctx, schemas, name, body)
			if err != nil {
				return err
			}
		} else if err := schemaError(name)(vs, err); err != nil {
			return err
		}
	}
	if v == nil {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			line, col := position(body, te.Offset)
			return errs.Invalidf(te.Field, "tem tipo %s, esperado %s (linha %d, coluna %d)", te.Value, te.Type, line, col)
		}
		return errs.Errorf(errs.Invalid, "JSON malformado: %v", err)
	}
	return nil
}

// routeSchema is the schema the body of ctx's request is validated
// with: its route's declared Request. A handler that validates with
// another schema, or with one its route does not declare, or that has
// no registry to validate the declared one with, is a bug of the
// sandbox: a 500, which every test that sends the route a body finds,
// so the route table (and the request reference written from it) says
// what the handler does. Outside a routed request (a unit test of a
// handler, a document that is no request's body) name is kept.
func routeSchema(ctx context.Context, schemas *schema.Registry, name string) (string, error) {
	info, ok := ctx.Value(infoKey{}).(*Info)
	if !ok || info.Route == nil {
		return name, nil
	}
	rt := info.Route
	switch {
	case name != "" && name != rt.Request:
		return "", routeError(rt, fmt.Errorf("the handler validates the body with schema %q, the route declares %q (Route.Request)", name, rt.Request))
	case rt.Request != "" && schemas == nil:
		return "", routeError(rt, fmt.Errorf("the route declares request schema %q, the handler has no registry to validate with", rt.Request))
	}
	return rt.Request, nil
}

// routeError is the 500 of a route whose handler and declaration
// disagree.
func routeError(rt *Route, err error) error {
	return &errs.Error{Code: errs.Internal, Message: "erro interno: a rota " + rt.Method + " " + rt.Path + " valida o corpo com outro schema que o declarado",
		Err: fmt.Errorf("route %s %s (API %q): %w", rt.Method, rt.Path, rt.API, err)}
}

// schemaError turns a validation's outcome into the answer: 400 naming
// each violation, 500 when the schema itself fails, nil when valid.
func schemaError(name string) func([]schema.Violation, error) error {
	return func(vs []schema.Violation, err error) error {
		if err != nil {
			return &errs.Error{Code: errs.Internal, Message: "schema " + name, Err: err}
		}
		if len(vs) == 0 {
			return nil
		}
		e := &errs.Error{Code: errs.Invalid, Message: "o corpo da requisição não segue o schema " + name}
		for _, v := range vs {
			e.Violations = append(e.Violations, errs.Violation{Field: v.Field, Reason: v.Reason, Value: v.Value})
		}
		return e
	}
}

// decodeObject decodes a body that a JSON object is expected of once:
// the schema validates the document decoded with json.Number (its
// numbers exact), whose numbers then become the float64 json.Unmarshal
// gives: one parse, not one by the schema's loader and another by
// json.Unmarshal, on every request of the partner APIs. It is decoded
// by jsondoc.Decode, which makes what encoding/json's Decoder makes
// without its reflection.
func decodeObject(ctx context.Context, body []byte, schemas *schema.Registry, name string, m *map[string]any) error {
	doc, err := jsondoc.Decode(body)
	if err != nil {
		// Broken, or more after the document: CheckSyntax says where.
		if serr := CheckSyntax(body); serr != nil {
			return serr
		}
		return errs.Errorf(errs.Invalid, "JSON malformado: %v", err)
	}
	if err := validate(ctx, schemas, name, doc); err != nil {
		return err
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return errs.Invalidf("", "tem tipo %s, esperado um objeto JSON (linha 1, coluna 1)", jsonKind(doc))
	}
	if err := floats(obj); err != nil {
		return err
	}
	*m = obj
	return nil
}

// floats replaces, in place, the json.Numbers of a decoded object or
// array by float64, as json.Unmarshal into any would have made them, and
// refuses a number beyond float64 as it would have, naming its field.
func floats(v any) error {
	if path, n, bad := toFloats(v); bad {
		slices.Reverse(path)
		return errs.Invalidf(strings.Join(path, "."), "o número %s não cabe num float64", n.String())
	}
	return nil
}

// toFloats is floats; a number it refuses comes back with its path, the
// innermost key first. The path is made only then: built on the way down
// it was a string per field of every request.
func toFloats(v any) (path []string, refused json.Number, bad bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if n, ok := e.(json.Number); ok {
				f, err := n.Float64()
				if err != nil {
					return []string{k}, n, true
				}
				x[k] = f
			} else if p, n, bad := toFloats(e); bad {
				return append(p, k), n, true
			}
		}
	case []any:
		for i, e := range x {
			if n, ok := e.(json.Number); ok {
				f, err := n.Float64()
				if err != nil {
					return []string{strconv.Itoa(i)}, n, true
				}
				x[i] = f
			} else if p, n, bad := toFloats(e); bad {
				return append(p, strconv.Itoa(i)), n, true
			}
		}
	}
	return nil, "", false
}

// jsonKind names the JSON type of a decoded value, as json.Unmarshal's
// type errors do.
func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return "object"
}

// CheckSyntax answers 400 with the line and column of the first JSON syntax
// error in body.
func CheckSyntax(body []byte) error {
	// Most bodies are valid: json.Valid says so without building the
	// document (decoding one into any would cost many times more);
	// only a broken one is decoded, to say where it breaks.
	if json.Valid(body) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var x any
	err := dec.Decode(&x)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			line, col := position(body, dec.InputOffset())
			return errs.Errorf(errs.Invalid, "JSON malformado na linha %d, coluna %d: há dados depois do valor principal", line, col)
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the offending byte itself; point at it.
		line, col := position(body, se.Offset-1)
		// The parser's own words are English; the service speaks
		// Portuguese, so say which character it stopped at.
		return errs.Errorf(errs.Invalid, "JSON malformado na linha %d, coluna %d: caractere %s inesperado", line, col, offending(body, se.Offset-1))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		line, col := position(body, int64(len(body)))
		return errs.Errorf(errs.Invalid, "JSON malformado na linha %d, coluna %d: o documento acaba antes do fim", line, col)
	}
	return errs.Errorf(errs.Invalid, "JSON malformado: %v", err)
}

// offending quotes the character at offset of a body, as a partner would
// look for it.
func offending(b []byte, offset int64) string {
	if offset < 0 || offset >= int64(len(b)) {
		return "(fim)"
	}
	r, _ := utf8.DecodeRune(b[offset:])
	return strconv.QuoteRune(r)
}

func position(b []byte, offset int64) (line, col int) {
	if offset > int64(len(b)) {
		offset = int64(len(b))
	}
	line, col = 1, 1
	for _, c := range b[:offset] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// QueryError names a bad query parameter.
func QueryError(param string, format string, args ...any) *errs.Error {
	return errs.Invalidf(param, format, args...)
}
