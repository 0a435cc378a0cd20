package auth

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/tenant"
)

type principalKey struct{}

// PrincipalOf returns the authenticated app of a request.
func PrincipalOf(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// BearerToken extracts the token of an Authorization: Bearer header.
func BearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

// Require wraps h so that it runs only for a valid bearer token carrying
// one of scopes (any token, when there are none): 401 without a valid
// token, 403 without the scope.
func (s *Service) Require(scopes []string, h http.Handler) http.Handler {
	return s.require(scopes, false, h)
}

// RequireBound is Require on a route of mutual TLS: a token bound to a
// client certificate is taken with that certificate only (RFC 8705), and
// under --mtls every request brings the app's certificate and a token
// bound to it; otherwise a 401, before the scope is looked at.
func (s *Service) RequireBound(scopes []string, h http.Handler) http.Handler {
	return s.require(scopes, true, h)
}

func (s *Service) require(scopes []string, bound bool, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateRequest(r)
		if err == nil && bound {
			err = s.checkBinding(r, p)
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if !p.HasAnyScope(scopes) {
			msg := fmt.Sprintf("o token de acesso não tem o escopo %q", scopes[0])
			if len(scopes) > 1 {
				msg = fmt.Sprintf("o token de acesso não tem nenhum dos escopos %s", strings.Join(scopes, ", "))
			}
			httpx.WriteError(w, r, errs.Errorf(errs.Forbidden, "%s", msg).
				WithHeader("WWW-Authenticate", fmt.Sprintf(`Bearer realm="homologa", error="insufficient_scope", scope=%q`, strings.Join(scopes, " "))))
			return
		}
		h.ServeHTTP(w, forPrincipal(r, p))
	})
}

func (s *Service) authenticateRequest(r *http.Request) (Principal, error) {
	tok, ok := BearerToken(r)
	if !ok {
		return Principal{}, bearerError("invalid_request", "falta o cabeçalho Authorization: Bearer <token>; obtenha um token em POST /oauth/token")
	}
	p, err := s.Authenticate(r.Context(), tok)
	if p.AppID != "" {
		// An expired token still names its app: the refusal goes in
		// that app's interaction log.
		info := httpx.InfoOf(r.Context())
		info.AppID, info.CNPJ, info.CompanyID = p.AppID, p.CNPJ, p.CompanyID
		info.At = s.Clocks.NowOf(p.CompanyID)
	}
	if err != nil {
		return Principal{}, err
	}
	return p, nil
}

// forPrincipal is the request acting for p: its principal and its company
// (package tenant) in the context, which every clock read and scheduled
// job of the request follows.
func forPrincipal(r *http.Request, p Principal) *http.Request {
	ctx := tenant.WithNamespace(tenant.With(WithPrincipal(r.Context(), p), p.CompanyID), p.Namespace)
	return r.WithContext(ctx)
}

// IsOperator reports whether ctx acts as the operator: for every company.
func IsOperator(ctx context.Context) bool {
	sc, err := tenant.Of(ctx)
	return err == nil && sc.Every()
}

// asOperator is the request acting as the operator: for every company.
// Reading the operator's token is the one place the sandbox grants that
// scope (package tenant).
func asOperator(r *http.Request) *http.Request {
	httpx.InfoOf(r.Context()).Operator = true
	return r.WithContext(tenant.WithEveryCompany(r.Context()))
}

// RequireTenant wraps a control route: it runs for a company's app token
// or its account's portal credential (acting for that company), or for
// the operator's token (sandbox-wide).
func (s *Service) RequireTenant(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.isOperator(r) {
			h.ServeHTTP(w, asOperator(r))
			return
		}
		if a, found, err := s.accountOfRequest(r); found {
			var p Principal
			if err == nil {
				p, err = s.accountPrincipal(r, a)
			}
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			h.ServeHTTP(w, forPrincipal(r, p))
			return
		}
		s.serveApp(w, r, h)
	})
}

// serveApp serves h for the app of the request's bearer token, or answers
// why the token is refused.
func (s *Service) serveApp(w http.ResponseWriter, r *http.Request, h http.Handler) {
	p, err := s.authenticateRequest(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	h.ServeHTTP(w, forPrincipal(r, p))
}

// RequireOperator wraps a sandbox-wide route: only the operator's token.
func (s *Service) RequireOperator(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.isOperator(r) {
			httpx.WriteError(w, r, errs.Errorf(errs.Forbidden, "só o operador do sandbox pode fazer isto: envie Authorization: Bearer <token do operador> (o sandbox o mostra ao iniciar)").
				WithHeader("WWW-Authenticate", `Bearer realm="homologa-operator"`))
			return
		}
		h.ServeHTTP(w, asOperator(r))
	})
}

// IsOperatorRequest reports whether the request carries the operator's
// token.
func (s *Service) IsOperatorRequest(r *http.Request) bool { return s.isOperator(r) }

// isOperator reports whether the request carries the operator's token.
func (s *Service) isOperator(r *http.Request) bool {
	tok, ok := BearerToken(r)
	return ok && s.OperatorToken != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.OperatorToken)) == 1
}

// Optional is Require without a scope that also lets requests without a
// token through; handlers look for the principal themselves.
func (s *Service) Optional(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := BearerToken(r); !ok {
			h.ServeHTTP(w, r)
			return
		}
		s.serveApp(w, r, h)
	})
}

// TokenHandler is POST /oauth/token: the client-credentials grant of
// RFC 6749 §4.4 in every dialect the PSP clients of the API Pix speak:
// its parameters in a form (§4.4.2), in a JSON object, or in the query
// string (data7-pix's Sicredi client), or split between them; the client
// authenticated by HTTP Basic or by client_id and client_secret in the
// parameters (both, when they agree); scope narrowing the token. What
// RFC 6749 does not allow (the query string, two authentications) is a
// finding of the request, refused under --strict. Errors are RFC 6749
// §5.2's whatever the dialect.
func (s *Service) TokenHandler(r *http.Request) (*httpx.Reply, error) {
	params, err := tokenParams(r)
	if err != nil {
		return nil, err
	}
	id, secret, basic := r.BasicAuth()
	if basic {
		// RFC 6749 §2.3.1: Basic credentials are form-urlencoded first.
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
		if err := twoAuthentications(r, params, id, secret); err != nil {
			return nil, err
		}
	} else {
		id, secret = params.Get("client_id"), params.Get("client_secret")
		if id == "" {
			return nil, errs.Errorf(errs.Unauthorized, "falta a autenticação do cliente: envie credenciais HTTP Basic ou client_id e client_secret").
				WithType("invalid_client").WithHeader("WWW-Authenticate", `Basic realm="homologa"`)
		}
	}
	switch gt := params.Get("grant_type"); gt {
	case "client_credentials":
	case "":
		return nil, errs.Errorf(errs.Invalid, "grant_type é obrigatório; use client_credentials")
	default:
		return nil, errs.Errorf(errs.Invalid, "grant_type %q não é aceito; use client_credentials", gt).WithType("unsupported_grant_type")
	}
	tok, err := s.issueThrottled(r, id, secret, params.Get("scope"))
	if err != nil {
		return nil, err
	}
	// The interaction log files the request under the app and its company.
	info := httpx.InfoOf(r.Context())
	info.AppID, info.CompanyID, info.At = tok.AppID, tok.CompanyID, s.Clocks.NowOf(tok.CompanyID)
	rep := httpx.OK(tok)
	rep.Header = http.Header{"Cache-Control": {"no-store"}, "Pragma": {"no-cache"}}
	return rep, nil
}

// twoAuthentications checks a request authenticated by HTTP Basic that
// names the client in its parameters too: a client_id must be Basic's;
// a client_secret too, and then the client authenticated twice, which
// RFC 6749 §2.3 forbids and clients do (data7-pix): a finding.
func twoAuthentications(r *http.Request, params url.Values, id, secret string) error {
	if p := params.Get("client_id"); p != "" && p != id {
		return errs.Errorf(errs.Invalid, "o client_id dos parâmetros (%s) não é o da autenticação HTTP Basic (%s)", p, id)
	}
	if !params.Has("client_secret") {
		return nil
	}
	refusal := errs.Errorf(errs.Invalid, "use um só método de autenticação do cliente: HTTP Basic ou client_secret nos parâmetros, não os dois (RFC 6749 §2.3)")
	if subtle.ConstantTimeCompare([]byte(params.Get("client_secret")), []byte(secret)) != 1 {
		return refusal
	}
	return httpx.Tolerate(r.Context(), httpx.Finding{Kind: httpx.FindingTwoClientAuth, Field: "client_secret",
		Detail: "o cliente se autenticou duas vezes, por HTTP Basic e com client_secret nos parâmetros (a RFC 6749 §2.3 pede um só método); aceito porque as credenciais conferem"}, refusal)
}

// tokenParams reads the parameters of a token request: those of its
// body, and those of its query string (queryTokenParams).
func tokenParams(r *http.Request) (url.Values, error) {
	params, err := bodyTokenParams(r)
	if err != nil {
		return nil, err
	}
	return queryTokenParams(r, params)
}

// oauthParams are the parameters of a client-credentials request.
var oauthParams = []string{"grant_type", "client_id", "client_secret", "scope"}

// queryTokenParams adds the OAuth parameters of the request's query
// string to params, as servers in production take them (data7-pix's
// Sicredi client sends all four there, with an empty body): RFC 6749
// §3.2 has them in the body, so they are a finding, refused under
// --strict. A parameter in both places must say the same in both.
func queryTokenParams(r *http.Request, params url.Values) (url.Values, error) {
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, errs.Errorf(errs.Invalid, "query string malformada: %v", err)
	}
	var sent []string
	for _, k := range oauthParams {
		vs, ok := query[k]
		if !ok {
			continue
		}
		if len(vs) > 1 {
			return nil, errs.Errorf(errs.Invalid, "o parâmetro %q está repetido", k)
		}
		if params.Has(k) && params.Get(k) != vs[0] {
			return nil, errs.Errorf(errs.Invalid, "o parâmetro %q vem na query string e no corpo com valores diferentes", k)
		}
		params.Set(k, vs[0])
		sent = append(sent, k)
	}
	if len(sent) == 0 {
		return params, nil
	}
	err = httpx.Tolerate(r.Context(), httpx.Finding{Kind: httpx.FindingTokenInQuery, Field: strings.Join(sent, ","),
		Detail: "os parâmetros " + strings.Join(sent, ", ") + " do pedido de token vieram na query string; a RFC 6749 §3.2 os quer no corpo, e um client_secret na URL fica nos logs de proxies e servidores"},
		errs.Errorf(errs.Invalid, "os parâmetros do pedido de token vão no corpo (RFC 6749 §3.2), não na query string: %s", strings.Join(sent, ", ")))
	return params, err
}

// bodyTokenParams reads the parameters in a token request's body: a form
// (application/x-www-form-urlencoded, RFC 6749 §4.4.2) or a JSON object
// whose values are strings (application/json, what PSP SDKs send). A body
// sent without a Content-Type is read as JSON when it is an object, as a
// form otherwise. A parameter may appear once.
func bodyTokenParams(r *http.Request) (url.Values, error) {
	ct := r.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if ct != "" && mt != "application/x-www-form-urlencoded" && mt != "application/json" {
		return nil, errs.Errorf(errs.Invalid, "o pedido de token deve ser application/x-www-form-urlencoded (RFC 6749 §4.4.2) ou application/json, não %s", ct)
	}
	body, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, err
	}
	if mt == "application/json" || (ct == "" && bytes.HasPrefix(bytes.TrimSpace(body), []byte("{"))) {
		return jsonTokenParams(body)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, errs.Errorf(errs.Invalid, "corpo de formulário malformado: %v", err)
	}
	for k, vs := range form {
		if len(vs) > 1 {
			return nil, errs.Errorf(errs.Invalid, "o parâmetro %q está repetido", k)
		}
	}
	return form, nil
}

// jsonTokenParams reads a JSON token request: an object of strings; an
// empty body is an empty object. scope may also be an array of scopes.
func jsonTokenParams(body []byte) (url.Values, error) {
	params := url.Values{}
	if len(bytes.TrimSpace(body)) == 0 {
		return params, nil
	}
	if err := httpx.CheckSyntax(body); err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, errs.Errorf(errs.Invalid, "o corpo JSON do pedido de token deve ser um objeto, como {\"grant_type\": \"client_credentials\"}")
	}
	for k, v := range obj {
		switch x := v.(type) {
		case string:
			params.Set(k, x)
		case []any:
			if k != "scope" {
				return nil, errs.Errorf(errs.Invalid, "o parâmetro %q deve ser uma string", k)
			}
			var scopes []string
			for _, sc := range x {
				str, ok := sc.(string)
				if !ok {
					return nil, errs.Errorf(errs.Invalid, "scope deve ser uma string de escopos separados por espaço, ou uma lista de strings")
				}
				scopes = append(scopes, str)
			}
			params.Set(k, strings.Join(scopes, " "))
		case nil:
		default:
			return nil, errs.Errorf(errs.Invalid, "o parâmetro %q deve ser uma string", k)
		}
	}
	return params, nil
}

// StreamCompany authenticates the handshake of an app's event stream (the
// token in Authorization or, since a browser cannot set headers on a
// websocket, in ?access_token=) and returns the app's company, whose
// events the stream carries.
func (s *Service) StreamCompany(r *http.Request) (events.Filter, error) {
	tok, ok := BearerToken(r)
	if !ok {
		return events.Filter{}, errs.Errorf(errs.Unauthorized, "falta o token: envie Authorization: Bearer <token> ou ?access_token=<token>")
	}
	p, err := s.Authenticate(r.Context(), tok)
	if err != nil {
		return events.Filter{}, err
	}
	info := httpx.InfoOf(r.Context())
	info.AppID, info.CompanyID = p.AppID, p.CompanyID
	return events.Filter{CompanyID: p.CompanyID}, nil
}
