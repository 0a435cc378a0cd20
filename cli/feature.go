package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"homologa/harness"
)

// keyFields are the fields of an answer or an event a recording asserts:
// statuses, amounts, the resources' ids and the error codes of each
// dialect.
var keyFields = map[string]bool{"status": true, "statusAtual": true, "situacao": true, "txid": true, "original": true, "valor": true, "valorRec": true,
	"numeroProposta": true, "idRec": true, "endToEndId": true, "Codigo": true, "type": true, "error": true, "HouveErrosDuranteProcessamento": true}

// replayedHeaders are the request headers a recording keeps.
var replayedHeaders = []string{"Idempotency-Key", "X-Sandbox-Scenario"}

// feature renders the recording as a Gherkin feature written with the
// harness's documented steps only.
func (r *recording) feature(name string) (string, error) {
	r.classify()
	items := r.timeline()
	consts := r.constants()
	bg, flows := splitFlows(items, consts)
	w := &writer{r: r, consts: consts}
	w.receiver = usesReceiver(bg, flows)
	w.header(name)
	w.background(bg, flows)
	for i, f := range flows {
		w.scenario(i+1, withClock(f, items), bg)
	}
	if err := checkSteps(w.buf.String()); err != nil {
		return "", err
	}
	return w.buf.String(), nil
}

// writer renders one feature.
type writer struct {
	r        *recording
	consts   constants
	buf      bytes.Buffer
	receiver bool
	// per scenario: its ids (followIDs), and the Background's variables,
	// which every scenario has.
	ids    follow
	bgVars map[string]variable
	// per item: the ids it asserted, and its resource (for a plain id).
	asserted map[string]bool
	res      string
	prevAt   time.Time
	lastKind string
}

// source is where an id the sandbox made first appeared.
type source struct {
	item  int
	path  string
	kind  string
	event bool
}

func (w *writer) header(name string) {
	r := w.r
	if name == "" {
		name = "Sessão gravada do app " + r.app.ClientID
	}
	fmt.Fprintf(&w.buf, "# Recorded by homologa record from %s (app %s, company %s),\n", r.base, r.app.ClientID, r.app.CNPJ)
	fmt.Fprintf(&w.buf, "# %s to %s: %d requests, %d events.\n", r.since.Format(time.RFC3339), r.until.Format(time.RFC3339), len(r.calls), len(r.events))
	w.buf.WriteString("# Run it with homologa test --features DIR (or go test's contract runner).\n")
	fmt.Fprintf(&w.buf, "@recorded\nFeature: %s\n", name)
	w.buf.WriteString("  Replays what the integration did, as the demo app in a fresh company for\n")
	w.buf.WriteString("  each scenario: its requests with their bodies (tokens and secrets out,\n")
	fmt.Fprintf(&w.buf, "  the company's CNPJ%s as the scenario's own), the moves of the other side\n", map[bool]string{true: " and Pix keys", false: ""}[r.app.ClientID != DemoClientID])
	w.buf.WriteString("  through the control API, the clock's moves, and asserts the statuses, the\n")
	w.buf.WriteString("  key fields and the events of the session.\n")
}

// step writes one step; kind (Given, When, Then) becomes And after a
// step of the same kind.
func (w *writer) step(kind, text string) {
	kw := kind
	if kind == w.lastKind {
		kw = "And"
	}
	w.lastKind = kind
	fmt.Fprintf(&w.buf, "    %s %s\n", kw, text)
}

func (w *writer) docString(body string) {
	w.buf.WriteString("      \"\"\"\n")
	for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		w.buf.WriteString("      " + line + "\n")
	}
	w.buf.WriteString("      \"\"\"\n")
}

// background sets up each scenario: the clock as the session had it,
// the token, the receiver, the stream, and the requests that set the
// integration up.
func (w *writer) background(bg []item, flows []*flow) {
	r := w.r
	w.buf.WriteString("\n  Background:\n")
	w.lastKind = ""
	start := r.calls[0].At
	if len(r.events) > 0 && r.events[0].OccurredAt.Before(start) {
		start = r.events[0].OccurredAt
	}
	switch r.mode {
	case "frozen":
		w.step("Given", fmt.Sprintf("my clock is frozen at %q", start.UTC().Format(time.RFC3339Nano)))
	case "accelerated":
		w.step("Given", fmt.Sprintf("my clock runs at \"%sx\"", trimFloat(r.factor)))
		w.step("Given", fmt.Sprintf("the sandbox clock is at %q", start.UTC().Format(time.RFC3339Nano)))
	default:
		w.step("Given", fmt.Sprintf("the sandbox clock is at %q", start.UTC().Format(time.RFC3339Nano)))
	}
	if r.scope != "" {
		w.step("Given", fmt.Sprintf("I obtain a token with scope %q", r.scope))
	} else {
		w.step("Given", "I obtain a token")
	}
	if w.receiver {
		w.step("Given", "a webhook receiver answering 200")
	}
	if len(r.events) > 0 {
		w.step("Given", "I subscribe to the event stream")
	}
	w.begin(bg, 0)
	for i, it := range bg {
		w.item(i, it)
	}
	w.bgVars = w.ids.vars
}

func trimFloat(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprint(f)
}

// scenario writes one flow.
func (w *writer) scenario(n int, items []item, bg []item) {
	fmt.Fprintf(&w.buf, "\n  Scenario: %d. %s\n", n, title(items))
	w.lastKind = ""
	all := append(append([]item{}, bg...), items...)
	w.begin(all, len(bg))
	for i, it := range items {
		w.item(len(bg)+i, it)
	}
}

// title names a flow by its first request's resource and the events it
// saw, in the specification's words.
func title(items []item) string {
	what := ""
	var names []string
	for _, it := range items {
		if it.call != nil && what == "" {
			what = it.call.Method + " " + templatePath(it.call.Path)
		}
		if it.event != nil && !slices.Contains(names, it.event.Name) {
			names = append(names, it.event.Name)
		}
	}
	if what == "" {
		what = "the other side's moves"
	}
	if len(names) == 0 {
		return what
	}
	return what + ": " + strings.Join(names, ", ")
}

// templatePath writes a path's ids as {id}.
func templatePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if idLike("", s) || integer.MatchString(s) {
			segs[i] = "{id}"
		}
	}
	return strings.Join(segs, "/")
}

// usesReceiver says whether a request registers a webhook, which the
// feature points at its receiver.
func usesReceiver(bg []item, flows []*flow) bool {
	all := append([]item{}, bg...)
	for _, f := range flows {
		all = append(all, f.items...)
	}
	for _, it := range all {
		if it.call != nil && hasWebhookURL(it.call.req) {
			return true
		}
	}
	return false
}

func hasWebhookURL(v any) bool {
	found := false
	walk(v, "", func(path string, v any) { found = found || isWebhookField(path, v) })
	return found
}

func isWebhookField(path string, v any) bool {
	s := scalar(v)
	return strings.EqualFold(lastField(path), "webhookUrl") && (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://"))
}

// receiverURL points a recorded webhook URL at the feature's receiver,
// keeping its path.
func receiverURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "${receiverUrl}"
	}
	return "${receiverUrl}" + u.EscapedPath()
}

var stepPatterns []*regexp.Regexp

// checkSteps proves every step of the text is one of the harness's: a
// recording is written with documented steps only.
func checkSteps(text string) error {
	if stepPatterns == nil {
		for _, s := range harness.Steps {
			stepPatterns = append(stepPatterns, regexp.MustCompile(s.Pattern))
		}
	}
	inDoc := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == `"""` {
			inDoc = !inDoc
			continue
		}
		kw, rest, ok := strings.Cut(t, " ")
		if inDoc || !ok || !slices.Contains([]string{"Given", "When", "Then", "And"}, kw) {
			continue
		}
		if !slices.ContainsFunc(stepPatterns, func(p *regexp.Regexp) bool { return p.MatchString(rest) }) {
			return fmt.Errorf("internal: the recording wrote a step the harness does not have: %q", rest)
		}
	}
	return nil
}

// sortedKeys of a map, for stable output.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// jsonText encodes a scalar as the response step compares it.
func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
