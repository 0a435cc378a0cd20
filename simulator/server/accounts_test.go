package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"homologa/simulator/auth"
	"homologa/simulator/server"
	"homologa/simulator/store"
)

// browser is a minimal cookie-keeping client of the portal, as a browser
// page of origin would be: it sends what it is told (Origin, cookie).
type browser struct {
	t      *testing.T
	s      *server.Server
	cookie *http.Cookie
}

func (b *browser) do(method, path, body string, header map[string]string) (int, string, *http.Response) {
	b.t.Helper()
	req, _ := http.NewRequest(method, b.s.URL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "None") // no operator token from the tests' transport
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.cookie != nil {
		req.AddCookie(b.cookie)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), resp
}

// register signs up and keeps the session cookie the answer sets.
func (b *browser) register(email, password, cnpj string) {
	b.t.Helper()
	code, out, resp := b.do("POST", "/portal/accounts", `{"email":"`+email+`","password":"`+password+`","company":{"cnpj":"`+cnpj+`","name":"Empresa"}}`, nil)
	if code != 201 {
		b.t.Fatalf("register %s: %d %s", email, code, out)
	}
	for _, c := range resp.Cookies() {
		if c.Name == "homologa_session" {
			b.cookie = c
		}
	}
	if b.cookie == nil {
		b.t.Fatalf("registering set no session cookie: %v", resp.Header)
	}
}

// A person registers, is logged in by a cookie only the sandbox's pages
// can use, sees their own company, and the password is kept as a bcrypt
// hash, never as given.
func TestRegistrationLogsInWithASafeCookie(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{})
	defer s.Close(context.Background())
	b := &browser{t: t, s: s}
	b.register("ana@corretora.com.br", "uma-senha-bem-longa", "11444777000161")
	if !b.cookie.HttpOnly || b.cookie.SameSite != http.SameSiteStrictMode || b.cookie.Secure || b.cookie.Path != "/" {
		t.Errorf("session cookie %+v: want HttpOnly, SameSite=Strict, Path=/ (Secure only over https)", b.cookie)
	}
	code, out, _ := b.do("GET", "/portal/account", "", nil)
	if code != 200 || !strings.Contains(out, "ana@corretora.com.br") || !strings.Contains(out, "11444777000161") {
		t.Fatalf("the account by its cookie: %d %s", code, out)
	}
	var hash string
	err := s.DB.Read(context.Background(), func(tx *store.Tx) error {
		return tx.QueryRowContext(context.Background(), `SELECT password_hash FROM accounts WHERE email = ?`, "ana@corretora.com.br").Scan(&hash)
	})
	if err != nil || !strings.HasPrefix(hash, "$2a$10$") || strings.Contains(hash, "uma-senha") {
		t.Fatalf("stored password %q (%v): want a bcrypt hash", hash, err)
	}
	for _, bad := range []struct{ body, field string }{
		{`{"email":"x@y.com","password":"curta","company":{"cnpj":"04252011000110","name":"E"}}`, "password"},
		{`{"email":"não é email","password":"senha-longa-o-bastante","company":{"cnpj":"04252011000110","name":"E"}}`, "email"},
		{`{"email":"ana@corretora.com.br","password":"senha-longa-o-bastante","company":{"cnpj":"04252011000110","name":"E"}}`, "e-mail"},
		{`{"email":"z@y.com","password":"senha-longa-o-bastante","company":{"cnpj":"11111111111111","name":"E"}}`, "company.cnpj"},
	} {
		if code, out, _ := (&browser{t: t, s: s}).do("POST", "/portal/accounts", bad.body, nil); code/100 != 4 || !strings.Contains(out, bad.field) {
			t.Errorf("register %s: %d %s, want a 4xx naming %s", bad.body, code, out, bad.field)
		}
	}
}

// A state-changing request carried by the session cookie must come from
// the sandbox's own pages (Origin); a cross-site form, the finding's
// attack, is refused whatever it carries; a foreign Host is refused
// before anything else (DNS rebinding).
func TestCookieRequestsNeedTheSandboxsOwnPages(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{})
	defer s.Close(context.Background())
	b := &browser{t: t, s: s}
	b.register("ana@corretora.com.br", "uma-senha-bem-longa", "11444777000161")
	code, out, _ := b.do("POST", "/portal/apps", `{"name":"backend"}`, map[string]string{"Origin": s.URL()})
	if code != 201 {
		t.Fatalf("create an app from the sandbox's page: %d %s", code, out)
	}
	var app struct{ ID, ClientSecret, WebhookSecret string }
	json.Unmarshal([]byte(out), &app)
	if app.ClientSecret == "" || app.WebhookSecret == "" {
		t.Fatalf("the creation shows both secrets, once: %s", out)
	}
	if code, out, _ := b.do("GET", "/portal/apps/"+app.ID, "", nil); code != 200 || strings.Contains(out, "Secret") {
		t.Errorf("reading the app: %d %s, want no secret", code, out)
	}
	rotate := "/portal/apps/" + app.ID + "/secret"
	for _, tt := range []struct {
		name   string
		header map[string]string
		body   string
		want   int
	}{
		{"no Origin", nil, "", 403},
		{"another site's page", map[string]string{"Origin": "http://evil.example"}, "", 403},
		{"a cross-site form", map[string]string{"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"}, "a=b", 415},
		{"a same-site form", map[string]string{"Origin": s.URL(), "Content-Type": "text/plain"}, "a=b", 415},
		{"a rebinding page", map[string]string{"Origin": "http://attacker.example", "Host": "attacker.example"}, "", 421},
		{"the sandbox's page", map[string]string{"Origin": s.URL()}, "", 200},
	} {
		if code, out, _ := b.do("POST", rotate, tt.body, tt.header); code != tt.want {
			t.Errorf("%s rotates the secret: %d %s, want %d", tt.name, code, out, tt.want)
		}
	}
	// Without the cookie, the finding's form post is a 415 (or a 401).
	anon := &browser{t: t, s: s}
	if code, out, _ := anon.do("POST", rotate, "a=b", map[string]string{"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"}); code != 415 {
		t.Errorf("an anonymous cross-site form: %d %s", code, out)
	}
	// A rebinding page reads nothing, on any API.
	for _, path := range []string{"/portal/apps", "/pix/v2/cob/x", "/sandbox/clock"} {
		if code, out, _ := b.do("GET", path, "", map[string]string{"Host": "attacker.example:8080"}); code != 421 {
			t.Errorf("GET %s for Host attacker.example: %d %s, want 421", path, code, out)
		}
	}
	// Logging out ends the session, here and in the browser.
	if code, _, resp := b.do("POST", "/portal/logout", "", map[string]string{"Origin": s.URL()}); code != 204 || !strings.Contains(resp.Header.Get("Set-Cookie"), "Max-Age=0") {
		t.Fatalf("logout: %d %v", code, resp.Header)
	}
	if code, _, _ := b.do("GET", "/portal/account", "", nil); code != 401 {
		t.Fatalf("the ended session still reads the account: %d", code)
	}
}

// Guessing a password is throttled per email: after ten failures the
// login answers 429 with Retry-After, even for the right password, and
// another account is untouched.
func TestLoginGuessesAreThrottled(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{})
	defer s.Close(context.Background())
	// The account's hash at bcrypt's least cost: each guess checks it, and
	// at the default cost a check takes a second under -race (the test
	// counts guesses; the cost is the hash's own, read from it).
	hash, err := bcrypt.GenerateFromPassword([]byte("uma-senha-bem-longa"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Auth.Register(context.Background(), auth.NewAccount{Email: "ana@corretora.com.br", PasswordHash: string(hash),
		CompanyCNPJ: "11444777000161", CompanyName: "Empresa"}); err != nil {
		t.Fatal(err)
	}
	login := func(email, password string) (int, *http.Response) {
		code, _, resp := (&browser{t: t, s: s}).do("POST", "/portal/login", `{"email":"`+email+`","password":"`+password+`"}`, nil)
		return code, resp
	}
	for i := range 10 {
		if code, _ := login("ana@corretora.com.br", "errada"); code != 401 {
			t.Fatalf("wrong password %d: %d, want 401", i+1, code)
		}
	}
	code, resp := login("ana@corretora.com.br", "uma-senha-bem-longa")
	if code != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("the right password during the lockout: %d %v, want 429 with Retry-After", code, resp.Header)
	}
	if code, _ := login(server.DemoEmail, server.DemoPassword); code != 200 {
		t.Fatalf("another account during ana's lockout: %d", code)
	}
}

// An account acts on the control API for its company: its only one, or
// the one X-Homologa-Company names; never another account's.
func TestAccountActsOnTheControlAPI(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{})
	defer s.Close(context.Background())
	b := &browser{t: t, s: s}
	b.register("ana@corretora.com.br", "uma-senha-bem-longa", "11444777000161")
	tok := portalToken(t, s, "ana@corretora.com.br", "uma-senha-bem-longa")
	call := func(method, path, body string, header map[string]string) (int, string) {
		req, _ := http.NewRequest(method, s.URL()+path, bytes.NewReader([]byte(body)))
		req.Header.Set("Authorization", "Bearer "+tok)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	if code, out := call("GET", "/sandbox/clock", "", nil); code != 200 || !strings.Contains(out, `"scope":"company"`) {
		t.Fatalf("the account's company's clock: %d %s", code, out)
	}
	if code, out := call("POST", "/portal/companies", `{"cnpj":"04252011000110","name":"Segunda"}`, map[string]string{"Content-Type": "application/json"}); code != 201 {
		t.Fatalf("a second company: %d %s", code, out)
	}
	if code, out := call("GET", "/sandbox/clock", "", nil); code != 400 || !strings.Contains(out, "X-Homologa-Company") {
		t.Errorf("two companies, none named: %d %s, want 400 naming X-Homologa-Company", code, out)
	}
	if code, out := call("GET", "/sandbox/clock", "", map[string]string{"X-Homologa-Company": "04.252.011/0001-10"}); code != 200 {
		t.Errorf("the second company by its CNPJ: %d %s", code, out)
	}
	if code, out := call("GET", "/sandbox/clock", "", map[string]string{"X-Homologa-Company": server.DemoCNPJ}); code != 400 {
		t.Errorf("another account's company: %d %s, want 400", code, out)
	}
}

// Listening beyond loopback needs --public-url, and the hosted sandbox
// warns what it exposes and makes up the demo secrets.
func TestListeningBeyondLoopbackNeedsAPublicURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if _, err := server.New(ctx, server.Config{Addr: "0.0.0.0:0", Log: io.Discard}); err == nil || !strings.Contains(err.Error(), "--public-url") {
		t.Fatalf("0.0.0.0 without --public-url: %v", err)
	}
	if _, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", PublicURL: "ftp://x", Log: io.Discard}); err == nil {
		t.Fatal("a public URL that is not http(s) was taken")
	}
	s, err := server.New(ctx, server.Config{Addr: "0.0.0.0:0", PublicURL: "https://homologa.example.com", Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	var banner bytes.Buffer
	s.Banner(&banner)
	out := banner.String()
	if !strings.Contains(out, "WARNING") || !strings.Contains(out, "https://homologa.example.com") || strings.Contains(out, server.DemoPassword) || strings.Contains(out, server.DemoClientSecret) {
		t.Fatalf("a hosted sandbox's banner:\n%s", out)
	}
	b := &browser{t: t, s: s}
	code, _, _ := b.do("POST", "/portal/login", `{"email":"`+server.DemoEmail+`","password":"`+server.DemoPassword+`"}`, map[string]string{"Host": "homologa.example.com"})
	if code != 401 {
		t.Fatalf("the documented demo password on a hosted sandbox: %d", code)
	}
}
