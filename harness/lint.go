package harness

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v26"
	messages "github.com/cucumber/messages/go/v21"
)

// Before a run, the features a user gives are read and every step is
// matched against the step table: a step nothing implements is a mistake
// in the feature (a typo, a step from another tool), reported at once with
// its file and line and the nearest documented steps, and the run does not
// start. godog would print a Go snippet to implement it, which a QA
// engineer writing features from the reference cannot use.

// FeatureError lists what is wrong with a run's features.
type FeatureError struct {
	Problems []string
}

func (e *FeatureError) Error() string {
	return strings.Join(e.Problems, "\n")
}

// CheckFeatures parses the .feature files under root in fsys (shown in
// messages as shown) and matches each step against Steps.
func CheckFeatures(fsys fs.FS, root, shown string) error {
	var problems []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".feature") {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		problems = append(problems, checkFeature(path.Join(shown, strings.TrimPrefix(p, root)), string(b))...)
		return nil
	})
	if err != nil {
		return fmt.Errorf("read the features in %s: %w", shown, err)
	}
	if len(problems) > 0 {
		return &FeatureError{Problems: problems}
	}
	return nil
}

var compiledSteps = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(Steps))
	for i, s := range Steps {
		out[i] = regexp.MustCompile(s.Pattern)
	}
	return out
}()

// checkFeature reports the feature's syntax errors and its steps no
// pattern matches.
func checkFeature(file, src string) []string {
	doc, err := gherkin.ParseGherkinDocument(strings.NewReader(src), (&messages.Incrementing{}).NewId)
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", file, err)}
	}
	if doc.Feature == nil {
		return nil
	}
	lines := map[string]int64{}
	collectStepLines(doc.Feature.Children, lines)
	seen := map[string]bool{}
	var out []string
	for _, p := range gherkin.Pickles(*doc, file, (&messages.Incrementing{}).NewId) {
		for _, st := range p.Steps {
			if matchesAStep(st.Text) {
				continue
			}
			line := lines[st.AstNodeIds[0]]
			key := fmt.Sprintf("%d %s", line, st.Text)
			if seen[key] {
				continue
			}
			seen[key] = true
			msg := fmt.Sprintf("%s:%d: no step matches %q", file, line, st.Text)
			if near := nearestSteps(st.Text, 3); len(near) > 0 {
				msg += "\n  did you mean:\n    " + strings.Join(near, "\n    ")
			} else if hint := waitHint(st.Text); hint != "" {
				msg += "\n  " + hint
			}
			out = append(out, msg+"\n  (homologa steps prints every step, with an example)")
		}
	}
	return out
}

// collectStepLines maps each step's id to its line.
func collectStepLines(children []*messages.FeatureChild, lines map[string]int64) {
	add := func(steps []*messages.Step) {
		for _, s := range steps {
			lines[s.Id] = s.Location.Line
		}
	}
	for _, c := range children {
		switch {
		case c.Background != nil:
			add(c.Background.Steps)
		case c.Scenario != nil:
			add(c.Scenario.Steps)
		case c.Rule != nil:
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

func matchesAStep(text string) bool {
	for _, re := range compiledSteps {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

var (
	quoted    = regexp.MustCompile(`"[^"]*"`)
	number    = regexp.MustCompile(`\b\d+\b`)
	stepWords = regexp.MustCompile(`[A-Za-z0-9'"#*/.:_-]+`)
)

// shape is a step's text with its values blanked and its words
// lower-cased: what two ways of writing one step share.
func shape(text string) []string {
	t := quoted.ReplaceAllString(text, `"…"`)
	t = number.ReplaceAllString(t, "N")
	return stepWords.FindAllString(strings.ToLower(t), -1)
}

// exampleText is a step's example, its first line without the keyword.
func exampleText(s Step) string {
	line, _, _ := strings.Cut(s.Example, "\n")
	for _, kw := range []string{"Given ", "When ", "Then ", "And ", "But "} {
		if rest, ok := strings.CutPrefix(line, kw); ok {
			return rest
		}
	}
	return line
}

// waitHint answers a step that would pause the scenario: no step waits
// for a time, since a wall-clock pause makes a feature slow and still
// flaky; say what does the job instead.
func waitHint(text string) string {
	for _, w := range strings.Fields(strings.ToLower(text)) {
		switch w {
		case "wait", "waits", "sleep", "sleeps", "pause", "pauses":
			return `no step waits for a time: a step that expects something waits for it itself ("… within 5 seconds", as "Then the receiver gets a "pix.recebido" event within 5 seconds"), and the sandbox's clock moves on when told ("When I advance the clock by "10s"")`
		}
	}
	return ""
}

// nearestSteps are the documented steps closest to text (by the words
// their shapes share), as their examples, at most n of them and only
// close ones.
func nearestSteps(text string, n int) []string {
	want := shape(text)
	type candidate struct {
		example string
		score   float64
	}
	var cs []candidate
	for _, s := range Steps {
		ex := exampleText(s)
		d := wordDistance(want, shape(ex))
		score := float64(d) / float64(max(len(want), len(shape(ex)), 1))
		if score <= 0.6 {
			cs = append(cs, candidate{ex, score})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score < cs[j].score })
	var out []string
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.example)
	}
	return out
}

// wordDistance is the edit distance between two word lists.
func wordDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
