package events

import (
	"context"
	"database/sql"
	"fmt"

	"homologa/simulator/retention"
	"homologa/simulator/store"
)

// eventDone is true of an event (e) none of whose deliveries is still on
// its way: every one delivered, dead or dropped, or none at all. A queued
// or pending delivery has a job, or waits for one, that reads its event.
const eventDone = `NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_seq = e.seq AND d.status IN ('queued', 'pending', 'held'))`

// Prune implements retention.Table for the event log: a company's events
// whose deliveries are all finished go, their deliveries and the
// deliveries' attempts with them, first those that occurred before
// c.Before on the company's clock, then the oldest beyond its newest
// c.Keep. A delivery belongs to its event, so the events' cap bounds the
// deliveries too (one per target of an event, one target in practice).
// Both look at a window of events a batch (retention.Scan): a company
// whose receiver is down keeps thousands of events with deliveries on
// their way, which no batch should read all of.
func (b *Bus) Prune(ctx context.Context, tx *store.Tx, c retention.Cut) (int, error) {
	n := 0
	if !c.Before.IsZero() {
		// In the order the events occurred on the company's stream, up to
		// the first younger than the cut (done -1 stops the scan): an
		// event after the company's clock moved back waits behind the
		// younger ones before it, bounded meanwhile by the cap. An index
		// by time, written by every event, would let it go first
		// (migration 0032 dropped it: a page less in a creation's commit).
		aged, err := retention.Scan(ctx, tx, c, "events/aged", c.Limit, `SELECT e.seq, e.seq,
			CASE WHEN e.occurred_at >= :before THEN -1 ELSE `+eventDone+` END FROM events e
			WHERE e.company_id = :company`, "e.seq", "e.seq",
			sql.Named("company", c.Company), sql.Named("before", c.Before.UnixNano()))
		if err != nil {
			return 0, fmt.Errorf("aged events: %w", err)
		}
		if err := deleteEvents(ctx, tx, aged); err != nil {
			return 0, err
		}
		n += len(aged)
	}
	if c.Keep > 0 && n < c.Limit {
		// The keep-th newest event is the oldest kept.
		beyond, err := c.Beyond("events", c.Limit-n,
			func() (int64, bool, error) {
				return retention.Bound(ctx, tx, `SELECT seq FROM events WHERE company_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?`, c.Company, c.Keep-1)
			},
			func(boundary int64, limit int) (int, error) {
				seqs, err := retention.Scan(ctx, tx, c, "events", limit, `SELECT e.seq, e.seq, `+eventDone+` FROM events e
					WHERE e.company_id = :company AND e.seq < :boundary`, "e.seq", "e.seq",
					sql.Named("company", c.Company), sql.Named("boundary", boundary))
				if err != nil {
					return 0, err
				}
				return len(seqs), deleteEvents(ctx, tx, seqs)
			})
		n += beyond
		if err != nil {
			return n, fmt.Errorf("events beyond the cap: %w", err)
		}
	}
	return n, nil
}

// deleteEvents deletes events and their deliveries; the attempts go by
// their foreign key's cascade.
func deleteEvents(ctx context.Context, tx *store.Tx, seqs []int64) error {
	err := store.DeleteIn(ctx, tx, seqs,
		`DELETE FROM deliveries WHERE event_seq IN (SELECT value FROM json_each(?))`,
		`DELETE FROM events WHERE seq IN (SELECT value FROM json_each(?))`)
	if err != nil {
		return fmt.Errorf("delete events: %w", err)
	}
	return nil
}
