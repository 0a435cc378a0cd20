package recorder

import (
	"context"
	"fmt"

	"homologa/simulator/retention"
	"homologa/simulator/store"
)

// Prune implements retention.Table for the interaction log, in the log's
// own database: a company's requests made before c.Before on its clock
// go, then the oldest beyond its newest c.Keep (--retention-log). The cap
// is per company, where it was once the whole log's: one company's
// traffic must not erase the evidence of another's homologation.
func (r *Recorder) Prune(ctx context.Context, tx *store.Tx, c retention.Cut) (int, error) {
	n := 0
	if !c.Before.IsZero() {
		res, err := tx.ExecContext(ctx, `DELETE FROM interactions WHERE id IN
			(SELECT id FROM interactions WHERE company_id = ? AND at < ? ORDER BY at LIMIT ?)`, c.Company, c.Before.UnixNano(), c.Limit)
		if err != nil {
			return 0, fmt.Errorf("prune aged interactions: %w", err)
		}
		aged, _ := res.RowsAffected()
		n += int(aged)
	}
	if c.Keep > 0 && n < c.Limit {
		// The keep-th newest request is the oldest kept; with fewer, the
		// subquery is NULL and nothing is beyond.
		res, err := tx.ExecContext(ctx, `DELETE FROM interactions WHERE id IN
			(SELECT id FROM interactions WHERE company_id = ?
				AND id < (SELECT id FROM interactions WHERE company_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?) ORDER BY id LIMIT ?)`,
			c.Company, c.Company, c.Keep-1, c.Limit-n)
		if err != nil {
			return n, fmt.Errorf("prune interactions beyond the cap: %w", err)
		}
		beyond, _ := res.RowsAffected()
		n += int(beyond)
	}
	return n, nil
}
