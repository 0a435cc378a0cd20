package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"homologa/simulator/retention"
	"homologa/simulator/server"
)

// newRetentionTenants is two companies, as newInsTenants makes them, on a
// sandbox that keeps seven days and prunes every hour: any pruning the
// test sees within seconds is the one a clock move set off.
func newRetentionTenants(t *testing.T) *insTenants {
	start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	s := startServer(t, server.Config{Clock: "frozen", ClockStart: start, Retention: retention.Config{Age: 7 * 24 * time.Hour, Every: time.Hour}})
	t.Cleanup(func() { s.Close(context.Background()) })
	w := &insTenants{t: t, s: s, tokens: map[string]string{}}
	code, body := tenantCall(t, s, testOperator, "POST", "/sandbox/namespaces", "")
	var ns struct{ Namespace string }
	if err := json.Unmarshal([]byte(body), &ns); err != nil || code != 201 || ns.Namespace == "" {
		t.Fatalf("a namespace for B: %d %s", code, body)
	}
	w.ns = ns.Namespace
	w.renew("A")
	w.renew("B")
	return w
}

// txidsIn lists the txids the events and the recorded requests of who's
// company name.
func txidsIn(w *insTenants, who string) (events, requests string) {
	w.t.Helper()
	for _, e := range w.must(200, who, "GET", "/sandbox/events?limit=1000", "")["events"].([]any) {
		events += " " + e.(map[string]any)["subject"].(map[string]any)["txid"].(string)
	}
	for _, it := range w.must(200, who, "GET", "/sandbox/interactions?limit=1000", "")["interactions"].([]any) {
		requests += " " + it.(map[string]any)["path"].(string)
	}
	return events, requests
}

// A company that moves its clock ten days sees, at once, its events,
// recorded requests and expired charges older than the seven days kept
// go, through the public API; what it does afterwards stays, and the
// other company, whose clock did not move, keeps everything.
func TestRetentionFollowsEachCompanysClock(t *testing.T) {
	t.Parallel()
	w := newRetentionTenants(t)
	const old, current, other = "oldoldoldoldoldoldoldoldold01", "currentcurrentcurrentcurren01", "otherotherotherotherotherot01"
	cob := `{"calendario":{"expiracao":3600},"valor":{"original":"10.00"},"chave":"52998224725"}`
	w.must(201, "A", "PUT", "/pix/v2/cob/"+old, cob)
	w.must(201, "B", "PUT", "/pix/v2/cob/"+other, cob)
	w.advance("A", "10d")
	w.must(201, "A", "PUT", "/pix/v2/cob/"+current, cob)

	deadline := time.Now().Add(10 * time.Second)
	var events, requests string
	for {
		events, requests = txidsIn(w, "A")
		if !strings.Contains(events, old) && !strings.Contains(requests, old) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if strings.Contains(events, old) || !strings.Contains(events, current) {
		t.Errorf("company A's events name%s; want %s gone and %s kept", events, old, current)
	}
	if strings.Contains(requests, old) || !strings.Contains(requests, current) {
		t.Errorf("company A's requests are%s; want the PUT of %s gone and that of %s kept", requests, old, current)
	}
	if code, _ := w.call("A", "GET", "/pix/v2/cob/"+old, ""); code != 404 {
		t.Errorf("GET the expired charge of ten days ago: %d, want 404", code)
	}
	if code, _ := w.call("A", "GET", "/pix/v2/cob/"+current, ""); code != 200 {
		t.Errorf("GET the current charge: %d, want 200", code)
	}
	events, requests = txidsIn(w, "B")
	if !strings.Contains(events, other) || !strings.Contains(requests, other) {
		t.Errorf("company B, whose clock did not move, lost its event or request: events%s, requests%s", events, requests)
	}
	if code, _ := w.call("B", "GET", "/pix/v2/cob/"+other, ""); code != 200 {
		t.Errorf("company B's charge: %d, want 200", code)
	}
}

func TestRetentionFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		env  map[string]string
		msg  string
	}{
		{[]string{"--retention-age", "7x"}, nil, `invalid value "7x" for flag -retention-age: want a duration such as 7d`},
		{[]string{"--retention-age", "-1d"}, nil, "flag -retention-age"},
		{[]string{"--retention-rows", "-5"}, nil, `invalid value "-5" for flag -retention-rows: want a whole number of rows, 0 for no cap`},
		{[]string{"--retention-log", "many"}, nil, "flag -retention-log: want a whole number"},
		{[]string{"--retention-every", "0"}, nil, "flag -retention-every: want a duration of a second or more"},
		{nil, map[string]string{"HOMOLOGA_RETENTION_AGE": "a week"}, "HOMOLOGA_RETENTION_AGE: want a duration"},
		{nil, map[string]string{"HOMOLOGA_RETENTION_ROWS": "1e3"}, "HOMOLOGA_RETENTION_ROWS: want a whole number"},
		{nil, map[string]string{"HOMOLOGA_RETENTION_LOG": "-1"}, "HOMOLOGA_RETENTION_LOG: want a whole number"},
		{nil, map[string]string{"HOMOLOGA_RETENTION_EVERY": "10ms"}, "HOMOLOGA_RETENTION_EVERY: want a duration of a second or more"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		code := server.Main(context.Background(), tt.args, func(k string) string { return tt.env[k] }, io.Discard, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("homologa %v (env %v) = %d %q, want 2 containing %q", tt.args, tt.env, code, stderr.String(), tt.msg)
		}
	}
	// Good values start the sandbox, from the flags and the environment.
	_, stop := runMain(t, []string{"--retention-age", "0", "--retention-rows", "0", "--retention-every", "1m"},
		map[string]string{"HOMOLOGA_ADDR": freeAddr(t), "HOMOLOGA_RETENTION_AGE": "36h", "HOMOLOGA_RETENTION_LOG": "10"})
	if code := stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
