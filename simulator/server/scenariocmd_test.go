package server_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"homologa/simulator/server"
)

// homologa scenario validate: ok files pass, a bad one fails with exit 1
// and file:line: field: message on stderr; list shows the catalogue.
func TestScenarioCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("id: minha-cob\ntitle: Paid after 1 minute\napplies_to: cob\nsteps:\n  - after: 1m\n    pay: true\n"), 0o644)
	os.WriteFile(bad, []byte("id: ruim\ntitle: Bad\napplies_to: cob\nsteps:\n  - after: 1m\n    status: PAGA\n"), 0o644)
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := server.Main(context.Background(), args, func(string) string { return "" }, &out, &errb)
		return code, out.String(), errb.String()
	}
	if code, out, errs := run("scenario", "validate", good); code != 0 || !strings.Contains(out, good+": ok") {
		t.Fatalf("validate good = %d %q %q", code, out, errs)
	}
	if code, _, errs := run("scenario", "validate", good, bad); code != 1 || !strings.Contains(errs, bad+":6: steps.0.status: cob has no state \"PAGA\"") {
		t.Fatalf("validate bad = %d %q", code, errs)
	}
	if code, out, _ := run("scenario", "list", "--scenarios", dir+"/../"+filepath.Base(dir)); code != 1 || out != "" {
		// the folder holds the bad file: nothing is listed
		t.Fatalf("list with a bad folder = %d %q", code, out)
	}
	os.Remove(bad)
	if code, out, errs := run("scenario", "list", "--scenarios", dir); code != 0 || !strings.Contains(out, "minha-cob") || !strings.Contains(out, "devolucao-padrao") {
		t.Fatalf("list = %d %q %q", code, out, errs)
	}
	if code, _, _ := run("scenario", "frobnicate"); code != 2 {
		t.Fatalf("unknown subcommand = %d", code)
	}
}
