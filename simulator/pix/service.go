package pix

import (
	"context"
	"log/slog"
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

	sign signer
}

// nowOf is a company's time: what it owns is dated, expires and accrues
// on its own clock, whether the work comes from its request, its job, the
// operator or a public QR read that carries no company at all.
func (s *Service) nowOf(companyID string) time.Time { return s.Clocks.NowOf(companyID) }

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
