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

// Routes is the portal's routes: accounts and their credentials,
// companies and their apps.
func (h *Handlers) Routes() []httpx.Route {
	route := func(method, path string, kind httpx.Auth, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "portal", Method: method, Path: path, Auth: kind, Answer: answer, Handler: f, Doc: doc}
	}
	creating := func(rt httpx.Route) httpx.Route { rt.Idempotent = true; return rt }
	return append([]httpx.Route{
		creating(route(http.MethodPost, "/accounts", httpx.Public, "platform/account", h.register, "register: an account (email, password) and its company; logs in").WithRequest("platform/registration.create")),
		route(http.MethodPost, "/login", httpx.Public, "platform/account", h.login, "log in: a session cookie for the browser").WithRequest("platform/login"),
		route(http.MethodPost, "/logout", httpx.Account, "", h.logout, "end the session"),
		route(http.MethodGet, "/account", httpx.Account, "platform/account", h.account, "the account and its companies"),
		route(http.MethodPost, "/tokens", httpx.Public, "platform/credential", h.newToken, "a personal API token for the portal (HTTP Basic email:password, or logged in), shown once").WithRequest("platform/credential.create"),
		route(http.MethodGet, "/tokens", httpx.Account, "", h.tokens, "the account's API tokens and sessions"),
		route(http.MethodDelete, "/tokens/{id}", httpx.Account, "", h.revoke, "revoke an API token or a session"),
		creating(route(http.MethodPost, "/companies", httpx.Account, "platform/company", h.createCompany, "register another company of the account").WithRequest("platform/company.create")),
		route(http.MethodGet, "/companies", httpx.Account, "", h.companies, "the account's companies"),
		route(http.MethodGet, "/companies/{id}", httpx.Account, "", h.company, "a company"),
		creating(route(http.MethodPost, "/apps", httpx.Account, "platform/app", h.createApp, "create an App/Client").WithRequest("platform/app.create")),
		route(http.MethodGet, "/apps", httpx.Account, "", h.apps, "the account's apps"),
		route(http.MethodGet, "/apps/{id}", httpx.Account, "platform/app", h.app, "an app"),
		creating(route(http.MethodPost, "/apps/{id}/secret", httpx.Account, "", h.rotateSecret, "rotate an app's client secret (shown once)")),
		creating(route(http.MethodPost, "/apps/{id}/webhook-secret", httpx.Account, "", h.rotateWebhookSecret, "rotate an app's webhook signing secret (shown once)")),
		route(http.MethodPut, "/apps/{id}/webhook", httpx.Account, "", h.setWebhook, "set an app's webhook URL").WithRequest("platform/app.webhook"),
		route(http.MethodPut, "/apps/{id}/widget-origins", httpx.Account, "platform/app", h.setWidgetOrigins, "set the origins an app's pages embed the widgets from").WithRequest("platform/app.widget-origins"),
	}, h.certificateRoutes()...)
}

// createCompany is POST /portal/companies.
func (h *Handlers) createCompany(r *http.Request) (*httpx.Reply, error) {
	var in struct{ CNPJ, Name string }
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/company.create", &in); err != nil {
		return nil, err
	}
	c, err := h.Auth.CreateOwnedCompany(r.Context(), auth.OwnerOf(r.Context()), in.CNPJ, in.Name)
	if err != nil {
		return nil, err
	}
	rep := httpx.Created(c)
	rep.Header = http.Header{"Location": {"/portal/companies/" + c.ID}}
	return rep, nil
}

// companies is GET /portal/companies.
func (h *Handlers) companies(r *http.Request) (*httpx.Reply, error) {
	cs, err := h.Auth.CompaniesOf(r.Context(), auth.OwnerOf(r.Context()))
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"companies": cs}), nil
}

// company is GET /portal/companies/{id}; id may be the CNPJ.
func (h *Handlers) company(r *http.Request) (*httpx.Reply, error) {
	c, err := h.Auth.OwnedCompany(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return httpx.OK(c), nil
}

// createApp is POST /portal/apps. The answer is the only one that shows the
// client secret and the webhook signing secret.
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
	a, err := h.Auth.CreateOwnedApp(r.Context(), auth.OwnerOf(r.Context()), auth.NewApp{
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
	apps, err := h.Auth.OwnedApps(r.Context(), auth.OwnerOf(r.Context()))
	if err != nil {
		return nil, err
	}
	for i := range apps {
		apps[i] = apps[i].Listed()
	}
	return httpx.OK(map[string]any{"apps": apps}), nil
}

// app is GET /portal/apps/{id}; id may be the client id.
func (h *Handlers) app(r *http.Request) (*httpx.Reply, error) {
	a, err := h.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return httpx.OK(a.Listed()), nil
}

// rotateSecret is POST /portal/apps/{id}/secret: a new client secret, shown
// once; the old secret and every token issued with it stop working.
func (h *Handlers) rotateSecret(r *http.Request) (*httpx.Reply, error) {
	a, err := h.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	if a, err = h.Auth.RotateSecret(r.Context(), a.ID); err != nil {
		return nil, err
	}
	a.WebhookSecret = ""
	return noStore(httpx.OK(a)), nil
}

// rotateWebhookSecret is POST /portal/apps/{id}/webhook-secret: a new
// signing secret, shown once; deliveries from now on are signed with it.
func (h *Handlers) rotateWebhookSecret(r *http.Request) (*httpx.Reply, error) {
	a, err := h.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	if a, err = h.Auth.RotateWebhookSecret(r.Context(), a.ID); err != nil {
		return nil, err
	}
	a.ClientSecret = ""
	return noStore(httpx.OK(a)), nil
}

// setWebhook is PUT /portal/apps/{id}/webhook.
func (h *Handlers) setWebhook(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		WebhookURL string `json:"webhookUrl"`
	}
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/app.webhook", &in); err != nil {
		return nil, err
	}
	a, err := h.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	if a, err = h.Auth.SetWebhook(r.Context(), a.ID, in.WebhookURL); err != nil {
		return nil, err
	}
	return httpx.OK(a.Listed()), nil
}

// setWidgetOrigins is PUT /portal/apps/{id}/widget-origins.
func (h *Handlers) setWidgetOrigins(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		Origins []string `json:"origins"`
	}
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/app.widget-origins", &in); err != nil {
		return nil, err
	}
	a, err := h.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	if a, err = h.Auth.SetWidgetOrigins(r.Context(), a.ID, in.Origins); err != nil {
		return nil, err
	}
	return httpx.OK(a.Listed()), nil
}

// noStore keeps an answer that shows a secret out of caches.
func noStore(rep *httpx.Reply) *httpx.Reply {
	if rep.Header == nil {
		rep.Header = http.Header{}
	}
	rep.Header.Set("Cache-Control", "no-store")
	return rep
}
