package harness

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
)

// Main runs the harness's commands: "test" (the homologation suite against
// a partner) and "steps" (the step reference). It returns the exit code:
// 0 every scenario passed (ready for production only on a run of the
// whole suite: the summary says which), 1 checks failed, 2 usage errors.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: homologa test --partner FILE [flags] | homologa steps")
		return 2
	}
	switch args[0] {
	case "steps":
		Reference(stdout)
		return 0
	case "test":
		return testCmd(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "homologa: unknown command %q\n", args[0])
	return 2
}

func testCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
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
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// A QA team's own features (contract features, say) may not need a
	// partner at all; the embedded suite always does.
	p := &Partner{Name: "(no partner: features only)"}
	switch {
	case *partnerFile != "":
		var err error
		if p, err = LoadPartner(*partnerFile); err != nil {
			fmt.Fprintln(stderr, "homologa test:", err)
			return 2
		}
	case *featuresDir == "":
		fmt.Fprintln(stderr, "homologa test: --partner FILE is required (or --features DIR, for features that need no partner)")
		return 2
	}
	rep, err := RunHomologation(ctx, HomologationOptions{Partner: p, SandboxURL: *sandbox, FeaturesDir: *featuresDir, Tags: *tags,
		Format: *format, Output: stdout, CucumberJSON: *cucumber, JUnit: *junit, ReportDir: *reportDir, Concurrency: *concurrency})
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
