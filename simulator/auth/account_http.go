package auth

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/taxid"
	"homologa/simulator/tenant"
)

// SessionCookie is the portal's session cookie: HttpOnly (no script reads
// it), SameSite=Strict (no other site's page sends it) and Secure when the
// sandbox is served over TLS.
const SessionCookie = "homologa_session"

// CompanyHeader chooses, for an account acting on the control API, which
// of its companies it acts for (an id or a CNPJ); an account of one
// company needs none.
const CompanyHeader = "X-Homologa-Company"

type ownerKey struct{}

// portalActor is what RequireAccount puts in the context.
type portalActor struct {
	owner   Owner
	account Account
	cookie  bool
}

// OwnerOf returns who acts through the portal in ctx: an account or the
// operator. The zero Owner owns nothing.
func OwnerOf(ctx context.Context) Owner {
	a, _ := ctx.Value(ownerKey{}).(portalActor)
	return a.owner
}

// AccountIn returns the account acting in ctx, if one is.
func AccountIn(ctx context.Context) (Account, bool) {
	a, ok := ctx.Value(ownerKey{}).(portalActor)
	return a.account, ok && a.account.ID != ""
}

// SessionCookieFor is the cookie that carries a session to the browser.
func (s *Service) SessionCookieFor(c Credential) *http.Cookie {
	ck := &http.Cookie{Name: SessionCookie, Value: c.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.SecureCookies}
	if c.ExpiresAt != nil {
		ck.Expires = *c.ExpiresAt
	}
	return ck
}

// EndedSessionCookie clears the session cookie.
func (s *Service) EndedSessionCookie() *http.Cookie {
	return &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1, Expires: time.Unix(0, 0), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.SecureCookies}
}

// accountCredential finds the portal credential a request carries: a
// bearer API token, or the session cookie. cookie says which; found is
// false when it carries neither.
func accountCredential(r *http.Request) (token string, cookie, found bool) {
	if tok, ok := BearerToken(r); ok && strings.HasPrefix(tok, APITokenPrefix) {
		return tok, false, true
	}
	if _, ok := BearerToken(r); ok {
		return "", false, false
	}
	if ck, err := r.Cookie(SessionCookie); err == nil && ck.Value != "" {
		return ck.Value, true, true
	}
	return "", false, false
}

// accountOfRequest resolves the portal credential of r. A session cookie
// on a request that changes state must come from a page of the sandbox's
// own origin (CheckOrigin): SameSite=Strict already keeps other sites'
// requests from carrying it, and this holds even for a browser that
// ignores SameSite.
func (s *Service) accountOfRequest(r *http.Request) (Account, bool, error) {
	tok, cookie, found := accountCredential(r)
	if !found {
		return Account{}, false, nil
	}
	if cookie && !safeMethod(r.Method) {
		if err := CheckOrigin(r); err != nil {
			return Account{}, true, err
		}
	}
	a, kind, err := s.AccountOf(r.Context(), tok)
	if err != nil {
		return Account{}, true, err
	}
	if cookie != (kind == KindSession) {
		return Account{}, true, errs.Errorf(errs.Unauthorized, "um token do portal vai em Authorization: Bearer, uma sessão só no cookie %s", SessionCookie)
	}
	return a, true, nil
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// CheckOrigin refuses a request whose Origin (or, without one, Referer)
// is not the sandbox's own: the host the request was sent to, which the
// Host check has already limited to names the sandbox serves.
func CheckOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		origin = r.Header.Get("Referer")
	}
	if origin == "" {
		return errs.Errorf(errs.Forbidden, "um pedido que muda dados com o cookie de sessão precisa do cabeçalho Origin desta página; de um programa, use um token do portal (Authorization: Bearer %s…)", APITokenPrefix)
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
		return errs.Errorf(errs.Forbidden, "a origem %q não é a do sandbox: pedidos com o cookie de sessão só valem de páginas do próprio sandbox", origin)
	}
	return nil
}

// RequireAccount wraps a portal route: it runs for an account (its API
// token, or its session cookie from the sandbox's own pages), acting on
// its own companies, or for the operator's token, acting on every
// company. The account's namespace is the request's.
func (s *Service) RequireAccount(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.isOperator(r) {
			r = asOperator(r)
			h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ownerKey{}, portalActor{owner: Owner{Operator: true}})))
			return
		}
		a, found, err := s.accountOfRequest(r)
		if !found && err == nil {
			err = errs.Errorf(errs.Unauthorized, "entre no portal: envie Authorization: Bearer <token do portal> (POST /portal/tokens) ou o cookie de sessão (POST /portal/login)").
				WithHeader("WWW-Authenticate", `Bearer realm="homologa-portal"`)
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		_, cookie, _ := accountCredential(r)
		httpx.InfoOf(r.Context()).Account = a.ID
		ctx := context.WithValue(r.Context(), ownerKey{}, portalActor{owner: Owner{AccountID: a.ID}, account: a, cookie: cookie})
		h.ServeHTTP(w, r.WithContext(tenant.WithNamespace(ctx, a.Namespace)))
	})
}

// accountPrincipal is the principal of an account acting on the control
// API: the company it names in X-Homologa-Company, or its only one.
func (s *Service) accountPrincipal(r *http.Request, a Account) (Principal, error) {
	ctx := tenant.WithNamespace(r.Context(), a.Namespace)
	cs, err := s.CompaniesOf(ctx, Owner{AccountID: a.ID})
	if err != nil {
		return Principal{}, err
	}
	want := strings.TrimSpace(r.Header.Get(CompanyHeader))
	var chosen *Company
	for i, c := range cs {
		if want == "" && len(cs) == 1 || want != "" && (c.ID == want || c.CNPJ == taxid.NormalizeCNPJ(want)) {
			chosen = &cs[i]
		}
	}
	if chosen == nil {
		if want == "" && len(cs) > 1 {
			return Principal{}, errs.Invalidf(CompanyHeader, "a conta tem %d empresas: diga por qual age (id ou CNPJ)", len(cs))
		}
		return Principal{}, errs.Invalidf(CompanyHeader, "nenhuma empresa %q nesta conta", want)
	}
	info := httpx.InfoOf(r.Context())
	info.CNPJ, info.CompanyID, info.Account = chosen.CNPJ, chosen.ID, a.ID
	info.At = s.Clocks.NowOf(chosen.ID)
	return Principal{CompanyID: chosen.ID, Namespace: chosen.Namespace, CNPJ: chosen.CNPJ}, nil
}

// AccountOfRequest resolves the portal credential a request carries (an
// API token or a same-origin session cookie); found is false when it
// carries none.
func (s *Service) AccountOfRequest(r *http.Request) (a Account, found bool, err error) {
	return s.accountOfRequest(r)
}

// AccountCompany is the company a request's portal credential acts for
// (its account's only one, or the one X-Homologa-Company names); found is
// false when the request carries no portal credential.
func (s *Service) AccountCompany(r *http.Request) (p Principal, found bool, err error) {
	a, found, err := s.accountOfRequest(r)
	if !found || err != nil {
		return Principal{}, found, err
	}
	p, err = s.accountPrincipal(r, a)
	return p, true, err
}
