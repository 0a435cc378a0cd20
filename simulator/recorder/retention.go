package recorder

import (
	"context"
	"fmt"

	"homologa/simulator/retention"
	"homologa/simulator/store"
)

// Prune implements retention.Table for the interaction log, in the log's
// own database: a company's requests made before c.Before on its clock
// go, then the oldest beyond its newest c.Keep (--retention-log), which
// the writer keeps as it writes (capAt): here only what it has not yet
// caught up on, a cap lowered since the last start. The cap is per
// company, where it was once the whole log's: one company's traffic must
// not erase the evidence of another's homologation.
func (r *Recorder) Prune(ctx context.Context, tx *store.Tx, c retention.Cut) (int, error) {
	n := 0
	if !c.Before.IsZero() {
		aged, err := r.pruneAged(ctx, tx, c)
		if err != nil {
			return 0, fmt.Errorf("prune aged interactions: %w", err)
		}
		n += aged
	}
	if c.Keep > 0 && n < c.Limit {
		// The keep-th newest request is the oldest kept.
		beyond, err := c.Beyond("interactions", c.Limit-n,
			func() (int64, bool, error) {
				return retention.Bound(ctx, tx, `SELECT id FROM interactions WHERE company_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?`, c.Company, c.Keep-1)
			},
			func(boundary int64, limit int) (int, error) {
				res, err := tx.ExecContext(ctx, `DELETE FROM interactions WHERE id IN
					(SELECT id FROM interactions WHERE company_id = ? AND id < ? ORDER BY id LIMIT ?)`, c.Company, boundary, limit)
				if err != nil {
					return 0, err
				}
				deleted, err := res.RowsAffected()
				return int(deleted), err
			})
		n += beyond
		if err != nil {
			r.forget(c.Company)
			return n, fmt.Errorf("prune interactions beyond the cap: %w", err)
		}
	}
	if n > 0 {
		r.forget(c.Company)
	}
	return n, nil
}

// pruneAged deletes a company's oldest requests made before c.Before on
// its clock, in the order they were written: it walks them by id and
// stops at the first one the cut keeps. A request made after the
// company's clock moved back waits behind the younger ones before it,
// bounded meanwhile by the cap; an index of requests by their time, which
// every request wrote and every deletion updated, would let it go first
// (migration 0032 dropped it: a creation's log row cost one B-tree
// entry less each way).
func (r *Recorder) pruneAged(ctx context.Context, tx *store.Tx, c retention.Cut) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, at FROM interactions WHERE company_id = ? ORDER BY id LIMIT ?`, c.Company, c.Limit)
	if err != nil {
		return 0, err
	}
	last, aged, before := int64(0), 0, c.Before.UnixNano()
	for rows.Next() {
		var id, at int64
		if err := rows.Scan(&id, &at); err != nil {
			rows.Close()
			return 0, err
		}
		if at >= before {
			break
		}
		last, aged = id, aged+1
	}
	rows.Close()
	if err := rows.Err(); err != nil || aged == 0 {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM interactions WHERE company_id = ? AND id <= ?`, c.Company, last)
	if err != nil {
		return 0, err
	}
	deleted, err := res.RowsAffected()
	return int(deleted), err
}
