package harness

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The exit codes of homologa test, for CI.
const (
	// ExitPassed: every check that applied passed.
	ExitPassed = 0
	// ExitFailed: a check failed.
	ExitFailed = 1
	// ExitUsage: a usage or configuration error (a flag, a partner file,
	// a feature with a step nothing implements).
	ExitUsage = 2
	// ExitUnreachable: the sandbox or the partner cannot be reached (one
	// message, before any scenario runs).
	ExitUnreachable = 3
)

// Main runs the harness's commands: "test" (the homologation suite against
// a partner) and "steps" (the step reference). It returns the exit code
// (ExitPassed, ExitFailed, ExitUsage, ExitUnreachable).
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return MainEnv(ctx, args, os.Getenv, stdout, stderr)
}

// MainEnv is Main reading its environment (HOMOLOGA_TOKEN, a partner
// file's ${env.NAME}) through getenv: tests run it side by side.
func MainEnv(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: homologa test (--partner FILE | --features PATH) [flags] | homologa steps")
		return ExitUsage
	}
	switch args[0] {
	case "steps":
		Reference(stdout)
		return ExitPassed
	case "test":
		return testCmd(ctx, args[1:], getenv, stdout, stderr)
	}
	fmt.Fprintf(stderr, "homologa: unknown command %q\n", args[0])
	return ExitUsage
}

// testFlags are homologa test's flags.
type testFlags struct {
	partner, sandbox, features, tags, format, cucumber, junit, report string
	concurrency                                                       int
	record                                                            bool
}

func parseTestFlags(args []string, stderr io.Writer) (testFlags, error) {
	var f testFlags
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.partner, "partner", "", "the partner file (YAML): its actions, and optionally its clientId; optional with --features")
	fs.StringVar(&f.sandbox, "sandbox", "", "a running sandbox's base URL (default: one in-process)")
	fs.StringVar(&f.features, "features", "", "a folder of features, or one .feature file, instead of the embedded homologation suite")
	fs.StringVar(&f.tags, "tags", "", "run only the scenarios matching this tag expression, e.g. @regra:idempotencia")
	// progress by default: pretty interleaves the lines of scenarios that
	// run at once (use it with --concurrency 1).
	fs.StringVar(&f.format, "format", "progress", "terminal output: progress, or pretty (readable with --concurrency 1)")
	fs.StringVar(&f.cucumber, "cucumber", "", "write a cucumber JSON report to this file")
	fs.StringVar(&f.junit, "junit", "", "write a JUnit XML report to this file")
	fs.StringVar(&f.report, "report", "homologation-report", "folder for report.html and report.json")
	fs.IntVar(&f.concurrency, "concurrency", 4, "scenarios run at once")
	fs.BoolVar(&f.record, "record", false, "ask the --sandbox to run the suite itself for the partner file's clientId (the run that opens the publish gate); needs HOMOLOGA_TOKEN, a portal token of the app's account")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: homologa test --partner FILE [--sandbox URL] [--features PATH] [flags]\n       homologa test --features PATH [--sandbox URL] [flags]   (features that need no partner)\n\nexit codes: 0 every check that applied passed, 1 a check failed, 2 a usage or configuration error, 3 the sandbox or the partner cannot be reached\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return f, errPrinted{err} // the flag package said what it was
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q (flags come as --name value)", fs.Arg(0))
	}
	if f.format != "progress" && f.format != "pretty" {
		return f, fmt.Errorf("--format %q: progress or pretty", f.format)
	}
	if f.concurrency < 1 {
		return f, fmt.Errorf("--concurrency %d: at least 1", f.concurrency)
	}
	return f, nil
}

func testCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	f, err := parseTestFlags(args, stderr)
	if err != nil {
		if !errors.As(err, new(errPrinted)) {
			fmt.Fprintln(stderr, "homologa test:", err)
		}
		return ExitUsage
	}
	// HOMOLOGA_TOKEN is a portal API token (or the operator's): the
	// namespaces of the run are made with it, and --record runs with it.
	// Without it, the demo app makes them, as on a developer's machine.
	var maker *Maker
	if tok := getenv("HOMOLOGA_TOKEN"); tok != "" {
		maker = &Maker{Token: tok}
	}
	if f.record {
		return recordCmd(ctx, f.partner, f.sandbox, getenv, stdout, stderr)
	}
	// A QA team's own features (contract features, say) may not need a
	// partner at all; the embedded suite always does.
	p := &Partner{Name: "(no partner: features only)"}
	switch {
	case f.partner != "":
		if p, err = LoadPartnerEnv(f.partner, getenv); err != nil {
			fmt.Fprintln(stderr, "homologa test:", err)
			return ExitUsage
		}
	case f.features == "":
		fmt.Fprintln(stderr, "homologa test: --partner FILE is required (or --features DIR, for features that need no partner)")
		return ExitUsage
	}
	if f.features != "" {
		fsys, root, err := FeaturesAt(f.features)
		if err != nil {
			fmt.Fprintln(stderr, "homologa test:", err)
			return ExitUsage
		}
		if err := CheckFeatures(fsys, root, f.features); err != nil {
			fmt.Fprintln(stderr, "homologa test: the features cannot run as written:")
			fmt.Fprintln(stderr, err)
			return ExitUsage
		}
	}
	if err := preflight(ctx, f.sandbox, p); err != nil {
		fmt.Fprintln(stderr, "homologa test:", err)
		return ExitUnreachable
	}
	rep, err := RunHomologation(ctx, HomologationOptions{Partner: p, SandboxURL: f.sandbox, FeaturesDir: f.features, Tags: f.tags,
		Format: f.format, Output: stdout, CucumberJSON: f.cucumber, JUnit: f.junit, ReportDir: f.report, Concurrency: f.concurrency, Maker: maker})
	if err != nil {
		fmt.Fprintln(stderr, "homologa test:", err)
		if rep == nil {
			return ExitUsage
		}
	}
	if setup := rep.setupFailure(); setup != "" {
		fmt.Fprintln(stderr, "homologa test: no check could run:", setup)
		return ExitUnreachable
	}
	fmt.Fprintf(stdout, "\n%s\nreport: %s\n", rep.Summary, filepath.Join(f.report, "report.html"))
	if !rep.AllPassed {
		return ExitFailed
	}
	return ExitPassed
}

// errPrinted is an error already written to the user.
type errPrinted struct{ error }

// preflight checks, before any scenario runs, that the sandbox answers as
// a Homologa sandbox and that a partner already running (no start
// command) listens: an unreachable one is one message and exit code 3,
// not the same dial error in every scenario.
func preflight(ctx context.Context, sandbox string, p *Partner) error {
	if sandbox != "" {
		u, err := url.Parse(sandbox)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--sandbox %q is not an http(s) URL", sandbox)
		}
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(sandbox, "/")+"/", nil)
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return fmt.Errorf("cannot reach the sandbox at %s: %v", sandbox, err)
		}
		defer resp.Body.Close()
		var idx struct {
			APIs map[string]string `json:"apis"`
		}
		if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&idx) != nil || len(idx.APIs) == 0 {
			return fmt.Errorf("%s does not answer as a Homologa sandbox (GET / answered %d)", sandbox, resp.StatusCode)
		}
	}
	if p.Start != nil || p.URL == "" || strings.Contains(p.URL, "{{") || len(p.Actions) == 0 {
		return nil
	}
	u, err := url.Parse(p.URL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("the partner file's url %q is not a URL", p.URL)
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	conn, err := (&net.Dialer{Timeout: 3 * time.Second}).DialContext(ctx, "tcp", net.JoinHostPort(u.Hostname(), port))
	if err != nil {
		return fmt.Errorf("cannot reach the partner at %s (the partner file's url): %v", p.URL, err)
	}
	conn.Close()
	return nil
}

// recordCmd is homologa test --record: the sandbox runs the suite for the
// partner file's app, and its run is the one publishing reads.
func recordCmd(ctx context.Context, partnerFile, sandbox string, getenv func(string) string, stdout, stderr io.Writer) int {
	token := getenv("HOMOLOGA_TOKEN")
	if partnerFile == "" || sandbox == "" || token == "" {
		fmt.Fprintln(stderr, "homologa test --record: needs --partner FILE (with clientId), --sandbox URL and HOMOLOGA_TOKEN (a portal token: POST /portal/tokens)")
		return 2
	}
	b, err := os.ReadFile(partnerFile)
	if err != nil {
		fmt.Fprintln(stderr, "homologa test:", err)
		return 2
	}
	p, err := parsePartner(partnerFile, b, func(k string) (string, bool) { v := getenv(k); return v, v != "" })
	if err != nil || p.ClientID == "" {
		fmt.Fprintln(stderr, "homologa test --record: the partner file must name its app's clientId", err)
		return 2
	}
	run, err := recordRun(ctx, sandbox, token, p.ClientID, b, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "homologa test:", err)
		return 2
	}
	fmt.Fprintln(stdout, run.Report.Summary)
	for _, c := range run.Report.Checks {
		if !c.Passed {
			fmt.Fprintf(stdout, "  FAILED %s: %s\n", c.Scenario, c.Failure)
		}
	}
	if !run.Ready {
		return 1
	}
	return 0
}
