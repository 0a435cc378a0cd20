package jobs_test

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/jobs"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// companies is a scheduler over frozen clocks at start, a "work" kind
// whose handler spends each job's cost, and counts of the jobs each
// company ran.
type companies struct {
	db     *store.DB
	clocks *clock.Clocks
	s      *jobs.Scheduler
	mu     sync.Mutex
	ran    map[string]int
}

func newCompanies(t *testing.T, cost time.Duration) *companies {
	t.Helper()
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &companies{db: db, clocks: clock.NewClocks(clock.New(clock.Frozen, 0, start)), ran: map[string]int{}}
	c.s = jobs.New(db, c.clocks, slog.New(slog.DiscardHandler))
	c.s.Handle("work", func(ctx context.Context, j jobs.Job) error {
		time.Sleep(cost)
		c.mu.Lock()
		c.ran[companyOf(ctx)]++
		c.mu.Unlock()
		return nil
	})
	return c
}

func (c *companies) count(company string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ran[company]
}

// schedule gives company n jobs, one a minute from start.
func (c *companies) schedule(t *testing.T, company string, n int) {
	t.Helper()
	ctx := tenant.With(context.Background(), company)
	err := c.db.Tx(ctx, func(tx *store.Tx) error {
		for i := range n {
			if _, err := c.s.Schedule(ctx, tx, "work", start.Add(time.Duration(i+1)*time.Minute), nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestJumpAnswersWithinItsBudget: a jump through more jobs than its
// caller's budget answers its progress and goes on; meanwhile the clock
// cannot be moved again (a conflict naming the jump), and the jump ends
// with every job run, the clock at its target.
func TestJumpAnswersWithinItsBudget(t *testing.T) {
	c := newCompanies(t, 0)
	c.schedule(t, "A", 3000)
	a := tenant.With(context.Background(), "A")
	target := start.AddDate(1, 0, 0)
	st, err := c.s.Jump(a, target, jobs.Budget{Jobs: 300})
	if err != nil {
		t.Fatal(err)
	}
	if st.Done || st.JobsRun < 300 || st.JobsRun >= 3000 || !st.Target.Equal(target) {
		t.Fatalf("within a budget of 300 jobs: %+v", st)
	}
	if _, err := c.s.Jump(a, target.AddDate(1, 0, 0), jobs.Budget{}); errs.CodeOf(err) != errs.Conflict {
		t.Fatalf("a second jump meanwhile: %v, want a conflict", err)
	}
	if err := c.s.SetMode(a, clock.Real, 1); errs.CodeOf(err) != errs.Conflict {
		t.Fatalf("a mode meanwhile: %v, want a conflict", err)
	}
	if now, ok := c.s.JumpOf("A"); !ok || now.Done {
		t.Fatalf("JumpOf during the jump: %+v %v", now, ok)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, _ = c.s.JumpOf("A")
		if st.Done || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !st.Done || st.JobsRun != 3000 || st.JobsLeft != 0 || c.count("A") != 3000 || !c.clocks.NowOf("A").Equal(target) {
		t.Fatalf("after the jump: %+v, ran %d, clock %v", st, c.count("A"), c.clocks.NowOf("A"))
	}
	if n, err := c.s.AdvanceTo(a, target.Add(time.Hour)); err != nil || n != 0 {
		t.Fatalf("a move once it landed: %d %v", n, err)
	}
}

// TestJumpsGiveWayToOtherCompanies: while A jumps through thousands of
// jobs, B's own small advance runs at once, not after A's.
func TestJumpsGiveWayToOtherCompanies(t *testing.T) {
	c := newCompanies(t, 100*time.Microsecond)
	c.schedule(t, "A", 6000)
	c.schedule(t, "B", 1)
	a, b := tenant.With(context.Background(), "A"), tenant.With(context.Background(), "B")
	if _, err := c.s.Jump(a, start.AddDate(1, 0, 0), jobs.Budget{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if n, err := c.s.AdvanceTo(b, start.Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("B's advance: %d %v", n, err)
	}
	took := time.Since(began)
	if st, _ := c.s.JumpOf("A"); st.Done {
		t.Fatalf("A's jump ended before B's advance returned (%v): %+v; make A's longer", took, st)
	}
	if took > 500*time.Millisecond {
		t.Fatalf("B's advance of one job took %v behind A's jump", took)
	}
}

// TestTheLineGivesWayToARacingClock: a company whose jobs are always due
// (each schedules the next at its clock's now, as a clock at 1,000,000x
// would have them) takes its batch of the line and gives way: another
// company's due job still runs.
func TestTheLineGivesWayToARacingClock(t *testing.T) {
	db, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clocks := clock.NewClocks(clock.New(clock.Frozen, 0, start))
	clocks.Own("A")
	clocks.Own("B")
	s := jobs.New(db, clocks, slog.New(slog.DiscardHandler))
	var racing atomic.Int64
	bRan := make(chan struct{})
	s.Handle("race", func(ctx context.Context, j jobs.Job) error {
		racing.Add(1)
		return db.Tx(ctx, func(tx *store.Tx) error {
			_, err := s.Schedule(ctx, tx, "race", clocks.Now(ctx), nil)
			return err
		})
	})
	s.Handle("b", func(context.Context, jobs.Job) error { close(bRan); return nil })
	for _, j := range []struct{ company, kind string }{{"A", "race"}, {"B", "b"}} {
		ctx := tenant.With(context.Background(), j.company)
		if err := db.Tx(ctx, func(tx *store.Tx) error { _, err := s.Schedule(ctx, tx, j.kind, start, nil); return err }); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	select {
	case <-bRan:
		if racing.Load() == 0 {
			t.Fatal("A's racing jobs never ran")
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("B's due job did not run within 5 s beside A's %d racing jobs", racing.Load())
	}
}

// TestAShutdownStopsAJump: a jump still running when the scheduler stops
// ends between two jobs, the clock where the last one ran, and Run
// returns at once.
func TestAShutdownStopsAJump(t *testing.T) {
	c := newCompanies(t, time.Millisecond)
	c.schedule(t, "A", 5000)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.s.Run(ctx); close(done) }()
	a := tenant.With(context.Background(), "A")
	if _, err := c.s.Jump(a, start.AddDate(1, 0, 0), jobs.Budget{Jobs: 10}); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return within 5 s of its end, a jump running")
	}
	st, _ := c.s.JumpOf("A")
	now := c.clocks.NowOf("A")
	if st.Done || st.Error == "" || st.JobsRun >= 5000 || !now.After(start) || !now.Before(start.AddDate(1, 0, 0)) {
		t.Fatalf("the jump at shutdown: %+v, A's clock %v", st, now)
	}
}
