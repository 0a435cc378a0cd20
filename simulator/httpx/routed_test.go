package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"homologa/simulator/httpx"
	"homologa/simulator/schema"
)

// TestRoutedRequestSchema: a routed request's body is validated with the
// schema its route declares, whatever the handler names ("" takes it);
// a handler that names another, or one its route does not declare, or
// has no registry for it, answers 500, which any test that sends the
// route a body sees. Outside a route, the handler's schema is used as
// it is.
func TestRoutedRequestSchema(t *testing.T) {
	const draft = `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["%s"]}`
	reg, err := schema.Load(fstest.MapFS{
		"thing.json": {Data: []byte(strings.Replace(draft, "%s", "a", 1))},
		"other.json": {Data: []byte(strings.Replace(draft, "%s", "b", 1))},
	})
	if err != nil {
		t.Fatal(err)
	}
	decoding := func(decode func(r *http.Request, v any) error) httpx.HandlerFunc {
		return func(r *http.Request) (*httpx.Reply, error) {
			var v map[string]any
			if err := decode(r, &v); err != nil {
				return nil, err
			}
			return httpx.NoContent(), nil
		}
	}
	named := func(reg *schema.Registry, name string) httpx.HandlerFunc {
		return decoding(func(r *http.Request, v any) error { return httpx.DecodeJSON(r, reg, name, v) })
	}
	optional := func(name string) httpx.HandlerFunc {
		return decoding(func(r *http.Request, v any) error { return httpx.DecodeOptionalJSON(r, reg, name, v) })
	}
	route := func(request string) httpx.Route {
		return httpx.Route{Method: http.MethodPost, Path: "/x", Request: request}
	}
	tests := []struct {
		name string
		h    http.Handler
		body string
		want int
	}{
		{"OK", httpx.Routed(route("thing"), named(reg, "thing")), `{"a": 1}`, http.StatusNoContent},
		{"ErrBodyBreaksTheDeclared", httpx.Routed(route("thing"), named(reg, "thing")), `{"b": 1}`, http.StatusBadRequest},
		{"OKNoNameTakesTheDeclared", httpx.Routed(route("thing"), named(reg, "")), `{"a": 1}`, http.StatusNoContent},
		{"ErrNoNameBreaksTheDeclared", httpx.Routed(route("thing"), named(reg, "")), `{"b": 1}`, http.StatusBadRequest},
		{"ErrAnotherSchema", httpx.Routed(route("thing"), named(reg, "other")), `{"a": 1, "b": 1}`, http.StatusInternalServerError},
		{"ErrUndeclared", httpx.Routed(route(""), named(reg, "thing")), `{"a": 1}`, http.StatusInternalServerError},
		{"ErrNoRegistry", httpx.Routed(route("thing"), named(nil, "")), `{"a": 1}`, http.StatusInternalServerError},
		{"OKNoSchemaDeclaredNorUsed", httpx.Routed(route(""), named(nil, "")), `{"z": 1}`, http.StatusNoContent},
		{"OKUnderOuter", httpx.Outer(nil, 0, nil, httpx.Routed(route("thing"), named(reg, "thing"))), `{"a": 1}`, http.StatusNoContent},
		{"ErrAnotherSchemaUnderOuter", httpx.Outer(nil, 0, nil, httpx.Routed(route("thing"), named(reg, "other"))), `{"b": 1}`, http.StatusInternalServerError},
		{"OKOptionalLeftOut", httpx.Routed(route("thing"), optional("thing")), ``, http.StatusNoContent},
		{"ErrOptionalAnotherSchema", httpx.Routed(route("thing"), optional("other")), `{"b": 1}`, http.StatusInternalServerError},
		{"OKUnroutedKeepsItsSchema", named(reg, "other"), `{"b": 1}`, http.StatusNoContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			tt.h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("status %d, want %d: %s", rec.Code, tt.want, rec.Body)
			}
		})
	}
}
