package portal

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
)

// accountView is the account as the portal shows it: with its companies.
type accountView struct {
	Account   auth.Account   `json:"account"`
	Companies []auth.Company `json:"companies"`
}

func (h *Handlers) view(r *http.Request, a auth.Account) (accountView, error) {
	cs, err := h.Auth.CompaniesOf(r.Context(), auth.Owner{AccountID: a.ID})
	return accountView{Account: a, Companies: cs}, err
}

// register is POST /portal/accounts: the account and its first company,
// and a session, as a browser's sign-up would leave it logged in.
func (h *Handlers) register(r *http.Request) (*httpx.Reply, error) {
	if err := loginOrigin(r); err != nil {
		return nil, err
	}
	var in struct {
		Email, Password, Name string
		Company               struct{ CNPJ, Name string }
	}
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/registration.create", &in); err != nil {
		return nil, err
	}
	if err := h.Auth.AllowRegistration(r); err != nil {
		return nil, err
	}
	a, _, err := h.Auth.Register(r.Context(), auth.NewAccount{Email: in.Email, Password: in.Password, Name: in.Name,
		CompanyCNPJ: in.Company.CNPJ, CompanyName: in.Company.Name})
	if err != nil {
		return nil, err
	}
	return h.loggedIn(r, a, http.StatusCreated)
}

// login is POST /portal/login: a session cookie for the browser portal.
func (h *Handlers) login(r *http.Request) (*httpx.Reply, error) {
	if err := loginOrigin(r); err != nil {
		return nil, err
	}
	var in struct{ Email, Password string }
	if err := httpx.DecodeJSON(r, h.Schemas, "platform/login", &in); err != nil {
		return nil, err
	}
	a, err := h.Auth.CheckLogin(r, in.Email, in.Password)
	if err != nil {
		return nil, err
	}
	return h.loggedIn(r, a, http.StatusOK)
}

// loggedIn answers with the account and a new session cookie.
func (h *Handlers) loggedIn(r *http.Request, a auth.Account, status int) (*httpx.Reply, error) {
	// The session is named by the browser that holds it (shown in GET
	// /portal/tokens), cut to the length a name may have.
	agent := strings.ToValidUTF8(r.UserAgent(), "")
	if len(agent) > 100 {
		agent = strings.ToValidUTF8(agent[:100], "")
	}
	sess, err := h.Auth.NewCredential(r.Context(), a.ID, auth.KindSession, agent)
	if err != nil {
		return nil, err
	}
	v, err := h.view(r, a)
	if err != nil {
		return nil, err
	}
	rep := &httpx.Reply{Status: status, Body: v, Header: http.Header{}}
	rep.Header.Add("Set-Cookie", h.Auth.SessionCookieFor(sess).String())
	return noStore(rep), nil
}

// loginOrigin refuses a login or sign-up posted from another site's page
// (login CSRF: the victim's browser would end up in the attacker's
// account). Programs send no Origin and are let through.
func loginOrigin(r *http.Request) error {
	if r.Header.Get("Origin") == "" {
		return nil
	}
	return auth.CheckOrigin(r)
}

// logout is POST /portal/logout: the session ends, here and in the
// browser.
func (h *Handlers) logout(r *http.Request) (*httpx.Reply, error) {
	if ck, err := r.Cookie(auth.SessionCookie); err == nil && ck.Value != "" {
		if a, ok := auth.AccountIn(r.Context()); ok {
			if err := h.Auth.Revoke(r.Context(), a.ID, ck.Value); err != nil && errs.CodeOf(err) != errs.NotFound {
				return nil, err
			}
		}
	}
	rep := httpx.NoContent()
	rep.Header = http.Header{"Set-Cookie": {h.Auth.EndedSessionCookie().String()}}
	return rep, nil
}

// account is GET /portal/account.
func (h *Handlers) account(r *http.Request) (*httpx.Reply, error) {
	a, ok := auth.AccountIn(r.Context())
	if !ok {
		return nil, errs.Errorf(errs.Invalid, "o operador não é uma conta do portal; GET /portal/companies lista todas as empresas")
	}
	v, err := h.view(r, a)
	if err != nil {
		return nil, err
	}
	return httpx.OK(v), nil
}

// newToken is POST /portal/tokens {"name"}: a personal API token for the
// portal, shown once. It takes the account's email and password (HTTP
// Basic), so a program or a CI job can log in, or a logged-in session.
func (h *Handlers) newToken(r *http.Request) (*httpx.Reply, error) {
	var in struct{ Name string }
	if err := httpx.DecodeOptionalJSON(r, h.Schemas, "platform/credential.create", &in); err != nil {
		return nil, err
	}
	a, err := h.tokenAccount(r)
	if err != nil {
		return nil, err
	}
	c, err := h.Auth.NewCredential(r.Context(), a.ID, auth.KindToken, in.Name)
	if err != nil {
		return nil, err
	}
	return noStore(httpx.Created(c)), nil
}

// tokenAccount authenticates POST /portal/tokens: HTTP Basic with the
// email and password, or a portal credential.
func (h *Handlers) tokenAccount(r *http.Request) (auth.Account, error) {
	if email, password, ok := r.BasicAuth(); ok {
		return h.Auth.CheckLogin(r, email, password)
	}
	a, found, err := h.Auth.AccountOfRequest(r)
	if err != nil {
		return auth.Account{}, err
	}
	if !found {
		return auth.Account{}, errs.Errorf(errs.Unauthorized, "envie o e-mail e a senha da conta (HTTP Basic) ou entre no portal").
			WithHeader("WWW-Authenticate", `Basic realm="homologa-portal"`)
	}
	return a, nil
}

// tokens is GET /portal/tokens.
func (h *Handlers) tokens(r *http.Request) (*httpx.Reply, error) {
	a, ok := auth.AccountIn(r.Context())
	if !ok {
		return nil, errs.Errorf(errs.Invalid, "o operador não tem tokens do portal")
	}
	cs, err := h.Auth.Credentials(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"tokens": cs}), nil
}

// revoke is DELETE /portal/tokens/{id}.
func (h *Handlers) revoke(r *http.Request) (*httpx.Reply, error) {
	a, ok := auth.AccountIn(r.Context())
	if !ok {
		return nil, errs.Errorf(errs.Invalid, "o operador não tem tokens do portal")
	}
	if err := h.Auth.Revoke(r.Context(), a.ID, mux.Vars(r)["id"]); err != nil {
		return nil, err
	}
	return httpx.NoContent(), nil
}
