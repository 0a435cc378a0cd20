package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"homologa/features"
	"homologa/schemas"
	"homologa/simulator/schema"
	"homologa/simulator/server"
)

// HomologationOptions configure a run of the homologation suite.
type HomologationOptions struct {
	Partner *Partner
	// SandboxURL is a running sandbox; "" starts one in-process (real
	// clock, in memory).
	SandboxURL string
	// FeaturesDir is a folder of features; "" runs the embedded suite.
	FeaturesDir string
	Tags        string
	// Format is pretty or progress, written to Output.
	Format string
	Output io.Writer
	// CucumberJSON and JUnit are files to write those reports to.
	CucumberJSON, JUnit string
	// ReportDir receives report.html and report.json.
	ReportDir   string
	Concurrency int
	// Maker makes each scenario's namespace (default: the demo app).
	Maker *Maker
	// Context, when set, ends the run's requests when it is done.
	Context context.Context
	// PartnerTransport carries the requests to the partner's actions
	// (default: net/http's); the sandbox gives its guarded one.
	PartnerTransport http.RoundTripper
}

// Check is one scenario of the report: a usage rule or onboarding step
// proved, or not, with the evidence.
type Check struct {
	Scenario   string   `json:"scenario"`
	Feature    string   `json:"feature"`
	Rules      []string `json:"regras"`
	Onboarding []string `json:"onboarding"`
	Passed     bool     `json:"passed"`
	Failure    string   `json:"failure,omitempty"`
	// NotApplicable is why the check did not apply to this partner or
	// sandbox ("" when it did): neither passed nor failed.
	NotApplicable string `json:"notApplicable,omitempty"`
	// Setup marks a failure of the scenario's setup on the suite's side
	// (the sandbox, starting the partner): no check of the partner ran.
	Setup       bool          `json:"setup,omitempty"`
	ClientID    string        `json:"clientId,omitempty"`
	Evidence    []interaction `json:"interactions"`
	Deliveries  []delivery    `json:"deliveries"`
	DurationSec float64       `json:"durationSeconds"`
}

// Report is the homologation report.
type Report struct {
	Partner string `json:"partner"`
	// Ready is every check of the whole suite passing: a partial run is
	// never ready for production, whatever it proved.
	Ready bool `json:"readyForProduction"`
	// AllPassed is every scenario that ran passing (and at least one
	// ran): the exit code's 0, for a partial run too.
	AllPassed bool      `json:"allPassed"`
	Summary   string    `json:"summary"`
	Started   time.Time `json:"started"`
	Duration  float64   `json:"durationSeconds"`
	Checks    []Check   `json:"checks"`
	Passed    int       `json:"passed"`
	Failed    int       `json:"failed"`
	// NotApplicable counts the checks that did not apply (each says why).
	NotApplicable int    `json:"notApplicable"`
	SandboxURL    string `json:"sandbox"`
	// Partial names the filter of a run that is not the whole embedded
	// suite (--tags, --features): it is reported, but it does not open the
	// publish gate.
	Partial string `json:"partial,omitempty"`
	// Products are the partner's products whose checks ran: a ready
	// report opens the publish gate for them.
	Products []string `json:"products"`
	// NoPartner is a run of features without a partner (homologa test
	// --features DIR without --partner): scenarios, not checks of anyone.
	NoPartner bool `json:"noPartner,omitempty"`
	// Leniency is what works here and in production, but is not in the
	// specification: what the partner's requests did that the sandbox
	// accepted as production does (the interaction log's findings). It
	// fails no check; it is the partner's risk with a stricter server,
	// and serve --strict refuses it.
	Leniency []Leniency `json:"leniency"`
}

// Leniency is one kind of finding on one operation, however many times
// the partner's requests made it.
type Leniency struct {
	Kind   string `json:"kind"`
	Method string `json:"method"`
	// Path is the first request's path that made the finding.
	Path   string `json:"path"`
	Field  string `json:"field,omitempty"`
	Detail string `json:"detail"`
	Count  int    `json:"count"`
	// Checks are the scenarios whose requests made it.
	Checks []string `json:"checks"`
}

// leniency gathers the findings of the checks' evidence, one entry per
// kind, method and field, in the order they were first seen.
func leniency(checks []Check) []Leniency {
	out := []Leniency{}
	at := map[string]int{}
	for _, c := range checks {
		for _, it := range c.Evidence {
			for _, f := range it.Findings {
				key := f.Kind + " " + it.Method + " " + f.Field
				i, seen := at[key]
				if !seen {
					i = len(out)
					at[key] = i
					out = append(out, Leniency{Kind: f.Kind, Method: it.Method, Path: it.Path, Field: f.Field, Detail: f.Detail})
				}
				out[i].Count++
				if !slices.Contains(out[i].Checks, c.Scenario) {
					out[i].Checks = append(out[i].Checks, c.Scenario)
				}
			}
		}
	}
	return out
}

// RunHomologation runs the suite against the partner and returns the
// report (also written to ReportDir). A run on the partner's machine is
// the partner's own: only a run the sandbox makes itself (POST
// /portal/apps/{id}/homologations, or homologa test --record) opens the
// publish gate.
func RunHomologation(ctx context.Context, opts HomologationOptions) (*Report, error) {
	if opts.Partner == nil {
		return nil, fmt.Errorf("no partner: give a partner file")
	}
	opts = opts.withDefaults()
	base, stop, err := sandboxFor(ctx, opts.SandboxURL)
	if err != nil {
		return nil, err
	}
	defer stop()
	run := &runMemory{began: sandboxNow(ctx, base)}
	partnerBase, stopPartner, err := startRunPartner(ctx, opts.Partner, base)
	if err != nil {
		return nil, err
	}
	defer stopPartner()
	reg, err := embeddedRegistry()
	if err != nil {
		return nil, err
	}
	report := &Report{Partner: opts.Partner.Name, Started: time.Now().UTC(), SandboxURL: base, Partial: opts.partial(),
		NoPartner: opts.Partner.URL == "" && len(opts.Partner.Actions) == 0, Products: opts.Partner.Products}
	status := homologationSuite(opts, base, partnerBase, reg, report, run).Run()
	if len(report.Checks) == 0 {
		// Nothing ran: a parse error or a tag expression matching nothing
		// must not read as "0 failed".
		return nil, fmt.Errorf("no scenario ran (suite status %d): check the features and --tags", status)
	}
	report.tally()
	if opts.JUnit != "" {
		fsys, root := opts.featureSource()
		if err := report.writeJUnit(opts.JUnit, featureNames(fsys, root)); err != nil {
			return report, fmt.Errorf("write the JUnit report %s: %w", opts.JUnit, err)
		}
	}
	if opts.ReportDir != "" {
		if err := report.Write(opts.ReportDir); err != nil {
			return report, err
		}
	}
	return report, nil
}

func (opts HomologationOptions) withDefaults() HomologationOptions {
	if opts.Output == nil {
		opts.Output = io.Discard
	}
	if opts.Format == "" {
		opts.Format = "progress"
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	if opts.Partner != nil && opts.Partner.App.Mode == Fixed {
		opts.Concurrency = 1 // one app: one scenario at a time
	}
	return opts
}

// featureSource is where the run's features are: the embedded suite, or
// the folder or feature file given.
func (opts HomologationOptions) featureSource() (fs.FS, string) {
	if opts.FeaturesDir != "" {
		fsys, root, _ := FeaturesAt(opts.FeaturesDir)
		return fsys, root
	}
	return features.Homologation, "homologation"
}

// FeaturesAt opens --features: a folder of features (every .feature
// under it), or one .feature file, as godog takes either.
func FeaturesAt(path string) (fs.FS, string, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, "", fmt.Errorf("--features %s: no such folder or file", path)
	case st.IsDir():
		return os.DirFS(path), ".", nil
	case strings.HasSuffix(path, ".feature"):
		return os.DirFS(filepath.Dir(path)), filepath.Base(path), nil
	}
	return nil, "", fmt.Errorf("--features %s: not a folder of features nor a .feature file", path)
}

// partial names the filter of a run that is not the whole suite.
func (opts HomologationOptions) partial() string {
	p := ""
	if opts.Tags != "" {
		p = "--tags " + opts.Tags
	}
	if opts.FeaturesDir != "" {
		p = strings.TrimSpace("--features " + opts.FeaturesDir + " " + p)
	}
	return p
}

// sandboxFor returns the sandbox to run against: the one at url, or one
// started in-process (stop closes it).
func sandboxFor(ctx context.Context, url string) (base string, stop func(), err error) {
	if url != "" {
		return url, func() {}, nil
	}
	srv, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Log: io.Discard, WebhookAllow: []string{"*"}})
	if err != nil {
		return "", nil, err
	}
	if err := srv.Start(ctx); err != nil {
		return "", nil, err
	}
	return srv.URL(), func() { srv.Close(context.Background()) }, nil
}

// homologationSuite is the godog suite of a run: each scenario's check is
// added to report as it ends.
func homologationSuite(opts HomologationOptions, base, partnerBase string, reg *schema.Registry, report *Report, run *runMemory) godog.TestSuite {
	var mu sync.Mutex
	formats := []string{opts.Format}
	if opts.Format == "pretty" {
		formats[0] = "homologa-pretty" // harness/pretty.go: no Go locations
	}
	if opts.CucumberJSON != "" {
		formats = append(formats, "cucumber:"+opts.CucumberJSON)
	}
	fsys, root := opts.featureSource()
	paths := []string{root}
	return godog.TestSuite{
		Name: "homologation",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			w := NewWorld(base, reg, Credentials{})
			w.Partner, w.Maker, w.ctx, w.partnerRT, w.partnerBase, w.run = opts.Partner, opts.Maker, opts.Context, opts.PartnerTransport, partnerBase, run
			start := time.Now()
			// Each scenario has a company of its own, in a namespace
			// holding a fresh copy of the demo company: a QA team's own
			// features act as the demo app, as the contract runner's do,
			// and scenarios never collide on names, data or clocks. A
			// partner with a fixed app runs its scenarios one after
			// another on that app, its company reset before each.
			sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
				start = time.Now()
				// A check of a flow the partner does not declare, or of
				// a way it leaves to a widget, does not apply to it.
				var tags []string
				for _, t := range s.Tags {
					tags = append(tags, t.Name)
				}
				if reason := opts.Partner.applies(tags); reason != "" {
					return ctx, w.notApplicable(reason)
				}
				begin := w.Begin
				if opts.Partner.App.Mode == Fixed {
					begin = w.BeginFixed
				}
				if err := begin(); err != nil {
					return ctx, setupError{err}
				}
				return ctx, nil
			})
			sc.After(func(ctx context.Context, s *godog.Scenario, err error) (context.Context, error) {
				c := w.check(s, err, time.Since(start))
				mu.Lock()
				report.Checks = append(report.Checks, c)
				mu.Unlock()
				w.End()
				w.Close()
				return ctx, nil
			})
			Register(sc, w)
		},
		Options: &godog.Options{
			Format: strings.Join(formats, ","), Output: opts.Output, FS: fsys, Paths: paths, Tags: opts.tags(),
			Strict: true, Concurrency: opts.Concurrency, NoColors: true,
		},
	}
}

// check is the report's entry for a scenario that ended with err: its
// rules and onboarding steps from its tags, and the app's requests and
// deliveries as evidence.
func (w *World) check(s *godog.Scenario, err error, took time.Duration) Check {
	c := Check{Scenario: s.Name, Feature: s.Uri, Passed: err == nil, ClientID: w.app.ClientID, DurationSec: took.Seconds()}
	switch {
	case w.na != "":
		c.Passed, c.NotApplicable = false, w.na
	case err != nil:
		c.Failure = err.Error()
		var se setupError
		c.Setup = errors.As(err, &se)
	}
	for _, t := range s.Tags {
		switch {
		case strings.HasPrefix(t.Name, "@regra:"):
			c.Rules = append(c.Rules, strings.TrimPrefix(t.Name, "@regra:"))
		case strings.HasPrefix(t.Name, "@onboarding:"):
			c.Onboarding = append(c.Onboarding, strings.TrimPrefix(t.Name, "@onboarding:"))
		}
	}
	if w.app.ClientID != "" {
		c.Evidence, _ = w.interactions("", ".*")
		c.Deliveries, _ = w.deliveries()
	}
	return c
}

// tally counts the checks, decides readiness and orders the checks:
// failures first, they are what the reader came for.
func (r *Report) tally() {
	sort.Slice(r.Checks, func(i, j int) bool {
		if r.Checks[i].Feature != r.Checks[j].Feature {
			return r.Checks[i].Feature < r.Checks[j].Feature
		}
		return r.Checks[i].Scenario < r.Checks[j].Scenario
	})
	for _, c := range r.Checks {
		switch {
		case c.NotApplicable != "":
			r.NotApplicable++
		case c.Passed:
			r.Passed++
		default:
			r.Failed++
		}
	}
	r.Duration = time.Since(r.Started).Seconds()
	r.Leniency = leniency(r.Checks)
	r.AllPassed = r.Failed == 0 && r.Passed > 0
	r.Ready = r.AllPassed && r.Partial == ""
	r.Summary = summary(r)
	// Failures first, they are what the reader came for; what did not
	// apply last.
	rank := func(c Check) int {
		switch {
		case c.NotApplicable != "":
			return 2
		case c.Passed:
			return 1
		}
		return 0
	}
	sort.SliceStable(r.Checks, func(i, j int) bool { return rank(r.Checks[i]) < rank(r.Checks[j]) })
}

// summary is the report's first line. The CLI speaks English (the
// service's own answers stay in Portuguese, as the service speaks). Only a
// run of the whole suite speaks of production; a partial run says what it
// ran and that it does not count for publishing; without a partner it
// counts scenarios, not a partner's checks. What did not apply is counted
// apart.
func summary(r *Report) string {
	noun := "check"
	if r.NoPartner {
		noun = "scenario"
	}
	total := r.Passed + r.Failed
	var s string
	switch {
	case r.Failed == 0 && r.Passed == 1:
		s = "the only " + noun + " passed"
	case r.Failed == 0:
		s = fmt.Sprintf("all %d %ss passed", r.Passed, noun)
	case total == 1:
		s = "the only " + noun + " failed"
	default:
		s = fmt.Sprintf("%d of %d %ss failed", r.Failed, total, noun)
	}
	if r.NotApplicable > 0 {
		s += fmt.Sprintf("; %d did not apply (the report says why)", r.NotApplicable)
	}
	if r.Partial != "" {
		what := r.Partial
		if r.NoPartner {
			what += ", no partner"
		}
		return "PARTIAL RUN (" + what + "): " + s + "; it does not count for publishing."
	}
	if r.Ready {
		return "READY FOR PRODUCTION" + r.forProducts() + ": " + s + "."
	}
	return "NOT READY FOR PRODUCTION: " + s + "."
}

// Write writes report.json and report.html into dir.
func (r *Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "report.json"), b, 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "report.html"))
	if err != nil {
		return err
	}
	defer f.Close()
	return reportHTML.Execute(f, r)
}

var reportHTML = template.Must(template.New("report").Funcs(template.FuncMap{
	"join": func(s []string) string { return strings.Join(s, ", ") },
	"json": func(v any) string { b, _ := json.MarshalIndent(v, "", "  "); return string(b) },
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Homologation report — {{.Partner}}</title>
<style>body{font:15px system-ui,sans-serif;margin:2em;max-width:70em}h1{font-size:1.4em}
.ok{color:#116611}.fail{color:#aa1111}.na{color:#666}table{border-collapse:collapse;width:100%;table-layout:fixed}td,th{border:1px solid #ccc;padding:.4em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
details pre{font-size:12px;overflow:auto;max-height:30em;background:#f6f6f6;padding:.5em}</style></head><body>
<h1 class="{{if .AllPassed}}ok{{else}}fail{{end}}">{{.Summary}}</h1>
<p>Partner: <b>{{.Partner}}</b> · sandbox {{.SandboxURL}} · {{.Started.Format "2006-01-02 15:04:05"}} UTC · {{printf "%.1f" .Duration}} s</p>
<table><tr><th>Check</th><th>Usage rule (regra)</th><th>Onboarding step</th><th>Result</th></tr>
{{range .Checks}}<tr><td>{{.Scenario}}<br><small>{{.Feature}}</small></td><td>{{join .Rules}}</td><td>{{join .Onboarding}}</td>
<td class="{{if .Passed}}ok{{else if .NotApplicable}}na{{else}}fail{{end}}">{{if .Passed}}passed{{else if .NotApplicable}}did not apply: {{.NotApplicable}}{{else}}failed: {{.Failure}}{{end}}
<details><summary>evidence ({{len .Evidence}} requests, {{len .Deliveries}} deliveries; app {{.ClientID}})</summary><pre>{{json .Evidence}}</pre><pre>{{json .Deliveries}}</pre></details></td></tr>
{{end}}</table>
<h2>Works here and in production, but is not in the specification</h2>
{{if .Leniency}}<p>The sandbox accepted these as the real APIs do; no check failed for them. A stricter server may refuse them: <code>homologa serve --strict</code> does.</p>
<table><tr><th>Finding</th><th>Operation</th><th>Member or parameter</th><th>Times</th><th>Detail</th></tr>
{{range .Leniency}}<tr><td>{{.Kind}}</td><td>{{.Method}} {{.Path}}</td><td>{{.Field}}</td><td>{{.Count}}</td><td>{{.Detail}}<br><small>{{join .Checks}}</small></td></tr>
{{end}}</table>{{else}}<p>Nothing: every request was as the specification writes it.</p>{{end}}
</body></html>
`))

var registryOnce struct {
	sync.Once
	reg *schema.Registry
	err error
}

// embeddedRegistry compiles the embedded schemas once per process.
func embeddedRegistry() (*schema.Registry, error) {
	registryOnce.Do(func() { registryOnce.reg, registryOnce.err = schema.LoadLazy(schemas.FS) })
	return registryOnce.reg, registryOnce.err
}

// tags is the run's tag expression: --tags, and the checks of the
// partner's products (godog reads "A && B,C" as A and (B or C)).
func (opts HomologationOptions) tags() string {
	products := ""
	if opts.Partner != nil {
		products = opts.Partner.Tags()
	}
	switch {
	case opts.Tags == "":
		return products
	case products == "":
		return opts.Tags
	}
	return opts.Tags + " && " + products
}

// startRunPartner starts the partner of the fixed mode once for the run,
// when its file says how, and answers the base URL of its actions.
func startRunPartner(ctx context.Context, p *Partner, sandbox string) (string, func(), error) {
	if p == nil || p.App.Mode != Fixed || p.Start == nil {
		return "", func() {}, nil
	}
	proc, err := startPartner(ctx, p, map[string]string{"app.clientId": p.App.ClientID, "app.clientSecret": p.App.ClientSecret,
		"app.webhookSecret": p.App.WebhookSecret, "app.chave": p.App.Chave, "sandbox.url": sandbox})
	if err != nil {
		return "", nil, err
	}
	return proc.url, proc.stop, nil
}

// forProducts names the products a ready report covers, when the partner
// does not do them all.
func (r *Report) forProducts() string {
	if len(r.Products) == 0 || len(r.Products) == len(Products) {
		return ""
	}
	return " (" + strings.Join(r.Products, ", ") + ")"
}

// sandboxNow is the sandbox's wall clock as its answers' Date header
// gives it, to the second below: the log's times are the sandbox's, and a
// remote sandbox's clock need not agree with ours. The zero time when it
// cannot tell (then every request of the app counts, as before runs
// were told apart).
func sandboxNow(ctx context.Context, base string) time.Time {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/", nil)
	if err != nil {
		return time.Time{}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return time.Time{}
	}
	resp.Body.Close()
	at, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		return time.Time{}
	}
	return at
}

// runMemory is what the scenarios of a run share: the partner's token
// requests that a reset between scenarios (the fixed mode) emptied from
// the sandbox's log.
type runMemory struct {
	// began is when the run began, on the sandbox's clock (sandboxNow):
	// a fixed app's requests before it (a token its developer asked for
	// by hand, an earlier run's) are not this run's to judge.
	began  time.Time
	mu     sync.Mutex
	tokens []interaction
}

func (r *runMemory) rememberTokens(list []interaction) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, it := range list {
		if !it.WallAt.Before(r.began) {
			r.tokens = append(r.tokens, it)
		}
	}
}

func (r *runMemory) tokenRequests() []interaction {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]interaction(nil), r.tokens...)
}

// setupError is a scenario's setup failing on the suite's side (the
// sandbox, the partner's start command): no check of the partner ran.
type setupError struct{ err error }

func (e setupError) Error() string { return e.err.Error() }
func (e setupError) Unwrap() error { return e.err }

// setupFailure is the first setup failure when every check that failed
// failed in its setup ("" otherwise): nothing of the partner was judged.
func (r *Report) setupFailure() string {
	first := ""
	for _, c := range r.Checks {
		if c.Passed || c.NotApplicable != "" {
			continue
		}
		if !c.Setup {
			return ""
		}
		if first == "" {
			first = c.Failure
		}
	}
	return first
}
