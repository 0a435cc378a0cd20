package jobs_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/jobs"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// laneRig is a scheduler on a frozen clock with a lane kind, "hook",
// whose handler reports each start and then waits for its release (or
// for its context to end).
type laneRig struct {
	db      *store.DB
	clocks  *clock.Clocks
	s       *jobs.Scheduler
	started chan int
	mu      sync.Mutex
	release map[int]chan struct{}
	done    chan int
}

func newLaneRig(t *testing.T, path string) *laneRig {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := &laneRig{db: db, clocks: clock.NewClocks(clock.New(clock.Frozen, 0, start)), started: make(chan int, 100),
		release: map[int]chan struct{}{}, done: make(chan int, 100)}
	r.s = jobs.New(db, r.clocks, slog.New(slog.DiscardHandler))
	r.s.HandleInLanes("hook", func(ctx context.Context, j jobs.Job) error {
		var n int
		json.Unmarshal(j.Payload, &n)
		r.started <- n
		select {
		case <-r.gate(n):
		case <-ctx.Done():
			return ctx.Err()
		}
		r.done <- n
		return nil
	})
	return r
}

// gate is the channel that lets job n finish.
func (r *laneRig) gate(n int) chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.release[n] == nil {
		r.release[n] = make(chan struct{})
	}
	return r.release[n]
}

func (r *laneRig) schedule(t *testing.T, company string, n int) {
	t.Helper()
	ctx := tenant.With(context.Background(), company)
	err := r.db.Tx(ctx, func(tx *store.Tx) error {
		_, err := r.s.Schedule(ctx, tx, "hook", r.clocks.NowOf(company), n)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run starts the run loop; stop ends it and returns once Run has.
func (r *laneRig) run() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.s.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}

func expect(t *testing.T, ch chan int, what string) int {
	t.Helper()
	select {
	case n := <-ch:
		return n
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		return 0
	}
}

func expectNone(t *testing.T, ch chan int, what string) {
	t.Helper()
	select {
	case n := <-ch:
		t.Fatalf("%s: job %d", what, n)
	case <-time.After(100 * time.Millisecond):
	}
}

// A company whose lane is full (its receivers hang) holds its own lane
// only: another company's job starts at once, and the full lane's next
// job starts when one of its flights lands.
func TestLanesKeepACompanyStuckToItself(t *testing.T) {
	r := newLaneRig(t, "")
	r.s.Lanes(8, 2)
	stop := r.run()
	defer stop()
	for n := 1; n <= 3; n++ {
		r.schedule(t, "A", n)
	}
	a1, a2 := expect(t, r.started, "A's first flight"), expect(t, r.started, "A's second flight")
	expectNone(t, r.started, "a third flight in A's lane of 2")
	r.schedule(t, "B", 10)
	if n := expect(t, r.started, "B's job"); n != 10 {
		t.Fatalf("started %d, want B's 10 while A's lane is full", n)
	}
	close(r.gate(a1))
	expect(t, r.done, "A's first flight landing")
	if n := expect(t, r.started, "A's third job"); n != 3 {
		t.Fatalf("started %d, want A's 3 once A had room", n)
	}
	for _, n := range []int{a2, 3, 10} {
		close(r.gate(n))
	}
	for range 3 {
		expect(t, r.done, "the rest landing")
	}
	deadline := time.Now().Add(5 * time.Second)
	for p, _ := r.s.Pending(operator); p != 0; p, _ = r.s.Pending(operator) {
		if time.Now().After(deadline) {
			t.Fatalf("%d jobs left after every flight landed", p)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The lanes hold no more than their total in flight, whatever the
// companies.
func TestLanesBoundTheFlightsInAll(t *testing.T) {
	r := newLaneRig(t, "")
	r.s.Lanes(3, 2)
	stop := r.run()
	defer stop()
	for i, c := range []string{"A", "B", "C", "D"} {
		r.schedule(t, c, i+1)
	}
	var got []int
	for range 3 {
		got = append(got, expect(t, r.started, "a flight"))
	}
	expectNone(t, r.started, "a fourth flight with 3 in all")
	close(r.gate(got[0]))
	expect(t, r.started, "the fourth, once one landed")
	for n := 1; n <= 4; n++ {
		if n != got[0] {
			close(r.gate(n))
		}
	}
}

// An advance of a company's clock waits for the company's flights to
// land, and runs its due lane jobs itself, in order, each at its instant.
func TestAdvanceRunsTheLaneJobsOfItsCompanyItself(t *testing.T) {
	r := newLaneRig(t, "")
	stop := r.run()
	defer stop()
	r.schedule(t, "A", 1)
	expect(t, r.started, "A's job flying")
	ctx := tenant.With(context.Background(), "A")
	for _, n := range []int{2, 3} {
		at := start.Add(time.Duration(n) * time.Minute)
		err := r.db.Tx(ctx, func(tx *store.Tx) error { _, err := r.s.Schedule(ctx, tx, "hook", at, n); return err })
		if err != nil {
			t.Fatal(err)
		}
		close(r.gate(n))
	}
	advanced := make(chan int, 1)
	go func() {
		n, err := r.s.AdvanceTo(ctx, start.Add(time.Hour))
		if err != nil {
			t.Error(err)
		}
		advanced <- n
	}()
	select {
	case <-advanced:
		t.Fatal("the advance did not wait for A's flight")
	case <-time.After(100 * time.Millisecond):
	}
	close(r.gate(1))
	if n := expect(t, advanced, "the advance"); n != 2 {
		t.Fatalf("the advance ran %d jobs, want A's 2 and 3", n)
	}
	var order []int
	for range 3 {
		order = append(order, expect(t, r.done, "a job done"))
	}
	if order[0] != 1 || order[1] != 2 || order[2] != 3 {
		t.Fatalf("done in order %v, want [1 2 3]", order)
	}
}

// A shutdown lets a flight that lands within the grace settle, and cuts
// one that does not short: its job stays, due, untouched, and runs at the
// next start.
func TestShutdownLeavesAFlightCutShortDue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lanes.db")
	r := newLaneRig(t, path)
	r.s.ShutdownGrace = 200 * time.Millisecond
	stop := r.run()
	r.schedule(t, "A", 1)
	r.schedule(t, "B", 2)
	expect(t, r.started, "a flight")
	expect(t, r.started, "another flight")
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	time.Sleep(50 * time.Millisecond)
	close(r.gate(1)) // lands within the grace
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its grace")
	}
	var left []int
	var attempts int
	err := r.db.Read(context.Background(), func(tx *store.Tx) error {
		rows, err := tx.Query(`SELECT payload, attempts FROM jobs ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p string
			var a int
			rows.Scan(&p, &a)
			var n int
			json.Unmarshal([]byte(p), &n)
			left, attempts = append(left, n), attempts+a
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0] != 2 || attempts != 0 {
		t.Fatalf("jobs left %v with %d attempts, want job 2 alone, untouched", left, attempts)
	}
	r.db.Close()

	r2 := newLaneRig(t, path)
	close(r2.gate(2))
	stop2 := r2.run()
	defer stop2()
	if n := expect(t, r2.done, "the job cut short, at the next start"); n != 2 {
		t.Fatalf("ran %d after the restart, want 2", n)
	}
}
