package control

import (
	"net/http"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
)

// The calling app, for a holder of nothing but its client credentials: a
// partner's own app in a harness (homologa test with a fixed app) reads
// its company and points its webhook at the integration under test, as
// the portal would with a login.

// callingApp is the app of the request's token, or an error naming why
// there is none (a portal login or the operator names no app).
func (h *Handlers) callingApp(r *http.Request) (auth.App, error) {
	p, ok := auth.PrincipalOf(r.Context())
	if !ok || p.AppID == "" {
		return auth.App{}, errs.Errorf(errs.Invalid, "esta rota é do app do token: chame-a com o token de um app (um login do portal usa /portal/apps/{id})")
	}
	return h.Auth.App(r.Context(), p.AppID)
}

// app is GET /sandbox/app: the calling app as the portal shows it (no
// secret), with its company.
func (h *Handlers) app(r *http.Request) (*httpx.Reply, error) {
	a, err := h.callingApp(r)
	if err != nil {
		return nil, err
	}
	return httpx.OK(a.Listed()), nil
}

// appWebhook is PUT /sandbox/app/webhook {"webhookUrl"}: the calling
// app's webhook, checked as the portal checks it ("" removes it).
func (h *Handlers) appWebhook(r *http.Request) (*httpx.Reply, error) {
	a, err := h.callingApp(r)
	if err != nil {
		return nil, err
	}
	var in struct {
		WebhookURL string `json:"webhookUrl"`
	}
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/app.webhook", &in); err != nil {
		return nil, err
	}
	a, err = h.Auth.SetWebhook(r.Context(), a.ID, in.WebhookURL)
	if err != nil {
		return nil, err
	}
	return httpx.OK(a.Listed()), nil
}
