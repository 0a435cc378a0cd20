package retention_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"homologa/simulator/retention"
	"homologa/simulator/store"
)

// tasks is a table whose rows are done with or not by a column, pruned
// beyond a cap with a windowed scan as the charges are; it records how
// many rows each batch's statement looked at.
type tasks struct {
	looked []int
}

func (ts *tasks) Prune(ctx context.Context, tx *store.Tx, c retention.Cut) (int, error) {
	return c.Beyond("tasks", c.Limit,
		func() (int64, bool, error) {
			return retention.Bound(ctx, tx, `SELECT at FROM tasks ORDER BY at DESC LIMIT 1 OFFSET ?`, c.Keep-1)
		},
		func(boundary int64, limit int) (int, error) {
			before, _ := c.Resume("tasks")
			ids, err := retention.Scan(ctx, tx, c, "tasks", limit, `SELECT id, at, done FROM tasks WHERE at < :boundary`, "at", "id",
				sql.Named("boundary", boundary))
			if err != nil {
				return 0, err
			}
			var looked int
			after, _ := c.Resume("tasks")
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tasks WHERE at < ? AND (at > ? OR (at = ? AND id > ?)) AND (at < ? OR (at = ? AND id <= ?))`,
				boundary, before.At, before.At, before.ID, after.At, after.At, after.ID).Scan(&looked); err != nil {
				return 0, err
			}
			ts.looked = append(ts.looked, looked)
			for _, id := range ids {
				if _, err := tx.ExecContext(ctx, `DELETE FROM tasks WHERE id = ?`, id); err != nil {
					return 0, err
				}
			}
			return len(ids), nil
		})
}

// Below a cap, 1,190 rows that are not done with stand before 30 that
// are: no statement looks at more than a window of rows (one statement
// looked at all of them), the pass goes on past windows that delete
// nothing, deletes exactly the 30, ends, and the rows kept stay. Rows
// share a time in sevens (a frozen clock makes many): the scan's place
// is a time and an id.
func TestScanLooksAtAWindowPerBatch(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE tasks (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, done INTEGER NOT NULL)`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `CREATE INDEX tasks_at ON tasks(at)`); err != nil {
			return err
		}
		for i := range 1230 + 100 {
			done := i >= 1190 && i < 1220
			if _, err := tx.ExecContext(ctx, `INSERT INTO tasks (id, at, done) VALUES (?, ?, ?)`, i+1, i/7, done); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := &tasks{}
	p := &retention.Pruner{Config: retention.Config{Log: 1}, Limit: 10, Pause: time.Microsecond,
		Companies: func(context.Context) ([]string, error) { return nil, nil }}
	p.Add("tasks", db, 100, ts)
	counts, _, err := p.Pass(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if counts["tasks"] != 30 {
		t.Errorf("deleted %d, want the 30 done with", counts["tasks"])
	}
	total := 0
	for i, n := range ts.looked {
		if n > retention.Window {
			t.Errorf("statement %d looked at %d rows, more than a window (%d)", i, n, retention.Window)
		}
		total += n
	}
	// The cap keeps the 100 newest: the boundary is row 1,231's time,
	// 175, and the 1,225 rows before that time are below it.
	if total < 1225 {
		t.Errorf("looked at %d rows in all (%v), want every one below the cap", total, ts.looked)
	}
	var left, done int
	db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(done), 0) FROM tasks`).Scan(&left, &done)
	})
	if left != 1300 || done != 0 {
		t.Errorf("left %d rows, %d of them done with; want 1,300, none", left, done)
	}
}
