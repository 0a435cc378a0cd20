package sale

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Two codes sent at one instant (a frozen clock) list the later first,
// whatever their random ids: messages.0 is the code to use.
func TestOutboxNewestFirstOnAFrozenClock(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	for _, m := range []outboxMessage{
		{ID: "00000000-0000-4000-8000-000000000001", Code: "111111"},
		{ID: "ffffffff-0000-4000-8000-000000000002", Code: "222222"},
	} {
		m.CompanyID, m.AppID, m.CPF, m.Channel, m.Destination, m.Subject, m.Body, m.CreatedAt = "c1", "a1", "11144477735", "Email", "x", "s", "b", at
		if err := db.Tx(ctx, func(tx *store.Tx) error { return insertOutboxMessage(ctx, tx, &m) }); err != nil {
			t.Fatal(err)
		}
	}
	var got []outboxMessage
	if err := db.Read(ctx, func(tx *store.Tx) error {
		got, err = listOutbox(ctx, tx, outboxFilter{Scope: tenant.Company("c1"), CPF: "11144477735"}, "", outboxLimit)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Code != "222222" {
		t.Fatalf("outbox = %+v, want the later code 222222 first", got)
	}
}
