// Package redact keeps secrets out of what the sandbox writes down: the
// interaction log (query strings, headers, bodies) and its own log lines.
// A hosted sandbox is shared; its logs are read by people who must not
// learn a partner's token, client secret, webhook secret, session cookie
// or a customer's card from them. The names are matched without regard
// to case, "-" or "_", so access_token, accessToken and Access-Token are
// one name.
package redact
