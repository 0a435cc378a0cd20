package scenario_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"homologa/simulator/retention"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// binding is a scenario binding of the retention tests: its app (a-… of
// company A, b-… of B), status and last change in days after day 0.
type binding struct {
	app, status string
	day         int
}

func TestPruneBindings(t *testing.T) {
	day0 := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	day := func(n int) time.Time { return day0.Add(time.Duration(n) * 24 * time.Hour) }
	tests := []struct {
		name     string
		bindings []binding
		cut      retention.Cut
		want     []int64 // ids of bindings kept, of every company
		deleted  int
	}{
		{"age: company A's ended bindings go; running ones and B's stay",
			[]binding{{"a-1", "done", 0}, {"a-2", "stopped", 0}, {"a-1", "running", 0}, {"b-1", "done", 0}, {"a-1", "done", 5}, {"b-1", "done", 9}},
			retention.Cut{Company: "A", Before: day(2), Limit: 100}, []int64{3, 4, 5, 6}, 2},
		{"cap: A keeps its newest, across its apps",
			[]binding{{"a-1", "done", 0}, {"a-2", "done", 1}, {"a-1", "done", 2}, {"a-2", "running", 3}, {"b-1", "done", 4}},
			retention.Cut{Company: "A", Keep: 2, Limit: 100}, []int64{3, 4, 5}, 2},
		{"the newest binding of the sandbox stays: its id numbers the next",
			[]binding{{"a-1", "done", 0}, {"a-1", "done", 1}},
			retention.Cut{Company: "A", Before: day(9), Limit: 100}, []int64{2}, 1},
		{"a batch deletes at most its limit, oldest first",
			[]binding{{"a-1", "done", 3}, {"a-1", "done", 0}, {"a-1", "done", 1}, {"a-1", "done", 2}},
			retention.Cut{Company: "A", Before: day(9), Limit: 2}, []int64{1, 4}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := bindingsDB(t, tt.bindings, day0)
			e := &scenario.Engine{DB: db}
			var n int
			if err := db.Tx(ctx, func(tx *store.Tx) error {
				var err error
				n, err = e.Prune(ctx, tx, tt.cut)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if n != tt.deleted {
				t.Errorf("deleted %d, want %d", n, tt.deleted)
			}
			var kept []int64
			db.Read(ctx, func(tx *store.Tx) error {
				var err error
				kept, err = store.Values[int64](ctx, tx, `SELECT id FROM scenario_bindings ORDER BY id`)
				return err
			})
			if fmt.Sprint(kept) != fmt.Sprint(tt.want) {
				t.Errorf("kept %v, want %v", kept, tt.want)
			}
		})
	}
}

// bindingsDB is a database with companies A (apps a-1, a-2) and B (app
// b-1) and the bindings, numbered from 1.
func bindingsDB(t *testing.T, bindings []binding, day0 time.Time) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	err = db.Tx(ctx, func(tx *store.Tx) error {
		for _, q := range []string{
			`INSERT INTO companies (id, cnpj, name, created_at) VALUES ('A', '11222333000181', 'A', 0), ('B', '11444777000161', 'B', 0)`,
			`INSERT INTO apps (id, company_id, name, client_id, secret_hash, webhook_secret, scopes, environment, created_at, updated_at)
				VALUES ('a-1', 'A', 'a1', 'a1', '', '', '', 'sandbox', 0, 0), ('a-2', 'A', 'a2', 'a2', '', '', '', 'sandbox', 0, 0),
				('b-1', 'B', 'b1', 'b1', '', '', '', 'sandbox', 0, 0)`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		for i, b := range bindings {
			at := day0.Add(time.Duration(b.day) * 24 * time.Hour).UnixNano()
			if _, err := tx.ExecContext(ctx, `INSERT INTO scenario_bindings (id, scenario_id, kind, key, ref, app_id, how, seed, next_step, status, log, created_at, updated_at)
				VALUES (?, 's', 'cob', ?, '', ?, 'header', 1, 0, ?, '[]', ?, ?)`, i+1, fmt.Sprint("k", i), b.app, b.status, at, at); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}
