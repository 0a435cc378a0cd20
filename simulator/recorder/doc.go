// Package recorder keeps the interaction log: every request a partner makes
// and what the sandbox answered, the evidence the homologation harness
// asserts on. The log is a database of its own (in memory for an
// in-memory sandbox, a file beside a sandbox's file), where requests hand
// their record to a channel and one goroutine writes them in batches, so
// recording adds no database write to a request. The writer keeps each
// company's log under its cap in requests and in bytes; the retention
// pruner (retention.go) cuts it by age.
package recorder
