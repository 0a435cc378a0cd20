// Package control is the sandbox control API (/sandbox): the clock, the
// interaction log, the delivery log and its replays, test events, the
// built-in webhook inbox, resets, token expiry and namespaces. It is how a
// test or a person makes the sandbox do what production does on its own.
// Every call acts for the company its credential names (an app's token, or
// a portal account's credential for one of its companies) and sees only
// that company's; the operator's token acts on every company. The server
// mounts its routes; the harness and the dashboard are its main callers.
package control
