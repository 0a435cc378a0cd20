// Package tenant carries the company a piece of work belongs to through a
// context: the authenticated app's company for a request, the job's
// company for scheduled work. Time (each company has its own clock),
// scheduled jobs and events follow it.
package tenant

import "context"

type key struct{}

// With returns ctx carrying the company.
func With(ctx context.Context, companyID string) context.Context {
	return context.WithValue(ctx, key{}, companyID)
}

// Of returns the company ctx carries, "" for none (sandbox-wide work).
func Of(ctx context.Context) string {
	c, _ := ctx.Value(key{}).(string)
	return c
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
