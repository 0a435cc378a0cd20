package scenario

import (
	"context"
	"encoding/json"
	"fmt"

	"homologa/simulator/retention"
	"homologa/simulator/store"
)

// Idle is an SQL condition, true when no running binding drives the
// resource of kind kindSQL and key keySQL (SQL expressions of the
// caller's row): a running binding has a step scheduled on its resource,
// so a domain's retention keeps the resource while it runs. The bindings
// are this package's table; the condition is its to write.
func Idle(kindSQL, keySQL string) string {
	return `NOT EXISTS (SELECT 1 FROM scenario_bindings WHERE kind = ` + kindSQL + ` AND key = ` + keySQL + ` AND status = '` + Running + `')`
}

// bindingPrunable is true of a binding (b) of the company (the first
// parameter) that ended. The newest binding of the sandbox is never
// deleted: its id is where SQLite numbers the next one from, and a
// stale step job of an ended binding must not find a new binding under
// its old id.
const bindingPrunable = `b.app_id IN (SELECT id FROM apps WHERE company_id = ?) AND b.status != '` + Running + `'
	AND b.id < (SELECT MAX(id) FROM scenario_bindings)`

// Prune implements retention.Table for the scenario bindings: a
// company's bindings that ended (done or stopped), those last changed
// before c.Before first, then the oldest beyond its newest c.Keep. A
// running binding stays, whatever its age.
func (e *Engine) Prune(ctx context.Context, tx *store.Tx, c retention.Cut) (int, error) {
	n := 0
	if !c.Before.IsZero() {
		aged, err := store.All(ctx, tx, scanID, `SELECT b.id FROM scenario_bindings b WHERE `+bindingPrunable+` AND b.updated_at < ?
			ORDER BY b.updated_at LIMIT ?`, c.Company, c.Before.UnixNano(), c.Limit)
		if err != nil {
			return 0, fmt.Errorf("aged scenario bindings: %w", err)
		}
		if err := deleteBindings(ctx, tx, aged); err != nil {
			return 0, err
		}
		n += len(aged)
	}
	if c.Keep > 0 && n < c.Limit {
		beyond, err := c.Beyond("scenario_bindings", c.Limit-n,
			func() (int64, bool, error) {
				return retention.Bound(ctx, tx, `SELECT updated_at FROM scenario_bindings WHERE app_id IN (SELECT id FROM apps WHERE company_id = ?)
					ORDER BY updated_at DESC LIMIT 1 OFFSET ?`, c.Company, c.Keep-1)
			},
			func(boundary int64, limit int) (int, error) {
				ids, err := store.All(ctx, tx, scanID, `SELECT b.id FROM scenario_bindings b WHERE `+bindingPrunable+`
					AND b.updated_at < ? ORDER BY b.updated_at LIMIT ?`, c.Company, boundary, limit)
				if err != nil {
					return 0, err
				}
				return len(ids), deleteBindings(ctx, tx, ids)
			})
		n += beyond
		if err != nil {
			return n, fmt.Errorf("scenario bindings beyond the cap: %w", err)
		}
	}
	return n, nil
}

func scanID(r store.Scanner) (int64, error) {
	var v int64
	return v, r.Scan(&v)
}

func deleteBindings(ctx context.Context, tx *store.Tx, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	list, _ := json.Marshal(ids)
	if _, err := tx.ExecContext(ctx, `DELETE FROM scenario_bindings WHERE id IN (SELECT value FROM json_each(?))`, string(list)); err != nil {
		return fmt.Errorf("delete scenario bindings: %w", err)
	}
	return nil
}
