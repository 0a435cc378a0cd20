package store

import (
	"context"
	"strings"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// The in-memory database is a memdb file, not ":memory:" (open says why:
// a ":memory:" database's commits walk the whole database after some
// B-tree splits). Only a memdb file has a size limit: set to its present
// size, the next megabyte is refused; a ":memory:" database takes it.
func TestInMemoryDatabaseIsAMemdbFile(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(c any) error {
		return c.(*sqlite3.SQLiteConn).SetFileControlInt64("main", sqliteFcntlSizeLimit, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.ExecContext(ctx, `INSERT INTO events (id, app_id, cnpj, type, subject_key, occurred_at, envelope) VALUES ('big', 'a', 'c', 't', 'k', 0, ?)`,
		strings.Repeat("x", 1<<20))
	if err == nil || !strings.Contains(err.Error(), "full") {
		t.Fatalf(`a megabyte past the size limit: %v; the in-memory database is not a memdb file (a ":memory:" one?)`, err)
	}
}
