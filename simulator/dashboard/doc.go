// Package dashboard is the operator's view of the sandbox in a browser: the
// apps, the clock and its buttons, resources by kind, the live event stream,
// deliveries and their replays, the interaction log, scenarios and active
// faults. The page is plain HTML, CSS and JavaScript embedded in the binary
// (no build step) that reads the portal and control APIs like any client.
// The package also serves the two read-only control endpoints only the
// dashboard needed: resources across kinds and the stream of every app.
package dashboard
