package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/tenant"
)

// Apps names apps: users name them by client id, requests and deliveries
// carry their id. Package auth answers.
type Apps interface {
	ClientID(ctx context.Context, appID string) (string, error)
	AppID(ctx context.Context, clientID string) (string, error)
	// CompanyOf names an app's company; AppIDsOf lists a company's apps.
	CompanyOf(ctx context.Context, appID string) (string, error)
	AppIDsOf(ctx context.Context, companyID string) ([]string, error)
}

// Faults holds the active fault scenarios (globally or for one app) and
// injects them: into requests through Middleware, into deliveries through
// Webhook. Activations live in memory: a restart starts clean.
type Faults struct {
	// Clocks times the faults' windows on the clock of the company that
	// activated them.
	Clocks *clock.Clocks
	// Apps names the apps faults are activated for.
	Apps Apps

	mu      sync.Mutex
	active  []*activation
	clients sync.Map // app id → client id
}

// clientID returns the client id of an app: scenarios name apps as their
// users know them, requests and deliveries carry the app's id.
func (f *Faults) clientID(appID string) string {
	if appID == "" || f.Apps == nil {
		return ""
	}
	if c, ok := f.clients.Load(appID); ok {
		return c.(string)
	}
	c, _ := f.Apps.ClientID(context.Background(), appID)
	if c != "" {
		f.clients.Store(appID, c)
	}
	return c
}

type activation struct {
	s     *Scenario
	app   string       // "" for every app
	scope tenant.Scope // who activated it: whose apps it applies to, whose clock times its windows
	since time.Time
	used  []int // per fault
}

// Activation is an active fault scenario as the control API shows it.
type Activation struct {
	Scenario string        `json:"scenario"`
	App      string        `json:"clientId,omitempty"`
	Since    time.Time     `json:"since"`
	Faults   []FaultStatus `json:"faults"`
}

// FaultStatus is one fault of an activation.
type FaultStatus struct {
	Index  int    `json:"index"`
	Line   int    `json:"line"`
	Action string `json:"action"`
	Used   int    `json:"used"`
	Times  int    `json:"times,omitempty"`
	Spent  bool   `json:"spent"`
}

// Activate turns on the faults of s for app ("" for all); activating again
// restarts its counters.
func (f *Faults) Activate(ctx context.Context, s *Scenario, app string) error {
	if len(s.Faults) == 0 {
		return errs.Errorf(errs.Conflict, "o cenário %s não tem falhas a ativar", s.ID)
	}
	sc, err := tenant.Of(ctx)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.remove(s.ID, app, sc)
	f.active = append(f.active, &activation{s: s, app: app, scope: sc, since: f.Clocks.In(sc).Now(), used: make([]int, len(s.Faults))})
	return nil
}

// activateOnce activates s for app unless it already is: the header
// X-Sandbox-Scenario activates a scenario's faults on first sight, and a
// retry carrying the same header must not rearm them.
func (f *Faults) activateOnce(ctx context.Context, s *Scenario, app string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.active {
		if a.s.ID == s.ID && a.app == app {
			return
		}
	}
	sc, err := tenant.Of(ctx)
	if err != nil {
		return // a request of no company arms nothing
	}
	f.active = append(f.active, &activation{s: s, app: app, scope: sc, since: f.Clocks.In(sc).Now(), used: make([]int, len(s.Faults))})
}

// Deactivate turns off s for app, as the company ctx carries activated it;
// it reports whether it was on.
func (f *Faults) Deactivate(ctx context.Context, id, app string) bool {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.remove(id, app, sc)
}

func (f *Faults) remove(id, app string, sc tenant.Scope) bool {
	n := len(f.active)
	kept := f.active[:0]
	for _, a := range f.active {
		if !(a.s.ID == id && a.app == app && a.scope == sc) {
			kept = append(kept, a)
		}
	}
	f.active = kept
	return len(kept) != n
}

// refresh points activations at the reloaded scenarios, as the company
// that activated each sees them, and drops the ones whose scenario is
// gone.
func (f *Faults) refresh(lookup func(company, id string) *Scenario) {
	f.mu.Lock()
	defer f.mu.Unlock()
	kept := f.active[:0]
	for _, a := range f.active {
		company, _ := a.scope.Company() // the operator's: the shared scenarios
		if s := lookup(company, a.s.ID); s != nil && len(s.Faults) > 0 {
			if len(s.Faults) != len(a.used) {
				a.used = make([]int, len(s.Faults))
			}
			a.s = s
			kept = append(kept, a)
		}
	}
	f.active = kept
}

// List shows the activations the company ctx acts for made, and the
// operator's, which apply to it too (every activation, for the operator).
func (f *Faults) List(ctx context.Context) ([]Activation, error) {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []Activation{}
	for _, a := range f.active {
		if !sc.Every() && !a.scope.Every() && a.scope != sc {
			continue
		}
		act := Activation{Scenario: a.s.ID, App: f.clientID(a.app), Since: a.since}
		for i, ft := range a.s.Faults {
			act.Faults = append(act.Faults, FaultStatus{Index: i, Line: ft.Line, Action: ft.Action(), Used: a.used[i], Times: ft.Times, Spent: f.spent(a, i)})
		}
		out = append(out, act)
	}
	return out, nil
}

func (f *Faults) spent(a *activation, i int) bool {
	ft := a.s.Faults[i]
	if ft.Times > 0 && a.used[i] >= ft.Times {
		return true
	}
	return ft.Window > 0 && f.Clocks.In(a.scope).Now().After(a.since.Add(ft.Window))
}

// take finds the first live fault that ok accepts for a request or
// delivery of app, of company, counts one use of it and names it for the
// logs. A fault activated for an app applies to it; one a company
// activated for none applies to every app of the company; the
// operator's, to every app.
func (f *Faults) take(app, company string, ok func(*Fault) bool) (*Fault, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.active {
		if (a.app != "" && a.app != app) || (a.app == "" && !a.scope.Includes(company)) {
			continue
		}
		for i := range a.s.Faults {
			ft := &a.s.Faults[i]
			if f.spent(a, i) || !ok(ft) {
				continue
			}
			a.used[i]++
			return ft, fmt.Sprintf("%s#faults.%d (%s:%d): %s", a.s.ID, i, a.s.File, ft.Line, ft.Action())
		}
	}
	return nil, ""
}

func (f *Faults) needsBody() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.active {
		for _, ft := range a.s.Faults {
			if ft.Match != nil && ft.Match.Body != nil {
				return true
			}
		}
	}
	return false
}

func (f *Faults) needsClient() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.active {
		for _, ft := range a.s.Faults {
			if ft.Match != nil && ft.Match.App != "" {
				return true
			}
		}
	}
	return false
}

func (f *Faults) empty() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.active) == 0
}

// PathMatch matches a path against a pattern whose * is one segment and
// ** any number of segments.
func PathMatch(pattern, p string) bool {
	return segMatch(strings.Split(strings.Trim(pattern, "/"), "/"), strings.Split(strings.Trim(p, "/"), "/"))
}

func segMatch(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if segMatch(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !globMatch(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// globMatch matches one segment: * is any run of characters.
func globMatch(pat, s string) bool {
	if !strings.Contains(pat, "*") {
		return pat == s
	}
	parts := strings.Split(pat, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, part := range parts[1 : len(parts)-1] {
		i := strings.Index(s, part)
		if i < 0 {
			return false
		}
		s = s[i+len(part):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

// Middleware injects the HTTP faults into the requests of an API. It sits
// inside authentication (the app is known) and outside idempotency, so a
// response lost "after" the work leaves the stored answer a retry with the
// same Idempotency-Key gets. The header X-Sandbox-Scenario activates the
// named scenario's faults for the app on first sight.
func (f *Faults) Middleware(lookup func(company, id string) *Scenario, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := httpx.InfoOf(r.Context())
		// Only a known app activates by header: on the token endpoint the
		// app is not known yet, and a header must not arm every app.
		if name := r.Header.Get(Header); name != "" && info.AppID != "" {
			if s := lookup(info.CompanyID, name); s != nil && len(s.Faults) > 0 {
				f.activateOnce(r.Context(), s, info.AppID)
			}
		}
		if f.empty() {
			next.ServeHTTP(w, r)
			return
		}
		var body map[string]any
		if f.needsBody() && r.Body != nil {
			raw, err := httpx.ReadBody(r, 0)
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			r.Body = httpx.Replay(raw, nil)
			json.Unmarshal(raw, &body)
		}
		client := ""
		if f.needsClient() {
			client = f.clientID(info.AppID)
		}
		ft, name := f.take(info.AppID, f.companyOf(r, info), func(ft *Fault) bool { return ft.Match != nil && matchRequest(ft.Match, r, client, body) })
		if ft == nil {
			next.ServeHTTP(w, r)
			return
		}
		info.Injected = name + " (" + ft.Phase + ")"
		if ft.Phase == "after" {
			// The work is done; the answer never reaches the client.
			next.ServeHTTP(&discard{h: http.Header{}}, r)
		}
		if ft.Latency > 0 && !sleep(r, ft.Latency) {
			return
		}
		switch {
		case ft.Respond != nil:
			respond(w, r, ft.Respond)
		case ft.Reset:
			reset(w, r)
		case ft.Timeout > 0:
			sleep(r, ft.Timeout)
			reset(w, r)
		default: // latency alone: the answer comes, late
			next.ServeHTTP(w, r)
		}
	})
}

func matchRequest(m *Match, r *http.Request, client string, body map[string]any) bool {
	if m.Method != "" && m.Method != r.Method {
		return false
	}
	if m.App != "" && m.App != client {
		return false
	}
	for k, v := range m.Header {
		if r.Header.Get(k) != v {
			return false
		}
	}
	if m.Body != nil && (body == nil || !m.Body.Match(body)) {
		return false
	}
	return PathMatch(m.Path, r.URL.Path)
}

// respond answers in the called API's dialect, or with the scenario's own
// body when it gives one.
func respond(w http.ResponseWriter, r *http.Request, rs *Respond) {
	if rs.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((rs.RetryAfter+time.Second-1)/time.Second)))
	}
	if rs.Body != nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(rs.Status)
		json.NewEncoder(w).Encode(rs.Body)
		return
	}
	msg := rs.Message
	if msg == "" {
		msg = http.StatusText(rs.Status)
	}
	httpx.WriteError(w, r, &errs.Error{Code: httpx.CodeForStatus(rs.Status), Status: rs.Status, Message: msg})
}

// reset closes the connection without an answer; with SO_LINGER 0 the
// client sees a reset, not an orderly close. The connection is taken now
// (nothing will be written to it) and closed once the request is recorded.
func reset(w http.ResponseWriter, r *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	info := httpx.InfoOf(r.Context())
	info.Finally = append(info.Finally, func() {
		if tcp, ok := conn.(*net.TCPConn); ok {
			tcp.SetLinger(0)
		}
		conn.Close()
	})
}

// sleep waits d of wall time (latency is felt by the client, not the
// sandbox clock) unless the client goes away first.
func sleep(r *http.Request, d time.Duration) bool {
	// Waiting on purpose: the request's turn goes to the next one.
	httpx.Yield(r.Context())
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// discard is the writer of a response that is lost.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

// Webhook returns the fault to apply to a delivery of eventType to app, if
// any, counting one use.
func (f *Faults) Webhook(company, app, eventType string) *events.WebhookFault {
	if f.empty() {
		return nil
	}
	ft, name := f.take(app, company, func(ft *Fault) bool {
		w := ft.Webhook
		return w != nil && (w.App == "" || w.App == f.clientID(app)) && (w.Event == "" || globMatch(w.Event, eventType))
	})
	if ft == nil {
		return nil
	}
	return &events.WebhookFault{Name: name, Drop: ft.Drop, Delay: ft.Delay, Duplicate: ft.Duplicate, OutOfOrder: ft.OutOfOrder, BadSignature: ft.BadSignature,
		StaleSignature: ft.StaleSignature, Unsigned: ft.Unsigned}
}

// forgetApps deactivates every fault activated for one of the apps.
func (f *Faults) forgetApps(appIDs []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	kept := f.active[:0]
	for _, a := range f.active {
		if !slices.Contains(appIDs, a.app) {
			kept = append(kept, a)
		}
	}
	f.active = kept
}

// companyOf is the company a request is of: its app's, once authenticated;
// on the token endpoint, the app its client credentials name (in the
// request's namespace).
func (f *Faults) companyOf(r *http.Request, info *httpx.Info) string {
	if tenant.Named(info.CompanyID) || f.Apps == nil {
		return info.CompanyID
	}
	client, _, ok := r.BasicAuth()
	if !ok && r.Body != nil {
		// Peek at the form without consuming it: the handler reads it,
		// and answers a body past the limit.
		raw, err := io.ReadAll(r.Body)
		r.Body = httpx.Replay(raw, err)
		if err != nil {
			return ""
		}
		form, _ := url.ParseQuery(string(raw))
		client = form.Get("client_id")
	}
	if client == "" {
		return ""
	}
	id, err := f.Apps.AppID(r.Context(), client)
	if err != nil {
		return ""
	}
	company, _ := f.Apps.CompanyOf(r.Context(), id)
	return company
}
