package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"homologa/simulator/store"
)

// TestEventsRebuildKeepsRowsSequenceAndDeliveries opens a database made
// before 0031 (events.id UNIQUE) and checks what the rebuild keeps: every
// event, the deliveries that reference them, and the sequence's
// high-water mark above the newest event left (the newest were pruned),
// so no seq is handed out twice; and that the random-id index is gone.
func TestEventsRebuildKeepsRowsSequenceAndDeliveries(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := store.OpenUpTo(ctx, path, "0030_locations_by_charge.sql")
	if err != nil {
		t.Fatal(err)
	}
	err = old.Tx(ctx, func(tx *store.Tx) error {
		for _, q := range []string{
			`INSERT INTO events (seq, id, app_id, cnpj, type, subject_key, occurred_at, envelope, company_id) VALUES
				(1, 'e1', 'app', '11444777000161', 'pix.cob.criada', 'txid:a', 10, '{"seq":1}', 'co'),
				(2, 'e2', 'app', '11444777000161', 'pix.cob.criada', 'txid:b', 20, '{"seq":2}', 'co'),
				(9, 'e9', 'app', '11444777000161', 'pix.cob.criada', 'txid:c', 30, '{"seq":9}', 'co')`,
			`DELETE FROM events WHERE seq = 9`, // pruned: the high-water mark stays 9
			`INSERT INTO deliveries (id, event_seq, app_id, url, body, subject_key, status, created_at, updated_at)
				VALUES ('d1', 2, 'app', 'http://127.0.0.1:1/hook', '{}', 'txid:b', 'delivered', 20, 20)`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, old, `SELECT COUNT(*) FROM sqlite_master WHERE tbl_name = 'events' AND name LIKE 'sqlite_autoindex_%'`); n != 1 {
		t.Fatalf("before 0031 events has %d automatic indexes, want the UNIQUE id's", n)
	}
	old.Close()

	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		what, q string
		want    int
	}{
		{"events kept", `SELECT COUNT(*) FROM events WHERE seq IN (1, 2) AND envelope LIKE '{"seq":%'`, 2},
		{"their company index", `SELECT COUNT(*) FROM events INDEXED BY events_company WHERE company_id = 'co'`, 2},
		{"the high-water mark", `SELECT seq FROM sqlite_sequence WHERE name = 'events'`, 9},
		{"one sequence row", `SELECT COUNT(*) FROM sqlite_sequence WHERE name LIKE 'events%'`, 1},
		{"the delivery's event", `SELECT COUNT(*) FROM deliveries d JOIN events e ON e.seq = d.event_seq`, 1},
		{"no broken reference", `SELECT COUNT(*) FROM pragma_foreign_key_check`, 0},
		{"no index of ids", `SELECT COUNT(*) FROM sqlite_master WHERE tbl_name = 'events' AND name LIKE 'sqlite_autoindex_%'`, 0},
	} {
		if got := count(t, db, c.q); got != c.want {
			t.Errorf("%s: %d, want %d", c.what, got, c.want)
		}
	}
	// A new event without a seq of its own takes one above the mark.
	err = db.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO events (id, app_id, cnpj, type, subject_key, occurred_at, envelope, company_id)
			VALUES ('e10', 'app', '', 't', 'k', 40, '{}', 'co')`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := count(t, db, `SELECT MAX(seq) FROM events`); got != 10 {
		t.Errorf("the next event's seq is %d, want 10", got)
	}
}
