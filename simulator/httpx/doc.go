// Package httpx is the HTTP plumbing every API shares: the route table's
// types (Route, its credential kinds), handlers that return values and one
// writer of replies, the status of each error code and its rendering in
// the dialect of the API that was called, JSON decoding with schema
// validation (held, for a routed request, to the schema its route
// declares: Routed), bounded bodies, request turns and the outer
// middleware.
// Every package that serves routes uses it; package server mounts them.
package httpx
