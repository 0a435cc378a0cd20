package server_test

import (
	"bufio"
	"context"
	"encoding/xml"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"homologa/simulator/server"
)

// The CI recipes of docs/ci run here as their CI systems would run them:
// their shell steps verbatim, in bash, with the homologa binary built from
// this tree on PATH, against a sandbox started as the recipe's service
// container is (its environment), on loopback. What cannot run here (a
// container runtime, GitHub's actions) is checked for consistency.

// ciTools builds homologa into a folder for PATH and checks what the
// recipes call.
func ciTools(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"bash", "curl", "python3", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the CI recipes need %s (.ci/run installs it): %v", tool, err)
		}
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "homologa"), "homologa/simulator/cmd/homologa")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build homologa: %v\n%s", err, out)
	}
	return bin
}

// freePort is a loopback port nothing listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// copyTree copies files of the repository into dir, each through edit.
func copyTree(t *testing.T, dir string, files map[string]func(string) string) {
	t.Helper()
	for name, edit := range files {
		b, err := os.ReadFile(filepath.Join("../..", name))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if edit != nil {
			src = edit(src)
		}
		dst := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runStep runs one shell step in bash with env, and answers its output.
func runStep(t *testing.T, dir, name, script string, env []string) string {
	t.Helper()
	cmd := exec.Command("bash", "-eo", "pipefail", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("step %q failed: %v\n%s", name, err, out)
	}
	return string(out)
}

// junitCounts reads a JUnit report's totals.
func junitCounts(t *testing.T, path string) (tests, failures int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no JUnit report: %v", err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("the JUnit report: %v", err)
	}
	return doc.Tests, doc.Failures
}

func TestGitHubActionsRecipe(t *testing.T) {
	requirePythonForRecipes(t)
	bin := ciTools(t)
	var wf struct {
		Jobs map[string]struct {
			Env      map[string]string `yaml:"env"`
			Services map[string]struct {
				Image   string            `yaml:"image"`
				Ports   []string          `yaml:"ports"`
				Env     map[string]string `yaml:"env"`
				Options string            `yaml:"options"`
			} `yaml:"services"`
			Steps []struct {
				Name string `yaml:"name"`
				Uses string `yaml:"uses"`
				Run  string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	b, err := os.ReadFile("../../docs/ci/github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	job := wf.Jobs["homologation"]
	svc := job.Services["homologa"]
	if svc.Ports[0] != "8080:8080" || job.Env["HOMOLOGA_URL"] != "http://localhost:8080" || !strings.Contains(svc.Options, "host.docker.internal:host-gateway") {
		t.Fatalf("the recipe's service and job do not agree: %+v %+v", svc, job.Env)
	}
	// The partner listens where the service's allow-list names it: a
	// port of its own here, on loopback (the runner listens on every
	// interface for the container).
	port := freePort(t)
	dir := t.TempDir()
	copyTree(t, dir, map[string]func(string) string{
		"docs/ci/partner.yaml": func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, "9100", port), "LISTEN_HOST: 0.0.0.0", "LISTEN_HOST: 127.0.0.1")
		},
		"harness/examples/python/partner.py": nil,
	})
	allow := strings.ReplaceAll(svc.Env["HOMOLOGA_WEBHOOK_ALLOW"], "9100", port)

	// The service container, as its environment says; on loopback, and
	// host.docker.internal, the runner, is this machine.
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Log: io.Discard, OperatorToken: svc.Env["HOMOLOGA_OPERATOR_TOKEN"],
		WebhookAllow: []string{allow}, WebhookResolve: []string{"host.docker.internal=127.0.0.1"}, PublicURL: "http://localhost:8080"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	u, _ := url.Parse(s.URL())
	sandbox := "http://localhost:" + u.Port()

	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for k, v := range job.Env {
		if k == "HOMOLOGA_URL" {
			v = sandbox
		}
		env = append(env, k+"="+v)
	}
	githubEnv := filepath.Join(t.TempDir(), "github_env")
	os.WriteFile(githubEnv, nil, 0o644)
	env = append(env, "GITHUB_ENV="+githubEnv)
	ran := 0
	for _, st := range job.Steps {
		if st.Run == "" {
			continue // an action of GitHub's (checkout, upload)
		}
		out := runStep(t, dir, st.Name, st.Run, env)
		ran++
		// GitHub adds what a step wrote to GITHUB_ENV to the next steps.
		f, _ := os.Open(githubEnv)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "=") {
				env = append(env, sc.Text())
			}
		}
		f.Close()
		if st.Name == "Homologate the integration" && !strings.Contains(out, "READY FOR PRODUCTION (pix, pix-automatico)") {
			t.Errorf("the homologation step:\n%s", out)
		}
	}
	if ran < 4 {
		t.Fatalf("%d shell steps ran", ran)
	}
	if tests, failures := junitCounts(t, filepath.Join(dir, "junit.xml")); tests < 10 || failures != 0 {
		t.Errorf("junit.xml: %d tests, %d failures", tests, failures)
	}
}

func TestGitLabCIRecipe(t *testing.T) {
	requirePythonForRecipes(t)
	bin := ciTools(t)
	var ci map[string]struct {
		Variables map[string]string `yaml:"variables"`
		Script    []string          `yaml:"script"`
		Artifacts struct {
			Reports struct {
				JUnit string `yaml:"junit"`
			} `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	b, err := os.ReadFile("../../docs/ci/gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &ci); err != nil {
		t.Fatal(err)
	}
	job := ci["homologation"]
	if job.Artifacts.Reports.JUnit != "junit.xml" || len(job.Script) < 2 {
		t.Fatalf("the job: %+v", job)
	}
	dir := t.TempDir()
	copyTree(t, dir, map[string]func(string) string{
		"harness/examples/python/partner-per-scenario.yaml": nil,
		"harness/examples/python/partner.py":                nil,
	})
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for k, v := range job.Variables {
		env = append(env, k+"="+v)
	}
	out := runStep(t, dir, "script", strings.Join(job.Script, "\n"), env)
	if !strings.Contains(out, "READY FOR PRODUCTION (pix, pix-automatico)") {
		t.Errorf("the job's output:\n%s", out)
	}
	if tests, failures := junitCounts(t, filepath.Join(dir, "junit.xml")); tests < 10 || failures != 0 {
		t.Errorf("junit.xml: %d tests, %d failures", tests, failures)
	}
}

// The compose file cannot start here (no container runtime); what makes
// it work is checked: the partner calls the sandbox by the name the
// sandbox serves, and the sandbox may deliver to the partner's receiver.
func TestComposeRecipe(t *testing.T) {
	var c struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			Environment map[string]string `yaml:"environment"`
			Volumes     []string          `yaml:"volumes"`
			Ports       []string          `yaml:"ports"`
		} `yaml:"services"`
	}
	b, err := os.ReadFile("../../docs/ci/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	sandbox, partner := c.Services["homologa"], c.Services["partner"]
	public, _ := url.Parse(sandbox.Environment["HOMOLOGA_PUBLIC_URL"])
	if public.Hostname() != "homologa" || partner.Environment["PIX_API_URL"] != sandbox.Environment["HOMOLOGA_PUBLIC_URL"] {
		t.Errorf("the partner calls %s, the sandbox serves %s", partner.Environment["PIX_API_URL"], public)
	}
	hook, _ := url.Parse(partner.Environment["PUBLIC_URL"])
	if sandbox.Environment["HOMOLOGA_WEBHOOK_ALLOW"] != hook.Host || hook.Port() != partner.Environment["LISTEN_PORT"] {
		t.Errorf("the partner's receiver %s is not what the sandbox may deliver to (%s)", hook, sandbox.Environment["HOMOLOGA_WEBHOOK_ALLOW"])
	}
	src, _, _ := strings.Cut(partner.Volumes[0], ":")
	if _, err := os.Stat(filepath.Join("../..", src, "partner.py")); err != nil {
		t.Errorf("the partner's volume %s: %v", src, err)
	}
	if len(sandbox.Volumes) == 0 || !strings.HasSuffix(sandbox.Volumes[0], ":/data") {
		t.Errorf("the sandbox keeps its database in no volume: %v", sandbox.Volumes)
	}
}

// requirePythonForRecipes: the recipes run the Python example partner.
func requirePythonForRecipes(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("HOMOLOGA_REQUIRE_PYTHON") != "" {
			t.Fatal("the CI recipes run the Python example partner: no python3")
		}
		t.Skip("CI RECIPES DID NOT RUN: no python3 (HOMOLOGA_REQUIRE_PYTHON makes this a failure)")
	}
}
