package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/server"
)

// tenantCall sends a control call with a bearer token ("" for none) and
// answers the status and body.
func tenantCall(t *testing.T, s *server.Server, token, method, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	// "none" keeps the tests' operator transport from adding its token.
	req.Header.Set("Authorization", "Bearer "+token)
	if token == "" {
		req.Header.Set("Authorization", "None")
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// secondCompany registers another company with an app and answers a token.
func secondCompany(t *testing.T, s *server.Server) string {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Auth.CreateCompany(ctx, "11444777000161", "Corretora Exemplo"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Auth.CreateApp(ctx, auth.NewApp{Company: "11444777000161", Name: "backend", ClientID: "exemplo", ClientSecret: "exemplo-secret-0123", WebhookURL: s.URL() + "/sandbox/inbox/exemplo"}); err != nil {
		t.Fatal(err)
	}
	tok, err := s.Auth.IssueToken(ctx, "exemplo", "exemplo-secret-0123", "")
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

// The control API belongs to the caller's company: each sees and moves
// only its own clock, deliveries, events and interactions; the operator
// sees every company's; no credential gets nothing.
func TestControlBelongsToTheCallersCompany(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	s := startServer(t, server.Config{Clock: "frozen", ClockStart: start})
	defer s.Close(context.Background())
	ctx := context.Background()
	demo, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	a, b := demo.AccessToken, secondCompany(t, s)

	if code, _ := tenantCall(t, s, "", "GET", "/sandbox/clock", ""); code != http.StatusUnauthorized {
		t.Fatalf("no credential: %d, want 401", code)
	}
	// A moves its clock a year; B's does not move.
	if code, body := tenantCall(t, s, a, "POST", "/sandbox/clock/advance", `{"by":"365d"}`); code != 200 || !strings.Contains(body, `"now":"2027-01-05T12:00:00Z"`) || !strings.Contains(body, `"own":true`) {
		t.Fatalf("A advances: %d %s", code, body)
	}
	if _, body := tenantCall(t, s, b, "GET", "/sandbox/clock", ""); !strings.Contains(body, `"now":"2026-01-05T12:00:00Z"`) || !strings.Contains(body, `"own":false`) {
		t.Fatalf("B's clock after A's year: %s", body)
	}
	if _, body := tenantCall(t, s, testOperator, "GET", "/sandbox/clock", ""); !strings.Contains(body, `"scope":"sandbox"`) || !strings.Contains(body, `"now":"2026-01-05T12:00:00Z"`) {
		t.Fatalf("the default clock after A's year: %s", body)
	}
	// A's token is a credential, not domain time: a year on A's clock,
	// minutes on the wall clock, it still works.
	if code, body := tenantCall(t, s, a, "GET", "/sandbox/clock", ""); code != http.StatusOK {
		t.Fatalf("A's token after A's year: %d %s, want 200", code, body)
	}

	// Each pings its own webhook; each sees only its own delivery.
	for _, tok := range []string{a, b} {
		if code, body := tenantCall(t, s, tok, "POST", "/sandbox/events/ping", ""); code != http.StatusAccepted {
			t.Fatalf("ping: %d %s", code, body)
		}
	}
	count := func(tok, path, key string) int {
		_, body := tenantCall(t, s, tok, "GET", path, "")
		var m map[string][]json.RawMessage
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("%s: %s", path, body)
		}
		return len(m[key])
	}
	for _, tc := range []struct {
		path, key string
		a, b, op  int
	}{
		{"/sandbox/deliveries", "deliveries", 1, 1, 2},
		{"/sandbox/events", "events", 1, 1, 2},
	} {
		if got := []int{count(a, tc.path, tc.key), count(b, tc.path, tc.key), count(testOperator, tc.path, tc.key)}; got[0] != tc.a || got[1] != tc.b || got[2] != tc.op {
			t.Errorf("%s: A sees %d, B %d, the operator %d; want %d, %d, %d", tc.path, got[0], got[1], got[2], tc.a, tc.b, tc.op)
		}
	}
	// B cannot read or replay A's delivery, nor name A's app.
	_, body := tenantCall(t, s, a, "GET", "/sandbox/deliveries", "")
	var ds struct {
		Deliveries []struct{ ID string } `json:"deliveries"`
	}
	json.Unmarshal([]byte(body), &ds)
	if len(ds.Deliveries) != 1 {
		t.Fatalf("A's deliveries: %s", body)
	}
	for _, path := range []string{"/sandbox/deliveries/" + ds.Deliveries[0].ID, "/sandbox/deliveries/" + ds.Deliveries[0].ID + "/replay"} {
		method := "GET"
		if strings.HasSuffix(path, "replay") {
			method = "POST"
		}
		if code, _ := tenantCall(t, s, b, method, path, ""); code != http.StatusNotFound {
			t.Errorf("B %s %s: %d, want 404", method, path, code)
		}
	}
	if code, _ := tenantCall(t, s, b, "GET", "/sandbox/interactions?app="+server.DemoClientID, ""); code != http.StatusBadRequest {
		t.Errorf("B naming A's app: %d, want 400", code)
	}
	if code, _ := tenantCall(t, s, b, "POST", "/sandbox/events/ping", `{"clientId":"`+server.DemoClientID+`"}`); code != http.StatusBadRequest {
		t.Errorf("B pinging A's app: %d, want 400", code)
	}
	// The inbox shows each company the deliveries made for it.
	if _, body := tenantCall(t, s, b, "GET", "/sandbox/inbox/demo", ""); strings.Contains(body, "receivedAt") {
		t.Errorf("B reads A's inbox: %s", body)
	}
	if _, body := tenantCall(t, s, a, "GET", "/sandbox/inbox/demo", ""); !strings.Contains(body, "receivedAt") {
		t.Errorf("A does not see its ping in the inbox: %s", body)
	}
	// Only the operator may reload the shared scenarios.
	if code, _ := tenantCall(t, s, a, "POST", "/sandbox/scenarios/reload", ""); code != http.StatusForbidden {
		t.Errorf("a company reloading the shared scenarios: %d, want 403", code)
	}
}

// A reset empties the caller's company and nothing of another's; the
// company, its apps and credentials stay, and its clock follows the
// default again.
func TestResetEmptiesOnlyTheCallersCompany(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	s := startServer(t, server.Config{Clock: "frozen", ClockStart: start})
	defer s.Close(context.Background())
	ctx := context.Background()
	demo, _ := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	a, b := demo.AccessToken, secondCompany(t, s)
	for _, tok := range []string{a, b} {
		tenantCall(t, s, tok, "POST", "/sandbox/events/ping", "")
	}
	tenantCall(t, s, a, "POST", "/sandbox/clock/advance", `{"by":"30m"}`)
	if code, body := tenantCall(t, s, a, "POST", "/sandbox/reset", ""); code != 200 || !strings.Contains(body, `"companies":1`) {
		t.Fatalf("reset: %d %s", code, body)
	}
	a2, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatalf("the demo app's credentials after its reset: %v", err)
	}
	if _, body := tenantCall(t, s, a2.AccessToken, "GET", "/sandbox/deliveries", ""); strings.Contains(body, `"id"`) {
		t.Errorf("A's deliveries after its reset: %s", body)
	}
	if _, body := tenantCall(t, s, a2.AccessToken, "GET", "/sandbox/clock", ""); !strings.Contains(body, `"own":false`) || !strings.Contains(body, `"now":"2026-01-05T12:00:00Z"`) {
		t.Errorf("A's clock after its reset (the default's, not its own 30 min on): %s", body)
	}
	if _, body := tenantCall(t, s, b, "GET", "/sandbox/deliveries", ""); !strings.Contains(body, `"id"`) {
		t.Errorf("B lost its delivery to A's reset: %s", body)
	}
}

// A call with an expired token is refused, and logged as its app's: the
// partner's interaction log shows it met an expired token (what the
// homologation suite judges its renewal by). A forged token names no app
// and is logged as nobody's.
func TestAnExpiredTokenIsLoggedAsItsAppsCall(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{Clock: "frozen"})
	defer s.Close(context.Background())
	tok, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	if code, body := tenantCall(t, s, tok.AccessToken, "POST", "/sandbox/tokens/expire", ""); code != 200 || !strings.Contains(body, `"expired":1`) {
		t.Fatalf("expire: %d %s", code, body)
	}
	if code, _ := tenantCall(t, s, tok.AccessToken, "GET", "/pix/v2/cob/expiradoexpiradoexpirado0001", ""); code != 401 {
		t.Fatalf("a call with the expired token: %d, want 401", code)
	}
	tenantCall(t, s, "forjadoforjadoforjado", "GET", "/pix/v2/cob/forjadoforjadoforjadofor0001", "")
	fresh, _ := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "")
	_, body := tenantCall(t, s, fresh.AccessToken, "GET", "/sandbox/interactions?app="+server.DemoClientID, "")
	if !strings.Contains(body, "expiradoexpiradoexpirado0001") || !strings.Contains(body, "token de acesso expirado") {
		t.Errorf("the app's log lacks its expired call: %.600s", body)
	}
	if strings.Contains(body, "forjadoforjadoforjadofor0001") {
		t.Errorf("the app's log holds a call with a token that was never its: %.600s", body)
	}
}
