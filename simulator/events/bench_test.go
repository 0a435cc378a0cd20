package events_test

import (
	"context"
	"fmt"
	"testing"

	"homologa/simulator/events"
	"homologa/simulator/store"
)

// BenchmarkEmit measures writing an event in the transaction of its change:
// "baseline" is an empty transaction, "event" adds the outbox row, and
// "event+delivery" adds a webhook delivery and its job.
func BenchmarkEmit(b *testing.B) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		url  string
		emit bool
	}{{"baseline", "", false}, {"event", "", true}, {"event+delivery", "http://127.0.0.1:9/hooks", true}} {
		b.Run(tc.name, func(b *testing.B) {
			bus, _ := newBus(b, tc.url)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				err := bus.DB.Tx(ctx, func(tx *store.Tx) error {
					if !tc.emit {
						return nil
					}
					_, err := bus.Emit(ctx, tx, events.Event{AppID: "app", CNPJ: "11222333000181", Type: "test.event", Name: "Test",
						Subject: map[string]any{"n": i}, SubjectKey: fmt.Sprint("s", i%100)})
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
