// Package server assembles the sandbox: it opens the store, starts the
// clocks, the job scheduler, the event bus, the recorder and the pruner,
// declares the route table (every package's routes, Routes) and mounts each
// route under its API's base path wrapped in the rule of its credential
// kind (and held to the schema of its body, httpx.Routed), and runs the
// HTTP server. Main is the homologa command's serve; tests start the same
// Server on 127.0.0.1:0. RouteTable, RouteReference and RouteFor read the
// table without a running sandbox, for the route reference (ROUTES.md),
// the request reference (docs/reference/requests.md) and the harness.
package server
