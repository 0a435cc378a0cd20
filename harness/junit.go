package harness

import (
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	gherkin "github.com/cucumber/gherkin/go/v26"
	messages "github.com/cucumber/messages/go/v21"
)

// The JUnit report is written from the run's report, not by godog's
// formatter: a check is a test case whose class is its feature, a feature
// is a test suite that names its file, a check that did not apply is
// <skipped> with its reason, and the counts are those of the report. It
// follows the Jenkins JUnit schema (dtkit's junit-4.xsd, which Jenkins
// and the tools that validate JUnit read; TestJUnitAndPrettyOutput checks),
// which has no file attribute: the feature's file is the suite's property
// "file", and a skip's reason its text (docs/decisions/0030).

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
}

// junitSkipped is a skip and its reason, as text: the schema's skipped
// element is a string.
type junitSkipped struct {
	Reason string `xml:",chardata"`
}

type junitMessage struct {
	Type    string `xml:"type,attr,omitempty"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// writeJUnit writes the report as JUnit XML to path; names maps each
// feature file to its feature's name.
func (r *Report) writeJUnit(path string, names map[string]string) error {
	byFile := map[string]*junitSuite{}
	out := junitSuites{Name: "homologation", Time: seconds(r.Duration)}
	for _, c := range r.Checks {
		s := byFile[c.Feature]
		if s == nil {
			name := names[c.Feature]
			if name == "" {
				name = strings.TrimSuffix(filepath.Base(c.Feature), ".feature")
			}
			s = &junitSuite{Name: name, Timestamp: r.Started.Format(time.RFC3339), Properties: []junitProperty{{Name: "file", Value: c.Feature}}}
			byFile[c.Feature] = s
		}
		tc := junitCase{Name: c.Scenario, Classname: s.Name, Time: seconds(c.DurationSec)}
		switch {
		case c.NotApplicable != "":
			tc.Skipped = &junitSkipped{Reason: "did not apply: " + c.NotApplicable}
			s.Skipped++
		case !c.Passed:
			tc.Failure = &junitMessage{Type: "failure", Message: firstLine(c.Failure), Text: c.Failure}
			s.Failures++
			out.Failures++
		}
		s.Tests++
		out.Tests++
		s.Cases = append(s.Cases, tc)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		s := byFile[f]
		var t float64
		for _, c := range r.Checks {
			if c.Feature == f {
				t += c.DurationSec
			}
		}
		s.Time = seconds(t)
		out.Suites = append(out.Suites, *s)
	}
	b, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// featureNames maps each feature file under root in fsys (as godog names
// it: the path under the folder given) to its feature's name.
func featureNames(fsys fs.FS, root string) map[string]string {
	out := map[string]string{}
	fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".feature") {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil
		}
		doc, err := gherkin.ParseGherkinDocument(strings.NewReader(string(b)), (&messages.Incrementing{}).NewId)
		if err == nil && doc.Feature != nil {
			out[p] = doc.Feature.Name
		}
		return nil
	})
	return out
}
