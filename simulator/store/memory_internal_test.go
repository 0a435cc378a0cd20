package store

import (
	"context"
	"strings"
	"testing"
)

// The in-memory database is a memdb file, not ":memory:" (open says why:
// a ":memory:" database's commits walk the whole database after some
// B-tree splits), and its pages are in its reserved region (reservation
// says why): a memdb file's buffer is its serialization, and a
// ":memory:" database has none. Growing by megabytes does not move it.
func TestInMemoryDatabaseIsAMemdbFileInItsRegion(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range 3 {
		in, err := db.inReservation(ctx)
		if err != nil || !in {
			t.Fatalf("after %d MB: in its region %v, %v; a moved buffer, or not a memdb file", 4*i, in, err)
		}
		err = db.Tx(ctx, func(tx *Tx) error {
			_, err := tx.Exec(`INSERT INTO events (id, app_id, cnpj, type, subject_key, occurred_at, envelope) VALUES ('big', 'a', 'c', 't', 'k', 0, ?)`,
				strings.Repeat("x", 4<<20))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A database that fills its region is full, as on a full disk: the write
// fails, what was there stays, the next smaller write goes in. (With
// SQLite's resizeable buffer it would have reallocated memory it does
// not own, and crashed.)
func TestAFullRegionIsAFullDatabase(t *testing.T) {
	ctx := context.Background()
	machine := regionSize
	regionSize = func() int64 { return 2 << 20 }
	db, err := Open(ctx, "")
	regionSize = machine
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	insert := func(id string, n int) error {
		return db.Tx(ctx, func(tx *Tx) error {
			_, err := tx.Exec(`INSERT INTO events (id, app_id, cnpj, type, subject_key, occurred_at, envelope) VALUES (?, 'a', 'c', 't', 'k', 0, ?)`,
				id, strings.Repeat("x", n))
			return err
		})
	}
	if err := insert("too-big", 4<<20); err == nil || !strings.Contains(err.Error(), "full") {
		t.Fatalf("4 MB into a 2 MiB region: %v, want the database full", err)
	}
	if err := insert("small", 1000); err != nil {
		t.Fatalf("a small write after a full one: %v", err)
	}
	var n int
	if err := db.Read(ctx, func(tx *Tx) error { return tx.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n) }); err != nil || n != 1 {
		t.Fatalf("events after: %d, %v; want the small one", n, err)
	}
	if in, err := db.inReservation(ctx); !in || err != nil {
		t.Fatalf("in its region: %v, %v", in, err)
	}
}
