// Package retention bounds what the sandbox keeps, per company: a Pruner
// asks each registered Table to delete the rows of one company that are
// done with and either older than the retention age on that company's
// sandbox clock, or beyond the newest Keep rows. It runs every Every and
// whenever a company's clock is moved (Poke), in batches of at most Limit
// rows per transaction with a pause between them, so a request never waits
// behind a long delete.
//
// What a row "done with" means is its package's: each owns its pruning
// SQL in its retention.go (events: events and their finished deliveries;
// recorder: the interaction log; pix: finished charges with their Pix,
// refunds and locations, and finished Pix without a charge; scenario:
// bindings that ended). What nothing can act on any more goes; a pending
// delivery, an active resource, or one a running scenario binding (the
// one kind of job that acts on a resource) still drives, stays.
//
// Not pruned, on purpose: the insurer's cycles (proposals, enrollments,
// charges, benefits and their timelines reference one another across the
// sale, customer and benefit packages, and an enrollment lives for years
// of sandbox time), Pix Automático (a recurrence lives as long as its
// contract, and its charges, requests and location read one another), Pix
// batches (a batch lists its charges), homologation runs (few, and the
// publish gate reads them), and how a company is set up (apps,
// credentials, keys, webhooks). Idempotency keys and tokens expire where
// they are written.
package retention
