package harness

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Main runs the harness's commands: "test" (the homologation suite against
// a partner) and "steps" (the step reference). It returns the exit code:
// 0 every scenario passed (ready for production only on a run of the
// whole suite: the summary says which), 1 checks failed, 2 usage errors.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return MainEnv(ctx, args, os.Getenv, stdout, stderr)
}

// MainEnv is Main reading its environment (HOMOLOGA_TOKEN, a partner
// file's ${env.NAME}) through getenv: tests run it side by side.
func MainEnv(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: homologa test --partner FILE [flags] | homologa steps")
		return 2
	}
	switch args[0] {
	case "steps":
		Reference(stdout)
		return 0
	case "test":
		return testCmd(ctx, args[1:], getenv, stdout, stderr)
	}
	fmt.Fprintf(stderr, "homologa: unknown command %q\n", args[0])
	return 2
}

func testCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	partnerFile := fs.String("partner", "", "the partner file (YAML): its actions, and optionally its clientId; optional with --features")
	sandbox := fs.String("sandbox", "", "a running sandbox's base URL (default: one in-process)")
	featuresDir := fs.String("features", "", "a folder of features instead of the embedded homologation suite")
	tags := fs.String("tags", "", "run only the scenarios matching this tag expression, e.g. @regra:idempotencia")
	// progress by default: pretty interleaves the lines of scenarios that
	// run at once (use it with --concurrency 1).
	format := fs.String("format", "progress", "terminal output: progress, or pretty (readable with --concurrency 1)")
	cucumber := fs.String("cucumber", "", "write a cucumber JSON report to this file")
	junit := fs.String("junit", "", "write a JUnit XML report to this file")
	reportDir := fs.String("report", "homologation-report", "folder for report.html and report.json")
	concurrency := fs.Int("concurrency", 4, "scenarios run at once")
	record := fs.Bool("record", false, "ask the --sandbox to run the suite itself for the partner file's clientId (the run that opens the publish gate); needs HOMOLOGA_TOKEN, a portal token of the app's account")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// HOMOLOGA_TOKEN is a portal API token (or the operator's): the
	// namespaces of the run are made with it, and --record runs with it.
	// Without it, the demo app makes them, as on a developer's machine.
	var maker *Maker
	if tok := getenv("HOMOLOGA_TOKEN"); tok != "" {
		maker = &Maker{Token: tok}
	}
	if *record {
		return recordCmd(ctx, *partnerFile, *sandbox, getenv, stdout, stderr)
	}
	// A QA team's own features (contract features, say) may not need a
	// partner at all; the embedded suite always does.
	p := &Partner{Name: "(no partner: features only)"}
	switch {
	case *partnerFile != "":
		var err error
		if p, err = LoadPartnerEnv(*partnerFile, getenv); err != nil {
			fmt.Fprintln(stderr, "homologa test:", err)
			return 2
		}
	case *featuresDir == "":
		fmt.Fprintln(stderr, "homologa test: --partner FILE is required (or --features DIR, for features that need no partner)")
		return 2
	}
	rep, err := RunHomologation(ctx, HomologationOptions{Partner: p, SandboxURL: *sandbox, FeaturesDir: *featuresDir, Tags: *tags,
		Format: *format, Output: stdout, CucumberJSON: *cucumber, JUnit: *junit, ReportDir: *reportDir, Concurrency: *concurrency, Maker: maker})
	if err != nil {
		fmt.Fprintln(stderr, "homologa test:", err)
		if rep == nil {
			return 2
		}
	}
	fmt.Fprintf(stdout, "\n%s\nreport: %s\n", rep.Summary, filepath.Join(*reportDir, "report.html"))
	if !rep.AllPassed {
		return 1
	}
	return 0
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
			fmt.Fprintf(stdout, "  FALHOU %s: %s\n", c.Scenario, c.Failure)
		}
	}
	if !run.Ready {
		return 1
	}
	return 0
}
