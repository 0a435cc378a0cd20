package server_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"homologa/simulator/auth"
	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// TestPartnerRouteWiring checks what every App route of the table gets
// from Server.Mount: a bearer token with the scope, idempotency on creating
// POSTs, the interaction log, and errors in the API's dialect.
func TestPartnerRouteWiring(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", Clock: "frozen", Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	var created atomic.Int32
	err = s.Mount(httpx.Route{API: "pix", Method: http.MethodPost, Path: "/wiring-test", Auth: httpx.App, Scopes: httpx.Scopes("cob.write"), Idempotent: true,
		Handler: httpx.HandlerFunc(func(r *http.Request) (*httpx.Reply, error) {
			created.Add(1)
			p, _ := auth.PrincipalOf(r.Context())
			return httpx.Created(map[string]string{"cnpj": p.CNPJ}), nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)

	token := func(scope string) string {
		tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, scope)
		if err != nil {
			t.Fatal(err)
		}
		return tok.AccessToken
	}
	call := func(tok, key string) (int, http.Header, string) {
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/pix/v2/wiring-test", strings.NewReader(`{"valor":{"original":"1.00"}}`))
		req.Header.Set("Content-Type", "application/json")
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		if key != "" {
			req.Header.Set("Idempotency-Key", key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}

	if code, _, body := call("", ""); code != 401 || !strings.Contains(body, `"type":"about:blank"`) {
		t.Fatalf("no token: %d %s", code, body)
	}
	if code, _, body := call(token("cob.read"), ""); code != 403 || !strings.Contains(body, `"status":403`) {
		t.Fatalf("without cob.write: %d %s", code, body)
	}
	tok := token("cob.write")
	code, _, first := call(tok, "k-1")
	code2, h2, second := call(tok, "k-1")
	if code != 201 || code2 != 201 || first != second || h2.Get("Idempotent-Replayed") != "true" || created.Load() != 1 {
		t.Fatalf("idempotent create: %d %s / %d %s, created %d", code, first, code2, second, created.Load())
	}
	if !strings.Contains(first, server.DemoCNPJ) {
		t.Fatalf("the handler did not see the caller's company: %s", first)
	}
	log := get(t, s.URL()+"/sandbox/interactions?"+url.Values{"path": {"/pix/v2/wiring-test"}, "app": {server.DemoClientID}}.Encode())
	// Three calls carry the app's token; the tokenless one has no app.
	if strings.Count(log, `"path":"/pix/v2/wiring-test"`) != 3 || !strings.Contains(log, `"idempotencyKey":"k-1"`) || !strings.Contains(log, `"api":"pix"`) {
		t.Fatalf("interaction log: %s", log)
	}
}
