package control

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/jobs"
	"homologa/simulator/recorder"
	"homologa/simulator/schema"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
	"homologa/simulator/tenant"
)

// Handlers serves the control API.
type Handlers struct {
	Clocks   *clock.Clocks
	Jobs     *jobs.Scheduler
	Auth     *auth.Service
	Bus      *events.Bus
	DB       *store.DB
	Recorder *recorder.Recorder
	Schemas  *schema.Registry
	Inbox    *Inbox
	// Resetters empty what each package keeps of a company.
	Resetters []Resetter
	// Jumps is how long a clock move waits for its jobs before it
	// answers their progress instead (202); zero fields take
	// DefaultJumpBudget's.
	Jumps jobs.Budget
}

// DefaultJumpBudget is what a move of the clock waits for: 10,000 jobs
// or 15 seconds. A feature's advance of days or a year of a few
// resources runs far fewer, and answers done, as it always did; a
// jump of centuries through a company's recurrences answers its progress
// and goes on in the background.
var DefaultJumpBudget = jobs.Budget{Jobs: 10_000, Wait: 15 * time.Second}

func (h *Handlers) budget() jobs.Budget {
	b := h.Jumps
	if b.Jobs <= 0 {
		b.Jobs = DefaultJumpBudget.Jobs
	}
	if b.Wait <= 0 {
		b.Wait = DefaultJumpBudget.Wait
	}
	return b
}

// Resetter empties what a package keeps of a company, in the reset's
// transaction.
type Resetter interface {
	ResetCompany(ctx context.Context, tx *store.Tx, companyID string, appIDs []string) error
}

// reset is POST /sandbox/reset: the caller's company starts over, its
// sandbox empty (ResetCompany); the operator's reset does so for every
// company.
func (h *Handlers) reset(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	sc, err := tenant.Of(ctx)
	if err != nil {
		return nil, err
	}
	companies := []string{}
	if company, one := sc.Company(); one {
		companies = append(companies, company)
	} else if companies, err = h.Auth.CompanyIDs(ctx); err != nil {
		return nil, err
	}
	for _, c := range companies {
		if err := h.ResetCompany(ctx, c); err != nil {
			return nil, err
		}
	}
	return httpx.OK(map[string]any{"companies": len(companies)}), nil
}

// ResetCompany empties a company's sandbox: its resources, jobs, events and
// deliveries, interactions, scenario bindings and faults, inbox entries,
// and its clock (it follows the default again). The company, its apps,
// their credentials, Pix keys and offer grants stay.
func (h *Handlers) ResetCompany(ctx context.Context, companyID string) error {
	apps, err := h.Auth.AppsOf(ctx, companyID)
	if err != nil {
		return err
	}
	ids := make([]string, len(apps))
	for i, a := range apps {
		ids[i] = a.ID
	}
	err = h.DB.Tx(ctx, func(tx *store.Tx) error {
		for _, rs := range h.Resetters {
			if err := rs.ResetCompany(ctx, tx, companyID, ids); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reset company %s: %w", companyID, err)
	}
	if err := h.Recorder.ResetCompany(ctx, companyID); err != nil {
		return fmt.Errorf("reset company %s: %w", companyID, err)
	}
	h.Inbox.forget(companyID)
	return h.Jobs.Release(ctx, companyID)
}

// scopeOf is whose data a control call lists: the caller's company's, or
// every company's for the operator; an error for a call of no company.
func scopeOf(r *http.Request) (company string, every bool, err error) {
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return "", false, err
	}
	company, _ = sc.Company()
	return company, sc.Every(), nil
}

// listScope is what a log listing reads: the scope's company (every
// company for the operator) and the app ?app= names ("" for all).
type listScope struct {
	company, app string
	every        bool
}

func (h *Handlers) listScope(r *http.Request) (listScope, error) {
	app, err := h.appID(r)
	if err != nil {
		return listScope{}, err
	}
	company, every, err := scopeOf(r)
	return listScope{company: company, app: app, every: every}, err
}

// Routes is the control API's routes: the clock, the interaction and
// delivery logs, replays, test events and the inbox.
func (h *Handlers) Routes() []httpx.Route {
	route := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "sandbox", Method: method, Path: path, Auth: httpx.Tenant, Answer: answer, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		route(http.MethodGet, "/clock", "platform/clock", h.clock, "the company's clock (the operator: the default clock)"),
		route(http.MethodGet, "/clocks", "", h.clocks, "the companies' own clocks (the company: its own)"),
		route(http.MethodPost, "/clock/advance", "platform/clock", h.advance, "advance the clock, running what falls due").WithRequest("platform/clock.advance"),
		route(http.MethodPost, "/clock/set", "platform/clock", h.set, "set, freeze, run or accelerate the clock").WithRequest("platform/clock.set"),
		route(http.MethodGet, "/interactions", "", h.interactions, "the interaction log"),
		route(http.MethodGet, "/deliveries", "", h.deliveries, "webhook deliveries"),
		route(http.MethodGet, "/deliveries/{id}", "", h.delivery, "one delivery and its attempts"),
		route(http.MethodPost, "/deliveries/{id}/replay", "", h.replay, "deliver an event again"),
		route(http.MethodGet, "/events", "", h.events, "emitted events"),
		{API: "sandbox", Method: http.MethodPost, Path: "/events/ping", Auth: httpx.Tenant, Idempotent: true, Request: "platform/ping", Handler: httpx.HandlerFunc(h.ping),
			Doc: "send a test event to the app's webhook"},
		// The inbox takes the sandbox's own deliveries at its name (served
		// in the process, never from the network), and anyone's at its
		// box URL, a secret of its company's; a company reads its own.
		{API: "sandbox", Method: http.MethodPost, Path: "/inbox/{name}", Auth: httpx.Public, RawBody: true, Handler: httpx.HandlerFunc(h.Inbox.receive),
			Doc: "the built-in webhook receiver: the sandbox's own deliveries"},
		// Callers that append to a webhook URL (the Pix PSP adds /pix)
		// land in the same box, with the path kept.
		{API: "sandbox", Method: http.MethodPost, Path: "/inbox/{name}/{rest:.+}", Auth: httpx.Public, RawBody: true, Handler: httpx.HandlerFunc(h.Inbox.receive),
			Doc: "the built-in webhook receiver: the sandbox's own deliveries"},
		{API: "sandbox", Method: http.MethodPost, Path: "/hooks/{key}", Auth: httpx.Public, RawBody: true, Handler: httpx.HandlerFunc(h.Inbox.receiveAtKey),
			Doc: "a company's inbox box, at its secret URL: anyone's posts"},
		{API: "sandbox", Method: http.MethodPost, Path: "/hooks/{key}/{rest:.+}", Auth: httpx.Public, RawBody: true, Handler: httpx.HandlerFunc(h.Inbox.receiveAtKey),
			Doc: "a company's inbox box, at its secret URL: anyone's posts"},
		route(http.MethodGet, "/inbox/{name}", "", h.Inbox.list, "what the company's inbox box received, and the box's secret URL"),
		route(http.MethodPost, "/reset", "", h.reset, "empty the company's sandbox (the operator: every company's)"),
		route(http.MethodPost, "/tokens/expire", "", h.expireTokens, "end every access token of the company now (they live on the wall clock; this tests renewal)"),
		route(http.MethodGet, "/app", "platform/app", h.app, "the app of the token: its company, CNPJ and webhook (no secret)"),
		route(http.MethodPut, "/app/webhook", "platform/app", h.appWebhook, "set the webhook of the app of the token, as the portal does").WithRequest("platform/app.webhook"),
	}
}

type clockView struct {
	Now         time.Time  `json:"now"`
	Mode        clock.Mode `json:"mode"`
	Factor      float64    `json:"factor"`
	PendingJobs int        `json:"pendingJobs"`
	JobsRun     *int       `json:"jobsRun,omitempty"`
	Scope       string     `json:"scope"`
	Own         bool       `json:"own"`
	// Jump is the clock's jump while it runs.
	Jump *jobs.JumpState `json:"jump,omitempty"`
}

// view is the clock a call acts on: its company's, or the default for the
// operator. A move that ran jobs says how many (ran); one whose jump
// goes on past the call's budget answers 202.
func (h *Handlers) view(r *http.Request, ran *int) (*httpx.Reply, error) {
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return nil, err
	}
	company, one := sc.Company() // the operator reads the default clock
	clk := h.Clocks.In(sc)
	mode, factor := clk.Mode()
	n, err := h.Jobs.Pending(r.Context())
	if err != nil {
		return nil, err
	}
	v := clockView{Now: clk.Now(), Mode: mode, Factor: factor, PendingJobs: n, JobsRun: ran, Scope: "company", Own: h.Clocks.Owns(company)}
	if !one {
		v.Scope, v.Own = "sandbox", false
	}
	if st, ok := h.Jobs.JumpOf(company); ok && !st.Done {
		v.Jump = &st
		if ran != nil {
			return &httpx.Reply{Status: http.StatusAccepted, Body: v}, nil
		}
	}
	return httpx.OK(v), nil
}

// clock is GET /sandbox/clock: the company's clock.
func (h *Handlers) clock(r *http.Request) (*httpx.Reply, error) { return h.view(r, nil) }

// companyClock is one company's clock in GET /sandbox/clocks.
type companyClock struct {
	CompanyID string     `json:"companyId"`
	CNPJ      string     `json:"cnpj"`
	Namespace string     `json:"namespace,omitempty"`
	Now       time.Time  `json:"now"`
	Mode      clock.Mode `json:"mode"`
	Factor    float64    `json:"factor"`
	Own       bool       `json:"own"`
	// Jump is the clock's running jump, if one runs.
	Jump *jobs.JumpState `json:"jump,omitempty"`
}

// clocks is GET /sandbox/clocks: the caller company's clock, or for the
// operator every company's that has one of its own.
func (h *Handlers) clocks(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	sc, err := tenant.Of(ctx)
	if err != nil {
		return nil, err
	}
	ids := h.Clocks.Owners()
	if company, one := sc.Company(); one {
		ids = []string{company}
	}
	out := []companyClock{}
	for _, id := range ids {
		c, err := h.Auth.Company(ctx, id)
		if err != nil {
			continue // a company deleted since it moved its clock
		}
		clk := h.Clocks.Of(id)
		mode, factor := clk.Mode()
		cc := companyClock{CompanyID: id, CNPJ: c.CNPJ, Namespace: c.Namespace, Now: clk.Now(), Mode: mode, Factor: factor, Own: h.Clocks.Owns(id)}
		if st, ok := h.Jobs.JumpOf(id); ok && !st.Done {
			cc.Jump = &st
		}
		out = append(out, cc)
	}
	return httpx.OK(map[string]any{"clocks": out}), nil
}

// advance is POST /sandbox/clock/advance {"by":"36h"}: the company's clock
// moves (the first move gives it a clock of its own), and the call answers
// after every job of the company due in the window has run, each at its
// own instant; a jump with more jobs than the call's budget answers 202
// with its progress and goes on (jobs.Jump). The operator moves the
// default clock and every company that follows it.
func (h *Handlers) advance(r *http.Request) (*httpx.Reply, error) {
	var in struct{ By string }
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/clock.advance", &in); err != nil {
		return nil, err
	}
	d, err := clock.ParseDuration(in.By)
	if err != nil {
		return nil, errs.Invalidf("by", "%v", err)
	}
	target := h.Clocks.Now(r.Context()).Add(d)
	if err := clock.CheckInstant(target); err != nil {
		return nil, errs.Invalidf("by", "%v", err)
	}
	st, err := h.Jobs.Jump(r.Context(), target, h.budget())
	if err != nil {
		return nil, err
	}
	return h.view(r, &st.JobsRun)
}

// set is POST /sandbox/clock/set {"at":"2027-01-01T00:00:00Z", "mode":
// "frozen"|"real"|"60x"}. Forward, it runs what falls due on the way as
// advance does; backward, it runs nothing. The mode, when given, applies
// from the new instant.
func (h *Handlers) set(r *http.Request) (*httpx.Reply, error) {
	var in struct{ At, Mode string }
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/clock.set", &in); err != nil {
		return nil, err
	}
	var mode clock.Mode
	var factor float64
	if in.Mode != "" {
		var err error
		if mode, factor, err = clock.Parse(in.Mode); err != nil {
			return nil, errs.Invalidf("mode", "%v", err)
		}
	}
	// A clock to be frozen is frozen first, so that it stops exactly at
	// the instant set; a clock to run is set first, and runs from there.
	freeze := in.Mode != "" && mode == clock.Frozen
	if freeze {
		if err := h.Jobs.SetMode(r.Context(), mode, factor); err != nil {
			return nil, err
		}
	}
	n := 0
	if in.At != "" {
		at, err := time.Parse(time.RFC3339Nano, in.At)
		if err != nil {
			return nil, errs.Invalidf("at", "informe um instante RFC 3339, como 2027-01-01T00:00:00Z")
		}
		if err := clock.CheckInstant(at); err != nil {
			return nil, errs.Invalidf("at", "%v", err)
		}
		st, err := h.Jobs.SetWithin(r.Context(), at, h.budget())
		if err != nil {
			return nil, err
		}
		n = st.JobsRun
		if !st.Done {
			// Still jumping: the mode can be set once it has landed.
			return h.view(r, &n)
		}
	}
	if in.Mode != "" && !freeze {
		if err := h.Jobs.SetMode(r.Context(), mode, factor); err != nil {
			return nil, err
		}
	}
	return h.view(r, &n)
}

// appID resolves the ?app= filter, an app id or a client id, to an app of
// the caller's company (any app, for the operator).
func (h *Handlers) appID(r *http.Request) (string, error) {
	key := r.URL.Query().Get("app")
	if key == "" {
		return "", nil
	}
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return "", err
	}
	a, err := h.Auth.App(r.Context(), key)
	if err != nil || !sc.Includes(a.CompanyID) {
		return "", errs.Invalidf("app", "nenhum app com id ou client id %q na sua empresa", key)
	}
	return a.ID, nil
}

func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, errs.Invalidf(name, "deve ser um inteiro de %d a %d", lo, hi)
	}
	return n, nil
}

// interactions is GET /sandbox/interactions?app=&method=&path=&since=&after=&limit=.
func (h *Handlers) interactions(r *http.Request) (*httpx.Reply, error) {
	ls, err := h.listScope(r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	f := recorder.Filter{CompanyID: ls.company, EveryCompany: ls.every, AppID: ls.app, Method: strings.ToUpper(q.Get("method")), Path: q.Get("path")}
	switch f.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
	default:
		return nil, errs.Invalidf("method", "deve ser um método HTTP, como GET ou POST")
	}
	if f.Path != "" && !strings.HasPrefix(f.Path, "/") {
		return nil, errs.Invalidf("path", "deve começar com / (termine com * para um prefixo)")
	}
	if v := q.Get("since"); v != "" {
		if f.Since, err = time.Parse(time.RFC3339Nano, v); err != nil {
			return nil, errs.Invalidf("since", "informe um instante RFC 3339")
		}
	}
	after, err := intParam(r, "after", 0, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	f.AfterID = int64(after)
	if f.Limit, err = intParam(r, "limit", 100, 1, 1000); err != nil {
		return nil, err
	}
	list, err := h.Recorder.List(r.Context(), f)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"interactions": list, "dropped": h.Recorder.Dropped()}), nil
}

// deliveries is GET /sandbox/deliveries?app=&status=&type=&event=&limit=.
func (h *Handlers) deliveries(r *http.Request) (*httpx.Reply, error) {
	ls, err := h.listScope(r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	f := events.DeliveryFilter{CompanyID: ls.company, EveryCompany: ls.every, AppID: ls.app, Status: q.Get("status"), EventType: q.Get("type"), EventID: q.Get("event")}
	switch f.Status {
	case "", "queued", "pending", "held", "delivered", "dead", "dropped":
	default:
		return nil, errs.Invalidf("status", "deve ser queued, pending, held, delivered, dead ou dropped")
	}
	if f.Limit, err = intParam(r, "limit", 100, 1, 1000); err != nil {
		return nil, err
	}
	list, err := h.Bus.Deliveries(r.Context(), f)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"deliveries": list}), nil
}

// delivery is GET /sandbox/deliveries/{id}: the delivery, its body and every attempt.
func (h *Handlers) delivery(r *http.Request) (*httpx.Reply, error) {
	d, err := h.ownDelivery(r)
	if err != nil {
		return nil, err
	}
	return httpx.OK(d), nil
}

// replay is POST /sandbox/deliveries/{id}/replay: one more attempt, now.
func (h *Handlers) replay(r *http.Request) (*httpx.Reply, error) {
	if _, err := h.ownDelivery(r); err != nil {
		return nil, err
	}
	d, err := h.Bus.Replay(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return httpx.OK(d), nil
}

// ownDelivery is the delivery the path names, if it is the caller's
// company's: another company's is answered as if it did not exist.
func (h *Handlers) ownDelivery(r *http.Request) (events.Delivery, error) {
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return events.Delivery{}, err
	}
	id := mux.Vars(r)["id"]
	d, err := h.Bus.Delivery(r.Context(), id)
	if err != nil {
		return events.Delivery{}, err
	}
	if !sc.Includes(d.CompanyID) {
		return events.Delivery{}, errs.Errorf(errs.NotFound, "não há entrega %q", id)
	}
	return d, nil
}

// events is GET /sandbox/events?cnpj=&since=&limit=: the outbox, for a
// client that polls instead of holding a websocket.
func (h *Handlers) events(r *http.Request) (*httpx.Reply, error) {
	since, err := intParam(r, "since", 0, 0, 1<<62)
	if err != nil {
		return nil, err
	}
	limit, err := intParam(r, "limit", 100, 1, 1000)
	if err != nil {
		return nil, err
	}
	company, every, err := scopeOf(r)
	if err != nil {
		return nil, err
	}
	f := events.Filter{CompanyID: company, Every: every}
	if cnpj := r.URL.Query().Get("cnpj"); cnpj != "" {
		f.CNPJ = taxid.NormalizeCNPJ(cnpj)
		if err := taxid.CheckCNPJ(f.CNPJ); err != nil {
			return nil, errs.Invalidf("cnpj", "%v", err)
		}
	}
	list, err := h.Bus.Events(r.Context(), f, int64(since), limit)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []events.Envelope{}
	}
	return httpx.OK(map[string]any{"events": list}), nil
}

// ping is POST /sandbox/events/ping: a sandbox.ping event to the app's
// webhook, the spec's "validate webhooks" onboarding step. The app is the
// body's clientId, or else the bearer token's.
func (h *Handlers) ping(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		ClientID string `json:"clientId"`
		Message  string `json:"message"`
	}
	if err := httpx.DecodeOptionalJSON(r, h.Schemas, "platform/ping", &in); err != nil {
		return nil, err
	}
	key := in.ClientID
	if p, ok := auth.PrincipalOf(r.Context()); ok && key == "" {
		key = p.AppID
	}
	if key == "" {
		return nil, errs.Invalidf("clientId", "diga qual é o app: envie um token ou {\"clientId\": \"...\"}")
	}
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return nil, err
	}
	app, aerr := h.Auth.App(r.Context(), key)
	if aerr != nil || !sc.Includes(app.CompanyID) {
		return nil, errs.Invalidf("clientId", "nenhum app com client id %q na sua empresa", key)
	}
	if app.WebhookURL == "" {
		return nil, errs.Errorf(errs.Conflict, "o app %s não tem URL de webhook; defina uma com PUT /portal/apps/%s/webhook", app.ClientID, app.ID)
	}
	if in.Message == "" {
		in.Message = "Webhook test from the Homologa sandbox"
	}
	var env events.Envelope
	err = h.DB.Tx(r.Context(), func(tx *store.Tx) error {
		var err error
		env, err = h.Bus.Emit(r.Context(), tx, events.Event{
			AppID: app.ID, CNPJ: app.CNPJ, Type: "sandbox.ping", Name: "Ping",
			Subject: map[string]any{"appId": app.ID}, SubjectKey: "ping:" + app.ID,
			Data: map[string]any{"message": in.Message, "webhookUrl": app.WebhookURL},
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	// Wait for the first attempt, so the answer says whether the webhook
	// accepted the event: that is what the onboarding step validates.
	ds, err := h.firstAttempts(r.Context(), app.CompanyID, env.ID)
	if err != nil {
		return nil, err
	}
	return &httpx.Reply{Status: http.StatusAccepted, Body: map[string]any{"event": env, "deliveries": ds}}, nil
}

// firstAttempts returns the deliveries of an event once each has been tried
// once, or as they are when ctx ends or the dispatcher's timeout has passed.
func (h *Handlers) firstAttempts(ctx context.Context, companyID, eventID string) ([]events.Delivery, error) {
	deadline := time.Now().Add(15 * time.Second)
	for {
		ds, err := h.Bus.Deliveries(ctx, events.DeliveryFilter{CompanyID: companyID, EventID: eventID})
		if err != nil {
			return nil, err
		}
		done := true
		for _, d := range ds {
			if len(d.Attempts) == 0 && d.Status != "queued" {
				done = false
			}
		}
		if done || time.Now().After(deadline) || ctx.Err() != nil {
			return ds, nil
		}
		time.Sleep(5 * time.Millisecond)
	}
}
