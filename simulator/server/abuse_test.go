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
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"homologa/simulator/server"
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
	cfg.PublicURL = hostedURL
	cfg.WebhookLookup = func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	if d != nil {
		cfg.WebhookDialControl = d.control
	}
	s := startServer(t, cfg)
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
