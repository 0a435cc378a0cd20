// Package jobs runs scheduled work on the sandbox clock. Jobs live in the
// database, so a restart loses none; they run one at a time in due order,
// and advancing the clock runs every job due in the window, each at its own
// instant.
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
)

// Job is one unit of scheduled work.
type Job struct {
	ID       int64
	Kind     string
	Due      time.Time
	Payload  json.RawMessage
	Attempts int
}

// Handler runs a job. It opens its own transactions: a webhook delivery
// must not hold the database while it waits on the network. The job row is
// deleted after the handler returns nil, so a crash in between runs it again
// and handlers must tolerate running twice.
type Handler func(ctx context.Context, job Job) error

// maxAttempts bounds the retries of a job whose handler fails.
const maxAttempts = 5

// Scheduler runs jobs. It is safe for concurrent use.
type Scheduler struct {
	db       *store.DB
	clock    *clock.Clock
	log      *slog.Logger
	run      sync.Mutex // held while jobs run, so they never run concurrently
	mu       sync.Mutex
	handlers map[string]Handler
	wake     chan struct{}
	// AfterMove, when set, runs after AdvanceTo and SetTo have moved the
	// clock by hand (the server records where the clock stands).
	AfterMove func(ctx context.Context)
}

// New returns a scheduler; call Handle for each kind, then Run.
func New(db *store.DB, clk *clock.Clock, log *slog.Logger) *Scheduler {
	s := &Scheduler{db: db, clock: clk, log: log, handlers: map[string]Handler{}, wake: make(chan struct{}, 1)}
	clk.OnChange(s.poke)
	return s
}

// Handle registers the handler of a kind of job.
func (s *Scheduler) Handle(kind string, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[kind] = h
}

// Schedule stores a job due at at, in the caller's transaction: the job
// exists if and only if the change that caused it does.
func (s *Scheduler) Schedule(ctx context.Context, tx *store.Tx, kind string, at time.Time, payload any) (int64, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return 0, fmt.Errorf("schedule %s: %w", kind, err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO jobs (kind, due_at, payload) VALUES (?, ?, ?)`, kind, at.UnixNano(), string(b))
	if err != nil {
		return 0, fmt.Errorf("schedule %s: %w", kind, err)
	}
	tx.AfterCommit(s.poke)
	return res.LastInsertId()
}

func (s *Scheduler) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// next returns the first job due at or before until.
func (s *Scheduler) next(ctx context.Context, until time.Time) (*Job, error) {
	var j Job
	var due int64
	var payload string
	err := s.db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT id, kind, due_at, payload, attempts FROM jobs WHERE due_at <= ? ORDER BY due_at, id LIMIT 1`,
			until.UnixNano()).Scan(&j.ID, &j.Kind, &due, &payload, &j.Attempts)
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

// RunDue runs every job due now, in order, and returns how many ran.
func (s *Scheduler) RunDue(ctx context.Context) (int, error) {
	s.run.Lock()
	defer s.run.Unlock()
	return s.runUntil(ctx, func() time.Time { return s.clock.Now() }, false)
}

// AdvanceTo moves the clock to target, running each job due on the way at
// its own instant and in order; it returns once all have run. A target in
// the past only runs what is due now.
func (s *Scheduler) AdvanceTo(ctx context.Context, target time.Time) (int, error) {
	s.run.Lock()
	defer s.run.Unlock()
	n, err := s.runUntil(ctx, func() time.Time { return target }, true)
	if err != nil {
		return n, err
	}
	if target.After(s.clock.Now()) {
		s.clock.Set(target)
	}
	s.moved(ctx)
	return n, nil
}

func (s *Scheduler) moved(ctx context.Context) {
	if s.AfterMove != nil {
		s.AfterMove(ctx)
	}
}

// SetTo moves the clock to t, forward (running due jobs on the way) or back.
func (s *Scheduler) SetTo(ctx context.Context, t time.Time) (int, error) {
	if t.After(s.clock.Now()) {
		return s.AdvanceTo(ctx, t)
	}
	s.run.Lock()
	s.clock.Set(t)
	s.run.Unlock()
	s.moved(ctx)
	return 0, nil
}

func (s *Scheduler) runUntil(ctx context.Context, until func() time.Time, step bool) (int, error) {
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		j, err := s.next(ctx, until())
		if err != nil || j == nil {
			return n, err
		}
		if step && j.Due.After(s.clock.Now()) {
			s.clock.Set(j.Due)
		}
		s.runOne(ctx, *j)
		n++
	}
}

func (s *Scheduler) runOne(ctx context.Context, j Job) {
	s.mu.Lock()
	h := s.handlers[j.Kind]
	s.mu.Unlock()
	var err error
	if h == nil {
		err = fmt.Errorf("no handler for job kind %q", j.Kind)
	} else {
		err = h(ctx, j)
	}
	if err == nil || h == nil || j.Attempts+1 >= maxAttempts {
		if err != nil {
			s.log.Error("job dropped", "job", j.ID, "kind", j.Kind, "attempts", j.Attempts+1, "err", err)
		}
		s.exec(ctx, `DELETE FROM jobs WHERE id = ?`, j.ID)
		return
	}
	s.log.Warn("job failed; will retry", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts+1, "err", err)
	retry := s.clock.Now().Add(time.Duration(j.Attempts+1) * time.Minute)
	s.exec(ctx, `UPDATE jobs SET attempts = attempts + 1, last_error = ?, due_at = ? WHERE id = ?`, err.Error(), retry.UnixNano(), j.ID)
}

func (s *Scheduler) exec(ctx context.Context, q string, args ...any) {
	err := s.db.Tx(context.WithoutCancel(ctx), func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	})
	if err != nil {
		s.log.Error("job bookkeeping", "err", err)
	}
}

// Pending returns how many jobs are stored.
func (s *Scheduler) Pending(ctx context.Context) (int, error) {
	var n int
	err := s.db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs`).Scan(&n)
	})
	return n, err
}

// Run runs due jobs until ctx ends: whenever one is scheduled, whenever the
// clock moves, and when the next one falls due in wall time.
func (s *Scheduler) Run(ctx context.Context) {
	for {
		if _, err := s.RunDue(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("run jobs", "err", err)
		}
		wait := time.Minute
		if j, err := s.next(ctx, time.Unix(0, math.MaxInt64)); err == nil && j != nil {
			if d, ok := s.clock.WallUntil(j.Due); ok {
				wait = min(max(d, time.Millisecond), time.Minute)
			}
		}
		t := time.NewTimer(wait)
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
