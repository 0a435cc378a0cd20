package dashboard

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/recorder"
	"homologa/simulator/scenario"
	"homologa/simulator/tenant"
)

// ExportInput is a company's session as the sandbox holds it, each part
// in the control API's JSON (what homologa record reads over HTTP): the
// app, its company's clock now, the company's recorded requests (oldest
// first), its events (by sequence) and the scenario bindings.
type ExportInput struct {
	Base         string
	App          json.RawMessage
	Clock        json.RawMessage
	Interactions []json.RawMessage
	Events       []json.RawMessage
	Bindings     json.RawMessage
	// Since and Until bound the session by the wall clock.
	Since, Until time.Time
	Name         string
}

// Exporter renders a session as a Gherkin feature: cmd/homologa gives
// the partner CLI's (homologa record), which the sandbox cannot import.
type Exporter func(ctx context.Context, in ExportInput) (string, error)

// Exports is what the dashboard's "export as feature" reads besides the
// Handlers' own: the interaction log, the scenario bindings, the clocks,
// the sandbox's URL and the renderer.
type Exports struct {
	Recorder  *recorder.Recorder
	Scenarios *scenario.Engine
	Clocks    *clock.Clocks
	URL       func() string
	Export    Exporter
}

// exportRoute is GET /sandbox/recording.
func (h *Handlers) exportRoute() httpx.Route {
	return httpx.Route{API: "sandbox", Method: http.MethodGet, Path: "/recording", Auth: httpx.Tenant, Handler: httpx.HandlerFunc(h.export),
		Doc: "the company's session between since and until as a Gherkin feature (homologa record; the dashboard's export as feature)"}
}

// export is GET /sandbox/recording?clientId=&since=&until=&name=: the
// session of the app's company (the token's app by default) as a feature
// file to download.
func (h *Handlers) export(r *http.Request) (*httpx.Reply, error) {
	q := r.URL.Query()
	in := ExportInput{Until: time.Now(), Name: q.Get("name")}
	var err error
	if in.Since, err = instantParam(q, "since", time.Time{}); err != nil {
		return nil, err
	}
	if in.Until, err = instantParam(q, "until", in.Until); err != nil {
		return nil, err
	}
	if !in.Since.Before(in.Until) {
		return nil, errs.Invalidf("since", "informe um instante anterior a until")
	}
	app, err := h.exportApp(r, q.Get("clientId"))
	if err != nil {
		return nil, err
	}
	if h.Exports.Export == nil {
		return nil, errs.Errorf(errs.Unavailable, "este sandbox foi montado sem o gravador de features (use o binário homologa)")
	}
	in.Base = h.Exports.URL()
	ctx := tenant.With(r.Context(), app.CompanyID)
	if err := h.gather(ctx, app, &in); err != nil {
		return nil, err
	}
	text, err := h.Exports.Export(ctx, in)
	if err != nil {
		return nil, errs.Errorf(errs.Invalid, "%v", err)
	}
	name := "sessao-" + app.ClientID + "-" + in.Since.UTC().Format("20060102T150405") + ".feature"
	return &httpx.Reply{Status: http.StatusOK, Raw: []byte(text), Header: http.Header{
		"Content-Type":        {"text/x-gherkin; charset=utf-8"},
		"Content-Disposition": {`attachment; filename="` + name + `"`},
	}}, nil
}

func instantParam(q url.Values, name string, def time.Time) (time.Time, error) {
	v := q.Get(name)
	if v == "" {
		if def.IsZero() {
			return def, errs.Invalidf(name, "informe o início da sessão, um instante RFC 3339")
		}
		return def, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return t, errs.Invalidf(name, "informe um instante RFC 3339, como 2026-03-02T14:00:00-03:00")
	}
	return t, nil
}

// exportApp is the app whose session is exported: the one named, of the
// caller's company (any, for the operator), or the token's.
func (h *Handlers) exportApp(r *http.Request, clientID string) (auth.App, error) {
	if clientID == "" {
		if p, ok := auth.PrincipalOf(r.Context()); ok && p.AppID != "" {
			clientID = p.AppID
		} else {
			return auth.App{}, errs.Invalidf("clientId", "diga de qual app é a sessão")
		}
	}
	scope, err := tenant.Of(r.Context())
	if err != nil {
		return auth.App{}, err
	}
	a, err := h.Auth.App(r.Context(), clientID)
	if err != nil || !scope.Includes(a.CompanyID) {
		return auth.App{}, errs.Invalidf("clientId", "nenhum app com client id %q na sua empresa", clientID)
	}
	return a, nil
}

// gather reads the company's session as the control API shows it.
func (h *Handlers) gather(ctx context.Context, app auth.App, in *ExportInput) error {
	company := app.CompanyID
	var err error
	if in.App, err = json.Marshal(app.Listed()); err != nil {
		return err
	}
	clk := h.Exports.Clocks.Of(company)
	mode, factor := clk.Mode()
	if in.Clock, err = json.Marshal(map[string]any{"now": clk.Now(), "mode": mode, "factor": factor}); err != nil {
		return err
	}
	list, err := h.Exports.Recorder.List(ctx, recorder.Filter{CompanyID: company, Limit: 1000})
	if err != nil {
		return err
	}
	for _, it := range list {
		if it.WallAt.After(in.Until) {
			continue
		}
		raw, _ := json.Marshal(it)
		in.Interactions = append(in.Interactions, raw)
	}
	for since := int64(0); ; {
		page, err := h.Bus.Events(ctx, events.Filter{CompanyID: company}, since, 1000)
		if err != nil {
			return err
		}
		for _, e := range page {
			raw, _ := json.Marshal(e)
			in.Events = append(in.Events, raw)
			since = e.Sequence
		}
		if len(page) < 1000 {
			break
		}
	}
	bs, err := h.Exports.Scenarios.Bindings(ctx, "", "", 100)
	if err != nil {
		return err
	}
	in.Bindings, err = json.Marshal(map[string]any{"bindings": bs})
	return err
}
