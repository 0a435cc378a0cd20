// Package pix is the payment-collection API of the sandbox, faithful to the
// official API Pix 2.9.0 (shared/reference/pix/openapi.yaml): immediate and
// due-date charges, locations and their payloads, received Pix, refunds,
// batches, Pix Automático (recurrences, their requests and charges) and
// webhooks per key, plus the simulated payer of the control API. Every
// resource belongs to a company and lives on that company's clock; the
// simulated payer acts for the caller's company, the operator's for any.
// Each resource is an HTTP file (http_x.go), its rules (x.go) and its SQL
// (store_x.go); the server mounts Routes.
package pix
