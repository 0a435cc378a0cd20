package server_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"homologa/simulator/server"
)

// TestReadmeWalkthrough runs the README's walkthrough verbatim (with the
// base URL of a sandbox on a free port) in bash, as a new user would.
func TestReadmeWalkthrough(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"bash", "curl", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the walkthrough needs %s (.ci/run installs it): %v", tool, err)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- walkthrough:begin -->\n```sh\n(.*?)```\n<!-- walkthrough:end -->").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no walkthrough block")
	}
	script := string(m[1])
	if !strings.HasPrefix(script, "B=http://127.0.0.1:8080\n") {
		t.Fatalf("the walkthrough must start by naming the base URL; starts %q", script[:40])
	}

	ctx := context.Background()
	s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	script = "set -eu\nB=" + s.URL() + "\n" + strings.TrimPrefix(script, "B=http://127.0.0.1:8080\n")

	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("walkthrough failed: %v\n%s", err, out)
	}
	for _, want := range []string{
		`"cnpj":"11444777000161"`,     // step 1
		`"clientSecret":"`,            // step 2
		`"type":"sandbox.ping"`,       // step 4
		`"status":"delivered"`,        // step 5
		`"statusCode":200`,            // step 5
		`"Homologa-Signature":"t=`,    // the inbox saw a signed request
		`"requests":[{"receivedAt":"`, // the inbox
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("walkthrough output lacks %s:\n%s", want, out)
		}
	}
}
