package wire

import (
	"net/http"

	"homologa/simulator/httpx"
)

// Route is a route of the insurer's partner APIs: an app's token with one
// of scopes, a POST that replays its Idempotency-Key, an answer schema.
func Route(api string, scopes []string, method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
	return httpx.Route{API: api, Method: method, Path: path, Auth: httpx.App, Scopes: scopes,
		Idempotent: method == http.MethodPost, Answer: answer, Handler: f, Doc: doc}
}

// Control is a control route of the sandbox a cycle owns: it acts for the
// company of the app token it carries (the operator's: sandbox-wide).
func Control(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
	return httpx.Route{API: "sandbox", Method: method, Path: path, Auth: httpx.Tenant, Answer: answer, Handler: f, Doc: doc}
}
