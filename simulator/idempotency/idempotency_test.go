package idempotency_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/httpx"
	"homologa/simulator/idempotency"
	"homologa/simulator/store"
)

func TestKeys(t *testing.T) {
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clk := clock.New(clock.Frozen, 0, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	keys := &idempotency.Keys{DB: db, Clocks: clock.NewClocks(clk)}
	var calls atomic.Int32
	release := make(chan struct{})
	// The caller, as authentication would name it: the app of the
	// request's X-Test-App ("" for a request of no caller).
	asCaller := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			httpx.InfoOf(r.Context()).AppID = r.Header.Get("X-Test-App")
			next.ServeHTTP(w, r)
		})
	}
	h := httpx.Outer(nil, 0, nil, asCaller(keys.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if r.URL.Path == "/slow" {
			<-release
		}
		if r.URL.Path == "/fail" {
			w.WriteHeader(503)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		io.WriteString(w, `{"n":`+string(rune('0'+n))+`}`)
	}))))
	sendAs := func(app, path, key, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		r.Header.Set("X-Test-App", app)
		if key != "" {
			r.Header.Set("Idempotency-Key", key)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	send := func(path, key, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		r.Header.Set("X-Test-App", "app-a")
		if key != "" {
			r.Header.Set("Idempotency-Key", key)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}

	first := send("/x", "k1", `{"a": 1}`)
	again := send("/x", "k1", `{"a":1}`) // the same JSON, other whitespace
	if again.Code != 201 || again.Body.String() != first.Body.String() || again.Header().Get("Idempotent-Replayed") != "true" || calls.Load() != 1 {
		t.Fatalf("replay: %d %q %v calls=%d", again.Code, again.Body, again.Header(), calls.Load())
	}
	if w := send("/x", "k1", `{"a":2}`); w.Code != 422 {
		t.Fatalf("same key, other body: %d", w.Code)
	}
	if w := send("/y", "k1", `{"a":1}`); w.Code != 422 {
		t.Fatalf("same key, other path: %d", w.Code)
	}
	if w := send("/x", "", `{"a":1}`); w.Code != 201 || calls.Load() != 2 {
		t.Fatalf("no key: %d calls=%d", w.Code, calls.Load())
	}
	if w := send("/x", strings.Repeat("k", 256), `{}`); w.Code != 400 {
		t.Fatalf("a 256-character key: %d", w.Code)
	}
	// A 5xx is not kept: the retry does the work.
	send("/fail", "k2", `{}`)
	if w := send("/fail", "k2", `{}`); w.Header().Get("Idempotent-Replayed") != "" || calls.Load() != 4 {
		t.Fatalf("a 5xx was replayed: calls=%d", calls.Load())
	}

	// A retry while the first is running is a 409.
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- send("/slow", "k3", `{}`) }()
	for calls.Load() != 5 {
		time.Sleep(time.Millisecond)
	}
	if w := send("/slow", "k3", `{}`); w.Code != 409 || w.Header().Get("Retry-After") == "" {
		t.Fatalf("concurrent retry: %d", w.Code)
	}
	close(release)
	if w := <-done; w.Code != 201 {
		t.Fatalf("first of the concurrent pair: %d", w.Code)
	}

	// Keys expire after 24 hours of sandbox time.
	clk.Advance(24*time.Hour + time.Second)
	if w := send("/x", "k1", `{"a":2}`); w.Code != 201 || w.Header().Get("Idempotent-Replayed") != "" {
		t.Fatalf("expired key: %d %v", w.Code, w.Header())
	}

	// A key is its caller's: another app's same key and body is a
	// request of its own, and a request of no caller keeps no answer.
	before := calls.Load()
	if w := sendAs("app-b", "/x", "k1", `{"a":1}`); w.Code != 201 || w.Header().Get("Idempotent-Replayed") != "" || calls.Load() != before+1 {
		t.Fatalf("another caller's same key: %d replayed=%q calls=%d", w.Code, w.Header().Get("Idempotent-Replayed"), calls.Load())
	}
	for range 2 {
		if w := sendAs("", "/x", "k-public", `{"a":1}`); w.Code != 201 || w.Header().Get("Idempotent-Replayed") != "" {
			t.Fatalf("a request of no caller: %d replayed=%q", w.Code, w.Header().Get("Idempotent-Replayed"))
		}
	}
}
