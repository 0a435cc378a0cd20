// Package portal is the onboarding portal's API (/portal): register a
// company, create its App/Client, read it, rotate its secret, set its
// webhook. It is the spec's onboarding sequence, steps 1 to 3.
package portal

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/httpx"
	"homologa/simulator/schema"
)

// Handlers serves the portal.
type Handlers struct {
	Auth    *auth.Service
	Schemas *schema.Registry
}

// Routes is the portal's routes: companies and their apps.
func (h *Handlers) Routes() []httpx.Route {
	route := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "portal", Method: method, Path: path, Auth: httpx.Public, Answer: answer, Handler: f, Doc: doc,
			Idempotent: method == http.MethodPost}
	}
	return []httpx.Route{
		route(http.MethodPost, "/companies", "platform/company", h.createCompany, "register a company"),
		route(http.MethodGet, "/companies/{id}", "", h.company, "a company"),
		route(http.MethodPost, "/apps", "platform/app", h.createApp, "create an App/Client"),
		route(http.MethodGet, "/apps", "", h.apps, "apps"),
		route(http.MethodGet, "/apps/{id}", "platform/app", h.app, "an app"),
		route(http.MethodPost, "/apps/{id}/secret", "", h.rotateSecret, "rotate an app's client secret"),
		route(http.MethodPut, "/apps/{id}/webhook", "", h.setWebhook, "set an app's webhook URL"),
	}
}

// createCompany is POST /portal/companies.
func (h *Handlers) createCompany(r *http.Request) (*httpx.Reply, error) {
	var in struct{ CNPJ, Name string }
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/company.create", &in); err != nil {
		return nil, err
	}
	c, err := h.Auth.CreateCompany(r.Context(), in.CNPJ, in.Name)
	if err != nil {
		return nil, err
	}
	rep := httpx.Created(c)
	rep.Header = http.Header{"Location": {"/portal/companies/" + c.ID}}
	return rep, nil
}

// company is GET /portal/companies/{id}; id may be the CNPJ.
func (h *Handlers) company(r *http.Request) (*httpx.Reply, error) {
	c, err := h.Auth.Company(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return httpx.OK(c), nil
}

// createApp is POST /portal/apps. The answer is the only one that shows the
// client secret.
func (h *Handlers) createApp(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		CompanyID   string   `json:"companyId"`
		Name        string   `json:"name"`
		WebhookURL  string   `json:"webhookUrl"`
		Scopes      []string `json:"scopes"`
		Environment string   `json:"environment"`
	}
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/app.create", &in); err != nil {
		return nil, err
	}
	a, err := h.Auth.CreateApp(r.Context(), auth.NewApp{
		Company: in.CompanyID, Name: in.Name, WebhookURL: in.WebhookURL, Scopes: in.Scopes, Environment: in.Environment,
	})
	if err != nil {
		return nil, err
	}
	rep := httpx.Created(a)
	rep.Header = http.Header{"Location": {"/portal/apps/" + a.ID}, "Cache-Control": {"no-store"}}
	return rep, nil
}

// apps is GET /portal/apps.
func (h *Handlers) apps(r *http.Request) (*httpx.Reply, error) {
	apps, err := h.Auth.Apps(r.Context())
	if err != nil {
		return nil, err
	}
	if apps == nil {
		apps = []auth.App{}
	}
	return httpx.OK(map[string]any{"apps": apps}), nil
}

// app is GET /portal/apps/{id}; id may be the client id.
func (h *Handlers) app(r *http.Request) (*httpx.Reply, error) {
	a, err := h.Auth.App(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return httpx.OK(a), nil
}

// rotateSecret is POST /portal/apps/{id}/secret: a new client secret, shown
// once; the old secret and every token issued with it stop working.
func (h *Handlers) rotateSecret(r *http.Request) (*httpx.Reply, error) {
	a, err := h.Auth.RotateSecret(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	rep := httpx.OK(a)
	rep.Header = http.Header{"Cache-Control": {"no-store"}}
	return rep, nil
}

// setWebhook is PUT /portal/apps/{id}/webhook.
func (h *Handlers) setWebhook(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		WebhookURL string `json:"webhookUrl"`
	}
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/app.webhook", &in); err != nil {
		return nil, err
	}
	a, err := h.Auth.SetWebhook(r.Context(), mux.Vars(r)["id"], in.WebhookURL)
	if err != nil {
		return nil, err
	}
	return httpx.OK(a), nil
}
