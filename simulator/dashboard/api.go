package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/resource"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
	"homologa/simulator/tenant"
)

// Handlers serves the control endpoints the dashboard reads besides the
// existing ones: GET /sandbox/resources and GET /sandbox/events/ws.
type Handlers struct {
	DB   *store.DB
	Auth *auth.Service
	Bus  *events.Bus
	// Domains list their resources.
	Domains []resource.Lister
	// PingEvery and Done are the websocket's, as for /events/ws.
	PingEvery time.Duration
	Done      <-chan struct{}
	// Exports serve the export as feature (GET /sandbox/recording).
	Exports Exports
}

// Routes is the dashboard's control endpoints.
func (h *Handlers) Routes() []httpx.Route {
	return []httpx.Route{
		{API: "sandbox", Method: http.MethodGet, Path: "/resources", Auth: httpx.Tenant, Handler: httpx.HandlerFunc(h.resources), Doc: "resources by kind, newest first"},
		{API: "sandbox", Method: http.MethodGet, Path: "/events/ws", Auth: httpx.Stream, Handler: h.stream(), Doc: "the dashboard's live events: the company's (app token), every company's (operator token); same origin only"},
		h.exportRoute(),
	}
}

// kindNames lists the kinds GET /sandbox/resources knows, the domains'
// in order.
func (h *Handlers) kindNames() []string {
	var out []string
	for _, l := range h.Domains {
		out = append(out, l.ResourceKinds()...)
	}
	return out
}

// resources is GET /sandbox/resources?kind=&app=&status=&limit=: of the
// newest resource.Window rows of each kind's table (or the
// comma-separated kinds'), the limit most recently changed, and how many
// are in each status (counts follow kind and app, not status or limit).
func (h *Handlers) resources(r *http.Request) (*httpx.Reply, error) {
	q := r.URL.Query()
	all := h.kindNames()
	var sel []string
	if v := q.Get("kind"); v != "" {
		for _, name := range strings.Split(v, ",") {
			name = strings.TrimSpace(name)
			if name == "" || slices.Contains(sel, name) {
				continue
			}
			if !slices.Contains(all, name) {
				return nil, errs.Invalidf("kind", "tipo desconhecido %q; informe um ou mais (separados por vírgula) entre %s", name, strings.Join(all, ", "))
			}
			sel = append(sel, name)
		}
	}
	// The caller's company's resources; every company's for the operator.
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return nil, err
	}
	rq := resource.Query{Scope: sc, Status: strings.TrimSpace(q.Get("status")), Limit: 100}
	if key := q.Get("app"); key != "" {
		a, err := h.Auth.App(r.Context(), key)
		if err != nil || !sc.Includes(a.CompanyID) {
			return nil, errs.Invalidf("app", "nenhum app com id ou client id %q na sua empresa", key)
		}
		rq.AppID = a.ID
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return nil, errs.Invalidf("limit", "deve ser um inteiro de 1 a 1000")
		}
		rq.Limit = n
	}
	list, counts, err := h.list(r.Context(), sel, rq)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"kinds": all, "window": resource.Window, "counts": counts, "resources": list}), nil
}

// list asks each domain for its resources and merges them, most recently
// changed first, with the client id and CNPJ of their owners.
func (h *Handlers) list(ctx context.Context, kinds []string, q resource.Query) ([]resource.Summary, []resource.Count, error) {
	list, counts := []resource.Summary{}, []resource.Count{}
	for _, l := range h.Domains {
		mine := kinds
		if len(kinds) > 0 {
			mine = nil
			for _, k := range kinds {
				if slices.Contains(l.ResourceKinds(), k) {
					mine = append(mine, k)
				}
			}
			if len(mine) == 0 {
				continue
			}
		}
		ls, cs, err := l.ListResources(ctx, mine, q)
		if err != nil {
			return nil, nil, err
		}
		list, counts = append(list, ls...), append(counts, cs...)
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if !a.UpdatedAt.Equal(b.UpdatedAt) {
			return a.UpdatedAt.After(b.UpdatedAt)
		}
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.After(b.CreatedAt)
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.ID < b.ID
	})
	if len(list) > q.Limit {
		list = list[:q.Limit]
	}
	apps, err := h.Auth.Apps(ctx)
	if err != nil {
		return nil, nil, err
	}
	byID := map[string]auth.App{}
	cnpjs := map[string]string{}
	for _, a := range apps {
		byID[a.ID], cnpjs[a.CompanyID] = a, a.CNPJ
	}
	for i := range list {
		list[i].ClientID, list[i].CNPJ = byID[list[i].AppID].ClientID, cnpjs[list[i].CompanyID]
	}
	return list, counts, nil
}

// stream is GET /sandbox/events/ws?cnpj=&types=&subject=&since=|recent=:
// /events/ws for the local operator, across every company and without a
// token, as the rest of the control API (GET /sandbox/events already
// serves the same envelopes). recent=N starts with the last N events of
// the sandbox, which since= cannot say without knowing the newest.
func (h *Handlers) stream() http.Handler {
	st := &events.Stream{Bus: h.Bus, PingEvery: h.PingEvery, Done: h.Done, Authenticate: h.authenticate}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if v := q.Get("recent"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1000 {
				httpx.WriteError(w, r, errs.Invalidf("recent", "deve ser um inteiro de 1 a 1000"))
				return
			}
			if q.Get("since") != "" {
				httpx.WriteError(w, r, errs.Invalidf("recent", "envie since ou recent, não os dois"))
				return
			}
			var last int64
			err = h.DB.Read(r.Context(), func(tx *store.Tx) error {
				return tx.QueryRowContext(r.Context(), `SELECT COALESCE(MAX(seq), 0) FROM events`).Scan(&last)
			})
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			q.Del("recent")
			q.Set("since", strconv.FormatInt(max(0, last-int64(n)), 10))
			r = r.Clone(r.Context())
			r.URL.RawQuery = q.Encode()
		}
		st.ServeHTTP(w, r)
	})
}

// authenticate admits the operator (every company's events, by its token)
// or an app (its company's), from a page of the sandbox's own origin only:
// a websocket is exempt from the same-origin policy, and without this
// check any site the operator visits could read the events.
func (h *Handlers) authenticate(r *http.Request) (events.Filter, error) {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host != r.Host {
			return events.Filter{}, errs.Errorf(errs.Forbidden, "a origem %s não pode ler os eventos de todos os apps; uma página de parceiro usa /events/ws com o token do seu app", o)
		}
	}
	if !h.Auth.IsOperatorRequest(r) {
		// The dashboard of a portal login: its session cookie.
		if p, found, err := h.Auth.AccountCompany(r); found {
			return events.Filter{CompanyID: p.CompanyID}, err
		}
		return h.Auth.StreamCompany(r)
	}
	cnpj := r.URL.Query().Get("cnpj")
	if cnpj == "" {
		return events.Filter{Every: true}, nil
	}
	cnpj = taxid.NormalizeCNPJ(cnpj)
	if err := taxid.CheckCNPJ(cnpj); err != nil {
		return events.Filter{}, errs.Invalidf("cnpj", "%v", err)
	}
	return events.Filter{Every: true, CNPJ: cnpj}, nil
}
