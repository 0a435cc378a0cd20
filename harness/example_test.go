package harness_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"homologa/harness"
	"homologa/simulator/server"
)

// The example partner of examples/python (a partner's Pix integration in
// Python's standard library) passes the Pix suite both ways its partner
// files run it: an app per scenario, and its own fixed app.

const examplePython = "examples/python"

// requirePython finds a python3 the example can run on (3.7 or later). CI
// sets HOMOLOGA_REQUIRE_PYTHON and must run the example; a machine without
// Python is told loudly that it did not.
func requirePython(t *testing.T) {
	t.Helper()
	msg := ""
	if p, err := exec.LookPath("python3"); err != nil {
		msg = "no python3 on PATH"
	} else if out, err := exec.Command(p, "-c", "import sys; sys.exit(sys.version_info < (3, 7))").CombinedOutput(); err != nil {
		msg = "python3 at " + p + " is older than 3.7 or does not run: " + strings.TrimSpace(string(out))
	}
	if msg == "" {
		return
	}
	msg = "PYTHON EXAMPLE PARTNER DID NOT RUN: " + msg + "; install python3 (apt-get install python3), or set HOMOLOGA_REQUIRE_PYTHON to make this a failure"
	if os.Getenv("HOMOLOGA_REQUIRE_PYTHON") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// assertReady fails with every failed check when the run is not ready for
// production.
func assertReady(t *testing.T, rep *harness.Report, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("the suite did not run: %v", err)
	}
	for _, c := range rep.Checks {
		if !c.Passed {
			t.Errorf("%s (%s): %s", c.Scenario, c.Feature, c.Failure)
		}
		if !strings.HasSuffix(c.Feature, "pix.feature") && !strings.HasSuffix(c.Feature, "pix-automatico.feature") {
			t.Errorf("%s of %s ran, but the partner file names products: [pix, pix-automatico]", c.Scenario, c.Feature)
		}
	}
	if !rep.Ready || rep.Failed != 0 || rep.Passed == 0 || rep.Partial != "" {
		t.Fatalf("report: %s (passed %d, failed %d)", rep.Summary, rep.Passed, rep.Failed)
	}
	t.Logf("%s (%d checks in %.1f s)", rep.Summary, rep.Passed, rep.Duration)
}

func TestPythonExamplePartner(t *testing.T) {
	t.Parallel()
	requirePython(t)

	// The suite registers an app per scenario and starts partner.py for
	// each, against a sandbox it starts in-process (homologa test
	// --partner partner-per-scenario.yaml).
	t.Run("per-scenario", func(t *testing.T) {
		t.Parallel()
		p, err := harness.LoadPartner(filepath.Join(examplePython, "partner-per-scenario.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
			Partner: p, Output: io.Discard, ReportDir: dir,
		})
		assertReady(t, rep, err)
	})

	// The partner brings its app from the environment, as a partner with
	// an app of the portal does, here the demo app of a sandbox the test
	// starts (homologa test --partner partner-fixed.yaml --sandbox URL).
	t.Run("fixed", func(t *testing.T) {
		t.Parallel()
		s, err := harness.StartSandbox(context.Background(), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(context.Background()) })
		env := map[string]string{"HOMOLOGA_CLIENT_ID": server.DemoClientID, "HOMOLOGA_CLIENT_SECRET": server.DemoClientSecret,
			"HOMOLOGA_WEBHOOK_SECRET": server.DemoWebhookSecret, "HOMOLOGA_PIX_KEY": server.DemoCNPJ}
		// The file reads the environment when it is loaded.
		p, err := harness.LoadPartnerEnv(filepath.Join(examplePython, "partner-fixed.yaml"), func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if p.App.Mode != harness.Fixed || p.App.ClientID != server.DemoClientID {
			t.Fatalf("partner-fixed.yaml: app %+v, want the fixed demo app from the environment", p.App)
		}
		// Its developer tried the app by hand first, as docs/partner.md
		// shows: a token asked without scope before the run is not the
		// integration's, and fails no least-privilege check.
		form := url.Values{"grant_type": {"client_credentials"}}
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/oauth/token", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(server.DemoClientID, server.DemoClientSecret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("a token by hand: %v %v", resp, err)
		}
		resp.Body.Close()
		time.Sleep(1100 * time.Millisecond) // the run begins a second later, as a person's would
		rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
			Partner: p, SandboxURL: s.URL(), Output: io.Discard, ReportDir: t.TempDir(),
		})
		assertReady(t, rep, err)
	})
}
