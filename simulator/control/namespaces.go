package control

import (
	"context"
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/tenant"
)

// NamespaceHeader names the namespace a request's client ids and CNPJs are
// looked up in.
const NamespaceHeader = "X-Homologa-Namespace"

// Namespaces serves the namespaces: POST /sandbox/namespaces makes one
// holding a fresh copy of the demo company, so that a test written as the
// demo app (its credentials, CNPJ, Pix keys and offers) runs on data and a
// clock of its own, as many times and as many at once as wanted, against
// one sandbox.
type Namespaces struct {
	Auth *auth.Service
	// SeedDemo registers the demo account, company and app in the
	// namespace ctx names and answers the app, with its secret, and the
	// account.
	SeedDemo func(ctx context.Context) (auth.App, auth.Account, error)
	// Reset empties a company's sandbox.
	Reset func(ctx context.Context, companyID string) error
}

// Routes is the namespace routes.
func (n *Namespaces) Routes() []httpx.Route {
	return []httpx.Route{
		{API: "sandbox", Method: http.MethodPost, Path: "/namespaces", Auth: httpx.Tenant, Handler: httpx.HandlerFunc(n.create),
			Doc: "a namespace with a fresh copy of the demo account and company (send its id in X-Homologa-Namespace)"},
		{API: "sandbox", Method: http.MethodDelete, Path: "/namespaces/{id}", Auth: httpx.Tenant, Handler: httpx.HandlerFunc(n.remove),
			Doc: "empty a namespace's companies (its maker, a token of one of its apps, or the operator)"},
	}
}

// create is POST /sandbox/namespaces.
// The answer carries the copy's credentials, and a portal API token of
// its account, so a test acts in the portal as the demo account would.
func (n *Namespaces) create(r *http.Request) (*httpx.Reply, error) {
	owner, err := namespaceOwner(r.Context())
	if err != nil {
		return nil, err
	}
	ns, err := n.Auth.CreateNamespace(r.Context(), owner)
	if err != nil {
		return nil, err
	}
	ctx := tenant.WithNamespace(r.Context(), ns)
	demo, acct, err := n.SeedDemo(ctx)
	if err != nil {
		return nil, err
	}
	tok, err := n.Auth.NewCredential(ctx, acct.ID, auth.KindToken, "namespace "+ns)
	if err != nil {
		return nil, err
	}
	rep := httpx.Created(map[string]any{"namespace": ns, "header": NamespaceHeader, "demo": map[string]any{
		"companyId": demo.CompanyID, "cnpj": demo.CNPJ, "clientId": demo.ClientID, "clientSecret": demo.ClientSecret,
		"webhookSecret": demo.WebhookSecret, "webhookUrl": demo.WebhookURL, "email": acct.Email, "portalToken": tok.Token,
	}})
	rep.Header = http.Header{"Cache-Control": {"no-store"}}
	return rep, nil
}

// namespaceOwner names who makes a namespace: the caller's company, or
// "" for the operator (whose namespaces no company owns); a caller of no
// company makes none.
func namespaceOwner(ctx context.Context) (string, error) {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return "", err
	}
	if c, one := sc.Company(); one {
		return "company:" + c, nil
	}
	return "", nil
}

// remove is DELETE /sandbox/namespaces/{id}: every company of the
// namespace starts over empty (its apps and credentials stay, unusable
// once the namespace is forgotten by its test).
func (n *Namespaces) remove(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	mine, err := namespaceOwner(ctx)
	if err != nil {
		return nil, err
	}
	ns := mux.Vars(r)["id"]
	if ok, err := n.Auth.NamespaceExists(ctx, ns); err != nil {
		return nil, err
	} else if !ok || ns == "" {
		return nil, errs.Errorf(errs.NotFound, "não há namespace %q", ns)
	}
	owner, err := n.Auth.NamespaceOwner(ctx, ns)
	if err != nil {
		return nil, err
	}
	if p, ok := auth.PrincipalOf(ctx); ok && p.Namespace != ns && (owner == "" || owner != mine) {
		return nil, errs.Errorf(errs.NotFound, "não há namespace %q", ns)
	}
	companies, err := n.Auth.CompaniesIn(ctx, ns)
	if err != nil {
		return nil, err
	}
	for _, c := range companies {
		if err := n.Reset(ctx, c); err != nil {
			return nil, err
		}
	}
	if err := n.Auth.NamespaceRemoved(ctx, ns); err != nil {
		return nil, err
	}
	return httpx.NoContent(), nil
}

// Middleware puts the namespace a request names (NamespaceHeader) in its
// context; an unknown namespace is refused in the API's dialect.
func (n *Namespaces) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ns := r.Header.Get(NamespaceHeader)
		if ns == "" {
			next.ServeHTTP(w, r)
			return
		}
		ok, err := n.Auth.NamespaceExists(r.Context(), ns)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if !ok {
			httpx.WriteError(w, r, errs.Invalidf(NamespaceHeader, "namespace desconhecido %q: crie um com POST /sandbox/namespaces", ns))
			return
		}
		next.ServeHTTP(w, r.WithContext(tenant.WithNamespace(r.Context(), ns)))
	})
}
