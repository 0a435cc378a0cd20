// Package errs is the one error value of the sandbox's domains: a code that
// classifies it, the dialect's own name for it, a message and the bad
// fields. Domains, state machines, events and scenarios return it without
// knowing HTTP; package httpx maps its code to a status and renders it in
// the dialect of the API that was called.
package errs
