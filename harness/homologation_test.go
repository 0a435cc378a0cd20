package harness_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"homologa/harness"
	"homologa/harness/partner"
)

// partnerFile is the reference partner's file, as a partner would write
// theirs: where its actions are.
func partnerFile(t *testing.T, url string) *harness.Partner {
	t.Helper()
	path := filepath.Join(t.TempDir(), "partner.yaml")
	src := `name: Parceiro de referência
url: ` + url + `
actions:
  onboard: {method: POST, path: /actions/onboard, body: {chave: "${chave}"}}
  create-cob: {method: POST, path: /actions/create-cob, body: {valor: "${valor}", chave: "${chave}"}}
  create-cob-auto: {method: POST, path: /actions/create-cob-auto, body: {valor: "${valor}", chave: "${chave}"}}
  refund: {method: POST, path: /actions/refund, body: {e2eid: "${e2eid}", valor: "${valor}"}}
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

func startPartner(t *testing.T, defect string) *partner.Partner {
	t.Helper()
	p := partner.New(partner.Config{Defect: defect, Log: io.Discard})
	if err := p.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// The reference partner, written as a careful partner would, passes every
// homologation check, in parallel, and the report says it is ready.
func TestHomologationPassesTheReferencePartner(t *testing.T) {
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

// Each defect of the reference partner is caught by the scenario that
// targets it (@detects:<defect>), with a message that says what to fix.
func TestHomologationCatchesEveryDefect(t *testing.T) {
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
			if rep.Ready || rep.Failed == 0 {
				t.Fatalf("the defect %s went unnoticed: %s", d, rep.Summary)
			}
			for _, c := range rep.Checks {
				if !c.Passed && !strings.Contains(c.Failure, ":") {
					t.Errorf("%s: the failure does not say what to fix: %q", c.Scenario, c.Failure)
				}
			}
		})
	}
}
