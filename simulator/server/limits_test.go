package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// oversized is a valid JSON document past the default body limit (1 MiB).
var oversized = []byte(`{"x":"` + strings.Repeat("x", 2<<20) + `"}`)

// muxVars are the variables of route paths: {name} or {name:pattern}.
var muxVars = regexp.MustCompile(`\{([^{}:]+)(?::([^{}]+))?\}`)

// concretePath fills a route's variables with a value each accepts: the
// first alternative of an enumeration, a digit for a number, a word else.
func concretePath(full string) string {
	return muxVars.ReplaceAllStringFunc(full, func(v string) string {
		m := muxVars.FindStringSubmatch(v)
		switch pattern := m[2]; {
		case strings.Contains(pattern, "|"):
			first, _, _ := strings.Cut(pattern, "|")
			return first
		case strings.Contains(pattern, "0-9"):
			return "1"
		}
		return "x1"
	})
}

// credentialFor is the Authorization a route's kind of credential takes.
func credentialFor(rt httpx.Route, appToken string) string {
	switch rt.Auth {
	case httpx.Operator, httpx.Account:
		return "Bearer " + testOperator
	case httpx.App, httpx.AppOptional, httpx.Tenant, httpx.Stream:
		return "Bearer " + appToken
	}
	return "None" // the tests' transport adds the operator's token otherwise
}

// pix reports an API of the Pix dialect.
func pix(api httpx.API) bool {
	_, ok := api.Dialect.(httpx.Pix)
	return ok
}

// errorOfDialect checks a 413 body is in the API's dialect and follows
// the API's error schema.
func errorOfDialect(t *testing.T, s *server.Server, api httpx.API, ctype string, body []byte) {
	t.Helper()
	if api.ErrorSchema != "" {
		vs, err := s.Schemas.Validate(api.ErrorSchema, body)
		if err != nil || len(vs) > 0 {
			t.Errorf("the 413 does not follow %s (%v %v): %s", api.ErrorSchema, err, vs, body)
		}
	}
	var doc map[string]any
	json.Unmarshal(body, &doc)
	var ok bool
	switch api.Dialect.(type) {
	case httpx.Pix:
		// The API Pix declares no 413: its 400 RequisicaoInvalida.
		ok = doc["type"] == "https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida" && doc["status"] == 400.0
	case httpx.Insurer:
		m, _ := doc["Mensagens"].([]any)
		first, _ := m[0].(map[string]any)
		ok = first["Codigo"] == "CORPO_GRANDE_DEMAIS" && doc["HouveErrosDuranteProcessamento"] == true
	case httpx.OAuth:
		ok = doc["error"] == "invalid_request" && strings.Contains(doc["error_description"].(string), "bytes")
	default:
		ok = doc["type"] == "urn:homologa:problem:too_large" && doc["status"] == 413.0 && strings.HasPrefix(ctype, "application/problem+json")
	}
	if !ok {
		t.Errorf("the 413 is not in the %s dialect (%s): %s", api.Name, ctype, body)
	}
}

// TestEveryRouteRefusesAnOversizedBody walks the route table: every route
// that takes a body, called with the credential it takes, answers one
// past the limit with 413 in its API's dialect when its length is
// declared; sent chunked, where the route reads it: never a 500, never a
// truncated document taken for the whole.
func TestEveryRouteRefusesAnOversizedBody(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{Clock: "frozen"})
	defer s.Close(context.Background())
	n, cut := 0, 0
	for _, rt := range server.RouteTable() {
		if rt.Method != http.MethodPost && rt.Method != http.MethodPut && rt.Method != http.MethodPatch {
			continue
		}
		// A token per route: a route that takes no body acts on a
		// chunked request (POST /sandbox/tokens/expire ends the tokens).
		tok, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "")
		if err != nil {
			t.Fatal(err)
		}
		n++
		path := concretePath(server.FullPath(rt))
		api := httpx.APIFor(server.APIs, path)
		ctype := "application/json"
		if api.Name == "oauth" {
			ctype = "application/x-www-form-urlencoded"
		}
		for _, chunked := range []bool{false, true} {
			name := rt.Method + " " + path
			if chunked {
				name += " chunked"
			}
			t.Run(name, func(t *testing.T) {
				var body io.Reader = bytes.NewReader(oversized)
				if chunked {
					body = io.MultiReader(body) // hides the length: sent chunked
				}
				req, _ := http.NewRequest(rt.Method, s.URL()+path, body)
				req.Header.Set("Content-Type", ctype)
				req.Header.Set("Authorization", credentialFor(rt, tok.AccessToken))
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				got, _ := io.ReadAll(resp.Body)
				// Without a declared length only a route that reads the
				// body can see it is too large; one that answers first
				// (a bad path, a route that takes no body) may answer
				// what it answers, but never a 5xx.
				tooLarge := http.StatusRequestEntityTooLarge
				if pix(api) {
					tooLarge = http.StatusBadRequest
				}
				switch {
				case resp.StatusCode == tooLarge && (!pix(api) || bytes.Contains(got, []byte("limite"))):
					errorOfDialect(t, s, api, resp.Header.Get("Content-Type"), got)
					if chunked {
						cut++
					}
				case !chunked || resp.StatusCode >= 500:
					t.Fatalf("status %d, want %d: %s", resp.StatusCode, tooLarge, got)
				}
			})
		}
	}
	if n < 50 || cut < n/2 {
		t.Fatalf("%d routes take a body, %d of them cut a chunked one at the limit: is the route table read?", n, cut)
	}
}

// TestSecretsNeverReachTheLogs: a token sent in the query string (refused
// on a REST route, accepted by the event stream), a client secret in the
// token form and the token in its answer appear neither in the
// interaction log, as its company or the operator reads it, nor in the
// sandbox's own log.
func TestSecretsNeverReachTheLogs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var logged syncBuffer
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: "frozen", Log: &logged, OperatorToken: testOperator})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {server.DemoClientID}, "client_secret": {server.DemoClientSecret}}
	resp, err := http.Post(s.URL()+"/oauth/token", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if tok.AccessToken == "" {
		t.Fatal("no token")
	}
	// A PSP SDK's JSON token request, the secret in the body.
	resp, err = http.Post(s.URL()+"/oauth/token", "application/json",
		strings.NewReader(`{"grant_type": "client_credentials", "client_id": "`+server.DemoClientID+`", "client_secret": "`+server.DemoClientSecret+`"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("a JSON token request: %v %v", resp, err)
	}
	resp.Body.Close()

	query := "/pix/v2/cob?access_token=" + tok.AccessToken + "&inicio=2026-01-01T00:00:00Z&fim=2026-01-02T00:00:00Z"
	if code, body := tenantCall(t, s, "", http.MethodGet, query, ""); code != http.StatusUnauthorized {
		t.Fatalf("a token in the query of a REST route: %d %s", code, body)
	}
	if code, body := tenantCall(t, s, tok.AccessToken, http.MethodGet, query, ""); code != http.StatusOK {
		t.Fatalf("with the token in the header too: %d %s", code, body)
	}
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(s.URL(), "http")+"/events/ws?access_token="+tok.AccessToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.Close()

	for _, as := range []string{tok.AccessToken, testOperator} {
		code, list := tenantCall(t, s, as, http.MethodGet, "/sandbox/interactions?limit=1000", "")
		if code != 200 || !strings.Contains(list, "access_token=[redacted]") || !strings.Contains(list, `client_secret=[redacted]`) ||
			!strings.Contains(list, `\"client_secret\":\"[redacted]\"`) {
			t.Fatalf("interactions (%d) lack the redacted query and form: %s", code, list)
		}
		for _, secret := range []string{tok.AccessToken, server.DemoClientSecret} {
			if strings.Contains(list, secret) {
				t.Fatalf("%s is in the interaction log: %s", secret, list)
			}
		}
	}
	waitFor(t, func() bool { return strings.Count(logged.String(), "access_token=[redacted]") >= 3 })
	for _, secret := range []string{tok.AccessToken, server.DemoClientSecret} {
		if strings.Contains(logged.String(), secret) {
			t.Fatalf("%s is in the sandbox's log: %s", secret, logged.String())
		}
	}
}
