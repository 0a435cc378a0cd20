package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Lanes. In one line, sandbox-wide, a slow receiver would set the pace of
// every company's webhooks, and one company's callback would wait behind
// another company's slow deliveries. Kinds registered with HandleInLanes
// (the webhook deliveries) leave the line: a dispatcher beside it hands each due
// job to its company's lane, at most perCompany in flight in a lane and
// total in flight in all, so a slow or dead receiver holds its own
// company's lane and nobody else's (until total/perCompany companies are
// all stuck at once).
//
// Why in the scheduler, and not a dispatcher of the bus's own: a delivery
// stays a job. Its due time and retries are on its company's clock as
// every job's are, an advance of that clock runs it at its instant with
// the rest of the company's jobs (the lanes leave an advancing company
// alone meanwhile: hold), and the job row is the at-least-once record:
// it is deleted only after its handler returned, so a crash, or a
// shutdown that cuts a delivery short, leaves it due for the next start.
// Claims live in memory: one sandbox owns its database.
//
// Why a lane per company, not per app: the company is the tenant, and
// what a job carries; one company's apps share its lane. Order within a
// lane is not kept across subjects: a delivery's handler keeps its own
// order per subject (the queued state of package events).

// The defaults of the lanes: 32 jobs in flight in all, 4 in a company's
// lane, so that eight companies with dead receivers at once still leave
// room for everyone else's; and how long a shutdown waits for what is in
// flight.
const (
	DefaultLanes           = 32
	DefaultLanesPerCompany = 4
	DefaultShutdownGrace   = 5 * time.Second
)

// Lanes sets how many lane jobs may be in flight in all and in one
// company's lane; values below 1 keep the defaults. Call it before Run.
func (s *Scheduler) Lanes(total, perCompany int) {
	l := s.lanes
	l.mu.Lock()
	defer l.mu.Unlock()
	if total > 0 {
		l.total = total
	}
	if perCompany > 0 {
		l.perCompany = perCompany
	}
}

// flight is a lane job running: the clock group it was due on and its
// company.
type flight struct {
	group, company string
}

// lanes is the lanes' bookkeeping: what is in flight, per company, and
// which clock groups and companies an advance holds for itself.
type lanes struct {
	mu         sync.Mutex
	landed     *sync.Cond // broadcast when a flight lands
	total      int
	perCompany int
	flights    map[int64]flight
	busy       map[string]int // company → flights
	heldGroups map[string]int
	heldCos    map[string]int
	wake       chan struct{}
	inFlight   sync.WaitGroup
}

func newLanes(total, perCompany int) *lanes {
	l := &lanes{total: total, perCompany: perCompany, flights: map[int64]flight{}, busy: map[string]int{},
		heldGroups: map[string]int{}, heldCos: map[string]int{}, wake: make(chan struct{}, 1)}
	l.landed = sync.NewCond(&l.mu)
	return l
}

func (l *lanes) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// claim takes a flight for job j due on group, if its lane and the lanes
// have room and no advance holds its group or company.
func (l *lanes) claim(j Job, group string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, flying := l.flights[j.ID]
	if flying || l.heldGroups[group] > 0 || l.heldCos[j.CompanyID] > 0 || len(l.flights) >= l.total || l.busy[j.CompanyID] >= l.perCompany {
		return false
	}
	l.flights[j.ID] = flight{group: group, company: j.CompanyID}
	l.busy[j.CompanyID]++
	l.inFlight.Add(1)
	return true
}

// land ends the flight of job id.
func (l *lanes) land(id int64) {
	l.mu.Lock()
	f := l.flights[id]
	delete(l.flights, id)
	if l.busy[f.company]--; l.busy[f.company] <= 0 {
		delete(l.busy, f.company)
	}
	l.landed.Broadcast()
	l.mu.Unlock()
	l.inFlight.Done()
	l.poke()
}

// hold keeps the lanes away from a clock group and the companies named
// until release is called, once what they have in flight of either has
// landed.
func (l *lanes) hold(group string, companies ...string) (release func()) {
	l.mu.Lock()
	l.heldGroups[group]++
	for _, c := range companies {
		l.heldCos[c]++
	}
	for l.flying(group, companies) {
		l.landed.Wait()
	}
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		if l.heldGroups[group]--; l.heldGroups[group] <= 0 {
			delete(l.heldGroups, group)
		}
		for _, c := range companies {
			if l.heldCos[c]--; l.heldCos[c] <= 0 {
				delete(l.heldCos, c)
			}
		}
		l.mu.Unlock()
		l.poke()
	}
}

// anyHeld says whether an advance holds some of the lanes.
func (l *lanes) anyHeld() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.heldGroups) > 0
}

func (l *lanes) flying(group string, companies []string) bool {
	for _, f := range l.flights {
		if f.group == group || slices.Contains(companies, f.company) {
			return true
		}
	}
	return false
}

// room says what a query for lane jobs must leave out: jobs in flight and
// companies whose lane is full or held, as JSON arrays; free is how many
// more may fly; held says the group is held.
func (l *lanes) room(group string) (flying, full string, free int, held bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ids := make([]int64, 0, len(l.flights))
	for id := range l.flights {
		ids = append(ids, id)
	}
	var cos []string
	for c, n := range l.busy {
		if n >= l.perCompany {
			cos = append(cos, c)
		}
	}
	for c := range l.heldCos {
		cos = append(cos, c)
	}
	a, _ := json.Marshal(ids)
	b, _ := json.Marshal(cos)
	if cos == nil {
		b = []byte("[]")
	}
	return string(a), string(b), l.total - len(l.flights), l.heldGroups[group] > 0
}

// laneJobs reads the due lane jobs of a clock group that may fly now.
// Companies whose lane is full are left out by the query itself, so a
// backlog in one lane never hides another lane's job behind it.
const laneJobs = `SELECT id, kind, company_id, due_at, payload, attempts FROM jobs
	WHERE laned = 1 AND clock = ? AND due_at <= ?
	AND id NOT IN (SELECT value FROM json_each(?)) AND company_id NOT IN (SELECT value FROM json_each(?))
	ORDER BY due_at, id LIMIT ?`

// dispatch hands due lane jobs to their lanes until ctx ends: whenever one
// is scheduled, a clock moves, a flight lands or a hold ends, and when the
// next one falls due in wall time. Jobs fly with the context flying, which
// outlives ctx (see land).
func (s *Scheduler) dispatch(ctx, flying context.Context) {
	for {
		if err := s.dispatchDue(ctx, flying); err != nil && ctx.Err() == nil {
			s.log.Error("dispatch lane jobs", "err", err)
		}
		t := time.NewTimer(s.nextLaneWake(ctx))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.lanes.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// dispatchDue starts every due lane job that has room, clock group by
// clock group, oldest first.
func (s *Scheduler) dispatchDue(ctx, flying context.Context) error {
	for _, g := range append([]string{defaultGroup}, s.clocks.Owners()...) {
		for ctx.Err() == nil {
			ids, full, free, held := s.lanes.room(g)
			if held || free <= 0 {
				break
			}
			due, err := s.laneDue(ctx, g, s.clocks.Of(g).Now(), ids, full, free)
			if err != nil {
				return err
			}
			started := 0
			for _, j := range due {
				if s.lanes.claim(j, g) {
					started++
					go s.fly(flying, j)
				}
			}
			// Nothing started: every lane with due jobs is full, or all
			// the lanes are; a landing wakes the dispatcher again.
			if started == 0 {
				break
			}
		}
	}
	return nil
}

func (s *Scheduler) laneDue(ctx context.Context, group string, now time.Time, flying, full string, limit int) ([]Job, error) {
	var out []Job
	err := s.db.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, laneJobs, group, now.UnixNano(), flying, full, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var j Job
			var due int64
			var payload string
			if err := rows.Scan(&j.ID, &j.Kind, &j.CompanyID, &due, &payload, &j.Attempts); err != nil {
				return err
			}
			j.Due, j.Payload = time.Unix(0, due).UTC(), json.RawMessage(payload)
			out = append(out, j)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("due lane jobs: %w", err)
	}
	return out, nil
}

// fly runs one lane job and settles it, unless the shutdown cut it short
// (flying ended): then the job stays as it is, due, and runs again at the
// next start. A delivery that was made but not recorded is then made
// again: at least once.
func (s *Scheduler) fly(flying context.Context, j Job) {
	defer s.lanes.land(j.ID)
	h := s.handler(j.Kind)
	var err error
	if h == nil {
		err = fmt.Errorf("no handler for job kind %q", j.Kind)
	} else {
		err = h(tenant.With(flying, j.CompanyID), j)
	}
	if flying.Err() != nil {
		s.log.Warn("lane job cut short by the shutdown; it stays due", "job", j.ID, "kind", j.Kind, "company", j.CompanyID)
		return
	}
	s.settle(flying, j, h != nil, err)
}

// land waits for the flights in the air to land, for ShutdownGrace at
// most; then it cuts the rest short (abort) and waits for them to notice.
func (s *Scheduler) land(abort context.CancelFunc) {
	done := make(chan struct{})
	go func() {
		s.lanes.inFlight.Wait()
		close(done)
	}()
	grace := s.ShutdownGrace
	if grace <= 0 {
		grace = DefaultShutdownGrace
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		abort()
		<-done
	}
}

// nextLaneWake is the wall time until the next lane job that is not due
// yet falls due on a running clock, at most a minute. Jobs due already
// wait for room, and a landing wakes the dispatcher.
func (s *Scheduler) nextLaneWake(ctx context.Context) time.Duration {
	wait := time.Minute
	for _, g := range append([]string{defaultGroup}, s.clocks.Owners()...) {
		clk := s.clocks.Of(g)
		var due int64
		err := s.db.Read(ctx, func(tx *store.Tx) error {
			return tx.QueryRowContext(ctx, `SELECT due_at FROM jobs WHERE laned = 1 AND clock = ? AND due_at > ? ORDER BY due_at, id LIMIT 1`,
				g, clk.Now().UnixNano()).Scan(&due)
		})
		if err != nil {
			if !errors.Is(err, sql.ErrNoRows) && ctx.Err() == nil {
				s.log.Error("next lane job", "err", err)
			}
			continue
		}
		if d, ok := clk.WallUntil(time.Unix(0, due)); ok {
			wait = min(wait, max(d, time.Millisecond))
		}
	}
	return wait
}

// syncLaned marks the stored jobs of the lanes' kinds as theirs, and the
// others as the line's: a kind may have changed sides since they were
// stored (or the jobs predate the lanes).
func (s *Scheduler) syncLaned(ctx context.Context) {
	s.mu.Lock()
	kinds := make([]string, 0, len(s.laned))
	for k := range s.laned {
		kinds = append(kinds, k)
	}
	s.mu.Unlock()
	b, _ := json.Marshal(kinds)
	if kinds == nil {
		b = []byte("[]")
	}
	s.exec(ctx, `UPDATE jobs SET laned = (kind IN (SELECT value FROM json_each(?))) WHERE laned != (kind IN (SELECT value FROM json_each(?)))`, string(b), string(b))
}
