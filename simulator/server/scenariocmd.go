package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"homologa/scenarios"
	"homologa/simulator/scenario"
	"homologa/simulator/schema"
)

// scenarioCmd is "homologa scenario validate FILE…" and "homologa scenario
// list": the same checks the sandbox makes when it loads scenarios, without
// starting it. Validation checks each file alone and then the set (ids,
// one default per kind) together with the shipped scenarios.
func scenarioCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: homologa scenario validate FILE... | homologa scenario list [--scenarios DIR]")
		return 2
	}
	reg, err := embeddedSchemas()
	if err != nil {
		fmt.Fprintln(stderr, "homologa:", err)
		return 1
	}
	shipped, err := scenario.ReadFS(scenarios.FS, "scenarios/")
	if err != nil {
		fmt.Fprintln(stderr, "homologa:", err)
		return 1
	}
	switch args[0] {
	case "validate":
		return validateScenarios(args[1:], shipped, reg, stdout, stderr)
	case "list":
		return listScenarios(args[1:], shipped, reg, getenv, stdout, stderr)
	}
	fmt.Fprintf(stderr, "homologa scenario: unknown subcommand %q (validate, list)\n", args[0])
	return 2
}

func report(err error, stderr io.Writer) int {
	var le *scenario.LoadError
	if errors.As(err, &le) {
		for _, p := range le.Problems {
			fmt.Fprintln(stderr, p.String())
		}
		return 1
	}
	fmt.Fprintln(stderr, "homologa:", err)
	return 1
}

// validateScenarios is "homologa scenario validate FILE…".
func validateScenarios(names []string, shipped []scenario.File, reg *schema.Registry, stdout, stderr io.Writer) int {
	if len(names) == 0 {
		fmt.Fprintln(stderr, "usage: homologa scenario validate FILE...")
		return 2
	}
	var files []scenario.File
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return 1
		}
		files = append(files, scenario.File{Name: name, Data: b})
	}
	// Each file alone first, so the good ones say so beside the bad.
	code := 0
	for _, f := range files {
		if _, err := scenario.Parse(f.Name, f.Data, Kinds(), reg); err != nil {
			code = report(err, stderr)
		} else {
			fmt.Fprintf(stdout, "%s: ok\n", f.Name)
		}
	}
	if code != 0 {
		return code
	}
	// A file of the repository's scenarios/ folder (validated while
	// editing a shipped scenario) stands in for its embedded copy rather
	// than clashing with it; any other file must not reuse a shipped id.
	inRepo := func(f scenario.File) bool {
		_, err := os.Stat(filepath.Join(filepath.Dir(f.Name), "embed.go"))
		return err == nil
	}
	base := make([]scenario.File, 0, len(shipped))
	for _, s := range shipped {
		if !slices.ContainsFunc(files, func(f scenario.File) bool { return inRepo(f) && filepath.Base(f.Name) == filepath.Base(s.Name) }) {
			base = append(base, s)
		}
	}
	if _, err := scenario.Build(append(base, files...), Kinds(), reg); err != nil {
		return report(err, stderr)
	}
	return 0
}

// listScenarios is "homologa scenario list [--scenarios DIR]".
func listScenarios(args []string, shipped []scenario.File, reg *schema.Registry, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scenario list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("scenarios", getenv("HOMOLOGA_SCENARIOS"), "folder of scenario files beside the shipped ones")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	files := shipped
	if *dir != "" {
		more, err := scenario.ReadDir(*dir)
		if err != nil {
			fmt.Fprintln(stderr, "homologa:", err)
			return 1
		}
		files = append(files, more...)
	}
	cat, err := scenario.Build(files, Kinds(), reg)
	if err != nil {
		return report(err, stderr)
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tAPPLIES TO\tTRIGGER\tTITLE")
	for _, s := range cat.All() {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", s.ID, s.AppliesTo, scenario.HowToTrigger(s), s.Title)
	}
	w.Flush()
	return 0
}
