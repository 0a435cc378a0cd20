package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// Handlers serves the control endpoints the dashboard reads besides the
// existing ones: GET /sandbox/resources and GET /sandbox/events/ws.
type Handlers struct {
	DB   *store.DB
	Auth *auth.Service
	Bus  *events.Bus
	// PingEvery and Done are the websocket's, as for /events/ws.
	PingEvery time.Duration
	Done      <-chan struct{}
}

// Routes is the dashboard's control endpoints.
func (h *Handlers) Routes() []httpx.Route {
	return []httpx.Route{
		{API: "sandbox", Method: http.MethodGet, Path: "/resources", Auth: httpx.Public, Handler: httpx.HandlerFunc(h.resources), Doc: "resources by kind, newest first"},
		{API: "sandbox", Method: http.MethodGet, Path: "/events/ws", Auth: httpx.Stream, Handler: h.stream(), Doc: "every company's events, for the dashboard (same origin only)"},
	}
}

// Resource is one resource of a domain as the dashboard lists it.
type Resource struct {
	Kind      string    `json:"kind"`
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	AppID     string    `json:"appId"`
	ClientID  string    `json:"clientId"`
	CNPJ      string    `json:"cnpj"`
	Detail    string    `json:"detail,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Count is how many resources of a kind are in a status.
type Count struct {
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Count  int    `json:"count"`
}

// kind is where one resource kind lives: its table (aliased t), what to
// join for the app and company when the table lacks them, and SQL
// expressions over them. The dashboard only reads, and only these columns,
// so the domains stay free to change everything else; a new kind of
// resource is one more line below.
type kind struct {
	name, table, join, where, id, detail string
	// app, company and updated default to t.app_id, t.company_id and
	// t.updated_at, for tables that lack them.
	app, company, updated string
}

// kinds are the resource kinds, Pix first, in the order the dashboard
// shows them. Names are the scenario engine's where it has one.
var kinds = []kind{
	{name: "cob", table: "pix_cobs", where: "t.kind = 'cob'", id: "t.txid", detail: "'revisão ' || t.revisao"},
	{name: "cobv", table: "pix_cobs", where: "t.kind = 'cobv'", id: "t.txid", detail: "'revisão ' || t.revisao"},
	{name: "devolucao", table: "pix_refunds", join: "JOIN pix_received p ON p.e2eid = t.e2eid", id: "t.e2eid || '/' || t.id",
		detail: "t.natureza", app: "p.app_id", company: "p.company_id", updated: "t.created_at"},
	{name: "rec", table: "pix_recs", id: "t.id_rec", detail: "''"},
	{name: "solicrec", table: "pix_solicrecs", id: "t.id_solic_rec", detail: "'rec ' || t.id_rec"},
	{name: "cobr", table: "pix_cobrs", id: "t.txid", detail: "'rec ' || t.id_rec || ', vencimento ' || t.vencimento"},
	{name: "proposta", table: "propostas", id: "CAST(t.numero AS TEXT)", detail: "'oferta ' || t.offer_id"},
	{name: "pendencia", table: "pendencias", join: "JOIN propostas p ON p.numero = t.numero", id: "CAST(t.id AS TEXT)",
		detail: "'proposta ' || t.numero || ', ' || t.codigo", app: "p.app_id", company: "p.company_id"},
	{name: "inscricao", table: "inscricoes", id: "CAST(t.id AS TEXT)", detail: "'proposta ' || t.numero || ', produto ' || t.produto_id"},
	{name: "cobranca", table: "cobrancas", id: "CAST(t.id AS TEXT)",
		detail: "'inscrição ' || t.inscricao_id || ', parcela ' || t.parcela || ' (' || t.competencia || ')'"},
	{name: "comissao", table: "comissoes", id: "CAST(t.id AS TEXT)", detail: "'cobrança ' || t.cobranca_id || ' (' || t.competencia || ')'",
		updated: "COALESCE(t.estornado_em, t.pago_em, t.created_at)"},
	{name: "beneficio", table: "beneficios", id: "CAST(t.id AS TEXT)", detail: "t.protocolo || ', ' || t.causa"},
}

func (k kind) col(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// filter returns the kind's WHERE clause, with the app filter.
func (k kind) filter(app string) (string, []any) {
	var conds []string
	var args []any
	if k.where != "" {
		conds = append(conds, k.where)
	}
	if app != "" {
		conds = append(conds, k.col(k.app, "t.app_id")+" = ?")
		args = append(args, app)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Window is how many of the newest rows of each table the listing and its
// counts look at (cob and cobv share one).
const Window = 1000

// KindNames lists the kinds GET /sandbox/resources knows.
func KindNames() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.name
	}
	return out
}

// resources is GET /sandbox/resources?kind=&app=&status=&limit=: of the
// newest Window rows of each kind's table (or the comma-separated kinds'),
// the limit most recently changed, and how many are in each status (counts
// follow kind and app, not status or limit).
func (h *Handlers) resources(r *http.Request) (*httpx.Reply, error) {
	q := r.URL.Query()
	sel := kinds
	if v := q.Get("kind"); v != "" {
		sel = nil
		seen := map[string]bool{}
		for _, name := range strings.Split(v, ",") {
			name = strings.TrimSpace(name)
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			found := false
			for _, k := range kinds {
				if k.name == name {
					sel, found = append(sel, k), true
				}
			}
			if !found {
				return nil, errs.Invalidf("kind", "unknown kind %q; want one or more (comma-separated) of %s", name, strings.Join(KindNames(), ", "))
			}
		}
	}
	if len(sel) == 0 {
		sel = kinds
	}
	app := ""
	if key := q.Get("app"); key != "" {
		a, err := h.Auth.App(r.Context(), key)
		if err != nil {
			return nil, errs.Invalidf("app", "no app with id or client id %q", key)
		}
		app = a.ID
	}
	status := strings.TrimSpace(q.Get("status"))
	limit := 100
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return nil, errs.Invalidf("limit", "must be an integer from 1 to 1000")
		}
		limit = n
	}
	list, counts, err := h.list(r.Context(), sel, app, status, limit)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"kinds": KindNames(), "window": Window, "counts": counts, "resources": list}), nil
}

func (h *Handlers) list(ctx context.Context, sel []kind, app, status string, limit int) ([]Resource, []Count, error) {
	// Only the newest Window rows of each table are looked at, a walk
	// back along the rowid: the store has one connection, and counting
	// the statuses of 100,000 charges held it for 40 ms, sorting them by
	// change as long again. With the window a whole request over them
	// takes 7 ms (BenchmarkResources), and filters, applied inside the
	// window, cannot make it scan more.
	var parts []string
	var args []any
	for _, k := range sel {
		where, wargs := k.filter(app)
		parts = append(parts, "SELECT * FROM (SELECT '"+k.name+"' AS kind, "+k.id+" AS id, t.status AS status, "+
			k.col(k.app, "t.app_id")+" AS app_id, "+k.col(k.company, "t.company_id")+" AS company_id, "+k.detail+" AS detail, t.created_at AS created_at, "+
			k.col(k.updated, "t.updated_at")+" AS updated_at FROM (SELECT * FROM "+k.table+" ORDER BY rowid DESC LIMIT "+strconv.Itoa(Window)+") t "+k.join+where+")")
		args = append(args, wargs...)
	}
	window := strings.Join(parts, " UNION ALL ")
	query := `SELECT r.kind, r.id, r.status, r.app_id, COALESCE(a.client_id, ''), COALESCE(c.cnpj, ''), COALESCE(r.detail, ''), r.created_at, r.updated_at
		FROM (` + window + `) r
		LEFT JOIN apps a ON a.id = r.app_id LEFT JOIN companies c ON c.id = r.company_id
		WHERE ? = '' OR r.status = ?
		ORDER BY r.updated_at DESC, r.created_at DESC, r.kind, r.id LIMIT ?`
	listArgs := append(append([]any{}, args...), status, status, limit)
	list, counts := []Resource{}, []Count{}
	err := h.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, query, listArgs...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var res Resource
			var created, updated int64
			if err := rows.Scan(&res.Kind, &res.ID, &res.Status, &res.AppID, &res.ClientID, &res.CNPJ, &res.Detail, &created, &updated); err != nil {
				return err
			}
			res.CreatedAt, res.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
			list = append(list, res)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, "SELECT kind, status, COUNT(*) FROM ("+window+") GROUP BY kind, status", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c Count
			if err := rows.Scan(&c.Kind, &c.Status, &c.Count); err != nil {
				return err
			}
			counts = append(counts, c)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, nil, err
	}
	return list, counts, nil
}

// stream is GET /sandbox/events/ws?cnpj=&types=&subject=&since=|recent=:
// /events/ws for the local operator, across every company and without a
// token, as the rest of the control API (GET /sandbox/events already
// serves the same envelopes). recent=N starts with the last N events of
// the sandbox, which since= cannot say without knowing the newest.
func (h *Handlers) stream() http.Handler {
	st := &events.Stream{Bus: h.Bus, PingEvery: h.PingEvery, Done: h.Done, Authenticate: operator}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if v := q.Get("recent"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1000 {
				httpx.WriteError(w, r, errs.Invalidf("recent", "must be an integer from 1 to 1000"))
				return
			}
			if q.Get("since") != "" {
				httpx.WriteError(w, r, errs.Invalidf("recent", "send since or recent, not both"))
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

// operator admits the local operator: any client but a page of another
// origin. A websocket is exempt from the same-origin policy, and without
// this check any site the operator visits could read every app's events.
func operator(r *http.Request) (string, error) {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host != r.Host {
			return "", errs.Errorf(errs.Forbidden, "origin %s may not read every app's events; a partner page uses /events/ws with its app's token", o)
		}
	}
	cnpj := r.URL.Query().Get("cnpj")
	if cnpj == "" {
		return "", nil
	}
	cnpj = taxid.NormalizeCNPJ(cnpj)
	if err := taxid.CheckCNPJ(cnpj); err != nil {
		return "", errs.Invalidf("cnpj", "%v", err)
	}
	return cnpj, nil
}
