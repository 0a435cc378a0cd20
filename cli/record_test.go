package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"homologa/cli"
	"homologa/harness"
	"homologa/harness/partner"
	"homologa/simulator/server"
)

// refPartner drives the reference partner as the demo app of a sandbox.
type refPartner struct {
	t       *testing.T
	p       *partner.Partner
	sandbox string
}

func startRefPartner(t *testing.T, sandbox string) *refPartner {
	t.Helper()
	p := partner.New(partner.Config{})
	if err := p.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return &refPartner{t: t, p: p, sandbox: sandbox}
}

// act asks the partner to do one of its actions and decodes its answer.
func (r *refPartner) act(action string, body map[string]any) map[string]any {
	r.t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, r.p.URL()+"/actions/"+action, bytes.NewReader(raw))
	req.Header.Set(partner.HeaderSandbox, r.sandbox)
	req.Header.Set(partner.HeaderClientID, cli.DemoClientID)
	req.Header.Set(partner.HeaderClientSecret, cli.DemoClientSecret)
	req.Header.Set(partner.HeaderWebhookSecret, server.DemoWebhookSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	var out map[string]any
	decodeBody(r.t, resp, &out)
	return out
}

// waitState waits until the partner's state for the demo app satisfies ok.
func (r *refPartner) waitState(what string, ok func(partner.State) bool) partner.State {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st := r.p.State(cli.DemoClientID)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the partner did not %s within 20 s: %+v", what, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// recordSession is a session of the reference partner's daily loop on a
// sandbox: onboarding, a charge the payer pays (homologa trigger, as the
// other side), its reconciliation, a refund the PSP settles; recorded
// with homologa record into a folder.
func recordSession(t *testing.T) (dir, feature string) {
	t.Helper()
	s := startSandbox(t, server.Config{})
	rp := startRefPartner(t, s.URL())
	start := time.Now()
	rp.act("onboard", map[string]any{"chave": "52998224725"})
	txid := rp.act("create-cob", map[string]any{"valor": "10.00", "chave": "52998224725"})["txid"].(string)
	if code, _, errOut := trigger(t, s.URL(), "pix.recebido", "--resource", txid); code != 0 {
		t.Fatalf("paying %s: %s", txid, errOut)
	}
	st := rp.waitState("reconcile its charge", func(st partner.State) bool { return slices.Contains(st.Reconciled, txid) })
	id := rp.act("refund", map[string]any{"e2eid": st.Payments[0].EndToEndID, "valor": "1.00"})["id"].(string)
	rp.waitState("see its refund done", func(st partner.State) bool { return slices.Contains(st.Refunded, id) })
	time.Sleep(300 * time.Millisecond) // the partner's last read of the refund

	dir = t.TempDir()
	out := filepath.Join(dir, "session.feature")
	code, stdout, errOut := run(t, "record", "--sandbox", s.URL(), "--since", start.Format(time.RFC3339Nano), "--out", out)
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, "Recorded") {
		t.Errorf("record says nothing of what it wrote: %q", stdout)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(text)
}

// run runs a cli command to its end.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	out, errOut := newOutput(), newOutput()
	code := cli.MainEnv(context.Background(), args, func(string) string { return "" }, out, errOut)
	return code, out.String(), errOut.String()
}

// replay runs a folder of features against a sandbox with the contract
// runner, as homologa test --features does.
func replay(t *testing.T, dir, sandbox string) (*harness.Report, string) {
	t.Helper()
	var out bytes.Buffer
	rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
		Partner: &harness.Partner{Name: "(no partner: features only)"}, SandboxURL: sandbox, FeaturesDir: dir,
		Format: "pretty", Output: &out, ReportDir: t.TempDir(), Concurrency: 2})
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, out.String())
	}
	return rep, out.String()
}

// TestRecordedSessionReplays: the reference partner's session, recorded,
// is a feature of documented steps with a Background and a scenario per
// flow, without the app's secrets; it passes against a fresh sandbox,
// and fails against one whose refunds fail (a fault that changes what it
// recorded).
func TestRecordedSessionReplays(t *testing.T) {
	dir, feature := recordSession(t)
	t.Logf("the recorded feature:\n%s", feature)
	for _, want := range []string{"Feature: ", "  Background:", "  Scenario: ", `I send "PUT" to "/pix/v2/cob/`, `I send "POST" to "/sandbox/pix/payments" with JSON:`,
		`the stream delivers a "pix.recebido" event`, `the stream delivers a "pix.devolucao" event`, `I remember the `, "${endToEndId}", "${receiverUrl}"} {
		if !strings.Contains(feature, want) {
			t.Errorf("the feature lacks %q", want)
		}
	}
	for _, secret := range []string{cli.DemoClientSecret, server.DemoWebhookSecret, "Bearer "} {
		if strings.Contains(feature, secret) {
			t.Errorf("the feature holds a secret: %q", secret)
		}
	}

	rep, out := replay(t, dir, startSandbox(t, server.Config{}).URL())
	if rep.Failed != 0 || rep.Passed == 0 {
		t.Fatalf("against a fresh sandbox: %d passed, %d failed\n%s", rep.Passed, rep.Failed, out)
	}

	rep, out = replay(t, dir, startSandbox(t, server.Config{ScenariosDir: failingRefunds(t)}).URL())
	if rep.Failed == 0 {
		t.Fatalf("against a sandbox whose refunds fail the recording passed:\n%s", out)
	}
	if !strings.Contains(out, "DEVOLVIDO") {
		t.Errorf("the failure does not name the recorded status:\n%s", out)
	}
}

// TestRecordedSaleOnAFrozenClock: a session on a frozen clock (a sale
// made by homologa trigger, the insurer's analysis made through the
// control API, the clock advanced, the proposal read) is recorded with
// its clock: the feature freezes the clock where the session did,
// advances it as the session did, replays the analysis as control
// actions, reuses the proposal number the sandbox made, and passes
// against a fresh sandbox.
func TestRecordedSaleOnAFrozenClock(t *testing.T) {
	s := startSandbox(t, server.Config{})
	c := demo(t, s.URL())
	ctx := context.Background()
	if err := c.Call(ctx, http.MethodPost, "/sandbox/clock/set", map[string]any{"at": "2026-03-02T12:00:00Z", "mode": "frozen"}, nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, out, errOut := trigger(t, s.URL(), "proposta.implantada")
	if code != 0 {
		t.Fatalf("trigger: %s", errOut)
	}
	numero := regexp.MustCompile(`numeroProposta=(\d+)`).FindStringSubmatch(out)[1]
	if err := c.Call(ctx, http.MethodPost, "/sandbox/clock/advance", map[string]any{"by": "1h"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, http.MethodGet, "/insurer/v1/proposta/"+numero, nil, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	code, _, errOut = run(t, "record", "--sandbox", s.URL(), "--since", start.Format(time.RFC3339Nano), "--out", filepath.Join(dir, "venda.feature"))
	if code != 0 {
		t.Fatalf("record: %s", errOut)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "venda.feature"))
	feature := string(text)
	t.Logf("the recorded feature:\n%s", feature)
	for _, want := range []string{`Given my clock is frozen at "2026-03-02T12:00:00Z"`, `I advance the clock by "1h"`, `I send "POST" to "/sandbox/actions/proposta" with JSON:`,
		`"status": "APROVADA"`, `I send "GET" to "/insurer/v1/proposta/${numeroProposta}"`, `the stream delivers a "proposta.implantada" event`} {
		if !strings.Contains(feature, want) {
			t.Errorf("the feature lacks %q", want)
		}
	}
	rep, report := replay(t, dir, startSandbox(t, server.Config{}).URL())
	if rep.Failed != 0 || rep.Passed == 0 {
		t.Fatalf("against a fresh sandbox: %d passed, %d failed\n%s", rep.Passed, rep.Failed, report)
	}
}

// pythonPartner starts the Python example partner (harness/examples/python)
// as the demo app of a sandbox, or skips the test without python3 (fails
// it when HOMOLOGA_REQUIRE_PYTHON is set, as the harness's example test).
func pythonPartner(t *testing.T, sandbox string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		msg := "PYTHON EXAMPLE PARTNER DID NOT RUN: no python3 on PATH"
		if os.Getenv("HOMOLOGA_REQUIRE_PYTHON") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command(py, "partner.py")
	cmd.Dir = "../harness/examples/python"
	cmd.Env = append(os.Environ(), "PIX_API_URL="+sandbox, "PIX_CLIENT_ID="+cli.DemoClientID, "PIX_CLIENT_SECRET="+cli.DemoClientSecret,
		"PIX_WEBHOOK_SECRET="+server.DemoWebhookSecret, "PIX_KEY="+server.DemoCNPJ, "LISTEN_HOST=127.0.0.1", "LISTEN_PORT="+port)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := "http://127.0.0.1:" + port
	for deadline := time.Now().Add(15 * time.Second); ; {
		if resp, err := http.Get(base + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("partner.py did not get ready within 15 s:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pyCall calls the Python partner's own API.
func pyCall(t *testing.T, method, url string, body any, out any) {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	decodeBody(t, resp, out)
}

// TestRecordedPythonPartner: the Python example partner's run (its
// setup, a charge paid by the payer, reconciled, refunded), recorded with
// homologa record, passes as a feature against a fresh sandbox and fails
// against one whose refunds fail.
func TestRecordedPythonPartner(t *testing.T) {
	s := startSandbox(t, server.Config{})
	py := pythonPartner(t, s.URL())
	start := time.Now()
	pyCall(t, http.MethodPost, py+"/internal/pix/setup", map[string]any{"pixKey": server.DemoCNPJ}, &map[string]any{})
	var charge struct {
		Charge struct{ ID string } `json:"charge"`
	}
	pyCall(t, http.MethodPost, py+"/internal/charges", map[string]any{"amount": "25.00"}, &charge)
	if code, _, errOut := trigger(t, s.URL(), "pix.recebido", "--resource", charge.Charge.ID); code != 0 {
		t.Fatalf("paying %s: %s", charge.Charge.ID, errOut)
	}
	type ledger struct {
		Charges  []struct{ ID, Status string } `json:"charges"`
		Bookings []struct {
			E2E string `json:"e2eId"`
		} `json:"bookings"`
		Refunds []struct{ ID, Status string } `json:"refunds"`
	}
	wait := func(what string, ok func(ledger) bool) ledger {
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			var l ledger
			pyCall(t, http.MethodGet, py+"/internal/ledger", nil, &l)
			if ok(l) {
				return l
			}
			if time.Now().After(deadline) {
				t.Fatalf("partner.py did not %s within 20 s: %+v", what, l)
			}
		}
	}
	l := wait("settle its charge", func(l ledger) bool {
		return len(l.Charges) == 1 && l.Charges[0].Status == "SETTLED" && len(l.Bookings) == 1
	})
	pyCall(t, http.MethodPost, py+"/internal/refunds", map[string]any{"paymentId": l.Bookings[0].E2E, "amount": "5.00"}, &map[string]any{})
	wait("see its refund done", func(l ledger) bool { return len(l.Refunds) == 1 && l.Refunds[0].Status == "DEVOLVIDO" })
	time.Sleep(300 * time.Millisecond)

	dir := t.TempDir()
	if code, _, errOut := run(t, "record", "--sandbox", s.URL(), "--since", start.Format(time.RFC3339Nano), "--out", filepath.Join(dir, "python.feature")); code != 0 {
		t.Fatalf("record: %s", errOut)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "python.feature"))
	t.Logf("the recorded feature:\n%s", text)
	rep, out := replay(t, dir, startSandbox(t, server.Config{}).URL())
	if rep.Failed != 0 || rep.Passed == 0 {
		t.Fatalf("against a fresh sandbox: %d passed, %d failed\n%s", rep.Passed, rep.Failed, out)
	}
	rep, out = replay(t, dir, startSandbox(t, server.Config{ScenariosDir: failingRefunds(t)}).URL())
	if rep.Failed == 0 {
		t.Fatalf("against a sandbox whose refunds fail the recording passed:\n%s", out)
	}
}

// failingRefunds is a scenarios folder whose default refund fails: a
// sandbox with it changes what a recorded refund did.
func failingRefunds(t *testing.T) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "devolucao-padrao.yaml"), []byte("id: devolucao-padrao\ntitle: Every refund fails\napplies_to: devolucao\ndefault: true\nsteps:\n  - after: 5s\n    fail: {reason: Saldo insuficiente}\n"), 0o644)
	return dir
}
