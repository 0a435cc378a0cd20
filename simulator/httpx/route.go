package httpx

import (
	"net/http"
	"regexp"
	"strings"
)

// Auth is the kind of credential a route takes. The server wraps every
// route of one kind with the same middleware, so a route's protection is
// read from its entry in the table, never from how it was mounted.
type Auth string

// The kinds of credential.
const (
	// Public routes take no credential: static assets, QR payloads, the
	// index.
	Public Auth = "public"
	// Client is the token endpoint: it authenticates the client's id and
	// secret itself. Faults activated for every app apply.
	Client Auth = "client"
	// App routes are the partner APIs: an app's bearer token carrying one
	// of the route's scopes. Faults apply.
	App Auth = "app"
	// AppOptional routes take an app's bearer token when one is sent (and
	// act for its company), and none otherwise.
	AppOptional Auth = "app-optional"
	// Stream is a websocket that authenticates its own handshake (a token
	// in the header or the query).
	Stream Auth = "stream"
	// Tenant routes are the control of a company's own sandbox: its app's
	// token (any scope), acting for that company; or the operator's
	// token, acting sandbox-wide.
	Tenant Auth = "tenant"
	// Operator routes act on the whole sandbox: the operator's token only.
	Operator Auth = "operator"
	// Account routes are the portal: a portal account's API token, or its
	// session cookie from the sandbox's own pages, acting on its own
	// companies and apps; or the operator's token, acting on all.
	Account Auth = "account"
)

// Route is one entry of the route table: every route of the sandbox is
// declared once, as data, by the package that owns it; the server mounts
// them, the banner and the route reference are written from them, and the
// harness validates answers with their schemas.
type Route struct {
	// API is the name of the mounted API the path is under (server.APIs);
	// "" for the root.
	API    string
	Method string
	// Path is below the API's base path, in gorilla/mux syntax.
	Path string
	// Prefix matches every path that starts with Path (static assets).
	Prefix bool
	Auth   Auth
	// Scopes, for App routes: the token must carry one of them.
	Scopes []string
	// Idempotent routes replay a request repeated with its
	// Idempotency-Key (creating POSTs).
	Idempotent bool
	// MutualTLS routes are those every Pix API serves over mutual TLS
	// (the API Pix, the token endpoint): a token bound to a client
	// certificate is taken with it only, and under --mtls they take the
	// app's certificate.
	MutualTLS bool
	// RawBody routes take a body that is not JSON (a scenario's or a
	// partner's YAML, a webhook delivery as sent): form content types are
	// not refused there.
	RawBody bool
	// Request is the schema of the route's JSON body, "" when it takes
	// none (or one no schema describes: server's list of them says why).
	// The router puts the route in the request's Info, and DecodeJSON
	// validates the body with this schema and no other: a handler that
	// names another is an internal error, so the declaration (which the
	// request reference is written from) cannot drift from the handler.
	Request string
	// Answer is the schema of the 2xx body, "" when the route's answer has
	// none.
	Answer  string
	Handler http.Handler
	// Doc says in a few words what the route does.
	Doc string
	// Undeclared is an answer of the route that its operation in the
	// API's specification does not declare, and why; the route
	// reference lists it.
	Undeclared string
}

// WithRequest is rt taking a JSON body of the named schema: a route
// helper's result, declared with its body (Route.Request).
func (rt Route) WithRequest(schema string) Route {
	rt.Request = schema
	return rt
}

// Routed serves rt's requests with next, naming rt in the request's
// Info, so that decoding validates the body with the route's declared
// schema (Route.Request). A request that reaches it without an Info (a
// handler mounted alone, in a test) gets one.
func Routed(rt Route, next http.Handler) http.Handler {
	route := &rt
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info, ok := r.Context().Value(infoKey{}).(*Info); ok {
			info.Route = route
		} else {
			r = r.WithContext(WithInfo(r.Context(), &Info{Route: route}))
		}
		next.ServeHTTP(w, r)
	})
}

// Scopes is a convenience for Route.Scopes.
func Scopes(s ...string) []string { return s }

var muxVar = regexp.MustCompile(`\{([^{}:]+)(?::([^{}]+(?:\{[0-9,]+\}[^{}]*)*))?\}`)

// PathPattern compiles a full route path (base path and Path, mux syntax)
// into an anchored regular expression matching the concrete paths it serves.
func PathPattern(full string, prefix bool) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range muxVar.FindAllStringSubmatchIndex(full, -1) {
		b.WriteString(regexp.QuoteMeta(full[last:m[0]]))
		if m[4] >= 0 {
			b.WriteString("(?:" + full[m[4]:m[5]] + ")")
		} else {
			b.WriteString("[^/]+")
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(full[last:]))
	if !prefix {
		b.WriteString("$")
	}
	return regexp.MustCompile(b.String())
}
