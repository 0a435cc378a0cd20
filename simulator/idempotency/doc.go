// Package idempotency makes creating POSTs safe to retry: a request that
// carries an Idempotency-Key is answered once, and a retry with the same key
// and the same request gets the stored answer (Idempotent-Replayed: true)
// instead of doing the work twice. The same key with another request is a
// client bug and gets a 422. Keys live 24 hours of sandbox time.
package idempotency
