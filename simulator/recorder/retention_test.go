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
			var n int
			err := rec.DB.Tx(context.Background(), func(tx *store.Tx) error {
				var err error
				n, err = rec.Prune(context.Background(), tx, tt.cut)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.deleted {
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
