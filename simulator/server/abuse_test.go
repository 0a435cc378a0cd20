package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/jobs"
	"homologa/simulator/quota"
	"homologa/simulator/server"
	"homologa/simulator/taxid"
)

// The abuse suite: each test reproduces one of the holes issue 36 found
// in a sandbox hosted for many companies (--public-url), as an attacker
// would, and shows it closed. Nothing leaves loopback: names resolve
// through a lookup answering the forbidden address, and every delivery's
// dial passes a hook that refuses anything not loopback.

const hostedURL = "http://sandbox.example"

// dials records every address a delivery was about to connect to, and
// refuses any not loopback (which the guard should have refused first).
type dials struct {
	mu sync.Mutex
	to []string
}

func (d *dials) control(_, address string, _ syscall.RawConn) error {
	d.mu.Lock()
	d.to = append(d.to, address)
	d.mu.Unlock()
	if ap, err := netip.ParseAddrPort(address); err != nil || !ap.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("abuse test hook: refused a dial to %s", address)
	}
	return nil
}

func (d *dials) seen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.to...)
}

// startHosted starts a sandbox as `homologa serve --addr 127.0.0.1:0
// --public-url http://sandbox.example`, with cfg's other settings, every
// name resolving to 127.0.0.1 and the dial hook d.
func startHosted(t *testing.T, cfg server.Config, d *dials) *server.Server {
	t.Helper()
	return startHostedWith(t, cfg, d, nil)
}

// startHostedWith is startHosted with before run between making the
// sandbox and starting it.
func startHostedWith(t *testing.T, cfg server.Config, d *dials, before func(*server.Server)) *server.Server {
	t.Helper()
	cfg.PublicURL = hostedURL
	cfg.WebhookLookup = func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	if d != nil {
		cfg.WebhookDialControl = d.control
	}
	ctx := context.Background()
	cfg.Addr, cfg.Log = "127.0.0.1:0", io.Discard
	if cfg.OperatorToken == "" {
		cfg.OperatorToken = testOperator
	}
	s, err := server.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if before != nil {
		before(s)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// call sends a request as token ("" for none; the tests' transport adds
// the operator's to control and portal calls without one unless token
// is "none") and answers the status and the decoded body.
func call(t *testing.T, s *server.Server, token, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	switch token {
	case "":
	case "none":
		req.Header.Set("Authorization", "None")
	default:
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	json.Unmarshal(raw, &m)
	if m == nil {
		m = map[string]any{"raw": string(raw)}
	}
	return resp.StatusCode, m
}

// hostedDemoToken is a token of the hosted sandbox's demo app, whose
// secret is made up at start.
func hostedDemoToken(t *testing.T, s *server.Server) string {
	t.Helper()
	tok, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, s.Demo.ClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

// TestAbuseWebhookToTheHostsLoopback is hole 2: a partner pointed its
// webhook at a service on the host's loopback and read its answer in the
// delivery log. Now the address is refused at registration, a name that
// resolves there is refused when dialled, the service is never
// contacted and nothing of an answer is shown; the sandbox's own inbox
// still receives, served in the process.
func TestAbuseWebhookToTheHostsLoopback(t *testing.T) {
	t.Parallel()
	var contacted atomic.Int32
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		contacted.Add(1)
		fmt.Fprint(w, `{"admin":"internal answer"}`)
	}))
	defer svc.Close()
	port := svc.Listener.Addr().(*net.TCPAddr).Port
	d := &dials{}
	s := startHosted(t, server.Config{WebhookAllow: []string{"*"}}, d)
	tok := hostedDemoToken(t, s)
	setHook := func(url string) int {
		code, _ := call(t, s, "", http.MethodPut, "/portal/apps/"+server.DemoClientID+"/webhook", fmt.Sprintf(`{"webhookUrl": %q}`, url))
		return code
	}
	for _, url := range []string{fmt.Sprintf("http://127.0.0.1:%d/admin", port), fmt.Sprintf("http://[::1]:%d/", port), "http://10.0.0.1/hooks"} {
		if code := setHook(url); code != http.StatusBadRequest {
			t.Errorf("webhook %s: %d, want 400", url, code)
		}
	}
	// The built-in inbox, at the public URL, gets a ping, served in the
	// process.
	if code := setHook(hostedURL + "/sandbox/inbox/demo"); code != http.StatusOK {
		t.Fatalf("the inbox as webhook: %d", code)
	}
	code, ping := call(t, s, tok, http.MethodPost, "/sandbox/events/ping", "")
	if ds, _ := ping["deliveries"].([]any); code != http.StatusAccepted || len(ds) != 1 || ds[0].(map[string]any)["status"] != "delivered" {
		t.Fatalf("ping to the inbox: %d %v", code, ping)
	}
	if len(d.seen()) != 0 {
		t.Fatalf("the inbox delivery dialled %v", d.seen())
	}
	if code := setHook(fmt.Sprintf("http://rebound.example:%d/admin", port)); code != http.StatusOK {
		t.Fatalf("a name under *: %d", code)
	}
	code, ping = call(t, s, tok, http.MethodPost, "/sandbox/events/ping", "")
	if code != http.StatusAccepted {
		t.Fatalf("ping: %d %v", code, ping)
	}
	_, list := call(t, s, tok, http.MethodGet, "/sandbox/deliveries", "")
	raw, _ := json.Marshal(list)
	if strings.Contains(string(raw), "internal answer") || !strings.Contains(string(raw), "destino recusado") {
		t.Fatalf("the delivery log shows %s", raw)
	}
	if contacted.Load() != 0 || len(d.seen()) != 0 {
		t.Fatalf("the loopback service was contacted %d times; dials %v", contacted.Load(), d.seen())
	}
}

// rawPost posts body to path with no credential at all (not even the
// tests' operator token) and answers the status.
func rawPost(t *testing.T, url, body string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// box answers what a company's box holds, and its secret URL.
func box(t *testing.T, s *server.Server, token, name string) ([]map[string]any, string) {
	t.Helper()
	code, m := call(t, s, token, http.MethodGet, "/sandbox/inbox/"+name, "")
	if code != http.StatusOK {
		t.Fatalf("GET inbox %s: %d %v", name, code, m)
	}
	var out []map[string]any
	for _, r := range m["requests"].([]any) {
		out = append(out, r.(map[string]any))
	}
	u, _ := m["url"].(string)
	return out, u
}

// TestAbuseAnonymousInboxFlood is hole 1: anonymous posts to
// /sandbox/inbox/{name} grew the process by a MB each, replaced a
// company's records with the poster's, and evicted its box after 100
// new names. Now the named box takes the sandbox's own deliveries only,
// anything else refused unread; the box's secret URL takes anyone's
// posts into that company's box alone, bounded by the company's quota,
// which drops only its own oldest.
func TestAbuseAnonymousInboxFlood(t *testing.T) {
	t.Parallel()
	s := startHosted(t, server.Config{Quotas: quota.Config{InboxBytes: 64 << 10, InboxBoxes: 5}}, nil)
	a, b := hostedDemoToken(t, s), secondCompany(t, s)
	// Each company pings its own webhook, the inbox: A's at "demo", B's
	// at "exemplo" (secondCompany's app).
	for _, tok := range []string{a, b} {
		if code, m := call(t, s, tok, http.MethodPost, "/sandbox/events/ping", ""); code != http.StatusAccepted {
			t.Fatalf("ping: %d %v", code, m)
		}
	}
	own, aURL := box(t, s, a, "demo")
	if len(own) != 1 || !strings.HasPrefix(aURL, hostedURL+"/sandbox/hooks/") {
		t.Fatalf("A's box: %v at %q", own, aURL)
	}
	// Anonymous floods at A's box name, and at 101 new names: refused.
	mb := strings.Repeat("x", 1<<20-1)
	for i := range 20 {
		if code := rawPost(t, s.URL()+"/sandbox/inbox/demo", mb); code != http.StatusForbidden {
			t.Fatalf("anonymous post %d: %d, want 403", i, code)
		}
	}
	for i := range 101 {
		if code := rawPost(t, fmt.Sprintf("%s/sandbox/inbox/new%d", s.URL(), i), `{}`); code != http.StatusForbidden {
			t.Fatalf("anonymous post to a new name: %d, want 403", code)
		}
	}
	// A forged secret URL (B's company, A's MAC) is a 404.
	path := strings.TrimPrefix(aURL, hostedURL)
	if code := rawPost(t, s.URL()+path[:len(path)-4]+"AAAA", `{}`); code != http.StatusNotFound {
		t.Fatalf("a forged box URL: %d, want 404", code)
	}
	if got, _ := box(t, s, a, "demo"); len(got) != 1 || got[0]["path"] != "/sandbox/inbox/demo" {
		t.Fatalf("A's box after the floods: %v", got)
	}
	// The secret URL takes anyone's posts, into A's box, within A's
	// quota of 64 KiB: A's own oldest go; B's box is untouched.
	for i := range 30 {
		if code := rawPost(t, s.URL()+path+"/pix", fmt.Sprintf(`{"n":%d,"pad":%q}`, i, strings.Repeat("p", 8<<10))); code != http.StatusOK {
			t.Fatalf("post to the box URL: %d", code)
		}
	}
	got, _ := box(t, s, a, "demo")
	if len(got) == 0 || len(got) > 8 || !strings.Contains(got[len(got)-1]["body"].(string), `"n":29`) {
		t.Fatalf("A's box after 30 posts of 8 KiB: %d requests, the newest %v", len(got), got[len(got)-1]["body"])
	}
	// More boxes than A's quota of 5: A's own oldest box goes, B's stays.
	for i := range 7 {
		_, u := box(t, s, a, fmt.Sprintf("box%d", i))
		if code := rawPost(t, s.URL()+strings.TrimPrefix(u, hostedURL), `{}`); code != http.StatusOK {
			t.Fatalf("post to box%d: %d", i, code)
		}
	}
	if got, _ := box(t, s, a, "demo"); len(got) != 0 {
		t.Fatalf("A's oldest box survived A's quota of boxes: %d requests", len(got))
	}
	if got, _ := box(t, s, b, "exemplo"); len(got) != 1 {
		t.Fatalf("B's box after A's floods: %v", got)
	}
	if got, _ := box(t, s, b, "demo"); len(got) != 0 {
		t.Fatalf("B reads A's box: %v", got)
	}
}

// postFrom posts a form (or JSON, when body starts with "{") with HTTP
// Basic credentials, as the client at address from behind the sandbox's
// trusted proxy (the test itself, on loopback), and answers the status.
func postFrom(t *testing.T, s *server.Server, from, path, user, pass, body string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL()+path, strings.NewReader(body))
	switch {
	case strings.HasPrefix(body, "{"):
		req.Header.Set("Content-Type", "application/json")
	case body != "":
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	req.Header.Set("X-Forwarded-For", from)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestAbuseLockingOutAVictim is hole 4: ten wrong secrets for a victim's
// client id, or wrong passwords for its email, sent from another
// address, made the victim's right secret a 429; behind a proxy, where
// every client shared one address, 50 failed logins locked everyone.
// Now failures count per credential and address, the proxy (trusted
// with --trusted-proxy) says where each client is, and the owner's
// right secret gets through.
func TestAbuseLockingOutAVictim(t *testing.T) {
	t.Parallel()
	// The login throttle locks out after 3 failures in this test, not
	// 10: every failure is a bcrypt hash, seconds under the race
	// detector.
	s := startHostedWith(t, server.Config{TrustedProxies: []string{"127.0.0.1"}}, nil, func(s *server.Server) {
		s.Auth.LoginGuesses = &auth.Throttle{Limit: 3}
	})
	const attacker, victim = "198.51.100.66", "203.0.113.5"
	grant := "grant_type=client_credentials"
	for i := range 15 {
		want := http.StatusUnauthorized
		if i >= 10 {
			want = http.StatusTooManyRequests
		}
		if code := postFrom(t, s, attacker, "/oauth/token", server.DemoClientID, "guess", grant); code != want {
			t.Fatalf("wrong secret %d: %d, want %d", i+1, code, want)
		}
	}
	if code := postFrom(t, s, victim, "/oauth/token", server.DemoClientID, s.Demo.ClientSecret, grant); code != http.StatusOK {
		t.Fatalf("the owner's secret after the attacker's failures: %d, want 200", code)
	}
	// Portal logins: an attacker guessing the demo account's password
	// (its secret, hosted, made up at start: here set for the test).
	const email, password = server.DemoEmail, "senha-da-vitima-123"
	if _, err := s.Auth.SeedAccount(context.Background(), auth.NewAccount{Email: email, Password: password}, ""); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		postFrom(t, s, attacker, "/portal/tokens", email, "chute-errado-123", "")
	}
	if code := postFrom(t, s, attacker, "/portal/tokens", email, password, ""); code != http.StatusTooManyRequests {
		t.Fatalf("the attacker's address, locked out: %d, want 429", code)
	}
	if code := postFrom(t, s, victim, "/portal/tokens", email, password, ""); code != http.StatusCreated {
		t.Fatalf("the owner's password after the attacker's failures: %d, want 201", code)
	}
	// Behind the proxy, an address searching client ids is locked out
	// alone (each client is its own address): the owner is not.
	for i := range 21 {
		postFrom(t, s, attacker, "/oauth/token", fmt.Sprintf("ninguem-%d", i), "x", grant)
	}
	if code := postFrom(t, s, attacker, "/oauth/token", "ninguem-x", "x", grant); code != http.StatusTooManyRequests {
		t.Fatalf("the searching address: %d, want 429", code)
	}
	if code := postFrom(t, s, victim, "/oauth/token", server.DemoClientID, s.Demo.ClientSecret, grant); code != http.StatusOK {
		t.Fatalf("the owner behind the same proxy: %d, want 200", code)
	}
}

// TestAbuseJumpToTheEndOfTime is hole 5: one company's jump of its clock
// through its insurance cycles kept a processor busy for minutes, the
// client waiting, and a running clock at 1,000,000x passed the 2200
// bound. Now a jump past its budget answers its progress (202) and runs
// on in batches, shown in GET /sandbox/clock; the clock cannot be moved
// again until it lands; the neighbour's calls are answered meanwhile;
// and a running clock stops at the bound.
func TestAbuseJumpToTheEndOfTime(t *testing.T) {
	t.Parallel()
	w := newInsTenantsWith(t, server.Config{ClockBudget: jobs.Budget{Jobs: 20}})
	w.implanted("A")
	// A's portal token (the demo account's) acts on A's clock: an app
	// token could expire on the clock it moves.
	req, _ := http.NewRequest(http.MethodPost, w.s.URL()+"/portal/tokens", nil)
	req.SetBasicAuth(server.DemoEmail, server.DemoPassword)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	var pat struct{ Token string }
	json.NewDecoder(resp.Body).Decode(&pat)
	resp.Body.Close()
	w.tokens["A"] = pat.Token
	began := time.Now()
	code, out := w.call("A", http.MethodPost, "/sandbox/clock/set", `{"at": "2040-01-01T00:00:00Z"}`)
	if code != http.StatusAccepted || out["jump"] == nil || field(out, "jump.done") != "false" || field(out, "jump.target") != "2040-01-01T00:00:00Z" {
		t.Fatalf("a jump of 14 years: %d %v after %v, want 202 with its progress", code, out, time.Since(began))
	}
	if code, out := w.call("A", http.MethodPost, "/sandbox/clock/advance", `{"by": "1d"}`); code != http.StatusConflict {
		t.Fatalf("another move while jumping: %d %v, want 409", code, out)
	}
	if code, out := w.call("B", http.MethodGet, "/sandbox/clock", ""); code != http.StatusOK || out["jump"] != nil || field(out, "now") != "2026-01-05T12:00:00Z" {
		t.Fatalf("the neighbour's clock during A's jump: %d %v", code, out)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		_, out = w.call("A", http.MethodGet, "/sandbox/clock", "")
		if out["jump"] == nil || time.Now().After(deadline) {
			break
		}
		if n, _ := strconv.Atoi(field(out, "jump.jobsRun")); n == 0 {
			t.Fatalf("the jump shows no progress: %v", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if out["jump"] != nil || field(out, "now") != "2040-01-01T00:00:00Z" {
		t.Fatalf("A's clock after the jump: %v", out)
	}
	// A running clock at 1,000,000x stops at the bound: 100 ms of wall
	// time is 28 hours. (B's clock: it has no jobs to run on the way.)
	w.must(http.StatusOK, "B", http.MethodPost, "/sandbox/clock/set", `{"at": "2199-12-31T00:00:00Z"}`)
	w.renew("B")
	w.must(http.StatusOK, "B", http.MethodPost, "/sandbox/clock/set", `{"mode": "1000000x"}`)
	time.Sleep(150 * time.Millisecond)
	if out := w.must(http.StatusOK, "op", http.MethodGet, "/sandbox/clocks", ""); !strings.Contains(fmt.Sprint(out), "2199-12-31T23:59:59Z") || !strings.Contains(fmt.Sprint(out), "frozen") {
		t.Fatalf("a clock at 1,000,000x past the bound: %v", out)
	}
}

// dirSize is the bytes of every file in dir.
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}

// TestAbuseFillingTheDisk is hole 3: one connection sending 900 KB
// bodies, each refused with 400, wrote 83 MB of interaction log in 10 s
// (3.4 GB a company before the cap of 50,000 requests), and one address
// made 30 accounts in 2.5 s. Now a body is logged cut at 16 KiB, a
// company's log is bounded in bytes (here 1 MiB), and an address may
// register 10 accounts an hour.
func TestAbuseFillingTheDisk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startHosted(t, server.Config{DBPath: filepath.Join(dir, "sandbox.db"), Quotas: quota.Config{LogBytes: 1 << 20, Registrations: 1},
		TrustedProxies: []string{"127.0.0.1"}}, nil)
	tok := hostedDemoToken(t, s)
	call(t, s, tok, http.MethodGet, "/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-01-02T00:00:00Z", "")
	s.Recorder.Flush()
	before := dirSize(t, dir)
	// The reproduction sent 900 KB; 70 KB, past the 64 KiB a body was
	// logged up to, shows the same growth in less of a test's time.
	body := `{"calendario": {"expiracao": 3600}, "valor": {"original": "1.00"}, "chave": "52998224725", "solicitacaoPagador": "` + strings.Repeat("x", 70_000) + `"}`
	for i := range 200 {
		if code, m := call(t, s, tok, http.MethodPut, fmt.Sprintf("/pix/v2/cob/floodfloodfloodflood%08d", i), body); code != http.StatusBadRequest {
			t.Fatalf("flood %d: %d %v", i, code, m)
		}
	}
	s.Recorder.Flush()
	grown := dirSize(t, dir) - before
	// 200 logged at 64 KiB were 13 MB; at 16 KiB within the company's
	// 1 MiB, the log stays at 1 MiB (with SQLite's write-ahead log of up
	// to 4 MB beside it).
	if grown > 8<<20 {
		t.Fatalf("200 requests of 70 KB grew the database by %d bytes, want under 8 MiB", grown)
	}
	code, list := call(t, s, tok, http.MethodGet, "/sandbox/interactions?limit=1", "")
	its, _ := list["interactions"].([]any)
	if code != 200 || len(its) != 1 {
		t.Fatalf("interactions: %d %v", code, list)
	}
	if it := its[0].(map[string]any); field(it, "truncated.requestBody") == "" || len(field(it, "requestBody")) > 16<<10 {
		t.Fatalf("the newest request as logged: truncated %v, body of %d bytes", it["truncated"], len(field(it, "requestBody")))
	}
	// Registrations: 10 an hour from one address by default (here 1),
	// then 429; another address is not held back.
	reg := func(from string, i int) int {
		return postFrom(t, s, from, "/portal/accounts", "", "", fmt.Sprintf(`{"email": "conta%d@exemplo.com.br", "password": "senha-longa-123", "company": {"cnpj": "11444777000161", "name": "Conta %d"}}`, i, i))
	}
	if code := reg("198.51.100.7", 0); code != http.StatusCreated {
		t.Fatalf("the first registration: %d", code)
	}
	if code := reg("198.51.100.7", 10); code != http.StatusTooManyRequests {
		t.Fatalf("the 2nd registration of the hour: %d, want 429", code)
	}
	if code := reg("203.0.113.9", 11); code != http.StatusCreated {
		t.Fatalf("another address's registration: %d", code)
	}
}

// registeredToken registers an account with its company and answers a
// portal API token of it, made with the registration's session (one
// password hash, not two: seconds under the race detector).
func registeredToken(t *testing.T, s *server.Server, email, cnpj string) string {
	t.Helper()
	reg := fmt.Sprintf(`{"email": %q, "password": "senha-longa-do-teste", "company": {"cnpj": %q, "name": "Empresa"}}`, email, cnpj)
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/portal/accounts", strings.NewReader(reg))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || len(resp.Cookies()) == 0 {
		t.Fatalf("register %s with %s: %d", email, cnpj, resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodPost, s.URL()+"/portal/tokens", nil)
	req.AddCookie(resp.Cookies()[0])
	req.Header.Set("Origin", s.URL())
	resp, err = http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct{ Token string }
	json.NewDecoder(resp.Body).Decode(&tok)
	if tok.Token == "" {
		t.Fatalf("a portal token for %s: %d", email, resp.StatusCode)
	}
	return tok.Token
}

// TestAbuseSquattingCNPJsAndKeys is hole 3's last: a CNPJ or a Pix key
// someone registered first answered 409 to its real owner. Now each is
// unique within its owner's own world: the owner registers its CNPJ, and
// its key, whoever has them in another.
func TestAbuseSquattingCNPJsAndKeys(t *testing.T) {
	t.Parallel()
	s := startHosted(t, server.Config{}, nil)
	const cnpj = "11444777000161"
	squatter := registeredToken(t, s, "posseiro@exemplo.com.br", cnpj)
	owner := registeredToken(t, s, "dona@exemplo.com.br", cnpj)
	appOf := func(tok string) string {
		code, m := call(t, s, tok, http.MethodPost, "/portal/apps", `{"name": "backend"}`)
		if code != http.StatusCreated {
			t.Fatalf("create app: %d %v", code, m)
		}
		return field(m, "id")
	}
	sq, own := appOf(squatter), appOf(owner)
	// The squatter takes the demo company's key and the owner's own.
	for _, chave := range []string{"52998224725", "dona@exemplo.com.br"} {
		if code, m := call(t, s, squatter, http.MethodPost, "/portal/apps/"+sq+"/pix-keys", `{"chave": "`+chave+`"}`); code/100 != 2 {
			t.Fatalf("the squatter's key %s: %d %v", chave, code, m)
		}
	}
	if code, m := call(t, s, owner, http.MethodPost, "/portal/apps/"+own+"/pix-keys", `{"chave": "dona@exemplo.com.br"}`); code/100 != 2 {
		t.Fatalf("the owner's own key, after the squatter's: %d %v", code, m)
	}
	// Within one world a key still has one holder.
	other := appOf(owner)
	if code, _ := call(t, s, owner, http.MethodPost, "/portal/apps/"+other+"/pix-keys", `{"chave": "dona@exemplo.com.br"}`); code != http.StatusConflict {
		t.Fatalf("the same key for another app of the owner's: %d, want 409", code)
	}
	// And the owner's company is its own: its CNPJ names it for it.
	if code, m := call(t, s, owner, http.MethodGet, "/portal/companies/"+cnpj, ""); code != http.StatusOK || field(m, "cnpj") != cnpj {
		t.Fatalf("the owner's company by its CNPJ: %d %v", code, m)
	}
	if code, _ := call(t, s, owner, http.MethodPost, "/portal/companies", `{"cnpj": "`+cnpj+`", "name": "De novo"}`); code != http.StatusConflict {
		t.Fatalf("the same CNPJ twice in one world: %d, want 409", code)
	}
}

// rawCall is call answering the status and the Retry-After header.
func rawCall(t *testing.T, s *server.Server, token, method, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After")
}

// TestAbuseQuotas is hole 3's quotas: a company past its quota of
// resources (here 5) is refused, in the API's dialect with Retry-After,
// and another company is not; past the storage budget every write is
// refused but a reset, which frees.
func TestAbuseQuotas(t *testing.T) {
	t.Parallel()
	s := startHosted(t, server.Config{Quotas: quota.Config{Resources: 5}, QuotaEvery: 5 * time.Millisecond}, nil)
	a, b := hostedDemoToken(t, s), secondCompany(t, s)
	refusedAt := 0
	for i := range 40 {
		code, retry := rawCall(t, s, a, http.MethodPut, fmt.Sprintf("/pix/v2/cob/quotaquotaquotaquota%08d", i), `{"valor": {"original": "1.00"}, "chave": "52998224725"}`)
		if code == http.StatusCreated {
			time.Sleep(20 * time.Millisecond) // the counts are read in the background
			continue
		}
		// The API Pix declares no 429: it says 503 ServicoIndisponivel.
		if code != http.StatusServiceUnavailable || retry == "" {
			t.Fatalf("charge %d past the quota: %d, Retry-After %q", i+1, code, retry)
		}
		refusedAt = i + 1
		break
	}
	if refusedAt == 0 || refusedAt > 7 {
		t.Fatalf("refused at charge %d, want soon after the quota of 5", refusedAt)
	}
	if code, _ := rawCall(t, s, b, http.MethodPost, "/sandbox/events/ping", ""); code != http.StatusAccepted {
		t.Fatalf("another company's write: %d", code)
	}
	// A sandbox past its storage budget (here a byte): everyone's
	// writes are refused, but not a reset.
	full := startHosted(t, server.Config{Quotas: quota.Config{Storage: 1}, QuotaEvery: 5 * time.Millisecond}, nil)
	a = hostedDemoToken(t, full)
	rawCall(t, full, a, http.MethodPost, "/sandbox/events/ping", "") // has the stores measured
	deadline := time.Now().Add(2 * time.Second)
	for {
		code, retry := rawCall(t, full, a, http.MethodPost, "/sandbox/events/ping", "")
		if code == http.StatusTooManyRequests && retry != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a write past the storage budget: %d, Retry-After %q", code, retry)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code, _ := rawCall(t, full, a, http.MethodPost, "/sandbox/reset", ""); code != http.StatusOK {
		t.Fatalf("a reset past the storage budget: %d", code)
	}
}

// tokenAs asks the token endpoint for clientID's token, in namespace ns
// ("" for the sandbox's own), and answers the status.
func tokenAs(t *testing.T, s *server.Server, ns, clientID, secret string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/oauth/token", strings.NewReader("grant_type=client_credentials"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(clientID, secret)
	if ns != "" {
		req.Header.Set("X-Homologa-Namespace", ns)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestAbuseNamespaceDemoSecrets: on a hosted sandbox anyone may make a
// namespace, whose copy of the demo app came with the sandbox's own demo
// secrets: a token for the real demo company, and its webhook secret to
// forge its deliveries. Now each namespace's demo app has secrets of its
// own, which open that namespace and nothing else.
func TestAbuseNamespaceDemoSecrets(t *testing.T) {
	t.Parallel()
	s := startHosted(t, server.Config{}, nil)
	attacker := registeredToken(t, s, "atacante@exemplo.com.br", "11444777000161")
	made := func() (ns, secret, webhookSecret string) {
		code, m := call(t, s, attacker, http.MethodPost, "/sandbox/namespaces", `{}`)
		demo, _ := m["demo"].(map[string]any)
		if code != http.StatusCreated || demo == nil {
			t.Fatalf("a namespace: %d %v", code, m)
		}
		return m["namespace"].(string), demo["clientSecret"].(string), demo["webhookSecret"].(string)
	}
	ns1, secret1, hook1 := made()
	ns2, secret2, _ := made()
	if secret1 == s.Demo.ClientSecret || hook1 == s.Demo.WebhookSecret {
		t.Fatal("a namespace's demo app answered the sandbox's own demo secrets")
	}
	if code := tokenAs(t, s, "", server.DemoClientID, secret1); code != http.StatusUnauthorized {
		t.Errorf("a namespace's demo secret outside it: %d, want 401", code)
	}
	if code := tokenAs(t, s, ns2, server.DemoClientID, secret1); code != http.StatusUnauthorized {
		t.Errorf("one namespace's demo secret in another: %d, want 401", code)
	}
	if code := tokenAs(t, s, ns1, server.DemoClientID, secret1); code != http.StatusOK {
		t.Errorf("a namespace's demo secret in it: %d, want 200", code)
	}
	if code := tokenAs(t, s, ns2, server.DemoClientID, secret2); code != http.StatusOK {
		t.Errorf("the second namespace's own secret: %d, want 200", code)
	}
}

// cnpjFrom completes twelve digits with the two check digits that make a
// valid CNPJ.
func cnpjFrom(t *testing.T, base string) string {
	t.Helper()
	for d := range 100 {
		c := fmt.Sprintf("%s%02d", base, d)
		if taxid.CheckCNPJ(c) == nil {
			return c
		}
	}
	t.Fatalf("no CNPJ completes %s", base)
	return ""
}

// TestAbuseCompaniesWithoutEnd: every quota is a company's, and one
// account registered 300 companies in half a second, then filled the
// built-in inbox every company shares. Now an account holds at most
// auth.MaxCompaniesPerAccount companies, and is told so.
func TestAbuseCompaniesWithoutEnd(t *testing.T) {
	t.Parallel()
	s := startHosted(t, server.Config{}, nil)
	tok := registeredToken(t, s, "muitas@exemplo.com.br", "11444777000161")
	for i := 1; i < auth.MaxCompaniesPerAccount; i++ {
		body := fmt.Sprintf(`{"cnpj": %q, "name": "Empresa %d"}`, cnpjFrom(t, fmt.Sprintf("2233344400%02d", i)), i)
		if code, m := call(t, s, tok, http.MethodPost, "/portal/companies", body); code != http.StatusCreated {
			t.Fatalf("company %d of %d: %d %v", i+1, auth.MaxCompaniesPerAccount, code, m)
		}
	}
	code, m := call(t, s, tok, http.MethodPost, "/portal/companies", fmt.Sprintf(`{"cnpj": %q, "name": "Uma a mais"}`, cnpjFrom(t, "223334449999")))
	if code != http.StatusTooManyRequests || !strings.Contains(fmt.Sprint(m), "empresas") {
		t.Fatalf("company %d: %d %v, want 429 saying the account's limit", auth.MaxCompaniesPerAccount+1, code, m)
	}
}

// TestAbuseInboxCrowding: the built-in inbox every company shares has a
// sandbox-wide bound, and 135 companies of one account filled it: the
// bound then refused every other company's deliveries. Now room is made
// from the company holding the most, so the one filling it crowds out
// only itself, and a company holding little keeps its records and gets
// new ones.
func TestAbuseInboxCrowding(t *testing.T) {
	t.Parallel()
	s := startHosted(t, server.Config{Quotas: quota.Config{InboxTotal: 28 << 10, InboxBytes: 27 << 10}}, nil)
	victim, attacker := hostedDemoToken(t, s), registeredToken(t, s, "enche@exemplo.com.br", "11444777000161")
	post := func(token, name, body string) int {
		_, u := box(t, s, token, name)
		return rawPost(t, s.URL()+strings.TrimPrefix(u, hostedURL), body)
	}
	kb := strings.Repeat("x", 1<<10)
	if code := post(victim, "vitima", `{"primeiro":"`+kb+`"}`); code != http.StatusOK {
		t.Fatalf("the victim's first record: %d", code)
	}
	for i := range 60 {
		if code := post(attacker, "enche", fmt.Sprintf(`{"n":%d,"pad":%q}`, i, kb)); code != http.StatusOK {
			t.Fatalf("the attacker's post %d: %d (its own oldest make room)", i, code)
		}
	}
	if code := post(victim, "vitima", `{"segundo":"`+kb+`"}`); code != http.StatusOK {
		t.Fatalf("the victim's delivery with the inbox full of the attacker's: %d, want 200", code)
	}
	got, _ := box(t, s, victim, "vitima")
	if len(got) != 2 {
		t.Fatalf("the victim's box holds %d records, want both of its own", len(got))
	}
}
