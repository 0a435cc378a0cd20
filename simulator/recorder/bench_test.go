package recorder_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/httpx"
	"homologa/simulator/recorder"
	"homologa/simulator/store"
)

// BenchmarkRequest measures what recording costs a request: "baseline" is
// the same handler behind the same outer middleware, unrecorded;
// "recorded" a log without a cap, "at the cap" a log at its cap, where
// every request recorded deletes the oldest. The writer works beside the
// requests: with GOMAXPROCS=1 its time is theirs.
func BenchmarkRequest(b *testing.B) {
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"txid":"7978c0c97ea847e78e8849634473c1f1","status":"ATIVA","valor":{"original":"123.45"}}`)
	})
	body := `{"calendario":{"expiracao":3600},"valor":{"original":"123.45"},"chave":"7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}`
	run := func(b *testing.B, h http.Handler, rec *recorder.Recorder) {
		b.ReportAllocs()
		for b.Loop() {
			r := httptest.NewRequest(http.MethodPut, "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1", stringsReader(body))
			r.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(httptest.NewRecorder(), r)
		}
		if rec != nil {
			rec.Flush()
		}
	}
	b.Run("baseline", func(b *testing.B) { run(b, httpx.Outer(apis, 0, nil, app), nil) })
	for _, tc := range []struct {
		name string
		keep int
	}{{"recorded", 0}, {"at the cap", 1000}} {
		b.Run(tc.name, func(b *testing.B) {
			db, err := store.Open(context.Background(), "")
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			rec := &recorder.Recorder{DB: db, Clocks: clock.NewClocks(clock.New(clock.Real, 1, time.Time{})), Log: slog.New(slog.DiscardHandler), Keep: tc.keep}
			rec.Start()
			defer rec.Close()
			run(b, httpx.Outer(apis, 0, nil, rec.Middleware(apis, app)), rec)
		})
	}
}
