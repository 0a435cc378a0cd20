package server

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// TestRouteTreeKeepsTheDeclaredOrder mounts routes whose branches
// interleave: a route outside every segment's branch declared between two
// routes of one segment must still win over the later one, as it does in
// the table's order.
func TestRouteTreeKeepsTheDeclaredOrder(t *testing.T) {
	s := &Server{Router: mux.NewRouter()}
	named := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(name)) })
	}
	for _, rt := range []httpx.Route{
		{API: "pix", Method: http.MethodGet, Path: "/cob/{txid}/a", Handler: named("cob a")},
		{API: "pix", Method: http.MethodGet, Path: "/{kind}/{id}/b", Handler: named("any b")},
		{API: "pix", Method: http.MethodGet, Path: "/cob/{txid}/b", Handler: named("cob b")},
		{API: "pix", Method: http.MethodGet, Path: "/cob/{txid}/c", Handler: named("cob c")},
		{API: "pix", Method: http.MethodGet, Path: "/cobv/{txid}/c", Handler: named("cobv c")},
	} {
		rt.Auth = httpx.Public
		if err := s.Mount(rt); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]string{
		"/pix/v2/cob/1/a":  "cob a",
		"/pix/v2/cob/1/b":  "any b",
		"/pix/v2/cob/1/c":  "cob c",
		"/pix/v2/cobv/1/c": "cobv c",
		"/pix/v2/cobv/1/b": "any b",
	} {
		w := httptest.NewRecorder()
		s.Router.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://sandbox"+path, nil))
		if got := w.Body.String(); got != want {
			t.Errorf("GET %s: served by %q, declared first is %q", path, got, want)
		}
	}
}
