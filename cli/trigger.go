package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Trigger is one event homologa trigger fires: what it needs, and how
// it is made to happen on the caller's company, through the partner
// APIs and the control API (the payer, the insurer's analyst, the
// bank), so that it is the event the same change emits.
type Trigger struct {
	// Type is the event's type; Name its name in the specification.
	Type, Name string
	// Cycle groups the list: sale, customer, benefit, pix,
	// pix-automatico, sandbox.
	Cycle string
	// Resource is what --resource names (txid, numeroProposta…); Needs
	// says what is made when it is not given.
	Resource, Needs string
	// Fields are the --field names it reads, with their defaults.
	Fields string
	fire   func(f *firing) error
}

// fieldList collects --field k=v.
type fieldList map[string]string

func (l fieldList) String() string { return "" }

func (l fieldList) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("write --field name=value, not %q", v)
	}
	l[k] = val
	return nil
}

func triggerCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trigger", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf connFlags
	cf.register(fs, getenv)
	list := fs.Bool("list", false, "list every event with what it needs")
	resource := fs.String("resource", "", "an existing resource of yours to act on (what each event takes: --list)")
	fields := fieldList{}
	fs.Var(fields, "field", "a value of the event's resource, name=value (repeatable; --list names each event's)")
	wait := fs.Duration("wait", 15*time.Second, "how long to wait for the event to be emitted")
	// The event may come before, between or after the flags, as in
	// homologa trigger pix.recebido --resource abc.
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if *list {
		printTriggers(stdout)
		return 0
	}
	var event string
	if len(pos) > 0 {
		event = pos[0]
	}
	t, ok := findTrigger(event)
	if !ok {
		fmt.Fprintf(stderr, "homologa trigger: %q is not an event the sandbox fires; homologa trigger --list lists them\n", event)
		return 2
	}
	c, err := cf.client()
	if err != nil {
		fmt.Fprintln(stderr, "homologa trigger:", err)
		return 2
	}
	defer c.Close()
	f := &firing{ctx: ctx, c: c, resource: *resource, fields: fields, out: stdout}
	if err := f.run(t, *wait); err != nil {
		fmt.Fprintf(stderr, "homologa trigger %s: %v\n", t.Type, err)
		return 1
	}
	return 0
}

// parseInterleaved parses flags wherever they stand among the positional
// arguments, which it returns (the flag package stops at the first).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
}

func findTrigger(event string) (Trigger, bool) {
	for _, t := range Triggers() {
		if t.Type == event {
			return t, true
		}
	}
	return Trigger{}, false
}

// printTriggers is --list: every event, by cycle.
func printTriggers(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "EVENT\tNAME\t--resource\tWITHOUT IT, MAKES\t--field")
	cycle := ""
	for _, t := range Triggers() {
		if t.Cycle != cycle {
			cycle = t.Cycle
			fmt.Fprintf(tw, "[%s]\t\t\t\t\n", cycle)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Type, t.Name, orDash(t.Resource), t.Needs, orDash(t.Fields))
	}
	tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// firing is one run of a trigger: the app, its company's clock, what the
// caller named, and what was made on the way.
type firing struct {
	ctx      context.Context
	c        *Client
	resource string
	fields   map[string]string
	out      io.Writer
	app      AppInfo
	now      time.Time
}

// run fires t and waits until the company's event log holds an event
// of its type emitted since: the proof it fired, printed with the other
// events the run caused.
func (f *firing) run(t Trigger, wait time.Duration) error {
	var err error
	if f.app, err = f.c.App(f.ctx); err != nil {
		return err
	}
	var clk struct {
		Now time.Time `json:"now"`
	}
	if err := f.c.Call(f.ctx, http.MethodGet, "/sandbox/clock", nil, &clk); err != nil {
		return err
	}
	f.now = clk.Now
	before, err := newestSequence(f.ctx, f.c)
	if err != nil {
		return err
	}
	fmt.Fprintf(f.out, "Firing %s (%s) for app %s, company %s\n", t.Type, t.Name, f.app.ClientID, f.app.CNPJ)
	if err := t.fire(f); err != nil {
		return err
	}
	return f.await(t.Type, before, wait)
}

// emitted is an event of the company's log, as the trigger prints it.
type emitted struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Sequence int64          `json:"sequence"`
	Subject  map[string]any `json:"subject"`
}

// await polls the event log until an event of the type follows before.
func (f *firing) await(typ string, before int64, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		var page struct {
			Events []emitted `json:"events"`
		}
		if err := f.c.Call(f.ctx, http.MethodGet, "/sandbox/events?limit=1000&since="+strconv.FormatInt(before, 10), nil, &page); err != nil {
			return err
		}
		i := slices.IndexFunc(page.Events, func(e emitted) bool { return e.Type == typ })
		if i >= 0 {
			fmt.Fprintln(f.out, "Emitted:")
			for j, e := range page.Events[:i+1] {
				mark := ""
				if j == i {
					mark = "  ← fired"
				}
				fmt.Fprintf(f.out, "  #%d %-36s %s %s%s\n", e.Sequence, e.Type, e.ID, subjectText(e.Subject), mark)
			}
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no %s event within %s of the calls above (homologa logs tail and GET /sandbox/scenarios/bindings show what happened)", typ, wait)
		}
		select {
		case <-f.ctx.Done():
			return f.ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func subjectText(s map[string]any) string {
	var parts []string
	for k, v := range s {
		parts = append(parts, k+"="+scalarText(v))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

func scalarText(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// field is a --field value, or the default.
func (f *firing) field(name, def string) string {
	if v, ok := f.fields[name]; ok {
		return v
	}
	return def
}

// call makes one call as the app, printed with its answer's status; a
// non-2xx is the error.
func (f *firing) call(method, p string, body, out any, header ...string) error {
	r := Request{Method: method, Path: p, Body: body, Header: map[string]string{}}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header[header[i]] = header[i+1]
	}
	a, err := f.c.Do(f.ctx, r)
	if err != nil {
		return err
	}
	fmt.Fprintf(f.out, "  %s %s → %d\n", method, p, a.Status)
	if a.Status < 200 || a.Status > 299 {
		return fmt.Errorf("%s %s: %w", method, p, &Problem{Status: a.Status, Body: a.Body})
	}
	if out != nil && len(a.Body) > 0 {
		return a.Decode(out)
	}
	return nil
}

// act runs one scenario step now on a resource (POST /sandbox/actions).
func (f *firing) act(kind string, ref map[string]any, step map[string]any) error {
	body := map[string]any{"step": step}
	for k, v := range ref {
		body[k] = v
	}
	return f.call(http.MethodPost, "/sandbox/actions/"+kind, body, nil)
}

// date is the company's date, days from now.
func (f *firing) date(days int) string {
	return f.now.AddDate(0, 0, days).Format(time.DateOnly)
}

// newID makes an id of the partner's: prefix and random letters and
// digits (a txid is 26 to 35 of them).
func newID(prefix string, n int) string {
	b := make([]byte, n)
	rand.Read(b)
	id := prefix + hex.EncodeToString(b)
	return id[:min(len(id), len(prefix)+n)]
}

// errorOr is err, or a new error saying what is missing.
func errorOr(err error, missing string) error {
	if err != nil {
		return err
	}
	return errors.New(missing)
}
