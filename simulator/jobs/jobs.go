package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Job is one unit of scheduled work.
type Job struct {
	ID   int64
	Kind string
	// CompanyID owns the job; its handler runs with the company in its
	// context (package tenant).
	CompanyID string
	Due       time.Time
	Payload   json.RawMessage
	Attempts  int
}

// Handler runs a job. It opens its own transactions: a webhook delivery
// must not hold the database while it waits on the network. The job row is
// deleted after the handler returns nil, so a crash in between runs it again
// and handlers must tolerate running twice.
type Handler func(ctx context.Context, job Job) error

// TxHandler runs a job whose work is one transaction, in tx (HandleInTx).
type TxHandler func(ctx context.Context, tx *store.Tx, job Job) error

// maxAttempts bounds the retries of a job whose handler fails.
const maxAttempts = 5

// Scheduler runs jobs. It is safe for concurrent use.
type Scheduler struct {
	db       *store.DB
	clocks   *clock.Clocks
	log      *slog.Logger
	run      sync.Mutex // held while the line's jobs run, so they never run concurrently
	mu       sync.Mutex
	handlers map[string]Handler
	laned    map[string]bool
	inTx     map[string]bool // kinds whose handler's transaction deletes the job (HandleInTx)
	wake     chan struct{}
	lanes    *lanes
	// ShutdownGrace is how long Run, once its context ends, lets the
	// lanes' jobs in flight finish before it cuts them short (they stay
	// due, and run again at the next start); zero is
	// DefaultShutdownGrace. Set it before Run.
	ShutdownGrace time.Duration
	// AfterMove, when set, runs after a clock was moved by hand, with the
	// scope whose clock it was (one company's own, or the default for the
	// operator's): the server records where the clock stands.
	AfterMove func(ctx context.Context, sc tenant.Scope)

	// jumps are the clock groups' jumps, running or last (jump.go).
	jumps jumps
}

// New returns a scheduler; call Handle for each kind, then Run.
func New(db *store.DB, clocks *clock.Clocks, log *slog.Logger) *Scheduler {
	s := &Scheduler{db: db, clocks: clocks, log: log, handlers: map[string]Handler{}, laned: map[string]bool{}, inTx: map[string]bool{}, wake: make(chan struct{}, 1),
		lanes: newLanes(DefaultLanes, DefaultLanesPerCompany)}
	s.jumps.init()
	clocks.OnChange(s.clockMoved)
	return s
}

// Handle registers the handler of a kind of job, which runs in the line:
// one job at a time, sandbox-wide, in due order.
func (s *Scheduler) Handle(kind string, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[kind] = h
	delete(s.laned, kind)
	delete(s.inTx, kind)
}

// HandleInTx registers the handler of a kind of job, run in the line,
// whose work is one transaction: the scheduler opens it, and the job's
// row is deleted in it. The work and the settling of the job commit
// together (exactly once, where Handle's jobs are at least once), and a
// job costs one transaction instead of two: a year of time travel runs
// tens of thousands of scenario steps and cycle jobs. A handler's error
// rolls its work back and the job is retried as any other.
func (s *Scheduler) HandleInTx(kind string, h TxHandler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[kind] = func(ctx context.Context, j Job) error {
		return s.db.Tx(ctx, func(tx *store.Tx) error {
			if err := h(ctx, tx, j); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE id = ?`, j.ID)
			return err
		})
	}
	delete(s.laned, kind)
	s.inTx[kind] = true
}

// HandleInLanes registers the handler of a kind of job that runs in its
// company's lane, concurrently with the line and with other lanes (see
// lanes.go): its handler must be safe to run beside any other job, and
// must order what needs ordering itself.
func (s *Scheduler) HandleInLanes(kind string, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[kind] = h
	s.laned[kind] = true
	delete(s.inTx, kind)
}

func (s *Scheduler) settledInTx(kind string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inTx[kind]
}

func (s *Scheduler) isLaned(kind string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.laned[kind]
}

// Schedule stores a job due at at, in the caller's transaction: the job
// exists if and only if the change that caused it does. It belongs to the
// company ctx carries and falls due on that company's clock.
func (s *Scheduler) Schedule(ctx context.Context, tx *store.Tx, kind string, at time.Time, payload any) (int64, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return 0, fmt.Errorf("schedule %s: %w", kind, err)
	}
	company, err := tenant.CompanyOf(ctx)
	if err != nil {
		return 0, fmt.Errorf("schedule %s: %w", kind, err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO jobs (kind, due_at, payload, company_id, clock, laned) VALUES (?, ?, ?, ?, ?, ?)`,
		kind, at.UnixNano(), string(b), company, s.group(company), s.isLaned(kind))
	if err != nil {
		return 0, fmt.Errorf("schedule %s: %w", kind, err)
	}
	// Each side is woken for its own jobs only: an advance schedules
	// thousands of the line's, and waking the lanes' dispatcher for each
	// would weigh on time travel.
	if s.isLaned(kind) {
		tx.AfterCommit(s.lanes.poke)
	} else {
		tx.AfterCommit(s.pokeLine)
	}
	return res.LastInsertId()
}

func (s *Scheduler) poke() {
	s.pokeLine()
	s.lanes.poke()
}

func (s *Scheduler) pokeLine() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// clockMoved wakes the line and the lanes after a clock moved; not the
// lanes while an advance holds some of them: the advance sets its clock
// at every job's instant, and the lanes it holds are woken when it ends.
// Another company's lane jobs that fall due meanwhile because its own
// clock moved wait for that, or for their timer; its new deliveries
// still wake the lanes as they are scheduled.
func (s *Scheduler) clockMoved() {
	s.pokeLine()
	if !s.lanes.anyHeld() {
		s.lanes.poke()
	}
}

// group is the clock a company's jobs fall due on: its own clock's group
// (its id) when it has one, defaultGroup when it follows the default.
func (s *Scheduler) group(companyID string) string {
	if s.clocks.Owns(companyID) {
		return companyID
	}
	return defaultGroup
}

// defaultGroup is the clock group of the default clock: the jobs of every
// company that follows it.
const defaultGroup = ""

// Which jobs a query of the scheduler reads: the line's, or every kind
// (an advance, RunDue). The lanes read theirs in lanes.go.
const (
	lineJobs = `SELECT id, kind, company_id, due_at, payload, attempts FROM jobs WHERE laned = 0 AND clock = ? AND due_at <= ? ORDER BY due_at, id LIMIT 1`
	allJobs  = `SELECT id, kind, company_id, due_at, payload, attempts FROM jobs WHERE clock = ? AND due_at <= ? ORDER BY due_at, id LIMIT 1`
)

// next returns the first job of a clock group due at or before until, of
// the line only or of every kind (q).
func (s *Scheduler) next(ctx context.Context, q, group string, until time.Time) (*Job, error) {
	var j Job
	var due int64
	var payload string
	err := s.db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, q, group, until.UnixNano()).Scan(&j.ID, &j.Kind, &j.CompanyID, &due, &payload, &j.Attempts)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("next job: %w", err)
	}
	j.Due, j.Payload = time.Unix(0, due).UTC(), json.RawMessage(payload)
	return &j, nil
}

// RunDue runs every job due now, on every running clock, in order, the
// lanes' kinds included, one at a time, and returns how many ran once all
// have. A frozen clock's jobs wait for it to be moved. (Run runs the line
// and the lanes apart; RunDue is for a caller that wants everything due
// done when it returns.)
func (s *Scheduler) RunDue(ctx context.Context) (int, error) {
	total := 0
	for {
		n, more, err := s.runDue(ctx, allJobs)
		total += n
		if err != nil || !more {
			return total, err
		}
	}
}

// runDue runs a batch of the jobs q reads that are due now on each clock:
// the line's (lineJobs, the run loop) or every kind (allJobs), each clock
// group held from the lanes meanwhile when the lanes' kinds run here. more
// says a group had more due than a batch: the caller gives way, then runs
// another pass, so that a clock racing ahead (a company's at 1,000,000x)
// takes its share of the line and no more.
func (s *Scheduler) runDue(ctx context.Context, q string) (total int, more bool, err error) {
	s.run.Lock()
	start := time.Now()
	defer func() {
		s.run.Unlock()
		if more {
			giveWay(time.Since(start))
		}
	}()
	for _, g := range append([]string{defaultGroup}, s.clocks.Owners()...) {
		if s.jumping(g) {
			continue // its jump runs its jobs, each at its instant
		}
		clk := s.clocks.Of(g)
		release := func() {}
		if q == allJobs {
			release = s.lanes.hold(g)
		}
		n, gmore, err := s.runUntil(ctx, q, g, clk, clk.Now, false)
		release()
		total += n
		more = more || gmore
		if err != nil {
			return total, false, err
		}
	}
	return total, more, nil
}

// clockFor returns the clock a move acts on: the company's own (made from
// the default on its first move, its jobs moving along) or, for the
// operator, the default.
func (s *Scheduler) clockFor(ctx context.Context) (string, *clock.Clock, error) {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return "", nil, err
	}
	company, one := sc.Company()
	if !one {
		return defaultGroup, s.clocks.Default, nil
	}
	clk, created := s.clocks.Own(company)
	if created {
		err := s.db.Tx(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE jobs SET clock = ? WHERE company_id = ? AND clock = ''`, company, company)
			return err
		})
		if err != nil {
			s.clocks.Release(company)
			return "", nil, fmt.Errorf("give company %s its own clock: %w", company, err)
		}
	}
	return company, clk, nil
}

// AdvanceTo moves the clock of the company ctx carries (the default clock
// without one) to target, running each of its jobs due on the way at its
// own instant and in order; it returns once all have run. A target in the
// past only runs what is due now. It is a Jump waited for to its end.
func (s *Scheduler) AdvanceTo(ctx context.Context, target time.Time) (int, error) {
	st, err := s.Jump(ctx, target, Budget{})
	return st.JobsRun, err
}

func (s *Scheduler) moved(ctx context.Context) {
	if s.AfterMove != nil {
		sc, _ := tenant.Of(ctx) // clockFor found one before the move
		s.AfterMove(ctx, sc)
	}
}

// SetTo moves the clock of the company ctx carries to t, forward (running
// its due jobs on the way) or back.
func (s *Scheduler) SetTo(ctx context.Context, t time.Time) (int, error) {
	st, err := s.SetWithin(ctx, t, Budget{})
	return st.JobsRun, err
}

// SetWithin is SetTo within a budget: forward, a Jump waited for as b
// says; back, at once.
func (s *Scheduler) SetWithin(ctx context.Context, t time.Time, b Budget) (JumpState, error) {
	if err := clock.CheckInstant(t); err != nil {
		return JumpState{}, err
	}
	if t.After(s.clocks.Now(ctx)) {
		return s.Jump(ctx, t, b)
	}
	if err := s.moveClock(ctx, func(clk *clock.Clock) { clk.Set(t) }); err != nil {
		return JumpState{}, err
	}
	return JumpState{Target: t, Done: true}, nil
}

// SetMode makes the clock of the company ctx acts for frozen, real or
// accelerated from where it stands.
func (s *Scheduler) SetMode(ctx context.Context, mode clock.Mode, factor float64) error {
	return s.moveClock(ctx, func(clk *clock.Clock) { clk.SetMode(mode, factor) })
}

// moveClock changes the clock of the scope ctx acts for at once, between
// runs of the line, unless a jump is moving it.
func (s *Scheduler) moveClock(ctx context.Context, change func(*clock.Clock)) error {
	s.run.Lock()
	group, clk, err := s.clockFor(ctx)
	if err == nil {
		err = s.notJumping(group)
	}
	if err == nil {
		change(clk)
	}
	s.run.Unlock()
	if err != nil {
		return err
	}
	s.moved(ctx)
	return nil
}

// Release makes a company follow the default clock again (its reset); its
// remaining jobs fall due on the default clock.
func (s *Scheduler) Release(ctx context.Context, companyID string) error {
	s.run.Lock()
	defer s.run.Unlock()
	s.clocks.Release(companyID)
	return s.db.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE jobs SET clock = '' WHERE clock = ?`, companyID)
		return err
	})
}

// runUntil runs a batch of the jobs of a clock group due by until, in
// order: at most batchJobs of them, for at most batchTime. With step, the
// clock is set to each job's instant before it runs. more says the batch
// ended with jobs still due.
func (s *Scheduler) runUntil(ctx context.Context, q, group string, clk *clock.Clock, until func() time.Time, step bool) (n int, more bool, err error) {
	start := time.Now()
	for {
		if err := ctx.Err(); err != nil {
			return n, false, err
		}
		if n >= batchJobs || time.Since(start) >= batchTime {
			return n, true, nil
		}
		j, err := s.next(ctx, q, group, until())
		if err != nil || j == nil {
			return n, false, err
		}
		if step && j.Due.After(clk.Now()) {
			clk.Set(j.Due)
		}
		s.runOne(ctx, *j)
		n++
	}
}

func (s *Scheduler) runOne(ctx context.Context, j Job) {
	h := s.handler(j.Kind)
	var err error
	if h == nil {
		err = fmt.Errorf("no handler for job kind %q", j.Kind)
	} else {
		err = h(tenant.With(ctx, j.CompanyID), j)
	}
	s.settle(ctx, j, h != nil, err)
}

func (s *Scheduler) handler(kind string) Handler {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handlers[kind]
}

// settle deletes a job that ran (or failed for the last time, or has no
// handler), or puts it back a minute or more later to be retried.
func (s *Scheduler) settle(ctx context.Context, j Job, handled bool, err error) {
	if err == nil && s.settledInTx(j.Kind) {
		return // its transaction deleted it
	}
	if err == nil || !handled || j.Attempts+1 >= maxAttempts {
		if err != nil {
			s.log.Error("job dropped", "job", j.ID, "kind", j.Kind, "attempts", j.Attempts+1, "err", err)
		}
		s.exec(ctx, `DELETE FROM jobs WHERE id = ?`, j.ID)
		return
	}
	s.log.Warn("job failed; will retry", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts+1, "err", err)
	retry := s.clocks.NowOf(j.CompanyID).Add(time.Duration(j.Attempts+1) * time.Minute)
	s.exec(ctx, `UPDATE jobs SET attempts = attempts + 1, last_error = ?, due_at = ? WHERE id = ?`, err.Error(), retry.UnixNano(), j.ID)
}

func (s *Scheduler) exec(ctx context.Context, q string, args ...any) {
	// Bookkeeping of a job that ran is done even when ctx has ended:
	// otherwise the job would run again.
	ctx = context.WithoutCancel(ctx)
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	})
	if err != nil {
		s.log.Error("job bookkeeping", "err", err)
	}
}

// Pending returns how many jobs the company ctx acts for has waiting, or
// for the operator how many the whole sandbox has.
func (s *Scheduler) Pending(ctx context.Context) (int, error) {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return 0, err
	}
	company, _ := sc.Company()
	var n int
	err = s.db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE ? OR company_id = ?`, sc.Every(), company).Scan(&n)
	})
	return n, err
}

// Run runs due jobs until ctx ends: whenever one is scheduled, whenever a
// clock moves, and when the next one falls due in wall time on a running
// clock. The line runs here; the lanes run beside it (lanes.go). Once ctx
// ends, Run returns when the lanes' jobs in flight have landed: finished,
// or cut short after ShutdownGrace and left due.
func (s *Scheduler) Run(ctx context.Context) {
	s.syncLaned(ctx)
	flying, abort := context.WithCancel(context.WithoutCancel(ctx))
	defer abort()
	dispatched := make(chan struct{})
	go func() {
		defer close(dispatched)
		s.dispatch(ctx, flying)
	}()
	s.runLine(ctx)
	// Jumps stop between two of their jobs; one waiting for the lanes'
	// flights of its company to land waits no longer than land lets them.
	s.jumps.end()
	<-dispatched
	s.land(abort)
	s.jumps.wg.Wait()
}

// runLine runs the line's due jobs until ctx ends.
func (s *Scheduler) runLine(ctx context.Context) {
	for {
		_, more, err := s.runDue(ctx, lineJobs)
		if err != nil && ctx.Err() == nil {
			s.log.Error("run jobs", "err", err)
		}
		if more {
			continue // it gave way already
		}
		t := time.NewTimer(s.nextWake(ctx))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// nextWake is the wall time until the line's next job falls due on any
// running clock, at most a minute.
func (s *Scheduler) nextWake(ctx context.Context) time.Duration {
	wait := time.Minute
	for _, g := range append([]string{defaultGroup}, s.clocks.Owners()...) {
		if j, err := s.next(ctx, lineJobs, g, time.Unix(0, math.MaxInt64)); err == nil && j != nil {
			if d, ok := s.clocks.Of(g).WallUntil(j.Due); ok {
				wait = min(wait, max(d, time.Millisecond))
			}
		}
	}
	return wait
}

// ResetCompany deletes a company's scheduled jobs (a reset of its
// sandbox).
func (s *Scheduler) ResetCompany(ctx context.Context, tx *store.Tx, companyID string, _ []string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE company_id = ?`, companyID)
	return err
}
