package server

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/control"
	"homologa/simulator/dashboard"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/benefit"
	"homologa/simulator/insurance/customer"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/pix"
	"homologa/simulator/portal"
	"homologa/simulator/resource"
	"homologa/simulator/scenario"
	"homologa/simulator/widgets"
)

// Routes is the route table of the sandbox: the routes of the root and of
// every package that owns some, in the order they are mounted. It is the
// one place a route exists; the mux, the route reference and the
// harness's answer contracts are all made from it.
func (s *Server) Routes() []httpx.Route {
	if s.routeTable != nil {
		return s.routeTable
	}
	root := []httpx.Route{
		{Method: http.MethodGet, Path: "/", Auth: httpx.Public, Handler: http.HandlerFunc(s.index),
			Doc: "the dashboard for browsers (Accept: text/html); where every API is, for everyone else"},
		{Method: http.MethodGet, Path: "/dashboard", Prefix: true, Auth: httpx.Public, Handler: dashboard.Handler(), Doc: "the dashboard"},
		{Method: http.MethodGet, Path: "/widgets/", Prefix: true, Auth: httpx.Public, Handler: widgets.Handler("/widgets/", s.widgetPolicy()), Doc: "the widgets and their example host page"},
		{Method: http.MethodGet, Path: "/widgets", Auth: httpx.Public, Handler: http.RedirectHandler("/widgets/", http.StatusMovedPermanently), Doc: "to /widgets/"},
		{API: "oauth", Method: http.MethodPost, Path: "", Auth: httpx.Client, MutualTLS: true, Answer: "platform/token", Handler: httpx.HandlerFunc(s.Auth.TokenHandler),
			Doc: "OAuth2 client credentials, in every PSP client's dialect: a form or a JSON body (Efí's SDKs), the query string (data7-pix), or a mixture; HTTP Basic or credentials in the parameters; scope narrows the token. Also at /connect/token under the host and under every insurer base path, as the insurer's clients ask for it"},
		{API: "events", Method: http.MethodGet, Path: "/ws", Auth: httpx.Stream, Doc: "the app's events (websocket)",
			Handler: &events.Stream{Bus: s.Bus, PingEvery: s.Config.PingEvery, Done: s.streamEnd, Authenticate: s.Auth.StreamCompany}},
	}
	ctl := s.control()
	dash := &dashboard.Handlers{DB: s.DB, Auth: s.Auth, Bus: s.Bus, Domains: []resource.Lister{s.Pix, s.Sale, s.Customer, s.Benefit}, PingEvery: s.Config.PingEvery, Done: s.streamEnd,
		Exports: dashboard.Exports{Recorder: s.Recorder, Scenarios: s.Scenarios, Clocks: s.Clocks, URL: s.URL, Export: s.Config.Export}}
	ns := s.namespaces()
	var all []httpx.Route
	for _, rs := range [][]httpx.Route{
		root,
		ns.Routes(),
		(&portal.Handlers{Auth: s.Auth, Schemas: s.Schemas}).Routes(),
		ctl.Routes(),
		s.Scenarios.Routes(),
		s.Homologation.Routes(),
		dash.Routes(),
		s.Pix.Routes(),
		s.Sale.Routes(),
		s.Customer.Routes(),
		s.Benefit.Routes(),
	} {
		all = append(all, rs...)
	}
	s.routeTable = all
	return all
}

// FullPath is a route's path with its API's base path.
func FullPath(rt httpx.Route) string {
	for _, a := range APIs {
		if a.Name == rt.API {
			return a.Prefix + rt.Path
		}
	}
	return rt.Path
}

// mountRoutes builds the router from the route table.
func (s *Server) mountRoutes() error {
	r := mux.NewRouter()
	s.Router = r
	r.NotFoundHandler = httpx.Unrouted(r)
	r.MethodNotAllowedHandler = r.NotFoundHandler
	seen := map[string]bool{}
	for _, rt := range s.Routes() {
		key := rt.Method + " " + FullPath(rt)
		if seen[key] {
			return fmt.Errorf("route %s is declared twice", key)
		}
		seen[key] = true
		if err := s.Mount(rt); err != nil {
			return err
		}
	}
	inner := s.Recorder.Middleware(APIs, s.namespaces().Middleware(r))
	// As many partner requests inside as processors, the rest in arrival
	// order (httpx.Admission).
	s.Handler = s.proxies.Middleware(httpx.Admission{APIs: turnTakers(), Slots: runtime.GOMAXPROCS(0)}.Middleware(httpx.BodyDeadline(orDefault(s.Config.BodyTimeout, DefaultBodyTimeout),
		httpx.Outer(withSegments(APIs, s.Routes()), s.Config.BodyLimit, s.Log, httpx.Strictness(APIs, s.Config.Strict,
			httpx.CheckHost(httpx.HostServer(s.Config.Addr, s.Config.PublicURL), inner))))))
	return nil
}

// turnTakers are the APIs whose requests take turns (httpx.Admission):
// the partner's calls, not the portal's (a login's password hash, a
// homologation run) nor the token's, which may take long on purpose.
func turnTakers() []httpx.API {
	var out []httpx.API
	for _, a := range APIs {
		if a.Record && a.Name != "portal" && a.Name != "oauth" {
			out = append(out, a)
		}
	}
	return out
}

// withSegments is apis with the literal segments of each case-insensitive
// API's routes, which Outer maps a path's segments to.
func withSegments(apis []httpx.API, routes []httpx.Route) []httpx.API {
	out := slices.Clone(apis)
	for i, a := range out {
		if !a.CaseInsensitive {
			continue
		}
		var paths []string
		for _, rt := range routes {
			if rt.API == a.Name {
				paths = append(paths, rt.Path)
			}
		}
		out[i].Segments = httpx.RouteSegments(paths)
	}
	return out
}

// Mount adds one route to the router, wrapped by the one rule of its kind
// of credential: an app's token and scope, faults and idempotency for the
// partner APIs; faults for the token endpoint; an optional token for the
// control routes. Every route answers a declared body past the limit
// with 413.
func (s *Server) Mount(rt httpx.Route) error {
	if rt.API != "" && FullPath(rt) == rt.Path {
		return fmt.Errorf("route %s %s: no API named %q", rt.Method, rt.Path, rt.API)
	}
	// The request's Info names its route: decoding validates the body
	// with the schema the route declares (Route.Request), and no other.
	h := httpx.Routed(rt, rt.Handler)
	if rt.Idempotent {
		h = s.Keys.Wrap(h)
	}
	// Inside the credential's rule, so an oversized request is filed
	// under its app in the interaction log.
	h = httpx.LimitDeclared(h)
	// Inside it too: the quota is the company's the credential names.
	if writesUnderQuota(rt) {
		h = s.underQuota(h)
	}
	switch rt.Auth {
	case httpx.Public, httpx.Stream:
	case httpx.Client:
		h = s.Faults.Middleware(s.Scenarios.Lookup, h)
		if rt.MutualTLS {
			h = s.Auth.RequireClientCertificate(h)
		}
	case httpx.App:
		h = s.Faults.Middleware(s.Scenarios.Lookup, h)
		if rt.MutualTLS {
			h = s.Auth.RequireBound(rt.Scopes, h)
		} else {
			h = s.Auth.Require(rt.Scopes, h)
		}
	case httpx.AppOptional:
		h = s.Auth.Optional(h)
	case httpx.Tenant:
		h = s.Auth.RequireTenant(h)
	case httpx.Operator:
		h = s.Auth.RequireOperator(h)
	case httpx.Account:
		h = s.Auth.RequireAccount(h)
	default:
		return fmt.Errorf("route %s %s: unknown credential kind %q", rt.Method, FullPath(rt), rt.Auth)
	}
	// Before the credential: a form is refused as such, logged in or not.
	if refusesForms(rt) {
		h = httpx.RefuseForms(h)
	}
	methods := []string{rt.Method}
	// Pages of the root (the dashboard, the widgets) answer HEAD too.
	if rt.Method == http.MethodGet && rt.API == "" {
		methods = append(methods, http.MethodHead)
	}
	// The method and the path up to its first variable (the whole path
	// when it has none) are compared first, for the cost of a string
	// comparison: mux runs a route's path expression even when its method
	// does not match (to tell 405 from 404, which httpx.Unrouted tells by
	// asking each route instead).
	literal, _, variable := strings.Cut(FullPath(rt), "{")
	exact := !variable && !rt.Prefix
	route := s.branch(rt).NewRoute().MatcherFunc(func(r *http.Request, _ *mux.RouteMatch) bool {
		if exact {
			if r.URL.Path != literal {
				return false
			}
		} else if !strings.HasPrefix(r.URL.Path, literal) {
			return false
		}
		return slices.Contains(methods, r.Method)
	})
	if rt.Prefix {
		route = route.PathPrefix(FullPath(rt))
	} else {
		route = route.Path(FullPath(rt))
	}
	route.Handler(h).Methods(methods...)
	return nil
}

// routeTree is the router's shape. mux tries a router's routes in order,
// each with its matchers: in one flat list of the table's two hundred
// routes a request would try them all, a visible share of a GET.
// The routes are mounted in a subrouter per API and, in it, per first
// literal segment below the API's path ("/pix/v2" then "/cob"): a request
// tries the APIs' prefixes, its API's segments, then the few routes of
// its own. APIs' paths do not overlap, so which API is tried first does
// not matter; within an API the table's order is kept: a route that is in
// no segment's branch (a variable first segment, a prefix, the API's own
// path) closes the open branches, and a later route of the same segment
// opens a new branch after it.
type routeTree struct {
	apis map[string]*mux.Router
	// open are each API's open branches, by segment.
	open map[string]map[string]*mux.Router
}

// branch is the router rt is mounted on.
func (s *Server) branch(rt httpx.Route) *mux.Router {
	full := FullPath(rt)
	api := httpx.APIFor(APIs, full).Prefix
	if api == "" {
		return s.Router
	}
	t := &s.routeTree
	if t.apis == nil {
		t.apis, t.open = map[string]*mux.Router{}, map[string]map[string]*mux.Router{}
	}
	under, ok := t.apis[api]
	if !ok {
		under = s.Router.MatcherFunc(pathUnder(api)).Subrouter()
		t.apis[api], t.open[api] = under, map[string]*mux.Router{}
	}
	seg, _, _ := strings.Cut(strings.TrimPrefix(full[len(api):], "/"), "/")
	if rt.Prefix || seg == "" || strings.Contains(seg, "{") || !strings.HasPrefix(full[len(api):], "/") {
		clear(t.open[api])
		return under
	}
	b, ok := t.open[api][seg]
	if !ok {
		b = under.MatcherFunc(pathUnder(api + "/" + seg)).Subrouter()
		t.open[api][seg] = b
	}
	return b
}

// pathUnder matches the path p and the paths below it.
func pathUnder(p string) mux.MatcherFunc {
	return func(r *http.Request, _ *mux.RouteMatch) bool {
		path := r.URL.Path
		return strings.HasPrefix(path, p) && (len(path) == len(p) || path[len(p)] == '/')
	}
}

// index is GET /: the dashboard for a browser, and where everything is
// for any other client.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if dashboard.WantsHTML(r, nil) {
		dashboard.Handler().ServeHTTP(w, r)
		return
	}
	httpx.HandlerFunc(s.indexJSON).ServeHTTP(w, r)
}

func (s *Server) indexJSON(r *http.Request) (*httpx.Reply, error) {
	scheme, ws := "http", "ws"
	if r.TLS != nil {
		scheme, ws = "https", "wss"
	}
	base := scheme + "://" + r.Host
	apis := map[string]string{}
	for _, a := range APIs {
		apis[a.Name] = base + a.Prefix
	}
	apis["events"] = ws + "://" + r.Host + "/events/ws"
	return httpx.OK(map[string]any{"name": "Homologa sandbox", "environment": "sandbox", "apis": apis,
		"dashboard": base + "/dashboard/", "widgets": base + "/widgets/", "settings": s.settings()}), nil
}

// Settings are what the sandbox was started with that a test may need:
// a feature asks the index whether the sandbox has a setting, and is
// reported as not applicable, naming the flag, when it lacks it (the
// harness's "the sandbox was started with" steps). Nothing here is a
// secret: a refused webhook registration names the same allow-list.
type Settings struct {
	// WebhookAllow is --webhook-allow, the operator's additions to the
	// loopback default; WebhookResolve the names --webhook-resolve pins
	// (their addresses left out).
	WebhookAllow   []string `json:"webhookAllow"`
	WebhookResolve []string `json:"webhookResolve"`
	TLS            bool     `json:"tls"`
	MTLS           bool     `json:"mtls"`
	// Strict is --strict: what production accepts beyond the
	// specification is refused, not recorded as a finding.
	Strict bool `json:"strict"`
}

func (s *Server) settings() Settings {
	out := Settings{WebhookAllow: []string{}, WebhookResolve: []string{}, TLS: s.Config.TLS || s.Config.MTLS || s.Config.TLSCert != "", MTLS: s.Config.MTLS,
		Strict: s.Config.Strict}
	out.WebhookAllow = append(out.WebhookAllow, s.Config.WebhookAllow...)
	for _, pin := range s.Config.WebhookResolve {
		name, _, _ := strings.Cut(pin, "=")
		out.WebhookResolve = append(out.WebhookResolve, strings.TrimSpace(name))
	}
	return out
}

// RouteKeys lists "METHOD /full/path" of every route, sorted.
func (s *Server) RouteKeys() []string {
	var out []string
	for _, rt := range s.Routes() {
		out = append(out, rt.Method+" "+FullPath(rt))
	}
	sort.Strings(out)
	return out
}

// RouteTable is the route table without a running sandbox: the routes as
// data, their handlers bound to nothing. The harness reads the answer
// schemas from it; the route reference is written from it.
func RouteTable() []httpx.Route {
	s := &Server{Auth: &auth.Service{}, Pix: &pix.Service{}, Sale: &sale.Service{}, Customer: &customer.Service{}, Benefit: &benefit.Service{}, Scenarios: &scenario.Engine{}, Bus: &events.Bus{}}
	return s.Routes()
}

// RouteFor is the route of the table that serves method on target (a
// path, its query ignored), as the sandbox's router chooses it: a path
// under an alias or in another case is mapped first, as Outer maps it.
// A document that names requests (a feature's steps) is matched to the
// route table with it.
func RouteFor(method, target string) (httpx.Route, bool) {
	t := tableRouter()
	path, _, _ := strings.Cut(target, "?")
	if canon, _, _, ok := httpx.Canonical(t.apis, path); ok {
		path = canon
	}
	var m mux.RouteMatch
	if !t.router.Match(&http.Request{Method: method, URL: &url.URL{Path: path}}, &m) || m.Route == nil {
		return httpx.Route{}, false
	}
	i, err := strconv.Atoi(m.Route.GetName())
	if err != nil {
		return httpx.Route{}, false
	}
	return t.routes[i], true
}

// routedTable is the route table in a router of its own, each route
// named by its index, for RouteFor.
type routedTable struct {
	routes []httpx.Route
	apis   []httpx.API
	router *mux.Router
}

// tableRouter is the routedTable, made at its first use: flat, in the
// table's order, which the sandbox's tree of branches keeps
// (TestRouteTreeRoutesAsTheTableReads).
var tableRouter = sync.OnceValue(func() routedTable {
	t := routedTable{routes: RouteTable(), router: mux.NewRouter()}
	t.apis = withSegments(APIs, t.routes)
	for i, rt := range t.routes {
		// A handler of its own, which mux needs to clear the method
		// mismatch of an earlier route of the same path.
		route := t.router.NewRoute().Name(strconv.Itoa(i)).Methods(rt.Method).Handler(http.NotFoundHandler())
		if rt.Prefix {
			route.PathPrefix(FullPath(rt))
		} else {
			route.Path(FullPath(rt))
		}
	}
	return t
})

// credentialNames says in words what each kind of credential is.
var credentialNames = map[httpx.Auth]string{
	httpx.Public:      "none",
	httpx.Client:      "client id and secret (HTTP Basic or body)",
	httpx.App:         "app token",
	httpx.AppOptional: "app token, optional",
	httpx.Tenant:      "app token or portal login (its company), or operator token",
	httpx.Operator:    "operator token",
	httpx.Stream:      "app token (header or `access_token`)",
	httpx.Account:     "portal login (its own companies) or operator token",
}

// credentialOf says in words what a route takes: its kind of
// credential, and the client certificate of mutual TLS under --mtls.
func credentialOf(rt httpx.Route) string {
	if rt.MutualTLS {
		return credentialNames[rt.Auth] + "; under `--mtls`, the app's client certificate"
	}
	return credentialNames[rt.Auth]
}

// RouteReference writes the route table as Markdown: one table per API,
// each route with the credential it takes, its scopes, whether it replays
// an Idempotency-Key, and the schemas of its body and of its answer.
func RouteReference() string {
	byAPI := map[string][]httpx.Route{}
	for _, rt := range RouteTable() {
		byAPI[rt.API] = append(byAPI[rt.API], rt)
	}
	var b strings.Builder
	section := func(title string, rs []httpx.Route) {
		if len(rs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n| method | path | credential | scopes | idempotent | request schema | answer schema | what it does |\n|---|---|---|---|---|---|---|---|\n", title)
		for _, rt := range rs {
			path := FullPath(rt)
			if rt.Prefix {
				path += "…"
			}
			idem := ""
			if rt.Idempotent {
				idem = "yes"
			}
			scopes := ""
			if len(rt.Scopes) > 0 {
				scopes = "`" + strings.Join(rt.Scopes, "` or `") + "`"
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s | %s | %s |\n", rt.Method, strings.ReplaceAll(path, "|", `\|`),
				credentialOf(rt), scopes, idem, code(rt.Request), code(rt.Answer), rt.Doc)
		}
	}
	section("Root", byAPI[""])
	for _, a := range APIs {
		section(sectionTitle(a), byAPI[a.Name])
		undeclared(&b, a, byAPI[a.Name])
	}
	return b.String()
}

// sectionTitle is the title of an API's section in the references: its
// title and every base path it is served under.
func sectionTitle(a httpx.API) string {
	title := a.Title + " (`" + a.Prefix + "`"
	for _, al := range a.Aliases {
		title += ", `" + al.Prefix + "`"
	}
	return title + ")"
}

// code is s as Markdown code, "" for none.
func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}

// undeclared writes the answers of an API's routes that its
// specification does not declare, each with its reason: the API's, then
// each route's.
func undeclared(b *strings.Builder, a httpx.API, rs []httpx.Route) {
	var lines []string
	for _, u := range a.Undeclared {
		lines = append(lines, "- every route: "+u+".")
	}
	for _, rt := range rs {
		if rt.Undeclared != "" {
			lines = append(lines, fmt.Sprintf("- `%s %s`: %s.", rt.Method, FullPath(rt), rt.Undeclared))
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(b, "\nAnswers the specification does not declare, and why:\n\n%s\n", strings.Join(lines, "\n"))
	}
}

// namespaces is the namespace routes and middleware, made once: a
// namespace's demo company is the sandbox's, copied.
func (s *Server) namespaces() *control.Namespaces {
	if s.ns == nil {
		s.ns = &control.Namespaces{Auth: s.Auth, SeedDemo: s.namespaceDemo, Reset: s.control().ResetCompany}
	}
	return s.ns
}

// control is the control API's handlers, made once.
func (s *Server) control() *control.Handlers {
	if s.ctl == nil {
		s.ctl = &control.Handlers{Clocks: s.Clocks, Jobs: s.Jobs, Auth: s.Auth, Bus: s.Bus, DB: s.DB, Recorder: s.Recorder, Schemas: s.Schemas, Jumps: s.Config.ClockBudget,
			Inbox: &control.Inbox{Owner: s.Bus.CompanyOfDelivery, Key: s.inboxKey, Base: s.baseURL, Quota: s.Config.Quotas},
			// The insurer's cycles reset in the order their rows reference
			// each other's: benefits, then enrollments, then proposals.
			Resetters: []control.Resetter{s.Bus, s.Jobs, s.Keys, s.Scenarios, s.Pix, s.Benefit, s.Customer, s.Sale}}
	}
	return s.ctl
}

// writesUnderQuota says whether a route's requests count against the
// caller company's quotas and the storage budget: the partner APIs' and
// the control API's writes, save a reset (which frees what a company
// holds) and deletions.
func writesUnderQuota(rt httpx.Route) bool {
	switch {
	case rt.Auth != httpx.App && rt.Auth != httpx.Tenant:
		return false
	case rt.Method == http.MethodGet || rt.Method == http.MethodHead || rt.Method == http.MethodDelete:
		return false
	case rt.API == "sandbox" && rt.Path == "/reset":
		return false
	}
	return true
}

// underQuota refuses a write of a company past one of its quotas, or of
// anyone while the stores are past their budget, in the API's dialect.
func (s *Server) underQuota(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.Usage.Check(r.Context()); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// widgetPolicy says which pages may frame the widgets: an app's widget
// origins, for a widget framed for it; any page on a developer's sandbox
// (loopback, not hosted) otherwise.
func (s *Server) widgetPolicy() widgets.Policy {
	return widgets.Policy{AnyOrigin: !s.Hosted() && !exposed(s.Config.Addr),
		Origins: func(r *http.Request, clientID string) ([]string, bool) {
			a, err := s.Auth.App(r.Context(), clientID)
			if err != nil || (a.ClientID != clientID && a.ID != clientID) {
				return nil, false
			}
			return a.WidgetOrigins, true
		}}
}

// refusesForms says whether a route refuses the content types a
// cross-site form can send: the portal's and the control API's, which
// take JSON, save those that take a raw body (a YAML upload, the inbox).
// The partner APIs keep their dialect's own 415 (decoding), since their
// bearer tokens are nothing a form can send.
func refusesForms(rt httpx.Route) bool {
	switch rt.Auth {
	case httpx.Account, httpx.Tenant, httpx.Operator, httpx.Public:
		return !rt.RawBody
	}
	return false
}
