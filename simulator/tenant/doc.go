// Package tenant carries whom a piece of work is for through its context:
// one company (an authenticated app's request, a company's scheduled job,
// the owner of what the operator acts on) or, for the operator alone,
// every company. Time (each company has its own clock), scheduled jobs,
// events and every query of a company's data follow it.
//
// Tenancy fails closed: a context that carries no company makes Of and
// CompanyOf err, and "every company" is said one way only, by
// WithEveryCompany, where the operator's credential is read (package
// auth). Package archtest keeps both rules: no other package compares a
// company id with "", and no other package grants the operator's scope.
//
// The namespace a request names (a team's world of client ids and CNPJs)
// travels here too.
package tenant
