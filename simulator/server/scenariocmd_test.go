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
	t.Parallel()
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
	if code, _, errs := run("scenario", "validate", good, bad); code != 1 || !strings.Contains(errs, bad+":6: steps.0.status: cob não tem o estado \"PAGA\"") {
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

// A --scenarios folder is read at start and reread on POST
// /sandbox/scenarios/reload; a bad file leaves the loaded set as it was
// and the answer lists every problem.
func TestScenariosFolderReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", "id: pasta-a\ntitle: A\napplies_to: cob\nsteps:\n  - after: 1m\n    pay: true\n")
	s := startServer(t, server.Config{OperatorToken: testOperator, ScenariosDir: dir})
	defer s.Close(context.Background())
	list := func() string { return get(t, s.URL()+"/sandbox/scenarios") }
	if !strings.Contains(list(), `"id":"pasta-a"`) {
		t.Fatalf("the folder's scenario is not loaded: %s", list())
	}
	write("b.yaml", "id: pasta-b\ntitle: B\napplies_to: cob\nsteps:\n  - after: 1m\n    status: PAGA\n")
	if body := post(t, s.URL()+"/sandbox/scenarios/reload", ``, 400); !strings.Contains(body, `b.yaml:6: steps.0.status: cob não tem o estado \"PAGA\"`) {
		t.Fatalf("reload with a bad file: %s", body)
	}
	if l := list(); !strings.Contains(l, `"id":"pasta-a"`) || strings.Contains(l, "pasta-b") {
		t.Fatalf("a failed reload changed the set: %s", l)
	}
	write("b.yaml", "id: pasta-b\ntitle: B\napplies_to: cob\nsteps:\n  - after: 1m\n    status: REMOVIDA_PELO_PSP\n")
	post(t, s.URL()+"/sandbox/scenarios/reload", ``, 200)
	if !strings.Contains(list(), `"id":"pasta-b"`) {
		t.Fatalf("reload did not load the fixed file: %s", list())
	}
}
