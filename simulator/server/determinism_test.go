package server_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"homologa/simulator/server"
	"homologa/simulator/store"
)

var crc = regexp.MustCompile(`6304[0-9A-F]{4}"`)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/scenario-determinism.golden")

// scenarioRun drives one frozen, deterministic sandbox through a scenario
// with jitter (cob-paga-em-30s, seed 1), a refund and its default scenario,
// and returns every answer and every event. Both runs listen on the same
// address; in the golden file the address and the BR Codes' CRCs (which
// cover it) are masked, the only bytes a run does not choose.
func scenarioRun(t *testing.T, addr string) string {
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: addr, Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC),
		IDs: &store.SequentialIDs{}, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	call := func(method, path, body, scenario string) {
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		if scenario != "" {
			req.Header.Set("X-Sandbox-Scenario", scenario)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Fprintf(&out, "%s %s → %d\n%s\n", method, path, resp.StatusCode, b)
	}
	call("PUT", "/pix/v2/cob/deterministadeterministadet01", `{"valor":{"original":"12.34"},"chave":"52998224725"}`, "cob-paga-em-30s")
	call("POST", "/pix/v2/cob", `{"valor":{"original":"1.01"},"chave":"52998224725"}`, "")
	call("POST", "/sandbox/clock/advance", `{"by":"45s"}`, "")
	call("GET", "/pix/v2/cob/deterministadeterministadet01", "", "")
	call("GET", "/pix/v2/pix?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z", "", "")
	call("GET", "/sandbox/scenarios/bindings", "", "")
	call("GET", "/sandbox/events?limit=100", "", "")
	return out.String()
}

// The same scenario, seed and requests under a frozen clock give
// byte-identical answers and events, run after run (golden file).
func TestScenarioDeterminism(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	first, second := scenarioRun(t, addr), scenarioRun(t, addr)
	if first != second {
		t.Fatalf("two runs differ:\n%s\n----\n%s", first, second)
	}
	first = crc.ReplaceAllString(strings.ReplaceAll(first, addr, "HOST"), `6304CRC"`)
	const golden = "testdata/scenario-determinism.golden"
	if *updateGolden {
		if err := os.WriteFile(golden, []byte(first), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./simulator/server -run TestScenarioDeterminism -update-golden writes it)", err)
	}
	if string(want) != first {
		t.Fatalf("the run differs from %s:\n%s", golden, first)
	}
	if !strings.Contains(first, `"status":"CONCLUIDA"`) || strings.Count(first, "pix.recebido") < 1 {
		t.Fatalf("the scenarios did not run:\n%s", first)
	}
}
