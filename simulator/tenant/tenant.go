package tenant

import (
	"context"
	"errors"

	"homologa/simulator/errs"
)

// Scope is whose data a piece of work reads and changes: one company's,
// or every company's (the operator's, sandbox-wide). The zero Scope is
// none, and work that finds none errs: no code reads "no company" as
// "every company".
type Scope struct {
	company string
	every   bool
}

// Company is the scope of one company. An empty id is no company: the
// zero Scope.
func Company(id string) Scope { return Scope{company: id} }

// Named reports whether an id names a company: an empty one names none.
// It is how code outside this package asks (a field a request may leave
// out, a key that must name its company), never by comparing the id with
// "".
func Named(companyID string) bool { return Company(companyID).isOne() }

// Every reports whether the scope is every company's (the operator's).
func (s Scope) Every() bool { return s.every }

// Company returns the scope's one company; one is false for every
// company's scope and for none.
func (s Scope) Company() (id string, one bool) { return s.company, s.isOne() }

// Includes reports whether the scope covers a company's data: every
// company's covers all; one company's covers its own; none covers none.
// A resource of no company (an empty id) is covered by every company's
// scope only.
func (s Scope) Includes(companyID string) bool {
	return s.every || (s.isOne() && s.company == companyID)
}

// Valid reports whether the scope is one company's or every company's.
func (s Scope) Valid() bool { return s.every || s.isOne() }

// String names the scope in logs and errors.
func (s Scope) String() string {
	switch {
	case s.every:
		return "every company"
	case s.isOne():
		return "company " + s.company
	}
	return "no company"
}

// isOne is the one comparison of a company id with the empty string the
// sandbox makes: an archtest keeps every other package from making its
// own, so a forgotten tenant is an error and never a leak.
func (s Scope) isOne() bool { return !s.every && s.company != "" }

type key struct{}

// With returns ctx acting for one company: an authenticated app's, a
// job's, the owner of what the operator acts on. An empty id carries no
// company, and work under it errs.
func With(ctx context.Context, companyID string) context.Context {
	return context.WithValue(ctx, key{}, Company(companyID))
}

// WithScope returns ctx acting for the scope another context acts for:
// work that goes on after a request (a clock's jump) keeps its scope.
func WithScope(ctx context.Context, s Scope) context.Context {
	return context.WithValue(ctx, key{}, s)
}

// WithEveryCompany returns ctx acting for every company: the operator's
// scope. It is decided where a credential is read (package auth, for the
// operator's token) and nowhere else; an archtest keeps it there.
func WithEveryCompany(ctx context.Context) context.Context {
	return context.WithValue(ctx, key{}, Scope{every: true})
}

// ErrNoCompany is what work finds that runs for no company: a request
// whose credential named none, a job of no company. It is a refusal
// (errs.Forbidden) in the called API's dialect, never data.
var ErrNoCompany = errors.New("no company in the context")

// Of returns the scope ctx carries, or an error wrapping ErrNoCompany
// when it carries none.
func Of(ctx context.Context) (Scope, error) {
	s, _ := ctx.Value(key{}).(Scope)
	if !s.Valid() {
		return Scope{}, NoCompany()
	}
	return s, nil
}

// CompanyOf returns the one company ctx acts for; an error when it acts
// for none or for every company (the operator must say which company it
// acts on).
func CompanyOf(ctx context.Context) (string, error) {
	s, err := Of(ctx)
	if err != nil {
		return "", err
	}
	if s.every {
		return "", &errs.Error{Code: errs.Forbidden, Err: ErrNoCompany,
			Message: "o operador age sobre todas as empresas: diga de qual empresa é o recurso"}
	}
	return s.company, nil
}

// NoCompany is the refusal of work that finds no company, wrapping
// ErrNoCompany.
func NoCompany() error {
	return &errs.Error{Code: errs.Forbidden, Err: ErrNoCompany,
		Message: "este pedido não age por nenhuma empresa: envie o token de um app, a credencial do portal ou o token do operador"}
}

type namespaceKey struct{}

// WithNamespace returns ctx carrying the namespace a request names
// (X-Homologa-Namespace): client ids and CNPJs are looked up in it.
func WithNamespace(ctx context.Context, ns string) context.Context {
	return context.WithValue(ctx, namespaceKey{}, ns)
}

// Namespace returns the namespace ctx carries, "" for the sandbox's own.
func Namespace(ctx context.Context) string {
	ns, _ := ctx.Value(namespaceKey{}).(string)
	return ns
}
