package recorder_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/recorder"
	"homologa/simulator/retention"
	"homologa/simulator/store"
)

// BenchmarkPruneLogPastTheCap is a retention pass over a company whose
// interaction log holds 30,000 recorded GETs (~2 KB each) with a cap of
// 10,000, in the pruner's batches: what keeping the log's cap costs a
// request, reported per row deleted (a row is inserted for ~4 µs of
// SQLite; deleting one, its two index entries and its page, costs
// several times that).
func BenchmarkPruneLogPastTheCap(b *testing.B) {
	ctx := context.Background()
	var rows int
	var took time.Duration
	for b.Loop() {
		b.StopTimer()
		db, err := store.Open(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		rec := &recorder.Recorder{DB: db, Clocks: clock.NewClocks(clock.New(clock.Real, 1, time.Time{})), Log: slog.New(slog.DiscardHandler)}
		rec.Start()
		err = db.Tx(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
				INSERT INTO interactions (at, request_id, app_id, api, method, path, query, req_headers, req_body, status, resp_headers, resp_body, duration_us, idempotency_key, company_id)
				SELECT 1700000000000000000 + i, printf('%024d', i), 'app', 'pix', 'GET', '/pix/v2/cob/x', '', printf('%.300c', 'h'), '', 200,
					printf('%.300c', 'h'), printf('%.1400c', 'b'), 100, '', 'company' FROM n`)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		p := &retention.Pruner{Config: retention.Config{Log: 10000}, Pause: time.Nanosecond, Clocks: rec.Clocks,
			Companies: func(context.Context) ([]string, error) { return []string{"company"}, nil }}
		p.Add("interactions", db, 10000, rec)
		b.StartTimer()
		start := time.Now()
		counts, _, err := p.Pass(ctx)
		took += time.Since(start)
		b.StopTimer()
		if err != nil || counts.Total() != 20000 {
			b.Fatalf("deleted %d: %v", counts.Total(), err)
		}
		rows += counts.Total()
		rec.Close()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(took.Microseconds())/float64(rows), "µs/row")
}
