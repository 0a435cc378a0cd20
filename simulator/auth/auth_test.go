package auth_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/clock"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

func newService(t *testing.T) *auth.Service {
	t.Helper()
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &auth.Service{DB: db, Clocks: clock.NewClocks(clock.New(clock.Frozen, 0, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))}
}

func TestRequire(t *testing.T) {
	ctx := context.Background()
	svc := newService(t)
	for _, c := range []struct{ cnpj, client string }{{"11222333000181", "a"}, {"11444777000161", "b"}} {
		if _, err := svc.CreateCompany(ctx, c.cnpj, "Co "+c.client); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CreateApp(ctx, auth.NewApp{Company: c.cnpj, Name: c.client, ClientID: c.client, ClientSecret: c.client + "-secret-secret"}); err != nil {
			t.Fatal(err)
		}
	}
	// A partner route that needs cob.write and answers with the caller's CNPJ.
	route := svc.Require([]string{"cob.write"}, httpx.HandlerFunc(func(r *http.Request) (*httpx.Reply, error) {
		p, _ := auth.PrincipalOf(r.Context())
		return httpx.OK(map[string]string{"cnpj": p.CNPJ}), nil
	}))
	srv := httptest.NewServer(httpx.Outer([]httpx.API{{Prefix: "/pix/v2", Name: "pix", Dialect: httpx.Pix{}}}, 0, nil, http.StripPrefix("", route)))
	defer srv.Close()
	call := func(tok string) (int, string, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/pix/v2/cob", nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), string(b)
	}
	tokA, err := svc.IssueToken(ctx, "a", "a-secret-secret", "")
	if err != nil {
		t.Fatal(err)
	}
	tokB, _ := svc.IssueToken(ctx, "b", "b-secret-secret", "")
	readOnly, err := svc.IssueToken(ctx, "a", "a-secret-secret", "cob.read")
	if err != nil || readOnly.Scope != "cob.read" {
		t.Fatalf("narrowed token: %+v %v", readOnly, err)
	}

	tests := []struct {
		name, tok, wantAuth, wantBody string
		status                        int
	}{
		{"OK", tokA.AccessToken, "", `"cnpj":"11222333000181"`, 200},
		{"OKOtherTenant", tokB.AccessToken, "", `"cnpj":"11444777000161"`, 200},
		{"ErrNoToken", "", `error="invalid_request"`, `"type":"about:blank","title":"Unauthorized"`, 401},
		{"ErrUnknownToken", "forged", `error="invalid_token"`, "token de acesso desconhecido", 401},
		{"ErrMissingScope", readOnly.AccessToken, `error="insufficient_scope", scope="cob.write"`, `"type":"https://pix.bcb.gov.br/api/v2/error/AcessoNegado","title":"Acesso Negado"`, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, www, body := call(tt.tok)
			if status != tt.status || !strings.Contains(www, tt.wantAuth) || !strings.Contains(body, tt.wantBody) {
				t.Fatalf("got %d %q %s", status, www, body)
			}
		})
	}
	// Tokens are credentials, not domain time: a company's clock a year
	// ahead leaves them valid; the wall clock an hour ahead ends them.
	t.Run("OKCompanyClockAdvanced", func(t *testing.T) {
		svc.Clocks.Default.Advance(365 * 24 * time.Hour)
		if status, _, _ := call(tokB.AccessToken); status != 200 {
			t.Fatalf("a token a sandbox year old but minutes old on the wall clock: %d", status)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		svc.WallClock = func() time.Time { return time.Now().Add(time.Hour) }
		defer func() { svc.WallClock = nil }()
		if status, www, _ := call(tokA.AccessToken); status != 401 || !strings.Contains(www, "expirado") {
			t.Fatalf("a token an hour old: %d %q", status, www)
		}
	})
}

// ExpireTokens ends a company's tokens on purpose, and only its.
func TestExpireTokens(t *testing.T) {
	ctx := context.Background()
	svc := newService(t)
	var companies []string
	for _, c := range []struct{ cnpj, client string }{{"11222333000181", "a"}, {"11444777000161", "b"}} {
		co, err := svc.CreateCompany(ctx, c.cnpj, "Co "+c.client)
		if err != nil {
			t.Fatal(err)
		}
		companies = append(companies, co.ID)
		if _, err := svc.CreateApp(ctx, auth.NewApp{Company: c.cnpj, Name: c.client, ClientID: c.client, ClientSecret: c.client + "-secret-secret"}); err != nil {
			t.Fatal(err)
		}
	}
	tokA, _ := svc.IssueToken(ctx, "a", "a-secret-secret", "")
	tokB, _ := svc.IssueToken(ctx, "b", "b-secret-secret", "")
	// Resolved once, so that the cache holds them too.
	for _, tok := range []string{tokA.AccessToken, tokB.AccessToken} {
		if _, err := svc.Authenticate(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	n, err := svc.ExpireTokens(ctx, companies[0])
	if err != nil || n != 1 {
		t.Fatalf("ExpireTokens(A) = %d, %v; want 1", n, err)
	}
	if _, err := svc.Authenticate(ctx, tokA.AccessToken); err == nil || !strings.Contains(err.Error(), "expirado") {
		t.Errorf("A's token after ExpireTokens: %v, want expired", err)
	}
	if _, err := svc.Authenticate(ctx, tokB.AccessToken); err != nil {
		t.Errorf("B's token after A's ExpireTokens: %v", err)
	}
	renewed, err := svc.IssueToken(ctx, "a", "a-secret-secret", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Authenticate(ctx, renewed.AccessToken); err != nil {
		t.Errorf("A's new token: %v", err)
	}
	if _, err := svc.ExpireTokens(ctx, ""); err == nil {
		t.Error("ExpireTokens without a company ended something")
	}
}

func TestWebhookPolicy(t *testing.T) {
	tests := []struct {
		allow, resolve []string
		url            string
		ok             bool
	}{
		{nil, nil, "http://127.0.0.1:9000/hooks", true},
		{nil, nil, "https://localhost/hooks", true},
		{nil, nil, "http://[::1]:9000/hooks", true},
		{nil, nil, "http://[::ffff:127.0.0.1]:9000/hooks", true},
		{nil, nil, "http://10.0.0.5/hooks", false},
		{nil, nil, "http://partner.example/hooks", false},
		{nil, nil, "ftp://127.0.0.1/hooks", false},
		{nil, nil, "http://user:pw@127.0.0.1/hooks", false},
		{nil, nil, "/hooks", false},
		{[]string{"partner"}, nil, "http://partner:8080/hooks", true},
		// The list adds to loopback, never replaces it.
		{[]string{"partner.example"}, nil, "http://127.0.0.1:9000/hooks", true},
		{[]string{"partner.example"}, nil, "http://PARTNER.example./hooks", true},
		{[]string{"172.20.0.0/16"}, nil, "http://172.20.1.9/hooks", true},
		{[]string{"*"}, nil, "https://partner.example/hooks", true},
		{[]string{"*"}, nil, "http://8.8.8.8/hooks", true},
		// "*" admits names and public addresses, never internal ones.
		{[]string{"*"}, nil, "http://169.254.169.254/latest/meta-data", false},
		{[]string{"*"}, nil, "http://10.0.0.1/hooks", false},
		{[]string{"*"}, nil, "http://[fd00:ec2::254]/hooks", false},
		{[]string{"*"}, nil, "http://0.0.0.0:8080/hooks", false},
		// A pinned name is usable when its pin is allowed.
		{nil, []string{"partner.local=127.0.0.1"}, "http://partner.local:9000/hooks", true},
		{nil, []string{"partner.local=10.0.0.1"}, "http://partner.local:9000/hooks", false},
	}
	for _, tt := range tests {
		g, err := events.NewGuard(tt.allow, tt.resolve)
		if err != nil {
			t.Fatal(err)
		}
		err = auth.WebhookPolicy{Guard: g}.Check(tt.url)
		if (err == nil) != tt.ok {
			t.Errorf("Check(%q) with %v %v = %v, want ok=%v", tt.url, tt.allow, tt.resolve, err, tt.ok)
		}
	}
	t.Run("Default", func(t *testing.T) {
		if err := (auth.WebhookPolicy{}).Check("http://127.0.0.1/hooks"); err != nil {
			t.Errorf("the zero policy refuses loopback: %v", err)
		}
	})
}
