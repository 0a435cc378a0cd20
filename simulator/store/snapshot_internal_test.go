package store

import (
	"context"
	"flag"
	"io/fs"
	"os"
	"path"
	"sort"
	"testing"
)

var update = flag.Bool("update", false, "rewrite schema.sql from the migrations")

// The snapshot a new database is made from is what the migrations make,
// to the byte: a migration added or changed fails here until schema.sql
// is regenerated (-update).
func TestSchemaSnapshot(t *testing.T) {
	ctx := context.Background()
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatal("no migrations", err)
	}
	sort.Strings(names)
	migrated, err := OpenUpTo(ctx, "", path.Base(names[len(names)-1]))
	if err != nil {
		t.Fatal(err)
	}
	defer migrated.Close()
	want, err := dumpSchema(ctx, migrated.db)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("schema.sql", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		schemaSnapshot = want
	}
	if schemaSnapshot != want {
		t.Fatal("schema.sql is not what the migrations make: go test ./simulator/store -run TestSchemaSnapshot -update")
	}
	fresh, err := Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	got, err := dumpSchema(ctx, fresh.db)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("a database made from the snapshot differs from a migrated one:\n%s\n---\n%s", got, want)
	}
}
