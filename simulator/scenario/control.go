package scenario

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Summary is a scenario in the catalogue listing.
type Summary struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	AppliesTo string `json:"applies_to"`
	Default   bool   `json:"default,omitempty"`
	Trigger   string `json:"trigger"`
	Steps     int    `json:"steps"`
	Faults    int    `json:"faults"`
	File      string `json:"file"`
}

// HowToTrigger says in one line how a scenario comes into play.
func HowToTrigger(s *Scenario) string {
	var ways []string
	if s.Default {
		ways = append(ways, "default for every "+s.AppliesTo)
	}
	if s.Select != nil {
		if s.Select.Equals != nil {
			ways = append(ways, s.Select.Field+" = "+text(s.Select.Equals))
		} else {
			var vs []string
			for _, v := range s.Select.In {
				vs = append(vs, text(v))
			}
			ways = append(ways, s.Select.Field+" in "+strings.Join(vs, ", "))
		}
	}
	if len(s.Steps) > 0 {
		ways = append(ways, Header+": "+s.ID, "POST /sandbox/scenarios/"+s.ID+"/bind")
	} else if len(s.Faults) > 0 {
		ways = append(ways, Header+": "+s.ID, "POST /sandbox/scenarios/"+s.ID+"/activate")
	}
	return strings.Join(ways, "; ")
}

func summarize(s *Scenario) Summary {
	return Summary{ID: s.ID, Title: s.Title, AppliesTo: s.AppliesTo, Default: s.Default, Trigger: HowToTrigger(s), Steps: len(s.Steps), Faults: len(s.Faults), File: s.File}
}

// AsHTTP renders load problems as a 400 naming each file, line and field.
func AsHTTP(err error) error {
	var le *LoadError
	if !errors.As(err, &le) {
		return err
	}
	e := &errs.Error{Code: errs.Invalid, Message: "cenário inválido: " + strconv.Itoa(len(le.Problems)) + " problema(s); nada foi carregado"}
	for _, p := range le.Problems {
		e.Violations = append(e.Violations, errs.Violation{Field: p.Field, Reason: p.String()})
	}
	return e
}

// Routes is the scenario control API: the catalogue, uploads, bindings and
// faults.
func (e *Engine) Routes() []httpx.Route {
	route := func(method, path string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "sandbox", Method: method, Path: path, Auth: httpx.Tenant, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		route(http.MethodGet, "/scenarios", e.list, "the scenario catalogue"),
		{API: "sandbox", Method: http.MethodPost, Path: "/scenarios", Auth: httpx.Tenant, Handler: httpx.HandlerFunc(e.upload), Doc: "upload a scenario (YAML)", RawBody: true},
		{API: "sandbox", Method: http.MethodPost, Path: "/scenarios/reload", Auth: httpx.Operator, Handler: httpx.HandlerFunc(e.reload), Doc: "reload the scenarios folder"},
		route(http.MethodGet, "/scenarios/bindings", e.bindings, "resources and the scenarios driving them"),
		route(http.MethodGet, "/scenarios/{id}", e.show, "one scenario"),
		route(http.MethodDelete, "/scenarios/{id}", e.remove, "remove an uploaded scenario"),
		route(http.MethodPost, "/scenarios/{id}/bind", e.bind, "bind a scenario to a resource or the next one"),
		route(http.MethodPost, "/scenarios/{id}/activate", e.activate, "activate a scenario's faults"),
		route(http.MethodDelete, "/scenarios/{id}/activate", e.deactivate, "deactivate a scenario's faults"),
		route(http.MethodGet, "/faults", e.faults, "active faults"),
		route(http.MethodPost, "/actions/{kind}", e.act, "run one scenario step now on a resource of the company (the insurer's analyst, the bank, the payer): through its state machine"),
	}
}

// catalogueOf is the catalogue a control call sees: its company's (the
// shared scenarios and its own), or the shared one for the operator; a
// call of no company sees none.
func (e *Engine) catalogueOf(r *http.Request) (view, error) {
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return view{}, err
	}
	company, _ := sc.Company()
	return e.viewFor(company), nil
}

func (e *Engine) list(r *http.Request) (*httpx.Reply, error) {
	v, err := e.catalogueOf(r)
	if err != nil {
		return nil, err
	}
	out := []Summary{}
	for _, s := range v.All() {
		if k := r.URL.Query().Get("applies_to"); k != "" && s.AppliesTo != k {
			continue
		}
		out = append(out, summarize(s))
	}
	return httpx.OK(map[string]any{"scenarios": out}), nil
}

func (e *Engine) get(r *http.Request) (*Scenario, error) {
	v, err := e.catalogueOf(r)
	if err != nil {
		return nil, err
	}
	id := mux.Vars(r)["id"]
	s := v.Get(id)
	if s == nil {
		return nil, errs.Errorf(errs.NotFound, "não há cenário %q; GET /sandbox/scenarios lista os cenários", id)
	}
	return s, nil
}

func (e *Engine) show(r *http.Request) (*httpx.Reply, error) {
	s, err := e.get(r)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"scenario": s, "trigger": HowToTrigger(s), "source": s.Source}), nil
}

// upload takes the YAML as the body (any text content type).
func (e *Engine) upload(r *http.Request) (*httpx.Reply, error) {
	data, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, err
	}
	s, err := e.Upload(r.Context(), data)
	if err != nil {
		return nil, AsHTTP(err)
	}
	return httpx.Created(summarize(s)), nil
}

func (e *Engine) reload(r *http.Request) (*httpx.Reply, error) {
	if sc, err := tenant.Of(r.Context()); err != nil || !sc.Every() {
		return nil, errs.Errorf(errs.Forbidden, "só o operador do sandbox recarrega os cenários")
	}
	if err := e.Reload(r.Context()); err != nil {
		return nil, AsHTTP(err)
	}
	return httpx.OK(map[string]any{"loaded": len(e.viewOf(r.Context()).All())}), nil
}

func (e *Engine) remove(r *http.Request) (*httpx.Reply, error) {
	if err := e.Remove(r.Context(), mux.Vars(r)["id"]); err != nil {
		return nil, AsHTTP(err)
	}
	return httpx.NoContent(), nil
}

// bind is POST /sandbox/scenarios/{id}/bind {"clientId", "next": true} for
// the app's next resource of the kind, or {"clientId", "txid"} (the
// kind's own reference fields) for an existing one.
func (e *Engine) bind(r *http.Request) (*httpx.Reply, error) {
	s, in, app, err := e.scenarioFor(r)
	if err != nil {
		return nil, err
	}
	client, _ := in["clientId"].(string)
	if app == "" {
		app = httpx.InfoOf(r.Context()).AppID
	}
	if app == "" {
		return nil, errs.Invalidf("clientId", "diga de qual app é o recurso que o cenário conduz")
	}
	// The binding is the app's company's: its steps fall due on that
	// company's clock, also when the operator binds it.
	company, err := e.Faults.Apps.CompanyOf(r.Context(), app)
	if err != nil {
		return nil, err
	}
	ctx := tenant.With(r.Context(), company)
	if next, _ := in["next"].(bool); next {
		if err := e.BindNext(ctx, s.ID, app); err != nil {
			return nil, err
		}
		return httpx.OK(map[string]any{"scenario": s.ID, "clientId": client, "next": s.AppliesTo}), nil
	}
	ref := map[string]string{}
	for k, v := range in {
		if str, ok := v.(string); ok && k != "clientId" {
			ref[k] = str
		}
	}
	var b *Binding
	err = e.DB.Tx(ctx, func(tx *store.Tx) error {
		var err error
		b, err = e.BindExisting(ctx, tx, s.ID, app, ref)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(b), nil
}

func (e *Engine) activate(r *http.Request) (*httpx.Reply, error) {
	s, _, app, err := e.scenarioFor(r)
	if err != nil {
		return nil, err
	}
	if err := e.Faults.Activate(r.Context(), s, app); err != nil {
		return nil, err
	}
	return e.faults(r)
}

func (e *Engine) deactivate(r *http.Request) (*httpx.Reply, error) {
	s, err := e.get(r)
	if err != nil {
		return nil, err
	}
	app := ""
	if client := r.URL.Query().Get("clientId"); client != "" {
		if app, err = e.appID(r, client); err != nil {
			return nil, err
		}
	}
	if !e.Faults.Deactivate(r.Context(), s.ID, app) {
		return nil, errs.Errorf(errs.NotFound, "o cenário %s não está ativo para %q", s.ID, r.URL.Query().Get("clientId"))
	}
	return httpx.NoContent(), nil
}

// scenarioFor reads the scenario a control call names in its path, its
// JSON body, and the app its clientId names ("" when it names none).
func (e *Engine) scenarioFor(r *http.Request) (*Scenario, map[string]any, string, error) {
	s, err := e.get(r)
	if err != nil {
		return nil, nil, "", err
	}
	in := map[string]any{}
	if err := httpx.DecodeJSON(r, nil, "", &in); err != nil {
		return nil, nil, "", err
	}
	app := ""
	if client, _ := in["clientId"].(string); client != "" {
		if app, err = e.appID(r, client); err != nil {
			return nil, nil, "", err
		}
	}
	return s, in, app, nil
}

// appID resolves a client id named in the control API.
// An app of another company is answered as none.
func (e *Engine) appID(r *http.Request, client string) (string, error) {
	ctx := r.Context()
	sc, err := tenant.Of(ctx)
	if err != nil {
		return "", err
	}
	id, err := e.Faults.Apps.AppID(ctx, client)
	if err == nil && !sc.Every() {
		company, cerr := e.Faults.Apps.CompanyOf(ctx, id)
		if cerr != nil || !sc.Includes(company) {
			err = errs.Errorf(errs.NotFound, "não é da empresa")
		}
	}
	if errs.Is(err, errs.NotFound) {
		return "", errs.Invalidf("clientId", "nenhum app com client id %q na sua empresa", client)
	}
	return id, err
}

// act is POST /sandbox/actions/{kind} {"clientId"?, the kind's reference
// fields ("numeroProposta": 123), "step": {a step as a scenario file
// writes it}}: the step runs now on the resource, which must be the
// app's (the token's, or clientId's in its company).
func (e *Engine) act(r *http.Request) (*httpx.Reply, error) {
	kind := mux.Vars(r)["kind"]
	if !slices.Contains(e.Actable(), kind) {
		return nil, errs.Errorf(errs.NotFound, "ações não conduzem %q; tipos: %s (a recorrência e suas cobranças: /sandbox/pix/rec e /sandbox/pix/cobr)", kind, strings.Join(e.Actable(), ", "))
	}
	in := map[string]any{}
	if err := httpx.DecodeJSON(r, nil, "", &in); err != nil {
		return nil, err
	}
	step, ok := in["step"].(map[string]any)
	if !ok {
		return nil, errs.Invalidf("step", "informe o passo, como num arquivo de cenário: {\"status\": \"APROVADA\"}")
	}
	st, err := ParseStep(e.Kinds, e.Schemas, kind, step)
	if err != nil {
		return nil, err
	}
	app := httpx.InfoOf(r.Context()).AppID
	if client, _ := in["clientId"].(string); client != "" {
		if app, err = e.appID(r, client); err != nil {
			return nil, err
		}
	}
	if app == "" {
		return nil, errs.Invalidf("clientId", "diga de qual app é o recurso")
	}
	company, err := e.Faults.Apps.CompanyOf(r.Context(), app)
	if err != nil {
		return nil, err
	}
	ref := map[string]string{}
	for k, v := range in {
		switch x := v.(type) {
		case string:
			ref[k] = x
		case float64:
			ref[k] = strconv.FormatFloat(x, 'f', -1, 64)
		default:
			if k != "step" {
				return nil, errs.Invalidf(k, "a referência do recurso é um texto ou um número")
			}
		}
	}
	delete(ref, "clientId")
	out, err := e.Act(tenant.With(r.Context(), company), kind, app, ref, st)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"kind": kind, "ref": ref, "step": st.Verb, "outcome": out}), nil
}

func (e *Engine) faults(r *http.Request) (*httpx.Reply, error) {
	active, err := e.Faults.List(r.Context())
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"active": active}), nil
}

func (e *Engine) bindings(r *http.Request) (*httpx.Reply, error) {
	q := r.URL.Query()
	bs, err := e.Bindings(r.Context(), q.Get("kind"), q.Get("key"), 100)
	if err != nil {
		return nil, err
	}
	if bs == nil {
		bs = []*Binding{}
	}
	return httpx.OK(map[string]any{"bindings": bs}), nil
}
