package jobs

import (
	"context"
	"errors"
	"sync"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Time travel on a budget. A company's jump of its clock (an advance, a
// set forward) runs every job of its clock group due on the way, each at
// its own instant, in order, as it always did; but in batches (at most
// batchJobs jobs or batchTime at once) between which the scheduler's
// lock is let go, and the jump gives way (giveWay), so the line, the
// lanes and other companies' jumps take their turns: a company moving
// to 2199 through 190,000 jobs of its recurrences holds at most a share
// of a processor and of the database, never the sandbox.
//
// A jump runs in the background, on the scheduler's life rather than the
// request's, and the caller waits for it within a Budget: a jump that
// runs its jobs within it answers as before, done; a longer one answers
// its progress (jobs run, jobs still due) and goes on, shown by JumpOf
// (GET /sandbox/clock) until it ends. A company whose jump runs cannot
// move its clock again meanwhile (errs.Conflict).

// Each batch of a jump, or of the line's pass over one clock group, runs
// at most batchJobs jobs for at most batchTime. After a batch that took d,
// the runner waits d/2 (giveWay): a jump takes at most two thirds of a
// processor, and waiters on the scheduler's lock and the database get in.
const (
	batchJobs = 256
	batchTime = 25 * time.Millisecond
)

// giveWay pauses after a batch that took d.
func giveWay(d time.Duration) {
	time.Sleep(max(d/2, 100*time.Microsecond))
}

// Budget is how long a caller of Jump waits for it: until Jobs jobs have
// run or Wait has passed, whichever first; a zero field is no bound (the
// zero Budget waits for the end).
type Budget struct {
	Jobs int
	Wait time.Duration
}

// JumpState is where a jump stands.
type JumpState struct {
	From     time.Time `json:"from"`
	Target   time.Time `json:"target"`
	JobsRun  int       `json:"jobsRun"`
	JobsLeft int       `json:"jobsRemaining"`
	Done     bool      `json:"done"`
	Error    string    `json:"error,omitempty"`
	// StartedAt and EndedAt are wall-clock instants.
	StartedAt time.Time  `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt,omitempty"`
}

// jump is a clock group's jump, running or done.
type jump struct {
	mu   sync.Mutex
	st   JumpState
	done chan struct{}
}

func (j *jump) state() JumpState {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.st
}

// jumps are the scheduler's jumps by clock group, and the life they run
// on: Run ends it at the sandbox's shutdown, and a jump stops between two
// of its jobs, the clock where the last one ran; what was still due runs
// at the next move.
type jumps struct {
	mu      sync.Mutex
	byGroup map[string]*jump
	life    context.Context
	end     context.CancelFunc
	wg      sync.WaitGroup
}

func (js *jumps) init() {
	js.byGroup = map[string]*jump{}
	js.life, js.end = context.WithCancel(context.Background())
}

// running is a clock group's running jump, or nil.
func (s *Scheduler) running(group string) *jump {
	s.jumps.mu.Lock()
	defer s.jumps.mu.Unlock()
	j := s.jumps.byGroup[group]
	if j == nil {
		return nil
	}
	select {
	case <-j.done:
		return nil
	default:
		return j
	}
}

// jumping says whether a clock group's jump runs.
func (s *Scheduler) jumping(group string) bool { return s.running(group) != nil }

// notJumping is the conflict of moving a clock whose jump runs.
func (s *Scheduler) notJumping(group string) error {
	if j := s.running(group); j != nil {
		st := j.state()
		return errs.Errorf(errs.Conflict, "o relógio ainda está saltando para %s (%d tarefas executadas, %d restantes); acompanhe em GET /sandbox/clock e tente quando terminar",
			st.Target.Format(time.RFC3339), st.JobsRun, st.JobsLeft)
	}
	return nil
}

// JumpOf is the running or last jump of the clock a company reads (its
// own, or the default's for "" and companies following it).
func (s *Scheduler) JumpOf(companyID string) (JumpState, bool) {
	s.jumps.mu.Lock()
	defer s.jumps.mu.Unlock()
	j := s.jumps.byGroup[s.group(companyID)]
	if j == nil {
		return JumpState{}, false
	}
	return j.state(), true
}

// Jump moves the clock of the company ctx carries (the default clock
// without one) to target, running each of its jobs due on the way at its
// own instant and in order, in batches that give way to everyone else;
// it waits as b says and answers where the jump stands. A target in the
// past only runs what is due now.
func (s *Scheduler) Jump(ctx context.Context, target time.Time, b Budget) (JumpState, error) {
	if err := clock.CheckInstant(target); err != nil {
		return JumpState{}, err
	}
	j, err := s.startJump(ctx, target)
	if err != nil {
		return JumpState{}, err
	}
	var deadline <-chan time.Time
	if b.Wait > 0 {
		t := time.NewTimer(b.Wait)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-j.done:
			st := j.state()
			if st.Error != "" {
				return st, errors.New(st.Error)
			}
			return st, nil
		case <-deadline:
			return j.state(), nil
		case <-ctx.Done():
			return j.state(), nil // the jump goes on; the caller left
		case <-tick.C:
			if st := j.state(); b.Jobs > 0 && st.JobsRun >= b.Jobs {
				return st, nil
			}
		}
	}
}

// startJump registers a clock group's jump and starts it.
func (s *Scheduler) startJump(ctx context.Context, target time.Time) (*jump, error) {
	s.run.Lock()
	group, clk, err := s.clockFor(ctx)
	s.run.Unlock()
	if err != nil {
		return nil, err
	}
	s.jumps.mu.Lock()
	defer s.jumps.mu.Unlock()
	if j := s.jumps.byGroup[group]; j != nil {
		select {
		case <-j.done:
		default:
			st := j.state()
			return nil, errs.Errorf(errs.Conflict, "o relógio ainda está saltando para %s (%d tarefas executadas, %d restantes); acompanhe em GET /sandbox/clock e tente quando terminar",
				st.Target.Format(time.RFC3339), st.JobsRun, st.JobsLeft)
		}
	}
	j := &jump{st: JumpState{From: clk.Now(), Target: target, StartedAt: time.Now().UTC()}, done: make(chan struct{})}
	s.jumps.byGroup[group] = j
	s.jumps.wg.Add(1)
	sc, _ := tenant.Of(ctx) // clockFor, above, found one
	run := tenant.WithScope(s.jumps.life, sc)
	go func() {
		defer s.jumps.wg.Done()
		s.runJump(run, j, group, clk, target)
	}()
	return j, nil
}

// runJump runs a jump to its end, batch by batch.
func (s *Scheduler) runJump(ctx context.Context, j *jump, group string, clk *clock.Clock, target time.Time) {
	// The jump runs the group's deliveries itself, each at its instant:
	// the lanes leave the group alone meanwhile, and what they have in
	// flight of it lands first.
	var companies []string
	if sc, _ := tenant.Of(ctx); !sc.Every() {
		companies = append(companies, group)
	}
	release := s.lanes.hold(group, companies...)
	var err error
	counted := time.Time{}
	for {
		// What is still due is counted again every second: the jobs that
		// run schedule more (a month's charge, the next), so no count
		// made once says how many are left.
		if time.Since(counted) > time.Second {
			left := s.dueBy(ctx, group, target)
			j.mu.Lock()
			j.st.JobsLeft = left
			j.mu.Unlock()
			counted = time.Now()
		}
		s.run.Lock()
		began := time.Now()
		var n int
		var more bool
		n, more, err = s.runUntil(ctx, allJobs, group, clk, func() time.Time { return target }, true)
		if err == nil && !more && target.After(clk.Now()) {
			clk.Set(target)
		}
		s.run.Unlock()
		j.mu.Lock()
		j.st.JobsRun += n
		j.mu.Unlock()
		if err != nil || !more {
			break
		}
		giveWay(time.Since(began))
	}
	release()
	// Where the clock stands is recorded before any waiter hears the
	// jump ended.
	s.moved(context.WithoutCancel(ctx))
	end := time.Now().UTC()
	j.mu.Lock()
	j.st.EndedAt = &end
	if err != nil {
		j.st.Error = err.Error()
	} else {
		j.st.Done, j.st.JobsLeft = true, 0
	}
	j.mu.Unlock()
	close(j.done)
}

// dueBy counts a clock group's jobs due by target: what a jump still has
// to run, as far as is known (jobs it runs schedule more).
func (s *Scheduler) dueBy(ctx context.Context, group string, target time.Time) int {
	var n int
	err := s.db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE clock = ? AND due_at <= ?`, group, target.UnixNano()).Scan(&n)
	})
	if err != nil {
		return 0
	}
	return n
}
