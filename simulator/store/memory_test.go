package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"homologa/simulator/store"
)

// Every in-memory database is its own: a test binary opens hundreds, and a
// sandbox two, in one process. A memdb file whose name began with a slash
// would be shared by every connection that names it.
func TestInMemoryDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	a, b := MustOpen(t, ""), MustOpen(t, ":memory:")
	if err := a.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.Exec(`INSERT INTO companies (id, cnpj, name, created_at) VALUES ('only-a', '11222333000181', 'A', 0)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, a, `SELECT COUNT(*) FROM companies WHERE id = 'only-a'`); n != 1 {
		t.Fatalf("a has %d of its own company", n)
	}
	if n := count(t, b, `SELECT COUNT(*) FROM companies WHERE id = 'only-a'`); n != 0 {
		t.Fatalf("b sees a's company (%d rows): the in-memory databases are shared", n)
	}
}

// BenchmarkCommitAsTheDatabaseGrows measures one small write transaction
// on an empty database and on one of ~100 MiB: the two should cost about
// the same. On a ":memory:" database the second cost more, and more as
// the database grew (store.go).
func BenchmarkCommitAsTheDatabaseGrows(b *testing.B) {
	ctx := context.Background()
	body := strings.Repeat("x", 1500)
	for _, rows := range []int{0, 60000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			db := MustOpen(b, "")
			insert := func(tx *store.Tx, i int) error {
				// Ids in no order, as random ids are: the unique index
				// splits in its middle, where SQLite's split renames pages.
				_, err := tx.Exec(`INSERT INTO events (id, app_id, cnpj, type, subject_key, occurred_at, envelope) VALUES (?, 'a', 'c', 't', 'k', 0, ?)`,
					fmt.Sprintf("ev-%08x", uint32(i)*2654435761), body)
				return err
			}
			for i := 0; i < rows; i += 1000 {
				if err := db.Tx(ctx, func(tx *store.Tx) error {
					for j := i; j < i+1000; j++ {
						if err := insert(tx, j); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			i := rows
			for b.Loop() {
				i++
				if err := db.Tx(ctx, func(tx *store.Tx) error { return insert(tx, i) }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
