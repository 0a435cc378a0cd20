// Package archtest holds the tests that keep the shape of the code, run by
// `make test` like any other: each domain resource in an HTTP file that
// only decodes and replies, an operation file with its rules, and a store
// file with its SQL; short functions; tenancy that fails closed (no
// company id compared with "" outside package tenant, the operator's scope
// granted only by package auth); dependencies through their public APIs
// only; no build output tracked by git; no code copied. It has no code of
// its own: only tests.
package archtest
