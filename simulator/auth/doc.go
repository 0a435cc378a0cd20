// Package auth is who may call the sandbox and as whom: the companies and
// their apps (the onboarding records), the OAuth2 client-credentials flow
// that turns an app's credentials into bearer tokens with scopes (and, for
// mutual TLS, the client certificates tokens are bound to), the portal's
// accounts with their sessions and API tokens, the operator's token, and
// the throttles that slow down guessing. Its middleware (Require,
// RequireTenant, RequireOperator, RequireAccount) is what the server wraps
// each route in, by the route's credential kind; it is the one place the
// operator's scope of every company is granted (package tenant).
package auth
