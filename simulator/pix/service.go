package pix

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/clock"
	"homologa/simulator/events"
	"homologa/simulator/jobs"
	"homologa/simulator/scenario"
	"homologa/simulator/schema"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// Service is the Pix API of the sandbox.
type Service struct {
	DB *store.DB
	// Clocks is the sandbox's time. Everything a company owns lives on
	// that company's clock, which may stand a year from another's: a
	// charge's creation, expiry and due-date amounts, a refund's delay, a
	// recurrence's dates (nowOf).
	Clocks   *clock.Clocks
	Auth     *auth.Service
	Bus      *events.Bus
	Machines *statemachine.Applier
	Jobs     *jobs.Scheduler
	Schemas  *schema.Registry
	Log      *slog.Logger
	// Scenarios drives charges and refunds after creation (nil: nothing
	// moves on its own).
	Scenarios *scenario.Engine

	sign      signer
	companies sync.Map // company id → company, whose name and CNPJ never change
	keys      sync.Map // app id → its DICT keys (map[string]bool)
	lotes     sync.Map // company id → whether it has ever sent a batch
	locIDs    idSeq    // ids of pix_locs
	cobIDs    idSeq    // ids of pix_cobs
}

// idSeq hands out the ids of one table from memory, so that a charge and
// its location can be rendered before the write transaction starts (see
// draftInMemory). It is seeded from MAX(id) by the first write transaction that
// needs an id; from then on every insert into the table takes its id here
// (one process owns the database). Ids skipped by a rolled-back
// transaction leave gaps, as a real PSP's do.
type idSeq struct {
	ready atomic.Bool
	last  atomic.Int64
}

// next returns a fresh id; tx is a write transaction, which serialises the
// seeding, or nil once seeded.
func (q *idSeq) next(ctx context.Context, tx *store.Tx, table string) (int64, error) {
	if !q.ready.Load() {
		if tx == nil {
			return 0, fmt.Errorf("%s ids not seeded", table)
		}
		max, err := maxID(ctx, tx, table)
		if err != nil {
			return 0, fmt.Errorf("seed %s ids: %w", table, err)
		}
		q.last.Store(max)
		q.ready.Store(true)
	}
	return q.last.Add(1), nil
}

// nowOf is a company's time: what it owns is dated, expires and accrues
// on its own clock, whether the work comes from its request, its job, the
// operator or a public QR read that carries no company at all.
func (s *Service) nowOf(companyID string) time.Time { return s.Clocks.NowOf(companyID) }

// hasLotes reports whether a company has sent a batch: only then can a txid
// be held by a batch item, and creating a charge needs to look.
func (s *Service) hasLotes(ctx context.Context, tx *store.Tx, companyID string) (bool, error) {
	if v, ok := s.lotes.Load(companyID); ok {
		return v.(bool), nil
	}
	has, err := existsLote(ctx, tx, companyID)
	if err != nil {
		return false, err
	}
	s.lotes.Store(companyID, has)
	return has, nil
}

type company struct{ CNPJ, Name string }

// company returns a company's CNPJ and name, from memory after the first
// read: charges render them on every change.
func (s *Service) company(ctx context.Context, tx *store.Tx, id string) (company, error) {
	if c, ok := s.companies.Load(id); ok {
		return c.(company), nil
	}
	c, err := findCompany(ctx, tx, id)
	if err != nil {
		return company{}, err
	}
	s.companies.Store(id, c)
	return c, nil
}

// RegisterJobs installs the Pix jobs on the scheduler.
func (s *Service) RegisterJobs() {
	s.Jobs.Handle(JobProcessLote, s.processLote)
	s.Jobs.Handle(JobExpireSolicRec, s.expireSolicRecJob)
	s.Jobs.Handle(JobExpireCobR, s.expireCobRJob)
}

// edges are the moves to each of to, each emitting an event of type typ
// named name.
func edges(typ, name string, to ...string) []statemachine.Edge {
	out := make([]statemachine.Edge, len(to))
	for i, t := range to {
		out[i] = statemachine.Edge{To: t, Type: typ, Name: name}
	}
	return out
}

// Machines are the state machines of the Pix resources; the server guards
// their tables so that only their moves change a status.
func Machines() []*statemachine.Machine {
	return []*statemachine.Machine{machines["cob"], machines["cobv"], cobrMachine, recMachine, devolucaoMachine, solicRecMachine, loteItemMachine}
}

// read runs fn in a read transaction and returns what it made.
func read[T any](ctx context.Context, db *store.DB, fn func(tx *store.Tx) (T, error)) (T, error) {
	return run(ctx, db.Read, fn)
}

// write runs fn in a write transaction and returns what it made.
func write[T any](ctx context.Context, db *store.DB, fn func(tx *store.Tx) (T, error)) (T, error) {
	return run(ctx, db.Tx, fn)
}

func run[T any](ctx context.Context, in func(context.Context, func(*store.Tx) error) error, fn func(tx *store.Tx) (T, error)) (T, error) {
	var out T
	err := in(ctx, func(tx *store.Tx) error {
		var err error
		out, err = fn(tx)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}
