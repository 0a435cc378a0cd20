package control

import (
	"net/http"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/tenant"
)

// expireTokens is POST /sandbox/tokens/expire: every access token of the
// caller's company ends now. Tokens live on the wall clock, as in
// production, so advancing a company's clock never expires them; this is
// how a test makes a partner meet an expired token (401 invalid_token)
// and proves it renews it and carries on.
func (h *Handlers) expireTokens(r *http.Request) (*httpx.Reply, error) {
	company, err := tenant.CompanyOf(r.Context())
	if err != nil {
		return nil, errs.Errorf(errs.Invalid, "expirar tokens é uma ação de uma empresa: use o token de um app dela ou entre no portal")
	}
	n, err := h.Auth.ExpireTokens(r.Context(), company)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"expired": n}), nil
}
