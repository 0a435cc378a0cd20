package harness

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/formatters"
	messages "github.com/cucumber/messages/go/v21"
)

// The pretty output of homologa test is this formatter's, not godog's:
// godog's names the Go function behind every step ("# steps.go:511 ->
// homologa/harness.init.func34.1"), which tells a QA engineer nothing. A
// scenario's lines are written together when it ends, so scenarios that
// run at once do not interleave.

func init() {
	godog.Format("homologa-pretty", "each scenario's steps with their outcome, written when the scenario ends", newPretty)
}

type pretty struct {
	out io.Writer

	mu       sync.Mutex
	features map[string]*messages.GherkinDocument
	lines    map[string]map[string]int64 // uri → step id → line
	keywords map[string]string           // step id → its keyword (Given, And, …)
	pending  map[string]*prettyScenario  // pickle id → its lines so far
	counts   map[string]int              // outcome → steps
	done     map[string]int              // outcome → scenarios
	printed  map[string]bool             // uris whose Feature line was written
}

type prettyScenario struct {
	pickle  *messages.Pickle
	lines   []string
	results int
	outcome string
}

func newPretty(_ string, out io.Writer) formatters.Formatter {
	return &pretty{out: out, features: map[string]*messages.GherkinDocument{}, lines: map[string]map[string]int64{}, keywords: map[string]string{},
		pending: map[string]*prettyScenario{}, counts: map[string]int{}, done: map[string]int{}, printed: map[string]bool{}}
}

func (f *pretty) TestRunStarted() {}

func (f *pretty) Feature(doc *messages.GherkinDocument, uri string, _ []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.features[uri] = doc
	lines := map[string]int64{}
	if doc.Feature != nil {
		collectStepLines(doc.Feature.Children, lines)
		collectStepKeywords(doc.Feature.Children, f.keywords)
	}
	f.lines[uri] = lines
}

func (f *pretty) Pickle(p *messages.Pickle) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending[p.Id] = &prettyScenario{pickle: p, outcome: "passed"}
	if len(p.Steps) == 0 {
		f.flush(p.Id)
	}
}

func (f *pretty) Defined(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition) {}

func (f *pretty) Passed(p *messages.Pickle, s *messages.PickleStep, _ *formatters.StepDefinition) {
	f.step(p, s, "passed", "✓", "")
}

func (f *pretty) Skipped(p *messages.Pickle, s *messages.PickleStep, _ *formatters.StepDefinition) {
	f.step(p, s, "skipped", "-", "")
}

func (f *pretty) Undefined(p *messages.Pickle, s *messages.PickleStep, _ *formatters.StepDefinition) {
	f.step(p, s, "undefined", "?", "no step matches this text (homologa steps lists them)")
}

func (f *pretty) Pending(p *messages.Pickle, s *messages.PickleStep, _ *formatters.StepDefinition) {
	f.step(p, s, "pending", "?", "pending")
}

func (f *pretty) Failed(p *messages.Pickle, s *messages.PickleStep, _ *formatters.StepDefinition, err error) {
	f.step(p, s, "failed", "✗", err.Error())
}

func (f *pretty) Ambiguous(p *messages.Pickle, s *messages.PickleStep, _ *formatters.StepDefinition, err error) {
	f.step(p, s, "ambiguous", "✗", err.Error())
}

// step records a step's outcome; the scenario is written once every step
// has one.
func (f *pretty) step(p *messages.Pickle, s *messages.PickleStep, outcome, mark, detail string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sc := f.pending[p.Id]
	if sc == nil {
		return
	}
	line := fmt.Sprintf("    %s %s%s", mark, f.keywords[s.AstNodeIds[0]], s.Text)
	if n := f.lines[p.Uri][s.AstNodeIds[0]]; n > 0 {
		line += fmt.Sprintf("   # %s:%d", p.Uri, n)
	}
	sc.lines = append(sc.lines, line)
	if detail != "" {
		for _, d := range strings.Split(detail, "\n") {
			sc.lines = append(sc.lines, "        "+d)
		}
	}
	f.counts[outcome]++
	if outcome != "passed" && sc.outcome == "passed" {
		sc.outcome = outcome
	}
	sc.results++
	if sc.results >= len(p.Steps) {
		f.flush(p.Id)
	}
}

func (f *pretty) flush(id string) {
	sc := f.pending[id]
	delete(f.pending, id)
	p := sc.pickle
	if !f.printed[p.Uri] {
		f.printed[p.Uri] = true
		if doc := f.features[p.Uri]; doc != nil && doc.Feature != nil {
			fmt.Fprintf(f.out, "\nFeature: %s   # %s\n", doc.Feature.Name, p.Uri)
		}
	}
	fmt.Fprintf(f.out, "\n  Scenario: %s\n", p.Name)
	for _, l := range sc.lines {
		fmt.Fprintln(f.out, l)
	}
	f.done[sc.outcome]++
}

func (f *pretty) Summary() {
	f.mu.Lock()
	defer f.mu.Unlock()
	total := 0
	for _, n := range f.done {
		total += n
	}
	fmt.Fprintf(f.out, "\n%d scenarios (%d passed, %d failed, %d skipped)\n", total, f.done["passed"], f.done["failed"]+f.done["ambiguous"]+f.done["undefined"]+f.done["pending"], f.done["skipped"])
}

// collectStepKeywords maps each step's id to its keyword, as written.
func collectStepKeywords(children []*messages.FeatureChild, out map[string]string) {
	add := func(steps []*messages.Step) {
		for _, s := range steps {
			out[s.Id] = s.Keyword
		}
	}
	for _, c := range children {
		if c.Background != nil {
			add(c.Background.Steps)
		}
		if c.Scenario != nil {
			add(c.Scenario.Steps)
		}
		if c.Rule != nil {
			for _, rc := range c.Rule.Children {
				if rc.Background != nil {
					add(rc.Background.Steps)
				}
				if rc.Scenario != nil {
					add(rc.Scenario.Steps)
				}
			}
		}
	}
}
