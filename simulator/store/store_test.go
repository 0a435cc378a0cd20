package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"homologa/simulator/store"
)

// MustOpen opens a database at path ("" for memory) and closes it with the test.
func MustOpen(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func count(t *testing.T, db *store.DB, q string) int {
	t.Helper()
	var n int
	err := db.Read(context.Background(), func(tx *store.Tx) error { return tx.QueryRow(q).Scan(&n) })
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTx(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t, "")
	t.Run("OK", func(t *testing.T) {
		ran := false
		err := db.Tx(ctx, func(tx *store.Tx) error {
			tx.AfterCommit(func() { ran = true })
			_, err := tx.Exec(`INSERT INTO companies (id, cnpj, name, created_at) VALUES ('c1', '11222333000181', 'A', 0)`)
			return err
		})
		if err != nil || !ran {
			t.Fatalf("err=%v afterCommit ran=%v", err, ran)
		}
		if got := count(t, db, `SELECT COUNT(*) FROM companies`); got != 1 {
			t.Fatalf("companies = %d, want 1", got)
		}
	})
	t.Run("ErrRollsBack", func(t *testing.T) {
		ran := false
		boom := errors.New("boom")
		err := db.Tx(ctx, func(tx *store.Tx) error {
			tx.AfterCommit(func() { ran = true })
			if _, err := tx.Exec(`INSERT INTO companies (id, cnpj, name, created_at) VALUES ('c2', '11444777000161', 'B', 0)`); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) || ran {
			t.Fatalf("err=%v afterCommit ran=%v", err, ran)
		}
		if got := count(t, db, `SELECT COUNT(*) FROM companies`); got != 1 {
			t.Fatalf("companies = %d after rollback, want 1", got)
		}
	})
	t.Run("ForeignKeys", func(t *testing.T) {
		err := db.Tx(ctx, func(tx *store.Tx) error {
			_, err := tx.Exec(`INSERT INTO apps (id, company_id, name, client_id, secret_hash, webhook_secret, scopes, environment, created_at, updated_at)
				VALUES ('a', 'no-such-company', 'x', 'x', 'x', 'x', '', 'sandbox', 0, 0)`)
			return err
		})
		if err == nil {
			t.Fatal("an app of a missing company was stored; foreign keys are off")
		}
	})
}

func TestFileDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := db.Read(ctx, func(tx *store.Tx) error { return tx.QueryRow(`PRAGMA journal_mode`).Scan(&mode) }); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal_mode = %q, want wal", mode)
	}
	err = db.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.Exec(`INSERT INTO companies (id, cnpj, name, created_at) VALUES ('c1', '11222333000181', 'A', 0)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	// Reopening applies no migration twice and keeps the data.
	db = MustOpen(t, path)
	if got := count(t, db, `SELECT COUNT(*) FROM companies`); got != 1 {
		t.Fatalf("companies after reopen = %d, want 1", got)
	}
	if got := count(t, db, `SELECT COUNT(*) FROM migrations`); got < 1 {
		t.Fatalf("migrations = %d", got)
	}
}

func TestIDs(t *testing.T) {
	var a, b store.SequentialIDs
	if a.UUID() != b.UUID() || a.Token(8) != b.Token(8) {
		t.Fatal("SequentialIDs is not deterministic")
	}
	u := store.RandomIDs{}.UUID()
	if len(u) != 36 || u[14] != '4' {
		t.Fatalf("UUID %q is not version 4", u)
	}
	if got := len(store.RandomIDs{}.Token(16)); got != 32 {
		t.Fatalf("Token(16) has %d hex characters, want 32", got)
	}
	if got := len((&store.SequentialIDs{}).Token(24)); got != 48 {
		t.Fatalf("SequentialIDs.Token(24) has %d characters, want 48", got)
	}
}

// TestStatusGuard: once a table is guarded, its status changes only inside
// Tx.Move; other columns, inserts and a status written unchanged pass.
func TestStatusGuard(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) error {
		return db.Tx(ctx, func(tx *store.Tx) error { _, err := tx.ExecContext(ctx, q, args...); return err })
	}
	if err := exec(`CREATE TABLE things (id INTEGER PRIMARY KEY, status TEXT NOT NULL, note TEXT)`); err != nil {
		t.Fatal(err)
	}
	if err := db.GuardStatus(ctx, "things"); err != nil {
		t.Fatal(err)
	}
	if err := exec(`INSERT INTO things (id, status) VALUES (1, 'A')`); err != nil {
		t.Fatalf("insert: %v", err)
	}
	if err := exec(`UPDATE things SET note = 'x', status = 'A' WHERE id = 1`); err != nil {
		t.Fatalf("an unchanged status and another column: %v", err)
	}
	err = exec(`UPDATE things SET status = 'B' WHERE id = 1`)
	if err == nil || !strings.Contains(err.Error(), "things.status written outside a state machine") {
		t.Fatalf("status changed outside a move: %v", err)
	}
	err = db.Tx(ctx, func(tx *store.Tx) error {
		return tx.Move(func() error { _, err := tx.ExecContext(ctx, `UPDATE things SET status = 'B' WHERE id = 1`); return err })
	})
	if err != nil {
		t.Fatalf("status changed inside a move: %v", err)
	}
	var st string
	if err := db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT status FROM things WHERE id = 1`).Scan(&st)
	}); err != nil || st != "B" {
		t.Fatalf("status %q, %v", st, err)
	}
}

// A transaction whose request ends half-way (the client hung up) rolls
// back, and the in-memory database, which lives in the one connection,
// keeps everything committed before.
func TestCancelledTransactionKeepsTheDatabase(t *testing.T) {
	db := MustOpen(t, "")
	bg := context.Background()
	if err := db.Tx(bg, func(tx *store.Tx) error {
		_, err := tx.Exec(`CREATE TABLE kept (n INTEGER); INSERT INTO kept VALUES (1)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, run := range []func(context.Context, func(*store.Tx) error) error{db.Tx, db.Read} {
		ctx, cancel := context.WithCancel(bg)
		err := run(ctx, func(tx *store.Tx) error {
			cancel()
			// database/sql watches the context from another goroutine.
			time.Sleep(20 * time.Millisecond)
			_, err := tx.ExecContext(ctx, `INSERT INTO kept VALUES (2)`)
			return err
		})
		if err == nil {
			t.Fatal("a statement on a cancelled context succeeded")
		}
		if n := count(t, db, `SELECT COUNT(*) FROM kept`); n != 1 {
			t.Fatalf("rows after a cancelled transaction = %d, want the 1 committed before", n)
		}
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if err := db.Read(ctx, func(*store.Tx) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("a read on an ended context = %v, want context.Canceled", err)
	}
}

// A read that leaves a result set open, and one that panics with it open,
// give the connection back all the same: the next read and write go on
// (an open set holds a connection, and the sandbox has one).
func TestReadLeavingRowsOpenKeepsTheDatabase(t *testing.T) {
	db := MustOpen(t, "")
	ctx := context.Background()
	leave := func(panics bool) {
		defer func() { recover() }()
		db.Read(ctx, func(tx *store.Tx) error {
			rows, err := tx.QueryContext(ctx, `SELECT name FROM migrations`)
			if err != nil {
				return err
			}
			if panics {
				panic("a bug half-way through the rows")
			}
			rows.Next()
			return nil
		})
	}
	done := make(chan error, 1)
	go func() {
		leave(false)
		leave(true)
		done <- db.Tx(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `CREATE TABLE after_leak (n INTEGER)`)
			return err
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the database is held by a read's open rows")
	}
}

// A write transaction ends clean however fn ends: a panic rolls back
// what it wrote and gives the connection back (net/http recovers a
// handler's panic, and the sandbox goes on), rows left open are closed
// before COMMIT, and a transaction SQLite already rolled back is not
// rolled back twice, nor committed as if it held something.
func TestTxEndsCleanHoweverFnEnds(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t, "")
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.Exec(`CREATE TABLE t (n INTEGER)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	insert := func(tx *store.Tx, n int) error {
		_, err := tx.Exec(`INSERT INTO t VALUES (?)`, n)
		return err
	}
	cases := []struct {
		name    string
		fn      func(tx *store.Tx) error
		wantErr string // "" for none; "panic" for a panic
		want    int    // rows of t afterwards
	}{
		{"commits", func(tx *store.Tx) error { return insert(tx, 1) }, "", 1},
		{"panic rolls back", func(tx *store.Tx) error {
			insert(tx, 2)
			panic("a bug after a write")
		}, "panic", 1},
		{"rows left open", func(tx *store.Tx) error {
			if err := insert(tx, 3); err != nil {
				return err
			}
			rows, err := tx.Query(`SELECT n FROM t`)
			if err != nil {
				return err
			}
			rows.Next()
			return nil
		}, "", 2},
		{"rolled back already, then an error", func(tx *store.Tx) error {
			insert(tx, 4)
			if _, err := tx.Exec(`ROLLBACK`); err != nil {
				return err
			}
			return errors.New("boom")
		}, "boom", 2},
		{"rolled back already, then success", func(tx *store.Tx) error {
			insert(tx, 5)
			_, err := tx.Exec(`ROLLBACK`)
			return err
		}, "no transaction is active", 2},
		{"in use again", func(tx *store.Tx) error { return insert(tx, 6) }, "", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			type result struct {
				err  error
				rows int
			}
			done := make(chan result, 1)
			go func() {
				var r result
				func() {
					defer func() {
						if p := recover(); p != nil {
							r.err = errors.New("panic")
						}
					}()
					r.err = db.Tx(ctx, c.fn)
				}()
				r.rows = -1
				db.Read(ctx, func(tx *store.Tx) error { return tx.QueryRow(`SELECT COUNT(*) FROM t`).Scan(&r.rows) })
				done <- r
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the transaction never gave the connection back")
			}
			switch err := r.err; {
			case c.wantErr == "" && err != nil:
				t.Fatalf("err = %v, want none", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("err = %v, want one saying %q", err, c.wantErr)
			}
			if r.rows != c.want {
				t.Fatalf("rows = %d, want %d", r.rows, c.want)
			}
		})
	}
}
