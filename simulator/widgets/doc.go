// Package widgets serves the insurer's embeddable widgets (credit card,
// forms, proposal timeline, answer pendings, benefit notice, benefit
// timeline, benefit pending), the host page that embeds them the way a
// partner does, and nothing else: plain HTML, CSS and JavaScript embedded in
// the binary, no build step. Each widget is an iframe that waits for the
// host page to post it a token ({event: "notify", property: "Auth" |
// "access_token" | "Token", value}) and then calls the public APIs with it,
// exactly as the real widgets do (insurance SUMMARY §3.10); it reports
// back to the host page by postMessage.
//
// A widget is a gateway to the partner's customer's card and forms, so
// it trusts nobody but the page that frames it, and only when that page
// is one of the app's (Policy): it takes a token from its parent window
// alone, at one of the app's widget origins (a portal setting), posts its
// results to that origin alone, and its page carries a
// Content-Security-Policy whose frame-ancestors are those origins, with
// scripts from the sandbox itself only. Any origin is allowed on a
// developer's sandbox, for a widget framed for no app or for an app that
// registered none.
package widgets
