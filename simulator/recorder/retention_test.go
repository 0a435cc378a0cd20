package recorder_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"homologa/simulator/recorder"
	"homologa/simulator/retention"
	"homologa/simulator/store"
)

// prune runs one batch of the pruner on rec's log, in a transaction of
// its database.
func prune(t *testing.T, rec *recorder.Recorder, cut retention.Cut) int {
	t.Helper()
	ctx := context.Background()
	var n int
	err := rec.DB.Tx(ctx, func(tx *store.Tx) error {
		var err error
		n, err = rec.Prune(ctx, tx, cut)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPruneInteractions(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	day := func(n int) time.Time { return start.Add(time.Duration(n) * 24 * time.Hour) }
	// Company A makes requests /a/0…/a/2 on day 0 and /a/3, /a/4 on day
	// 5; company B makes /b/0, /b/1 on day 0.
	tests := []struct {
		name    string
		cut     retention.Cut
		want    []string // A's paths kept, oldest first
		deleted int
	}{
		{"age: what A requested before the cut goes", retention.Cut{Company: "A", Before: day(2), Limit: 100}, []string{"/pix/v2/a/3", "/pix/v2/a/4"}, 3},
		{"age: in the order they were made, up to the first the cut keeps", retention.Cut{Company: "A", Before: day(9), Limit: 100}, nil, 5},
		{"cap: A's newest keep stay", retention.Cut{Company: "A", Keep: 2, Limit: 100}, []string{"/pix/v2/a/3", "/pix/v2/a/4"}, 3},
		{"cap: more than A has keeps all", retention.Cut{Company: "A", Keep: 50, Limit: 100}, []string{"/pix/v2/a/0", "/pix/v2/a/1", "/pix/v2/a/2", "/pix/v2/a/3", "/pix/v2/a/4"}, 0},
		{"age then cap", retention.Cut{Company: "A", Before: day(2), Keep: 1, Limit: 100}, []string{"/pix/v2/a/4"}, 4},
		{"a batch deletes at most its limit, oldest first", retention.Cut{Company: "A", Before: day(9), Limit: 2}, []string{"/pix/v2/a/2", "/pix/v2/a/3", "/pix/v2/a/4"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, h := newRecorder(t)
			for _, r := range []struct {
				company string
				day     int
				path    string
			}{{"A", 0, "/pix/v2/a/0"}, {"A", 0, "/pix/v2/a/1"}, {"A", 0, "/pix/v2/a/2"}, {"B", 0, "/pix/v2/b/0"}, {"B", 0, "/pix/v2/b/1"},
				{"A", 5, "/pix/v2/a/3"}, {"A", 5, "/pix/v2/a/4"}} {
				rec.Clocks.Default.Set(day(r.day))
				send(h, "GET", r.path, "", map[string]string{"X-Test-Company": r.company})
			}
			rec.Flush()
			if n := prune(t, rec, tt.cut); n != tt.deleted {
				t.Errorf("deleted %d, want %d", n, tt.deleted)
			}
			a, _ := rec.List(context.Background(), recorder.Filter{CompanyID: "A"})
			var got []string
			for _, it := range a {
				got = append(got, it.Path)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("company A kept %v, want %v", got, tt.want)
			}
			if b, _ := rec.List(context.Background(), recorder.Filter{CompanyID: "B"}); len(b) != 2 {
				t.Errorf("company B kept %d requests, want its 2: a prune of A took B's", len(b))
			}
		})
	}
}

// A company's requests age out in the order they were made: the cut
// stops at the first it keeps, and one made after the clock moved back
// waits behind it.
func TestAgedRequestsGoInTheOrderTheyWereMade(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	day := func(n int) time.Time { return start.Add(time.Duration(n) * 24 * time.Hour) }
	rec, h := newRecorder(t)
	for i, d := range []int{0, 0, 5, 0} {
		rec.Clocks.Default.Set(day(d))
		send(h, "GET", fmt.Sprintf("/pix/v2/a/%d", i), "", map[string]string{"X-Test-Company": "A"})
	}
	rec.Flush()
	for _, c := range []struct {
		before  int
		deleted int
		kept    string
	}{
		{2, 2, "[/pix/v2/a/2 /pix/v2/a/3]"}, // /a/3 is as old as the two that went: it waits behind /a/2
		{2, 0, "[/pix/v2/a/2 /pix/v2/a/3]"},
		{6, 2, "[]"},
	} {
		n := prune(t, rec, retention.Cut{Company: "A", Before: day(c.before), Limit: 100})
		list, _ := rec.List(ctx, recorder.Filter{CompanyID: "A"})
		var got []string
		for _, it := range list {
			got = append(got, it.Path)
		}
		if n != c.deleted || fmt.Sprint(got) != c.kept && !(c.kept == "[]" && len(got) == 0) {
			t.Errorf("cut before day %d deleted %d and kept %v, want %d and %s", c.before, n, got, c.deleted, c.kept)
		}
	}
}

// The writer keeps each company's cap as it writes: the company's oldest
// requests beyond it go in the transaction that records new ones, and
// another company's are not touched. When something else deleted some
// (the pruner's age cut, a reset), the writer counts again: with the
// count it had, it would delete the requests just made.
func TestWriterKeepsTheCapAsItWrites(t *testing.T) {
	ctx := context.Background()
	rec, h := newRecorderKeeping(t, 10)
	start := rec.Clocks.Default.Now()
	paths := func(company string) []string {
		t.Helper()
		list, err := rec.List(ctx, recorder.Filter{CompanyID: company})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, it := range list {
			out = append(out, it.Path)
		}
		return out
	}
	for i := range 25 {
		send(h, "GET", fmt.Sprintf("/pix/v2/a/%d", i), "", map[string]string{"X-Test-Company": "A"})
		if i < 3 {
			send(h, "GET", fmt.Sprintf("/pix/v2/b/%d", i), "", map[string]string{"X-Test-Company": "B"})
		}
	}
	var want []string
	for i := 15; i < 25; i++ {
		want = append(want, fmt.Sprintf("/pix/v2/a/%d", i))
	}
	if got := paths("A"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("company A keeps %v, want its newest 10 %v", got, want)
	}
	if got := paths("B"); len(got) != 3 {
		t.Errorf("company B keeps %v, want its 3", got)
	}

	// The pruner's age cut takes all of A's; A's next requests stay.
	prune(t, rec, retention.Cut{Company: "A", Before: start.Add(time.Hour), Limit: 100})
	for i := range 3 {
		send(h, "GET", fmt.Sprintf("/pix/v2/a/new%d", i), "", map[string]string{"X-Test-Company": "A"})
	}
	if got := paths("A"); fmt.Sprint(got) != "[/pix/v2/a/new0 /pix/v2/a/new1 /pix/v2/a/new2]" {
		t.Errorf("after the age cut, company A keeps %v, want its 3 new requests", got)
	}
	if err := rec.ResetCompany(ctx, "B"); err != nil {
		t.Fatal(err)
	}
	send(h, "GET", "/pix/v2/b/new", "", map[string]string{"X-Test-Company": "B"})
	if got := paths("B"); fmt.Sprint(got) != "[/pix/v2/b/new]" {
		t.Errorf("after a reset, company B keeps %v, want its new request", got)
	}
}

// A log far over a cap lowered since the last start shrinks by at most
// twice what each batch writes (the pruner's batches do the rest), so no
// one transaction deletes the whole excess.
func TestWriterShrinksAnOverfullLogByBatches(t *testing.T) {
	ctx := context.Background()
	rec, h := newRecorderKeeping(t, 5)
	err := rec.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
			INSERT INTO interactions (at, request_id, app_id, api, method, path, query, req_headers, req_body, status, resp_headers, resp_body, duration_us, idempotency_key, company_id)
			SELECT i, 'r' || i, 'app-1', 'pix', 'GET', '/pix/v2/old/' || i, '', '{}', '', 200, '{}', '', 1, '', 'A' FROM n`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	send(h, "GET", "/pix/v2/a/new", "", map[string]string{"X-Test-Company": "A"})
	rec.Flush()
	var n int
	if err := rec.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM interactions WHERE company_id = 'A'`).Scan(&n)
	}); err != nil {
		t.Fatal(err)
	}
	if n != 39 {
		t.Errorf("company A holds %d requests after one more, want 39 (41 less the 2 a one-row batch may delete)", n)
	}
}
