package pix

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

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
	DB       *store.DB
	Clock    *clock.Clock
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
// createFast). It is seeded from MAX(id) by the first write transaction that
// needs an id; from then on every insert into the table takes its id here
// (one process owns the database). Ids skipped by a rolled-back
// transaction leave gaps, as a real PSP's do.
type idSeq struct {
	ready atomic.Bool
	last  atomic.Int64
}

// next returns a fresh id; tx is a write transaction, which serialises the
// seeding.
func (q *idSeq) next(ctx context.Context, tx *store.Tx, table string) (int64, error) {
	if !q.ready.Load() {
		var max int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM `+table).Scan(&max); err != nil {
			return 0, fmt.Errorf("seed %s ids: %w", table, err)
		}
		q.last.Store(max)
		q.ready.Store(true)
	}
	return q.last.Add(1), nil
}

// tryNext returns a fresh id without the database, once seeded.
func (q *idSeq) tryNext() (int64, bool) {
	if !q.ready.Load() {
		return 0, false
	}
	return q.last.Add(1), true
}

// hasLotes reports whether a company has sent a batch: only then can a txid
// be held by a batch item, and creating a charge needs to look.
func (s *Service) hasLotes(ctx context.Context, tx *store.Tx, companyID string) (bool, error) {
	if v, ok := s.lotes.Load(companyID); ok {
		return v.(bool), nil
	}
	var has bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pix_lotes WHERE company_id = ?)`, companyID).Scan(&has); err != nil {
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
	var c company
	if err := tx.QueryRowContext(ctx, `SELECT cnpj, name FROM companies WHERE id = ?`, id).Scan(&c.CNPJ, &c.Name); err != nil {
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

// doc is a JSON object as the API answers it: requests are kept as the
// partner sent them (after validation), so nothing they said is lost.
type doc = map[string]any

// clone deep-copies a JSON document (maps, lists and scalars).
func clone(d doc) doc {
	if d == nil {
		return nil
	}
	return cloneValue(d).(map[string]any)
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[k] = cloneValue(v)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, v := range x {
			l[i] = cloneValue(v)
		}
		return l
	case []doc:
		l := make([]any, len(x))
		for i, v := range x {
			l[i] = cloneValue(map[string]any(v))
		}
		return l
	case int:
		return float64(x)
	case int64:
		return float64(x)
	}
	return v
}

func marshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// sub returns the object at key, or nil.
func sub(d doc, key string) doc {
	m, _ := d[key].(map[string]any)
	return m
}

// str returns the string at a dotted path, or "".
func str(d doc, path ...string) string {
	for i, k := range path {
		if i == len(path)-1 {
			s, _ := d[k].(string)
			return s
		}
		if d = sub(d, k); d == nil {
			return ""
		}
	}
	return ""
}

func jsonUnmarshal(s string, v any) { json.Unmarshal([]byte(s), v) }

// Machines are the state machines of the Pix resources; the server guards
// their tables so that only their moves change a status.
func Machines() []*statemachine.Machine {
	return []*statemachine.Machine{machines["cob"], machines["cobv"], cobrMachine, recMachine, refundMachine, solicRecMachine}
}
