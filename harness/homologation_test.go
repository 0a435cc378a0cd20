package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"homologa/harness"
	"homologa/harness/partner"
	"homologa/simulator/browsertest"
	"homologa/simulator/server"
)

// partnerFile is the reference partner's file, as a partner would write
// theirs: where its actions are.
func partnerFile(t *testing.T, url string) *harness.Partner {
	t.Helper()
	path := filepath.Join(t.TempDir(), "partner.yaml")
	src := `name: Parceiro de referência
url: ` + url + `
flows: [cob, cobv, lotecobv, conciliacao, devolucao, rec, solicrec, cobr, venda, pendencia-proposta, beneficio, pendencia-beneficio]
widgets: [cartao]
actions:
  onboard: {method: POST, path: /actions/onboard, body: {chave: "${chave}"}}
  create-cob: {method: POST, path: /actions/create-cob, body: {valor: "${valor}", chave: "${chave}", devedor: "${devedor}"}}
  create-cob-auto: {method: POST, path: /actions/create-cob-auto, body: {valor: "${valor}", chave: "${chave}"}}
  create-cobv: {method: POST, path: /actions/create-cobv, body: {valor: "${valor}", chave: "${chave}", vencimento: "${vencimento}", devedor: "${devedor}"}}
  create-lotecobv: {method: POST, path: /actions/create-lotecobv, body: {chave: "${chave}", vencimento: "${vencimento}", cobrancas: "${cobrancas}"}}
  refund: {method: POST, path: /actions/refund, body: {e2eid: "${e2eid}", valor: "${valor}"}}
  request-signature: {method: POST, path: /actions/request-signature, body: {cpf: "${cpf}"}}
  sell: {method: POST, path: /actions/sell, body: {cpf: "${cpf}", codigo: "${codigo}", offer: "${offer}"}}
  create-rec: {method: POST, path: /actions/create-rec, body: {cpf: "${cpf}", valor: "${valor}"}}
  notify-benefit: {method: POST, path: /actions/notify-benefit, body: {numeroProposta: "${numeroProposta}", cpf: "${cpf}"}}
  reconcile: {method: POST, path: /actions/reconcile, body: {inicio: "${inicio}", fim: "${fim}"}}
  state: {method: GET, path: /state}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := harness.LoadPartner(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// refScopes are the scopes of the flows partnerFile declares, due-date
// charges among them.
const refScopes = partner.Scopes + " " + partner.DueDateScopes

// runningSandbox is a long-running sandbox (real clock, demo app), as a
// partner's homologa test --sandbox URL meets it.
func runningSandbox(t *testing.T) *server.Server {
	t.Helper()
	s, err := server.New(context.Background(), server.Config{Addr: "127.0.0.1:0", Log: io.Discard, OperatorToken: browsertest.OperatorToken})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

func startPartner(t *testing.T, defect string) *partner.Partner {
	t.Helper()
	p := partner.New(partner.Config{Defect: defect, Log: io.Discard, Scopes: refScopes})
	if err := p.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// The reference partner, written as a careful partner would, passes every
// homologation check, in parallel, and the report says it is ready.
func TestHomologationPassesTheReferencePartner(t *testing.T) {
	t.Parallel()
	p := startPartner(t, "")
	dir := t.TempDir()
	rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
		Partner: partnerFile(t, p.URL()), Format: "progress", Output: io.Discard, ReportDir: dir,
		JUnit: filepath.Join(dir, "junit.xml"), CucumberJSON: filepath.Join(dir, "cucumber.json"), Concurrency: 4,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Ready || rep.Failed != 0 || rep.Passed < 10 {
		for _, c := range rep.Checks {
			if !c.Passed {
				t.Errorf("%s: %s", c.Scenario, c.Failure)
			}
		}
		t.Fatalf("report: %s", rep.Summary)
	}
	for _, f := range []string{"report.html", "report.json", "junit.xml", "cucumber.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	t.Logf("%d checks in %.1f s", rep.Passed, rep.Duration)
}

// A partner that meets the rules another way passes too: the reference
// partner creating its charges with POST /cob and an Idempotency-Key,
// instead of PUT /cob/{txid}, passes the whole Pix suite, and a partner
// file that says it does only Pix runs the Pix checks alone.
func TestHomologationAcceptsChargesByPOST(t *testing.T) {
	t.Parallel()
	p := partner.New(partner.Config{CreateByPOST: true, Log: io.Discard, Scopes: refScopes})
	if err := p.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	pf := partnerFile(t, p.URL())
	pf.Products = []string{"pix"}
	rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{Partner: pf, Output: io.Discard, Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Ready || rep.Failed != 0 {
		for _, c := range rep.Checks {
			if !c.Passed {
				t.Errorf("%s: %s", c.Scenario, c.Failure)
			}
		}
		t.Fatalf("report: %s", rep.Summary)
	}
	for _, c := range rep.Checks {
		if !strings.Contains(c.Feature, "pix.feature") {
			t.Errorf("a Pix partner was checked on %s (%s)", c.Feature, c.Scenario)
		}
	}
}

// causes are what the failure of a defect's scenario must say.
var causes = map[string]string{
	partner.NoRetry:              "no retry after the injected fault",
	partner.SlowAck:              "acknowledge first, then process",
	partner.TokenPerCall:         "reuse the access token for its lifetime",
	partner.Polls:                "instead of reading the charge in a loop",
	partner.RefundOptimistic:     "ended NAO_REALIZADO",
	partner.BookAnyAmount:        "another amount than the charge asked",
	partner.PunctuatedDocuments:  "breaks schema pix/cob.request",
	partner.NoIdempotencyKey:     "without the same Idempotency-Key",
	partner.NewTxidOnRetry:       "retried with another txid",
	partner.ReuseIdempotencyKey:  "with two different proposals",
	partner.NoRereadAfterPending: "never read the proposal again",
	partner.NewKeyOnRetry:        "the key changed between attempts 1 and 2",
	partner.AcceptStale:          "applied a stale insurer event",
	partner.StatusRegression:     "an event delivered late carries an older status",
	partner.EveryScope:           "which neither its flows",
	partner.NoTokenRenewal:       "asked for no new token",
	partner.FirstPageOnly:        "read every page",
}

// Each defect of the reference partner is caught by the scenario that
// targets it (@detects:<defect>), with a message that says what to fix.
func TestHomologationCatchesEveryDefect(t *testing.T) {
	t.Parallel()
	for _, d := range partner.Defects {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := startPartner(t, d)
			rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
				Partner: partnerFile(t, p.URL()), Format: "progress", Output: io.Discard, Tags: "@detects:" + d, Concurrency: 2,
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.AllPassed || rep.Failed == 0 {
				t.Fatalf("the defect %s went unnoticed: %s", d, rep.Summary)
			}
			// Every scenario that claims the defect catches it, not just one,
			// and says the cause.
			if want, ok := causes[d]; ok && !slices.ContainsFunc(rep.Checks, func(c harness.Check) bool { return strings.Contains(c.Failure, want) }) {
				t.Errorf("no failure names the cause %q: %v", want, rep.Checks)
			}
			for _, c := range rep.Checks {
				if c.Passed {
					t.Errorf("%s claims @detects:%s but passed against it", c.Scenario, d)
				}
				if !c.Passed && !strings.Contains(c.Failure, ":") {
					t.Errorf("%s: the failure does not say what to fix: %q", c.Scenario, c.Failure)
				}
			}
		})
	}
}

// demoPortalToken logs in as the demo account: a portal API token.
func demoPortalToken(t *testing.T, base string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/portal/tokens", nil)
	req.SetBasicAuth(server.DemoEmail, server.DemoPassword)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("demo login: %d %v", resp.StatusCode, err)
	}
	return c.Token
}

// Publishing reads only runs the sandbox made itself: a report a client
// posts, or a run on the partner's machine, opens nothing. homologa test
// --record asks the sandbox to run the suite (the harness inside the
// sandbox, as cmd/homologa wires it); the gate then lists what failed, and
// opens after a passing run. Runs follow each other against one sandbox,
// as a partner fixing its integration does.
func TestPublishIsGatedBySandboxRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Log: io.Discard, OperatorToken: browsertest.OperatorToken, Homologate: harness.SandboxRunner})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(ctx) })
	portal := demoPortalToken(t, s.URL())
	call := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+portal)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	publish := func() (int, string) { return call(http.MethodPost, "/portal/apps/"+server.DemoClientID+"/publish", "") }
	if code, body := publish(); code != http.StatusConflict || !strings.Contains(body, "ainda não tem homologação") {
		t.Fatalf("publish before any run = %d %s", code, body)
	}
	// A forged report has nowhere to go.
	forged := `{"clientId":"` + server.DemoClientID + `","ready":true,"summary":"PRONTO","passed":99}`
	if code, _ := call(http.MethodPost, "/sandbox/homologation/reports", forged); code/100 == 2 {
		t.Fatalf("a client-posted report was taken: %d", code)
	}
	if code, body := publish(); code != http.StatusConflict {
		t.Fatalf("publish after a forged report = %d %s", code, body)
	}

	env := map[string]string{"HOMOLOGA_TOKEN": portal}
	record := func(defect string) (int, string) {
		p := startPartner(t, defect)
		file := filepath.Join(t.TempDir(), "partner.yaml")
		pf := partnerFile(t, p.URL())
		src := "name: Parceiro de referência\nclientId: " + server.DemoClientID + "\nurl: " + p.URL() +
			"\nflows: [" + strings.Join(pf.Flows, ", ") + "]\nwidgets: [" + strings.Join(pf.Widgets, ", ") + "]\nactions:\n"
		for name, a := range pf.Actions {
			b, _ := json.Marshal(a.Body)
			src += "  " + name + ": {method: " + a.Method + ", path: " + a.Path + ", body: " + string(b) + "}\n"
		}
		os.WriteFile(file, []byte(src), 0o644)
		var out, errb bytes.Buffer
		code := harness.MainEnv(ctx, []string{"test", "--record", "--partner", file, "--sandbox", s.URL()}, func(k string) string { return env[k] }, &out, &errb)
		return code, out.String() + errb.String()
	}
	if code, out := record(partner.LateWebhook); code != 1 || !strings.Contains(out, "NOT READY") {
		t.Fatalf("homologa test --record with a defect = %d:\n%s", code, out)
	}
	if code, body := publish(); code != http.StatusConflict || !strings.Contains(body, "webhook") {
		t.Fatalf("publish after a failing run = %d %s", code, body)
	}
	if code, out := record(""); code != 0 || !strings.Contains(out, "READY FOR PRODUCTION") {
		t.Fatalf("homologa test --record on the correct partner = %d:\n%s", code, out)
	}
	if code, body := publish(); code != http.StatusOK || !strings.Contains(body, `"published":true`) {
		t.Fatalf("publish after a passing run = %d %s", code, body)
	}
	// Another account sees none of it.
	code, _ := call(http.MethodGet, "/portal/apps/"+server.DemoClientID+"/homologations", "")
	if code != http.StatusOK {
		t.Fatalf("the owner lists its runs: %d", code)
	}
}

// A QA engineer's feature with a step the library does not have does not
// run: homologa test names its file and line and the nearest documented
// steps, exits 2 (a feature error), and prints no Go snippet.
func TestUndefinedStepIsAFeatureError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "qa.feature"), []byte(`Feature: QA
  Scenario: Two typos
    When I obtain a token
    Then the respons status is 200
    And the partner sings the national anthem
`), 0o644)
	var out, errb bytes.Buffer
	code := harness.Main(context.Background(), []string{"test", "--features", dir, "--report", t.TempDir()}, &out, &errb)
	msg := errb.String()
	if code != harness.ExitUsage {
		t.Fatalf("exit %d, want %d:\n%s%s", code, harness.ExitUsage, out.String(), msg)
	}
	for _, want := range []string{
		filepath.Join(dir, "qa.feature") + `:4: no step matches "the respons status is 200"`,
		"did you mean:\n    the response status is 201",
		filepath.Join(dir, "qa.feature") + `:5: no step matches "the partner sings the national anthem"`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg+out.String(), "func ") || strings.Contains(out.String(), "scenarios (") {
		t.Errorf("a Go snippet, or a run, for an undefined step:\n%s%s", out.String(), msg)
	}
}

// homologa test exits 2 on a usage or configuration error, naming what
// the user gave, and 3, with one message before any scenario, when the
// sandbox or the partner cannot be reached.
func TestTestCommandExitCodes(t *testing.T) {
	closed := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return addr
	}
	partnerAt := func(url string) string {
		path := filepath.Join(t.TempDir(), "partner.yaml")
		os.WriteFile(path, []byte("version: 2\nname: P\nurl: "+url+"\nproducts: [pix]\nactions:\n  onboard: {path: /onboard}\n"), 0o644)
		return path
	}
	features := t.TempDir()
	os.WriteFile(filepath.Join(features, "qa.feature"), []byte("Feature: QA\n  Scenario: One\n    When I obtain a token\n"), 0o644)
	os.WriteFile(filepath.Join(features, "notes.txt"), []byte("not a feature"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		says string
	}{
		{"an unknown flag", []string{"--colour"}, harness.ExitUsage, "flag provided but not defined: -colour"},
		{"a missing features folder", []string{"--features", "/nonexistent/qa"}, harness.ExitUsage, "--features /nonexistent/qa: no such folder or file"},
		{"a partner file that does not parse", []string{"--partner", "/nonexistent/partner.yaml"}, harness.ExitUsage, "/nonexistent/partner.yaml"},
		{"a file that is not a feature", []string{"--features", filepath.Join(features, "notes.txt")}, harness.ExitUsage, "not a folder of features nor a .feature file"},
		{"a bad format", []string{"--features", features, "--format", "fancy"}, harness.ExitUsage, `--format "fancy"`},
		{"an unreachable sandbox, one feature file", []string{"--features", filepath.Join(features, "qa.feature"), "--sandbox", "http://" + closed()}, harness.ExitUnreachable, "cannot reach the sandbox at http://"},
		{"an unreachable sandbox", []string{"--features", features, "--sandbox", "http://" + closed()}, harness.ExitUnreachable, "cannot reach the sandbox at http://"},
		{"something else than a sandbox", []string{"--features", features, "--sandbox", "http://127.0.0.1:1/"}, harness.ExitUnreachable, "cannot reach the sandbox"},
		{"an unreachable partner", []string{"--partner", partnerAt("http://" + closed())}, harness.ExitUnreachable, "cannot reach the partner at http://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := harness.Main(context.Background(), append([]string{"test", "--report", t.TempDir()}, tt.args...), &out, &errb)
			if code != tt.code || !strings.Contains(errb.String(), tt.says) {
				t.Fatalf("exit %d, want %d saying %q:\n%s%s", code, tt.code, tt.says, out.String(), errb.String())
			}
			if strings.Count(errb.String(), tt.says) != 1 || strings.Contains(out.String(), "scenarios (") {
				t.Errorf("not one message before any scenario:\n%s%s", out.String(), errb.String())
			}
		})
	}
}

// A QA team's own contract features run by homologa test act as the demo
// app, as they do under the contract runner: the demo app's steps find it.
func TestOwnContractFeaturesActAsTheDemoApp(t *testing.T) {
	p := startPartner(t, "")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "qa.feature"), []byte(`Feature: QA contract
  Scenario: The demo app's webhook gets a ping
    Given a webhook receiver answering 200
    And the app's webhook points to the receiver
    And I obtain a token
    When I send "POST" to "/sandbox/events/ping"
    Then the response status is 202
    And the receiver gets a "sandbox.ping" event within 5 seconds
`), 0o644)
	var out bytes.Buffer
	rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
		Partner: partnerFile(t, p.URL()), FeaturesDir: dir, Format: "pretty", Output: &out,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.AllPassed || rep.Ready || rep.Partial == "" {
		t.Fatalf("%s\n%s", rep.Summary, out.String())
	}
}

// homologa test --features without a partner says what it ran and that
// it does not count for publishing, never "ready for production"; it
// exits 0 when its scenarios pass, 1 when one fails.
func TestFeaturesWithoutAPartnerNeverSayReady(t *testing.T) {
	ctx := context.Background()
	write := func(steps string) string {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "qa.feature"), []byte("Feature: QA\n  Scenario: The clock\n"+steps), 0o644)
		return dir
	}
	run := func(dir string) (int, string, map[string]any) {
		var out, errb bytes.Buffer
		reports := t.TempDir()
		code := harness.Main(ctx, []string{"test", "--features", dir, "--report", reports, "--concurrency", "1"}, &out, &errb)
		var rep map[string]any
		b, _ := os.ReadFile(filepath.Join(reports, "report.json"))
		json.Unmarshal(b, &rep)
		return code, out.String() + errb.String(), rep
	}
	pass := write("    Given my clock is frozen at \"2026-01-05T12:00:00Z\"\n    When I send \"GET\" to \"/sandbox/clock\"\n    Then the response status is 200\n")
	code, out, rep := run(pass)
	if code != 0 || !strings.Contains(out, "PARTIAL RUN (--features "+pass+", no partner): the only scenario passed; it does not count for publishing.") ||
		strings.Contains(out, "PRODUCTION") || rep["readyForProduction"] != false || rep["allPassed"] != true {
		t.Fatalf("a passing run without a partner = %d, report %v:\n%s", code, rep, out)
	}
	fail := write("    When I send \"GET\" to \"/sandbox/clock\"\n    Then the response status is 418\n")
	code, out, _ = run(fail)
	if code != 1 || !strings.Contains(out, "PARTIAL RUN (--features "+fail+", no partner): the only scenario failed; it does not count for publishing.") ||
		strings.Contains(out, "PRODUCTION") {
		t.Fatalf("a failing run without a partner = %d:\n%s", code, out)
	}
}

// A sandbox whose clock was advanced (as partners do while exploring) is
// still a place to homologate: the reference partner dates recurrences,
// due dates and benefit notices by the sandbox's clock, not its own.
func TestHomologationOnAnAdvancedClock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := runningSandbox(t)
	resp, err := http.Post(s.URL()+"/sandbox/clock/advance", "application/json", strings.NewReader(`{"by": "37h"}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("advance the clock: %v %v", resp, err)
	}
	resp.Body.Close()
	p := startPartner(t, "")
	rep, err := harness.RunHomologation(ctx, harness.HomologationOptions{
		Partner: partnerFile(t, p.URL()), SandboxURL: s.URL(), Format: "progress", Output: io.Discard,
		Tags: "@area:pix-automatico,@area:seguros", Concurrency: 4,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Checks {
		if !c.Passed && c.NotApplicable == "" {
			t.Errorf("%s: %s", c.Scenario, c.Failure)
		}
	}
}

// A scenario that needs a setting the sandbox lacks is not applicable:
// counted and named, never failed, its remaining steps skipped; on a
// sandbox that has the setting it runs (and here fails, as written).
func TestScenarioNeedingASettingIsNotApplicableWithoutIt(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "qa.feature"), []byte(`Feature: QA settings
  Scenario: Needs a pinned name
    Given the sandbox was started with --webhook-resolve "metadata.homologa.test"
    When I obtain a token
    Then the response status is 299

  Scenario: Needs nothing
    When I obtain a token
    Then the response status is 200
`), 0o644)
	run := func(sandbox string) *harness.Report {
		t.Helper()
		rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
			Partner: &harness.Partner{Name: "QA"}, SandboxURL: sandbox, FeaturesDir: dir, Concurrency: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	// homologa test's own sandbox pins no name.
	rep := run("")
	if rep.Failed != 0 || rep.Passed != 1 || rep.NotApplicable != 1 || !rep.AllPassed {
		t.Fatalf("without the setting: passed %d, failed %d, not applicable %d: %s", rep.Passed, rep.Failed, rep.NotApplicable, rep.Summary)
	}
	na := rep.Checks[len(rep.Checks)-1]
	if na.Scenario != "Needs a pinned name" || na.NotApplicable != "needs a sandbox started with --webhook-resolve metadata.homologa.test" || na.Failure != "" {
		t.Errorf("the check that did not apply: %+v", na)
	}
	if !strings.Contains(rep.Summary, "1 did not apply") {
		t.Errorf("the summary does not count it: %s", rep.Summary)
	}
	// go test's sandbox pins it: the scenario runs, and fails as written.
	s, err := harness.StartSandbox(context.Background(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	rep = run(s.URL())
	if rep.Failed != 1 || rep.NotApplicable != 0 {
		t.Fatalf("with the setting: passed %d, failed %d, not applicable %d: %s", rep.Passed, rep.Failed, rep.NotApplicable, rep.Summary)
	}
}

// The JUnit report is the run's: a test suite per feature naming its file,
// a test case per scenario whose class is its feature, a failure with its
// message, a scenario that did not apply <skipped/> with its reason, and
// counts that agree. The pretty output names the feature's lines, never
// the Go functions behind the steps.
func TestJUnitAndPrettyOutput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "qa.feature"), []byte(`Feature: QA of the token endpoint
  Scenario: Passes
    When I obtain a token
    Then the response status is 200

  Scenario: Fails
    When I obtain a token
    Then the response status is 299

  Scenario: Does not apply
    Given the sandbox was started with --webhook-resolve "nowhere.homologa.test"
    When I obtain a token
`), 0o644)
	junit := filepath.Join(t.TempDir(), "out", "junit.xml")
	var out bytes.Buffer
	rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
		Partner: &harness.Partner{Name: "QA"}, FeaturesDir: dir, JUnit: junit, Format: "pretty", Output: &out, Concurrency: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	validateJUnit(t, junit)
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name       string `xml:"name,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Skipped  int `xml:"skipped,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				Skipped *struct {
					Reason string `xml:",chardata"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b)
	}
	if doc.Tests != 3 || doc.Failures != 1 || len(doc.Suites) != 1 {
		t.Fatalf("junit: %d tests, %d failures, %d suites:\n%s", doc.Tests, doc.Failures, len(doc.Suites), b)
	}
	s := doc.Suites[0]
	if s.Name != "QA of the token endpoint" || len(s.Properties) != 1 || s.Properties[0].Name != "file" || s.Properties[0].Value != "qa.feature" ||
		s.Tests != 3 || s.Failures != 1 || s.Skipped != 1 {
		t.Errorf("the suite: %+v", s)
	}
	seen := map[string]bool{}
	for _, c := range s.Cases {
		seen[c.Name] = true
		if c.Classname != "QA of the token endpoint" {
			t.Errorf("%s: classname %q", c.Name, c.Classname)
		}
		switch c.Name {
		case "Fails":
			if c.Failure == nil || !strings.Contains(c.Failure.Message, "status 200, want 299") {
				t.Errorf("the failure: %+v", c.Failure)
			}
		case "Does not apply":
			if c.Skipped == nil || !strings.Contains(c.Skipped.Reason, "needs a sandbox started with --webhook-resolve") {
				t.Errorf("the skipped case: %+v", c.Skipped)
			}
		case "Passes":
			if c.Failure != nil || c.Skipped != nil {
				t.Errorf("the passing case: %+v", c)
			}
		}
	}
	if len(seen) != 3 || rep.Failed != 1 || rep.NotApplicable != 1 {
		t.Errorf("cases %v; report failed %d, not applicable %d", seen, rep.Failed, rep.NotApplicable)
	}
	pretty := out.String()
	for _, want := range []string{"Feature: QA of the token endpoint", "✗ Then the response status is 299   # qa.feature:8", "✓ When I obtain a token   # qa.feature:3", "status 200, want 299"} {
		if !strings.Contains(pretty, want) {
			t.Errorf("the pretty output lacks %q:\n%s", want, pretty)
		}
	}
	if strings.Contains(pretty, "steps.go") || strings.Contains(pretty, "homologa/harness.") {
		t.Errorf("the pretty output names Go code:\n%s", pretty)
	}
}
