package harness_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"homologa/harness"
	"homologa/simulator/server"
)

// The example partner of examples/node-seguros is an insurance
// integration written from the sandbox's user documentation alone (Node's
// standard library), with fourteen switchable defects. Its correct build
// passes the seguros suite, its ledger read as its back office keeps it
// and its readiness judged by its body; each defect is caught by the
// checks that target it.

const exampleNode = "examples/node-seguros"

// requireNode finds a node the example can run on (18 or later). CI sets
// HOMOLOGA_REQUIRE_NODE and must run the example; a machine without Node
// is told loudly that it did not.
func requireNode(t *testing.T) {
	t.Helper()
	msg := ""
	if p, err := exec.LookPath("node"); err != nil {
		msg = "no node on PATH"
	} else if out, err := exec.Command(p, "-e", "process.exit(Number(process.versions.node.split('.')[0]) < 18 ? 1 : 0)").CombinedOutput(); err != nil {
		msg = "node at " + p + " is older than 18 or does not run: " + strings.TrimSpace(string(out))
	}
	if msg == "" {
		return
	}
	msg = "NODE EXAMPLE PARTNER DID NOT RUN: " + msg + "; install Node.js 18+ (apt-get install nodejs), or set HOMOLOGA_REQUIRE_NODE to make this a failure"
	if os.Getenv("HOMOLOGA_REQUIRE_NODE") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// nodePartner loads the example's partner file with the defect switched
// on ("" for the correct build), the file's environment from env.
func nodePartner(t *testing.T, file, defect string, env map[string]string) *harness.Partner {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(exampleNode, file))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	if defect != "" {
		src = strings.Replace(src, `    PORT: "{{port}}"`, `    PORT: "{{port}}"`+"\n    DEFECT: "+defect, 1)
	}
	// Written beside partner.js: a start command runs in the file's folder.
	path := filepath.Join(exampleNode, ".test-"+strings.ReplaceAll(t.Name(), "/", "-")+".yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(path) })
	p, err := harness.LoadPartnerEnv(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNodeExamplePartner(t *testing.T) {
	t.Parallel()
	requireNode(t)

	// An app per scenario: the whole suite, ready for production for its
	// product; the benefit pendings it leaves to the widget do not apply.
	t.Run("per-scenario", func(t *testing.T) {
		t.Parallel()
		rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
			Partner: nodePartner(t, "partner-per-scenario.yaml", "", nil), Output: io.Discard, Concurrency: 6,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rep.Checks {
			if !c.Passed && c.NotApplicable == "" {
				t.Errorf("%s: %s", c.Scenario, c.Failure)
			}
			if !strings.HasSuffix(c.Feature, "seguros.feature") {
				t.Errorf("%s of %s ran, but the partner file names products: [seguros]", c.Scenario, c.Feature)
			}
		}
		if !rep.Ready || rep.NotApplicable != 1 || !strings.Contains(rep.Checks[len(rep.Checks)-1].NotApplicable, "leaves pendencia-beneficio to its customer") {
			t.Fatalf("report: %s (passed %d, failed %d, not applicable %d)", rep.Summary, rep.Passed, rep.Failed, rep.NotApplicable)
		}
	})

	// Its own app, from the environment: ids read from the app's company,
	// its webhook pointed at the partner and back. A part of the suite,
	// one scenario at a time.
	t.Run("fixed", func(t *testing.T) {
		t.Parallel()
		s, err := harness.StartSandbox(context.Background(), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(context.Background()) })
		env := map[string]string{"HOMOLOGA_CLIENT_ID": server.DemoClientID, "HOMOLOGA_CLIENT_SECRET": server.DemoClientSecret,
			"HOMOLOGA_WEBHOOK_SECRET": server.DemoWebhookSecret}
		rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
			Partner: nodePartner(t, "partner-fixed.yaml", "", env), SandboxURL: s.URL(), Output: io.Discard,
			Tags: "@regra:pendencias,@regra:assinatura-webhook,@regra:ordem-dos-eventos",
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rep.Checks {
			if !c.Passed && c.NotApplicable == "" {
				t.Errorf("%s: %s", c.Scenario, c.Failure)
			}
		}
		if !rep.AllPassed || rep.Passed < 4 {
			t.Fatalf("report: %s (passed %d)", rep.Summary, rep.Passed)
		}
		a, _ := s.Auth.App(context.Background(), server.DemoClientID)
		if !strings.HasSuffix(a.WebhookURL, "/sandbox/inbox/demo") {
			t.Errorf("the demo app's webhook after the run is %q: the suite did not point it back", a.WebhookURL)
		}
	})

	// Each of its defects, written by its author, is caught by the checks
	// of the rule it breaks.
	for defect, tags := range map[string]string{
		"new-key-on-retry":   "@detects:new-key-on-retry",
		"no-signature-check": "@detects:ignore-signature",
		"stale-signature":    "@detects:accept-stale",
		"apply-twice":        "@detects:process-duplicates",
		"status-regression":  "@detects:status-regression",
		"token-per-call":     "@detects:token-per-call",
		"every-scope":        "@detects:every-scope",
		"ignore-retry-after": "@detects:no-backoff",
		"card-number":        "@detects:card-number",
		"ignore-pendings":    "@detects:ignore-pendings",
		"slow-ack":           "@detects:slow-ack",
		"no-retry":           "@detects:no-retry",
		"shared-key":         "@detects:reuse-idempotency-key",
		"polls":              "@detects:polls",
	} {
		t.Run("defect="+defect, func(t *testing.T) {
			t.Parallel()
			rep, err := harness.RunHomologation(context.Background(), harness.HomologationOptions{
				Partner: nodePartner(t, "partner-per-scenario.yaml", defect, nil), Output: io.Discard, Tags: tags, Concurrency: 4,
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Failed == 0 {
				t.Fatalf("the defect %s went unnoticed by %s: %s", defect, tags, rep.Summary)
			}
		})
	}
}
