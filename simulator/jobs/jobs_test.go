package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/jobs"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type ran struct {
	N  int
	At time.Time
}

// operator acts for every company, as the operator's token does: it
// moves the default clock. inCompany is a company that follows it.
var (
	operator  = tenant.WithEveryCompany(context.Background())
	inCompany = tenant.With(context.Background(), "c1")
)

// companyOf is the company a job's handler runs for.
func companyOf(ctx context.Context) string {
	c, _ := tenant.CompanyOf(ctx)
	return c
}

func setup(t *testing.T, path string) (*store.DB, *clock.Clock, *jobs.Scheduler, *[]ran) {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := clock.New(clock.Frozen, 0, start)
	s := jobs.New(db, clock.NewClocks(clk), slog.New(slog.NewTextHandler(io.Discard, nil)))
	var got []ran
	s.Handle("note", func(ctx context.Context, j jobs.Job) error {
		var n int
		json.Unmarshal(j.Payload, &n)
		got = append(got, ran{n, clk.Now()})
		return nil
	})
	return db, clk, s, &got
}

func schedule(t *testing.T, db *store.DB, s *jobs.Scheduler, kind string, at time.Time, n int) {
	t.Helper()
	err := db.Tx(context.Background(), func(tx *store.Tx) error {
		_, err := s.Schedule(inCompany, tx, kind, at, n)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAdvanceRunsEachJobAtItsInstantInOrder(t *testing.T) {
	ctx := operator
	db, clk, s, got := setup(t, "")
	// Scheduled out of order; two at the same instant keep insertion order.
	schedule(t, db, s, "note", start.Add(48*time.Hour), 3)
	schedule(t, db, s, "note", start.Add(time.Hour), 1)
	schedule(t, db, s, "note", start.Add(30*time.Hour), 2)
	schedule(t, db, s, "note", start.Add(30*time.Hour), 22)
	schedule(t, db, s, "note", start.Add(400*24*time.Hour), 4)

	n, err := s.AdvanceTo(ctx, start.Add(48*time.Hour))
	if err != nil || n != 4 {
		t.Fatalf("AdvanceTo ran %d jobs, err %v; want 4", n, err)
	}
	want := []ran{{1, start.Add(time.Hour)}, {2, start.Add(30 * time.Hour)}, {22, start.Add(30 * time.Hour)}, {3, start.Add(48 * time.Hour)}}
	if len(*got) != len(want) {
		t.Fatalf("ran %v, want %v", *got, want)
	}
	for i := range want {
		if (*got)[i].N != want[i].N || !(*got)[i].At.Equal(want[i].At) {
			t.Errorf("job %d: ran %v, want %v", i, (*got)[i], want[i])
		}
	}
	if !clk.Now().Equal(start.Add(48 * time.Hour)) {
		t.Fatalf("clock = %v after advance", clk.Now())
	}
	if p, _ := s.Pending(operator); p != 1 {
		t.Fatalf("pending = %d, want the job of next year", p)
	}
}

func TestJobScheduledByAJobRunsInTheSameAdvance(t *testing.T) {
	ctx := operator
	db, clk, s, got := setup(t, "")
	// A monthly job that schedules its next run: a year of advance runs 12.
	s.Handle("monthly", func(ctx context.Context, j jobs.Job) error {
		*got = append(*got, ran{0, clk.Now()})
		return db.Tx(ctx, func(tx *store.Tx) error {
			_, err := s.Schedule(ctx, tx, "monthly", clk.Now().AddDate(0, 1, 0), 0)
			return err
		})
	})
	schedule(t, db, s, "monthly", start.AddDate(0, 1, 0), 0)
	if _, err := s.AdvanceTo(ctx, start.AddDate(1, 0, 0)); err != nil {
		t.Fatal(err)
	}
	if len(*got) != 12 {
		t.Fatalf("a year of monthly jobs ran %d times, want 12", len(*got))
	}
	if last := (*got)[11].At; !last.Equal(start.AddDate(1, 0, 0)) {
		t.Fatalf("last run at %v", last)
	}
}

func TestFailingJobIsRetriedThenDropped(t *testing.T) {
	ctx := operator
	db, _, s, _ := setup(t, "")
	calls := 0
	s.Handle("flaky", func(ctx context.Context, j jobs.Job) error { calls++; return errors.New("nope") })
	schedule(t, db, s, "flaky", start, 0)
	if _, err := s.AdvanceTo(ctx, start.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if calls != 5 {
		t.Fatalf("a failing job ran %d times, want 5", calls)
	}
	if p, _ := s.Pending(operator); p != 0 {
		t.Fatalf("pending = %d after the last attempt, want 0", p)
	}
}

// A job handled in its transaction keeps its work and loses its row
// together; a failure keeps neither of its work, and retries it.
func TestJobInItsTransactionSettlesWithItsWork(t *testing.T) {
	ctx := operator
	db, _, s, _ := setup(t, "")
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE work (n INTEGER)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	calls := 0
	s.HandleInTx("write", func(ctx context.Context, tx *store.Tx, j jobs.Job) error {
		calls++
		if _, err := tx.ExecContext(ctx, `INSERT INTO work VALUES (?)`, calls); err != nil {
			return err
		}
		var left int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE id = ?`, j.ID).Scan(&left); err != nil || left != 1 {
			t.Errorf("the job's row inside its handler: %d, %v; want it there until the handler returns", left, err)
		}
		if calls < 3 {
			return errors.New("not yet")
		}
		return nil
	})
	schedule(t, db, s, "write", start, 0)
	if _, err := s.AdvanceTo(ctx, start.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if calls != 3 {
		t.Fatalf("the job ran %d times, want 3 (two failures retried)", calls)
	}
	var kept []int
	err := db.Read(ctx, func(tx *store.Tx) error {
		var err error
		kept, err = store.Values[int](ctx, tx, `SELECT n FROM work ORDER BY n`)
		return err
	})
	if err != nil || len(kept) != 1 || kept[0] != 3 {
		t.Fatalf("work kept = %v (%v), want only the successful run's [3]", kept, err)
	}
	if p, _ := s.Pending(operator); p != 0 {
		t.Fatalf("pending = %d after the job succeeded, want 0", p)
	}
}

func TestJobsSurviveARestart(t *testing.T) {
	ctx := operator
	path := filepath.Join(t.TempDir(), "jobs.db")
	db, _, s, _ := setup(t, path)
	schedule(t, db, s, "note", start.Add(time.Hour), 7)
	db.Close()

	_, _, s2, got := setup(t, path)
	if _, err := s2.AdvanceTo(ctx, start.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if len(*got) != 1 || (*got)[0].N != 7 {
		t.Fatalf("after restart ran %v, want job 7", *got)
	}
}

func TestRunLoopRunsJobsDueNow(t *testing.T) {
	db, _, s, got := setup(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	schedule(t, db, s, "note", start, 9)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if p, _ := s.Pending(operator); p == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run loop did not run a job due now on a frozen clock")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if len(*got) != 1 {
		t.Fatalf("ran %v", *got)
	}
}

func TestRunLoopFollowsAnAcceleratedClock(t *testing.T) {
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clk := clock.New(clock.Accelerated, 36000, start) // an hour of sandbox time is 0.1 s
	s := jobs.New(db, clock.NewClocks(clk), slog.New(slog.DiscardHandler))
	ranAt := make(chan time.Time, 1)
	s.Handle("note", func(ctx context.Context, j jobs.Job) error { ranAt <- clk.Now(); return nil })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	due := clk.Now().Add(time.Hour)
	schedule(t, db, s, "note", due, 0)
	select {
	case at := <-ranAt:
		if at.Before(due) || at.After(due.Add(time.Hour)) {
			t.Fatalf("ran at %v, due %v", at, due)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a job due in an hour at 36000x did not run within 5 s")
	}
}

// Advancing company A's clock runs A's jobs, each at its own instant on
// A's clock, and nothing of B's; B's time does not move. A job A scheduled
// before it owned a clock moves with A's clock.
func TestAdvancingOneCompanyLeavesTheOthers(t *testing.T) {
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clocks := clock.NewClocks(clock.New(clock.Frozen, 0, start))
	s := jobs.New(db, clocks, slog.New(slog.DiscardHandler))
	type run struct {
		company string
		n       int
		at      time.Time
	}
	var got []run
	s.Handle("note", func(ctx context.Context, j jobs.Job) error {
		var n int
		json.Unmarshal(j.Payload, &n)
		got = append(got, run{companyOf(ctx), n, clocks.Now(ctx)})
		return nil
	})
	a, b := tenant.With(context.Background(), "A"), tenant.With(context.Background(), "B")
	for _, j := range []struct {
		ctx context.Context
		at  time.Time
		n   int
	}{{a, start.Add(24 * time.Hour), 1}, {b, start.Add(24 * time.Hour), 2}, {a, start.AddDate(0, 6, 0), 3}, {b, start.AddDate(0, 6, 0), 4}} {
		err := db.Tx(j.ctx, func(tx *store.Tx) error { _, err := s.Schedule(j.ctx, tx, "note", j.at, j.n); return err })
		if err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.AdvanceTo(a, start.AddDate(1, 0, 0))
	if err != nil || n != 2 {
		t.Fatalf("advancing A ran %d jobs, err %v; want A's 2", n, err)
	}
	want := []run{{"A", 1, start.Add(24 * time.Hour)}, {"A", 3, start.AddDate(0, 6, 0)}}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("ran %+v, want %+v", got, want)
		}
	}
	if now := clocks.NowOf("B"); !now.Equal(start) {
		t.Fatalf("B's clock moved to %s", now)
	}
	if now := clocks.NowOf("A"); !now.Equal(start.AddDate(1, 0, 0)) {
		t.Fatalf("A's clock is at %s, want a year on", now)
	}
	if left, _ := s.Pending(b); left != 2 {
		t.Fatalf("B has %d jobs left, want its 2", left)
	}
	// The operator moving the default clock moves B (which follows it),
	// not A (which has its own).
	if n, err := s.AdvanceTo(operator, start.Add(48*time.Hour)); err != nil || n != 1 {
		t.Fatalf("advancing the default ran %d jobs, err %v; want B's first", n, err)
	}
	if now := clocks.NowOf("A"); !now.Equal(start.AddDate(1, 0, 0)) {
		t.Fatalf("A's clock moved with the default: %s", now)
	}
}

// A clock instant past the store's range is refused, not wrapped.
func TestAdvanceRefusesTheEndOfTime(t *testing.T) {
	_, _, s, _ := setup(t, "")
	if _, err := s.AdvanceTo(operator, time.Date(2263, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Fatal("advanced to 2263")
	}
}
