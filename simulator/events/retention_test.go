package events_test

import (
	"context"
	"testing"
	"time"

	"homologa/simulator/events"
	"homologa/simulator/retention"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// stored is an event the retention tests made: its company, when it
// occurred (in days after start) and the status of its one delivery ("":
// none).
type stored struct {
	company  string
	day      int
	delivery string
}

// emitAt emits ev's event on day ev.day of the bus's clock, with a
// delivery set to ev.delivery, and returns its sequence.
func emitAt(t *testing.T, b *events.Bus, ev stored) int64 {
	t.Helper()
	ctx := context.Background()
	b.Clocks.Default.Set(start.Add(time.Duration(ev.day) * 24 * time.Hour))
	var env events.Envelope
	err := b.DB.Tx(ctx, func(tx *store.Tx) error {
		var targets []events.Target
		if ev.delivery != "" {
			targets = []events.Target{{URL: "http://127.0.0.1:1/hook", Body: []byte(`{}`)}}
		} else {
			targets = []events.Target{}
		}
		var err error
		env, err = b.Emit(tenant.With(ctx, ev.company), tx, events.Event{AppID: "app", Type: "test.event", Name: "Test", Targets: targets})
		if err != nil || ev.delivery == "" {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE deliveries SET status = ? WHERE event_seq = ?`, ev.delivery, env.Sequence)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return env.Sequence
}

// left lists the sequences of a company's events still stored, and the
// number of deliveries (of every company) and of their attempts.
func left(t *testing.T, b *events.Bus, company string) (seqs []int64, deliveries int) {
	t.Helper()
	err := b.DB.Read(context.Background(), func(tx *store.Tx) error {
		var err error
		seqs, err = store.All(context.Background(), tx, func(r store.Scanner) (int64, error) {
			var v int64
			return v, r.Scan(&v)
		}, `SELECT seq FROM events WHERE company_id = ? ORDER BY seq`, company)
		if err != nil {
			return err
		}
		return tx.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM deliveries`).Scan(&deliveries)
	})
	if err != nil {
		t.Fatal(err)
	}
	return seqs, deliveries
}

func prune(t *testing.T, b *events.Bus, c retention.Cut) int {
	t.Helper()
	var n int
	err := b.DB.Tx(context.Background(), func(tx *store.Tx) error {
		var err error
		n, err = b.Prune(context.Background(), tx, c)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPruneEvents(t *testing.T) {
	day := func(n int) time.Time { return start.Add(time.Duration(n) * 24 * time.Hour) }
	tests := []struct {
		name   string
		events []stored
		cut    retention.Cut
		// want are the indexes (in events) of company A's events kept.
		want    []int
		deleted int
	}{
		{"age: what occurred before the cut goes, on company A only",
			[]stored{{"A", 0, "delivered"}, {"B", 0, "delivered"}, {"A", 1, ""}, {"A", 5, "delivered"}},
			retention.Cut{Company: "A", Before: day(2), Limit: 100}, []int{3}, 2},
		{"age: an event whose delivery is still on its way stays",
			[]stored{{"A", 0, "pending"}, {"A", 0, "queued"}, {"A", 0, "dead"}, {"A", 0, "dropped"}},
			retention.Cut{Company: "A", Before: day(2), Limit: 100}, []int{0, 1}, 2},
		{"age: in the order they occurred, up to the first younger than the cut (the clock moved back)",
			[]stored{{"A", 0, ""}, {"A", 5, ""}, {"A", 0, ""}},
			retention.Cut{Company: "A", Before: day(2), Limit: 100}, []int{1, 2}, 1},
		{"age: past an event still on its way, up to the first younger",
			[]stored{{"A", 0, "pending"}, {"A", 0, ""}, {"A", 5, ""}, {"A", 0, ""}},
			retention.Cut{Company: "A", Before: day(2), Limit: 100}, []int{0, 2, 3}, 1},
		{"cap: the newest keep stay",
			[]stored{{"A", 0, ""}, {"A", 1, "delivered"}, {"B", 1, ""}, {"A", 2, ""}, {"A", 3, ""}},
			retention.Cut{Company: "A", Keep: 2, Limit: 100}, []int{3, 4}, 2},
		{"cap: a pending delivery keeps its event beyond the cap",
			[]stored{{"A", 0, "pending"}, {"A", 1, "delivered"}, {"A", 2, ""}},
			retention.Cut{Company: "A", Keep: 1, Limit: 100}, []int{0, 2}, 1},
		{"cap: fewer events than keep, none go",
			[]stored{{"A", 0, ""}, {"A", 1, ""}},
			retention.Cut{Company: "A", Keep: 5, Limit: 100}, []int{0, 1}, 0},
		{"age and cap together, counted once",
			[]stored{{"A", 0, ""}, {"A", 1, ""}, {"A", 4, ""}, {"A", 5, ""}, {"A", 6, ""}},
			retention.Cut{Company: "A", Before: day(2), Keep: 2, Limit: 100}, []int{3, 4}, 3},
		{"a batch deletes at most its limit, oldest first",
			[]stored{{"A", 0, ""}, {"A", 1, ""}, {"A", 2, ""}, {"A", 3, ""}},
			retention.Cut{Company: "A", Before: day(9), Limit: 3}, []int{3}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := newBus(t, "")
			seqs := map[int]int64{}
			for i, ev := range tt.events {
				seqs[i] = emitAt(t, b, ev)
			}
			if got := prune(t, b, tt.cut); got != tt.deleted {
				t.Errorf("deleted %d, want %d", got, tt.deleted)
			}
			kept, _ := left(t, b, "A")
			var want []int64
			for _, i := range tt.want {
				want = append(want, seqs[i])
			}
			if len(kept) != len(want) {
				t.Fatalf("company A kept %v, want %v", kept, want)
			}
			for i := range want {
				if kept[i] != want[i] {
					t.Fatalf("company A kept %v, want %v", kept, want)
				}
			}
			for i, ev := range tt.events {
				if ev.company == "B" {
					if got, _ := left(t, b, "B"); len(got) == 0 || got[0] != seqs[i] {
						t.Fatalf("company B kept %v: another company's prune took its event", got)
					}
				}
			}
		})
	}
}

// A pruned event takes its deliveries and their attempts along, and the
// sequence goes on after the pruned events, even in a new process.
func TestPrunedEventsTakeTheirDeliveriesAndLeaveTheSequence(t *testing.T) {
	ctx := context.Background()
	b, _ := newBus(t, "")
	seq := emitAt(t, b, stored{"A", 0, "delivered"})
	if err := b.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO delivery_attempts (delivery_id, n, at, wall_at, status_code, latency_us, error, response)
			SELECT id, 1, 0, 0, 200, 1, '', '' FROM deliveries WHERE event_seq = ?`, seq)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := prune(t, b, retention.Cut{Company: "A", Before: start.Add(time.Hour), Limit: 10}); n != 1 {
		t.Fatalf("deleted %d, want 1", n)
	}
	var deliveries, attempts int
	b.DB.Read(ctx, func(tx *store.Tx) error {
		tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM deliveries), (SELECT COUNT(*) FROM delivery_attempts)`).Scan(&deliveries, &attempts)
		return nil
	})
	if deliveries != 0 || attempts != 0 {
		t.Fatalf("left %d deliveries and %d attempts of a pruned event", deliveries, attempts)
	}
	// A bus on the same database that has not emitted yet (a restart)
	// continues after the pruned event, not from the empty table.
	again := &events.Bus{DB: b.DB, Clocks: b.Clocks, Jobs: nil, AppOf: func(context.Context, *store.Tx, string) (events.App, error) { return events.App{}, nil }}
	if next := emitAt(t, again, stored{"A", 1, ""}); next != seq+1 {
		t.Fatalf("after pruning, the next sequence is %d, want %d", next, seq+1)
	}
}
