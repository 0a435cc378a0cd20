package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/dashboard"
)

// partnerAPIs are the APIs of the service a recording replays: the
// token endpoint is the Background's, the portal and the QR payloads are
// not the partner's integration.
var partnerAPIs = map[string]bool{"pix": true, "insurer": true, "questionnaire": true, "access": true, "benefits": true, "customer": true}

// recording is what a session left in the sandbox: the company's
// requests, its events, the scenarios that drove its resources, and its
// clock now.
type recording struct {
	base   string
	app    AppInfo
	since  time.Time
	until  time.Time
	mode   string
	factor float64
	// clockNow is the company's clock at until (its wall-clock instant).
	clockNow time.Time
	calls    []*call
	events   []*event
	bindings []binding
	// scope is what the first token request of the session asked for.
	scope string
	// truncated: the window holds more requests than one page.
	truncated bool
	// cursor is the request the last event a request emitted was
	// attached to (classify).
	cursor int
}

// call is one recorded request of the partner, decoded.
type call struct {
	interaction
	req, resp any
	// events are those the request itself emitted.
	events []*event
}

// event is one event of the company in the window.
type event struct {
	ID         string         `json:"id"`
	Type       string         `json:"type"`
	Name       string         `json:"name"`
	Sequence   int64          `json:"sequence"`
	OccurredAt time.Time      `json:"occurredAt"`
	Subject    map[string]any `json:"subject"`
	Data       any            `json:"data"`
	cause      string
}

// binding is a scenario binding and the steps it ran.
type binding struct {
	Scenario string `json:"scenario"`
	Kind     string `json:"kind"`
	Ref      string `json:"ref"`
	Log      []struct {
		Verb string    `json:"verb"`
		At   time.Time `json:"at"`
	} `json:"log"`
}

func recordCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf connFlags
	cf.register(fs, getenv)
	since := fs.String("since", "", "record from this instant on (RFC 3339, your wall clock)")
	last := fs.String("last", "30m", "record the last period (30m, 2h, 1d), when --since is not given")
	out := fs.String("out", "", "write the feature to this file (default: standard output)")
	name := fs.String("name", "", "the feature's name (default: the app's recorded session)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	from, err := windowStart(*since, *last, time.Now())
	if err != nil {
		fmt.Fprintln(stderr, "homologa record:", err)
		return 2
	}
	c, err := cf.client()
	if err != nil {
		fmt.Fprintln(stderr, "homologa record:", err)
		return 2
	}
	defer c.Close()
	rec, err := fetchRecording(ctx, c, from)
	if err != nil {
		fmt.Fprintln(stderr, "homologa record:", err)
		return 1
	}
	if rec.truncated {
		fmt.Fprintln(stderr, "homologa record: the window holds more than 1000 requests: only the newest 1000 are recorded (narrow it with --since)")
	}
	text, err := rec.feature(*name)
	if err != nil {
		fmt.Fprintln(stderr, "homologa record:", err)
		return 1
	}
	if *out == "" {
		io.WriteString(stdout, text)
		return 0
	}
	// The folder of features QA keeps may not exist yet (features/recorded/).
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintln(stderr, "homologa record:", err)
		return 1
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		fmt.Fprintln(stderr, "homologa record:", err)
		return 1
	}
	fmt.Fprintf(stdout, "Recorded %d requests and %d events into %s: run it with homologa test --features %s\n", len(rec.calls), len(rec.events), *out, dirOf(*out))
	return 0
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i+1]
	}
	return "."
}

// windowStart is --since, or now less --last.
func windowStart(since, last string, now time.Time) (time.Time, error) {
	if since != "" {
		t, err := time.Parse(time.RFC3339Nano, since)
		if err != nil {
			return time.Time{}, fmt.Errorf("--since %q: give an RFC 3339 instant, as 2026-03-01T14:00:00-03:00", since)
		}
		return t, nil
	}
	d, err := clock.ParseDuration(last)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("--last %q: give a period, as 30m or 2h", last)
	}
	return now.Add(-d), nil
}

// fetchRecording reads the window's requests, events and bindings over
// the control API, as the app.
func fetchRecording(ctx context.Context, c *Client, since time.Time) (*recording, error) {
	in := dashboard.ExportInput{Base: c.Base, Since: since, Until: time.Now()}
	get := func(path string) (json.RawMessage, error) {
		var raw json.RawMessage
		err := c.Call(ctx, http.MethodGet, path, nil, &raw)
		return raw, err
	}
	var err error
	if in.App, err = get("/sandbox/app"); err != nil {
		return nil, err
	}
	if in.Clock, err = get("/sandbox/clock"); err != nil {
		return nil, err
	}
	if in.Interactions, err = interactions(ctx, c, url.Values{}, 0, 1000); err != nil {
		return nil, err
	}
	for after := int64(0); ; {
		var page struct {
			Events []json.RawMessage `json:"events"`
		}
		if err := c.Call(ctx, http.MethodGet, "/sandbox/events?limit=1000&since="+strconv.FormatInt(after, 10), nil, &page); err != nil {
			return nil, err
		}
		in.Events = append(in.Events, page.Events...)
		for _, raw := range page.Events {
			after = max(after, idOfSequence(raw))
		}
		if len(page.Events) < 1000 {
			break
		}
	}
	if in.Bindings, err = get("/sandbox/scenarios/bindings"); err != nil {
		return nil, err
	}
	return buildRecording(in)
}

func idOfSequence(raw json.RawMessage) int64 {
	var e struct {
		Sequence int64 `json:"sequence"`
	}
	json.Unmarshal(raw, &e)
	return e.Sequence
}

// Export renders a company's session as a feature: the dashboard's
// export as feature (cmd/homologa gives it to the sandbox).
func Export(_ context.Context, in dashboard.ExportInput) (string, error) {
	r, err := buildRecording(in)
	if err != nil {
		return "", err
	}
	return r.feature(in.Name)
}

// buildRecording reads a session from the control API's JSON: the
// window's requests to the partner APIs and the company's events from
// the window's start on its clock.
func buildRecording(in dashboard.ExportInput) (*recording, error) {
	r := &recording{base: in.Base, since: in.Since, until: in.Until}
	if err := json.Unmarshal(in.App, &r.app); err != nil {
		return nil, fmt.Errorf("the app: %w", err)
	}
	var clk struct {
		Now    time.Time `json:"now"`
		Mode   string    `json:"mode"`
		Factor float64   `json:"factor"`
	}
	if err := json.Unmarshal(in.Clock, &clk); err != nil {
		return nil, fmt.Errorf("the clock: %w", err)
	}
	r.mode, r.factor = clk.Mode, clk.Factor
	// The clock was read now; at until it showed less by what it ran since.
	r.clockNow = clk.Now.Add(-time.Duration(float64(time.Since(in.Until)) * r.speed()))
	if err := r.readCalls(in.Interactions); err != nil {
		return nil, err
	}
	if len(r.calls) == 0 {
		return nil, fmt.Errorf("no request of company %s to the service's APIs from %s to %s: nothing to record", r.app.CNPJ, in.Since.Format(time.RFC3339), in.Until.Format(time.RFC3339))
	}
	if err := r.readEvents(in.Events); err != nil {
		return nil, err
	}
	var bs struct {
		Bindings []binding `json:"bindings"`
	}
	if len(in.Bindings) > 0 {
		if err := json.Unmarshal(in.Bindings, &bs); err != nil {
			return nil, fmt.Errorf("the bindings: %w", err)
		}
	}
	r.bindings = bs.Bindings
	return r, nil
}

// readCalls keeps the window's requests to the partner APIs.
func (r *recording) readCalls(page []json.RawMessage) error {
	for i, raw := range page {
		var it interaction
		if err := json.Unmarshal(raw, &it); err != nil {
			return fmt.Errorf("interaction log: %w", err)
		}
		if it.WallAt.Before(r.since) || it.WallAt.After(r.until) {
			continue
		}
		r.truncated = r.truncated || (i == 0 && len(page) == 1000)
		if it.API == "oauth" && r.scope == "" && it.Status == http.StatusOK {
			form, _ := url.ParseQuery(it.RequestBody)
			r.scope = form.Get("scope")
		}
		if !partnerAPIs[it.API] {
			continue
		}
		cl := &call{interaction: it}
		cl.req, cl.resp = decodeJSON(it.RequestBody), decodeJSON(it.ResponseBody)
		r.calls = append(r.calls, cl)
	}
	return nil
}

func decodeJSON(s string) any {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// readEvents keeps the company's events from the window's start, on its
// clock: the first request's instant less the wall time between the
// window's start and it (on a frozen clock, that instant), to the clock
// at the window's end.
func (r *recording) readEvents(page []json.RawMessage) error {
	first := r.calls[0]
	start := first.At.Add(-time.Duration(float64(first.WallAt.Sub(r.since)) * r.speed()))
	for _, raw := range page {
		e := &event{}
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.UseNumber()
		if err := d.Decode(e); err != nil {
			return fmt.Errorf("event log: %w", err)
		}
		if !e.OccurredAt.Before(start) && !e.OccurredAt.After(r.clockNow) {
			r.events = append(r.events, e)
		}
	}
	return nil
}
