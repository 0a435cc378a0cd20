package recorder_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/httpx"
	"homologa/simulator/recorder"
	"homologa/simulator/store"
)

// newBoundedRecorder records in log with bodies kept up to bodyLimit and
// a company's log held to keepBytes; its app answers 400 with a body of
// answer bytes.
func newBoundedRecorder(t *testing.T, bodyLimit int, keepBytes int, answer int) (*recorder.Recorder, http.Handler) {
	t.Helper()
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rec := &recorder.Recorder{DB: db, Clocks: clock.NewClocks(clock.New(clock.Frozen, 0, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))),
		Log: slog.New(slog.DiscardHandler), BodyLimit: bodyLimit, MaxBytes: keepBytes}
	rec.Start()
	t.Cleanup(rec.Close)
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		httpx.InfoOf(r.Context()).CompanyID = r.Header.Get("X-Test-Company")
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(400)
		io.WriteString(w, strings.Repeat("r", answer))
	})
	return rec, httpx.Outer(apis, 0, nil, rec.Middleware(apis, app))
}

// TestLongBodiesAreKeptCutAndMarked: a body past the log's bound is kept
// up to it, and listed with the size it had.
func TestLongBodiesAreKeptCutAndMarked(t *testing.T) {
	{
		rec, h := newBoundedRecorder(t, 1024, 0, 5000)
		send(h, "PUT", "/pix/v2/cob/abc", strings.Repeat("x", 900_000), map[string]string{"Content-Type": "text/plain"})
		send(h, "PUT", "/pix/v2/cob/abd", "short", map[string]string{"Content-Type": "text/plain"})
		list, err := rec.List(context.Background(), recorder.Filter{})
		if err != nil || len(list) != 2 {
			t.Fatalf("%d interactions, %v", len(list), err)
		}
		long, short := list[0], list[1]
		if len(long.RequestBody) != 1024 || len(long.ResponseBody) != 1024 || long.Truncated["requestBody"] != 900_000 || long.Truncated["responseBody"] != 5000 {
			t.Fatalf("the long one: bodies of %d and %d bytes, truncated %v", len(long.RequestBody), len(long.ResponseBody), long.Truncated)
		}
		if _, cut := short.Truncated["requestBody"]; short.RequestBody != "short" || cut {
			t.Fatalf("the short one: %q %v", short.RequestBody, short.Truncated)
		}
	}
}

// TestACompanysLogIsBoundedInBytes is hole 3's log: requests of 900 KB,
// each refused, grew a company's log by ~1 MB each up to the cap of
// 50,000 requests. Now bodies are kept cut at the bound and a company's
// log holds at most its bytes, its own oldest requests going first;
// another company's log is untouched.
func TestACompanysLogIsBoundedInBytes(t *testing.T) {
	{
		const limit = 256 << 10
		rec, h := newBoundedRecorder(t, 8<<10, limit, 200)
		send(h, "PUT", "/pix/v2/cob/other", "B's request", map[string]string{"X-Test-Company": "B", "Content-Type": "text/plain"})
		big := strings.Repeat("x", 900_000)
		for range 200 {
			send(h, "PUT", "/pix/v2/cob/abc", big, map[string]string{"X-Test-Company": "A", "Content-Type": "text/plain"})
		}
		a, err := rec.List(context.Background(), recorder.Filter{CompanyID: "A", Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		size := 0
		for _, it := range a {
			size += len(it.RequestBody) + len(it.ResponseBody)
		}
		// 200 requests of 8 KiB kept are 1.6 MB; the bound keeps ~30.
		if size > limit || len(a) < 10 || len(a) > 40 {
			t.Fatalf("A's log holds %d requests, %d bytes of bodies; want at most %d bytes", len(a), size, limit)
		}
		if b, _ := rec.List(context.Background(), recorder.Filter{CompanyID: "B"}); len(b) != 1 {
			t.Fatalf("B's log: %d requests, want its 1", len(b))
		}
	}
}
