package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// interaction is a recorded request as GET /sandbox/interactions lists
// it: what the tail prints and what record reads.
type interaction struct {
	ID             int64             `json:"id"`
	At             time.Time         `json:"at"`
	WallAt         time.Time         `json:"wallAt"`
	RequestID      string            `json:"requestId"`
	AppID          string            `json:"appId"`
	API            string            `json:"api"`
	Method         string            `json:"method"`
	Path           string            `json:"path"`
	SentPath       string            `json:"sentPath"`
	Query          string            `json:"query"`
	RequestHeaders map[string]string `json:"requestHeaders"`
	RequestBody    string            `json:"requestBody"`
	Status         int               `json:"status"`
	ResponseHeader map[string]string `json:"responseHeaders"`
	ResponseBody   string            `json:"responseBody"`
	DurationMS     float64           `json:"durationMs"`
	IdempotencyKey string            `json:"idempotencyKey"`
	Injected       string            `json:"injected"`
}

// interactions reads one page of the company's log: q holds the
// filters, after the id to follow (0: the newest limit).
func interactions(ctx context.Context, c *Client, q url.Values, after int64, limit int) ([]json.RawMessage, error) {
	q = cloneValues(q)
	q.Set("limit", strconv.Itoa(limit))
	if after > 0 {
		q.Set("after", strconv.FormatInt(after, 10))
	}
	var page struct {
		Interactions []json.RawMessage `json:"interactions"`
	}
	err := c.Call(ctx, http.MethodGet, "/sandbox/interactions?"+q.Encode(), nil, &page)
	return page.Interactions, err
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// tail follows the interaction log.
type tail struct {
	c       *Client
	q       url.Values
	status  []string
	asJSON  bool
	every   time.Duration
	out     io.Writer
	last    int64
	ownApp  AppInfo
	failing bool
}

func logsCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "tail" {
		fmt.Fprintln(stderr, "usage: homologa logs tail [--app CLIENT_ID] [--method M] [--path P] [--status S] [--json] [--last N]")
		return 2
	}
	fs := flag.NewFlagSet("logs tail", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf connFlags
	cf.register(fs, getenv)
	app := fs.String("app", "", "only this app's requests (client id or app id; default: every app of your company)")
	method := fs.String("method", "", "only this method")
	path := fs.String("path", "", "only this path; a path ending in * is a prefix: /pix/v2/cob*")
	status := fs.String("status", "", "only these statuses, comma-separated: 201, 4xx, 5xx")
	asJSON := fs.Bool("json", false, "one JSON object per request, as GET /sandbox/interactions has it (bodies included), for tools")
	last := fs.Int("last", 0, "start with the newest N requests (at most 1000)")
	every := fs.Duration("every", 500*time.Millisecond, "how often the log is read")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	c, err := cf.client()
	if err != nil {
		fmt.Fprintln(stderr, "homologa logs tail:", err)
		return 2
	}
	defer c.Close()
	q := url.Values{}
	for k, v := range map[string]string{"app": *app, "method": *method, "path": *path} {
		if v != "" {
			q.Set(k, v)
		}
	}
	t := &tail{c: c, q: q, asJSON: *asJSON, every: max(*every, 50*time.Millisecond), out: stdout}
	for _, s := range strings.Split(*status, ",") {
		if s = strings.TrimSpace(s); s != "" {
			t.status = append(t.status, strings.ToLower(s))
		}
	}
	if err := t.run(ctx, min(max(*last, 0), 1000)); err != nil {
		fmt.Fprintln(stderr, "homologa logs tail:", err)
		return 1
	}
	return 0
}

// run prints the newest n requests, then each new one as it is logged,
// until ctx ends.
func (t *tail) run(ctx context.Context, n int) error {
	var err error
	if t.ownApp, err = t.c.App(ctx); err != nil {
		return err
	}
	page, err := interactions(ctx, t.c, t.q, 0, max(n, 1))
	if err != nil {
		return err
	}
	if n == 0 && len(page) > 0 {
		t.last = idOf(page[len(page)-1])
		page = nil
	}
	t.print(page)
	if !t.asJSON {
		fmt.Fprintf(t.out, "Tailing the interaction log of company %s at %s. Ctrl-C to stop.\n", t.ownApp.CNPJ, t.c.Base)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(t.every):
		}
		page, err := interactions(ctx, t.c, t.q, t.last, 1000)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			if !t.failing && !t.asJSON {
				fmt.Fprintf(t.out, "The log cannot be read (%v); trying again\n", err)
			}
			t.failing = true
			continue
		}
		t.failing = false
		t.print(page)
	}
}

func idOf(raw json.RawMessage) int64 {
	var i struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal(raw, &i)
	return i.ID
}

// print writes the requests that pass the status filter.
func (t *tail) print(page []json.RawMessage) {
	for _, raw := range page {
		var i interaction
		if json.Unmarshal(raw, &i) != nil {
			continue
		}
		t.last = max(t.last, i.ID)
		if !statusMatches(t.status, i.Status) {
			continue
		}
		if t.asJSON {
			fmt.Fprintf(t.out, "%s\n", raw)
			continue
		}
		fmt.Fprintln(t.out, t.line(i))
	}
}

// line is one request in a line: when (wall clock), which app, the
// call, its answer and how long it took, and the fault injected.
func (t *tail) line(i interaction) string {
	app := i.AppID
	if app == t.ownApp.ID {
		app = t.ownApp.ClientID
	}
	if app == "" {
		app = "-"
	}
	target := i.Path
	if i.SentPath != "" {
		target = i.SentPath
	}
	if i.Query != "" {
		target += "?" + i.Query
	}
	s := fmt.Sprintf("%s  %-16s %-6s %s  %d  %.1f ms", i.WallAt.Local().Format("15:04:05.000"), app, i.Method, target, i.Status, i.DurationMS)
	if i.IdempotencyKey != "" {
		s += "  key=" + i.IdempotencyKey
	}
	if i.Injected != "" {
		s += "  [injected: " + i.Injected + "]"
	}
	return s
}

// statusMatches reads the --status filter: exact codes and classes (4xx).
func statusMatches(filter []string, status int) bool {
	if len(filter) == 0 {
		return true
	}
	code := strconv.Itoa(status)
	for _, f := range filter {
		if f == code || len(f) == 3 && strings.HasSuffix(f, "xx") && f[0] == code[0] {
			return true
		}
	}
	return false
}
