package auth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/httpx"
)

// fakeWall is a wall clock a test moves by hand.
type fakeWall struct {
	mu  sync.Mutex
	now time.Time
}

func newWall() *fakeWall { return &fakeWall{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (f *fakeWall) Now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }

func (f *fakeWall) Advance(d time.Duration) { f.mu.Lock(); f.now = f.now.Add(d); f.mu.Unlock() }

func TestThrottleLocksOutAfterTheLimit(t *testing.T) {
	wall := newWall()
	th := &auth.Throttle{Limit: 3, Lockout: 10 * time.Second, MaxLockout: 40 * time.Second, Now: wall.Now}
	steps := []struct {
		advance time.Duration
		wait    time.Duration // after this failure
	}{
		{0, 0}, {0, 0},
		{0, 10 * time.Second},                // the limit: the first lockout
		{10 * time.Second, 20 * time.Second}, // each failure after it doubles it
		{20 * time.Second, 40 * time.Second},
		{40 * time.Second, 40 * time.Second}, // capped
	}
	for i, st := range steps {
		wall.Advance(st.advance)
		if got := th.Wait("app-1"); got != 0 {
			t.Fatalf("failure %d: waited %v before it, want none (the lockout is over)", i+1, got)
		}
		if got := th.Fail("app-1"); got != st.wait {
			t.Fatalf("failure %d: wait %v, want %v", i+1, got, st.wait)
		}
		if got := th.Wait("app-1"); got != st.wait {
			t.Fatalf("failure %d: Wait %v, want %v", i+1, got, st.wait)
		}
	}
	if got := th.Wait("app-2"); got != 0 {
		t.Fatalf("another key waits %v", got)
	}
	th.Succeed("app-1")
	if got, n := th.Wait("app-1"), th.Len(); got != 0 || n != 0 {
		t.Fatalf("after a success: wait %v, %d keys remembered", got, n)
	}
	if got := th.Fail("app-1"); got != 0 {
		t.Fatalf("a success resets the count: the next failure waits %v", got)
	}
}

func TestThrottleForgetsOldFailures(t *testing.T) {
	wall := newWall()
	th := &auth.Throttle{Limit: 3, Forget: time.Minute, Now: wall.Now}
	th.Fail("a")
	th.Fail("a")
	wall.Advance(time.Minute)
	th.Fail("b") // any failure sweeps the forgotten keys
	if n := th.Len(); n != 1 {
		t.Fatalf("%d keys remembered, want only b", n)
	}
	th.Fail("a")
	if got := th.Fail("a"); got != 0 {
		t.Fatalf("a started afresh: two failures wait %v", got)
	}
}

func TestThrottleMemoryIsBounded(t *testing.T) {
	wall := newWall()
	th := &auth.Throttle{Limit: 1, MaxKeys: 100, Now: wall.Now}
	for i := range 10_000 {
		th.Fail(fmt.Sprint("addr-", i))
	}
	if n := th.Len(); n != 100 {
		t.Fatalf("%d keys remembered, want 100", n)
	}
	if th.Wait("addr-9999") == 0 || th.Wait("addr-0") != 0 {
		t.Fatal("the least recently failed keys are the ones forgotten")
	}
}

// loopbackProxy trusts loopback as a proxy, so that a test's requests
// come from the address their X-Forwarded-For names.
var loopbackProxy, _ = httpx.ParseProxies([]string{"127.0.0.0/8", "::1"})

// tokenServer serves the token endpoint of svc in its dialect, behind a
// trusted proxy on loopback.
func tokenServer(t *testing.T, svc *auth.Service) string {
	t.Helper()
	apis := []httpx.API{{Prefix: "/oauth/token", Name: "oauth", Dialect: httpx.OAuth{}}}
	srv := httptest.NewServer(loopbackProxy.Middleware(httpx.Outer(apis, 0, nil, httpx.HandlerFunc(svc.TokenHandler))))
	t.Cleanup(srv.Close)
	return srv.URL + "/oauth/token"
}

// askToken runs the client-credentials grant and answers the status, the
// Retry-After header and the OAuth error, if any.
func askToken(t *testing.T, endpoint, id, secret string) (int, string, string) {
	return askTokenFrom(t, endpoint, "", id, secret)
}

// askTokenFrom is askToken from the address from ("" for loopback).
func askTokenFrom(t *testing.T, endpoint, from, id, secret string) (int, string, string) {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if from != "" {
		req.Header.Set("X-Forwarded-For", from)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var body struct{ Error, ErrorDescription string }
	json.Unmarshal(b, &body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), body.Error
}

func TestTokenEndpointThrottlesGuesses(t *testing.T) {
	ctx := context.Background()
	svc := newService(t)
	wall := newWall()
	svc.ClientGuesses, svc.AddrGuesses = &auth.Throttle{Now: wall.Now}, &auth.Throttle{Limit: 20, Now: wall.Now}
	for _, c := range []struct{ cnpj, client string }{{"11222333000181", "a"}, {"11444777000161", "b"}} {
		if _, err := svc.CreateCompany(ctx, c.cnpj, "Co "+c.client); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CreateApp(ctx, auth.NewApp{Company: c.cnpj, Name: c.client, ClientID: c.client, ClientSecret: c.client + "-secret-secret"}); err != nil {
			t.Fatal(err)
		}
	}
	endpoint := tokenServer(t, svc)
	expect := func(t *testing.T, id, secret string, status int, retry, oauthErr string) {
		t.Helper()
		if s, r, e := askToken(t, endpoint, id, secret); s != status || r != retry || e != oauthErr {
			t.Fatalf("%s: got %d Retry-After %q %q, want %d %q %q", id, s, r, e, status, retry, oauthErr)
		}
	}

	t.Run("OKManyTokensInParallel", func(t *testing.T) {
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() { expect(t, "a", "a-secret-secret", 200, "", "") })
		}
		wg.Wait()
	})
	t.Run("ErrWrongSecrets", func(t *testing.T) {
		for range 10 {
			expect(t, "a", "guess", 401, "", "invalid_client")
		}
		expect(t, "a", "guess", 429, "10", "temporarily_unavailable")
		// Locked out, the right secret is not even checked from the
		// address that guessed; from another, the owner gets its token,
		// and its own count is its own.
		expect(t, "a", "a-secret-secret", 429, "10", "temporarily_unavailable")
		if s, _, _ := askTokenFrom(t, endpoint, "198.51.100.20", "a", "a-secret-secret"); s != 200 {
			t.Fatalf("the owner, from another address, after someone's failures: %d, want 200", s)
		}
		if s, _, _ := askTokenFrom(t, endpoint, "198.51.100.20", "a", "guess"); s != 401 {
			t.Fatalf("the owner's own first mistake: %d, want 401", s)
		}
		// The lockout is the client's: another app is not slowed.
		expect(t, "b", "b-secret-secret", 200, "", "")
		// The sandbox's clock is not the throttle's.
		svc.Clocks.Default.Advance(24 * time.Hour)
		expect(t, "a", "a-secret-secret", 429, "10", "temporarily_unavailable")
		wall.Advance(10 * time.Second)
		expect(t, "a", "guess", 401, "", "invalid_client")
		expect(t, "a", "guess", 429, "20", "temporarily_unavailable")
		wall.Advance(20 * time.Second)
		expect(t, "a", "a-secret-secret", 200, "", "")
		expect(t, "a", "guess", 401, "", "invalid_client") // the success reset the count
	})
	t.Run("ErrUnknownClientIDs", func(t *testing.T) {
		for i := range 20 {
			expect(t, fmt.Sprint("nobody-", i), "x", 401, "", "invalid_client")
		}
		expect(t, "nobody-else", "x", 429, "10", "temporarily_unavailable")
		// The address's lockout is for client ids no app has.
		expect(t, "b", "b-secret-secret", 200, "", "")
	})
}
