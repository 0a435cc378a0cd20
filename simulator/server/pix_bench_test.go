package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"homologa/simulator/server"
)

const benchCob = `{"calendario":{"expiracao":3600},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"123.45"},"chave":"52998224725","solicitacaoPagador":"Serviço realizado."}`

// BenchmarkPixHandler measures the whole handler chain of the Pix API
// without the network: "baseline" is a handler that returns the same bytes.
func BenchmarkPixHandler(b *testing.B) {
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", Log: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer s.Close(ctx)
	tok, _ := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	do := func(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, s.URL()+path, strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	created := do(s.Handler, http.MethodPut, "/pix/v2/cob/bench0000000000000000000000000000", benchCob)
	got := do(s.Handler, http.MethodGet, "/pix/v2/cob/bench0000000000000000000000000000", "")
	baseline := func(body []byte, status int) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write(body)
		})
	}
	b.Run("GET/baseline", func(b *testing.B) {
		h := baseline(got.Body.Bytes(), 200)
		for b.Loop() {
			do(h, http.MethodGet, "/pix/v2/cob/bench0000000000000000000000000000", "")
		}
	})
	b.Run("GET/sandbox", func(b *testing.B) {
		for b.Loop() {
			if w := do(s.Handler, http.MethodGet, "/pix/v2/cob/bench0000000000000000000000000000", ""); w.Code != 200 {
				b.Fatal(w.Code, w.Body)
			}
		}
	})
	b.Run("PUT/baseline", func(b *testing.B) {
		h := baseline(created.Body.Bytes(), 201)
		for b.Loop() {
			do(h, http.MethodPut, "/pix/v2/cob/bench0000000000000000000000000000", benchCob)
		}
	})
	n := 0
	b.Run("PUT/sandbox", func(b *testing.B) {
		for b.Loop() {
			n++
			if w := do(s.Handler, http.MethodPut, fmt.Sprintf("/pix/v2/cob/bench%027d", n), benchCob); w.Code != 201 {
				b.Fatal(w.Code, w.Body)
			}
		}
	})
}
