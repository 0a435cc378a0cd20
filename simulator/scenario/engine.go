package scenario

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/jobs"
	"homologa/simulator/schema"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Header names the scenario of the resource a request creates.
const Header = "X-Sandbox-Scenario"

// JobStep is the job kind that runs one step of a binding.
const JobStep = "scenario.step"

// Binding statuses.
const (
	Running = "running"
	Done    = "done"
	Stopped = "stopped"
)

// Runner does a kind's steps; the domain package that owns the kind
// provides it. Both run inside the step's write transaction.
type Runner interface {
	// Instant returns a named instant of the resource (Kind.Instants).
	Instant(ctx context.Context, tx *store.Tx, b *Binding, name string) (time.Time, error)
	// Do performs one step and says what happened. An error that wraps
	// ErrNotApplicable means the step cannot apply to the resource as it
	// is now (a charge the partner removed cannot be paid): the binding
	// stops, with the reason. Any other error fails the job.
	Do(ctx context.Context, tx *store.Tx, b *Binding, st Step) (string, error)
}

// Resolver finds the key of an existing resource from what a user names
// in the control API (a txid, an e2eid and a refund id); optional.
type Resolver interface {
	Resolve(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error)
}

// ErrNotApplicable is what a Runner's error wraps when a step cannot apply
// to its resource as it is now. NotApplicable makes such errors.
var ErrNotApplicable = errors.New("the step does not apply")

// NotApplicable marks a domain refusal met by a step (an *errs.Error other
// than an internal one: a state machine, a rule, a missing resource) as a
// step that cannot apply; other errors, such as the database failing, pass
// unchanged and fail the job.
func NotApplicable(err error) error {
	var e *errs.Error
	if err == nil || !errors.As(err, &e) || e.Code == errs.Internal {
		return err
	}
	return notApplicable{reason: e.Message, err: err}
}

type notApplicable struct {
	reason string
	err    error
}

func (n notApplicable) Error() string        { return n.reason }
func (n notApplicable) Unwrap() error        { return n.err }
func (n notApplicable) Is(target error) bool { return target == ErrNotApplicable }

// Binding ties one resource to the scenario that drives it.
type Binding struct {
	ID         int64  `json:"id"`
	ScenarioID string `json:"scenario"`
	Kind       string `json:"kind"`
	Key        string `json:"key"`
	Ref        string `json:"ref"`
	AppID      string `json:"appId"`
	How        string `json:"how"` // header, select, control, default
	Seed       int64  `json:"seed"`
	Next       int    `json:"nextStep"`
	Waiting    string `json:"waitingFor,omitempty"`
	// NextAt is when the next step is due (nil while it waits for a
	// trigger, and once done); Pending lists the steps still to run.
	NextAt    *time.Time `json:"nextAt,omitempty"`
	Pending   []Planned  `json:"pending,omitempty"`
	Status    string     `json:"status"`
	Log       []LogEntry `json:"log"`
	CreatedAt time.Time  `json:"createdAt"`
	fired     string
	// from is when the step that just ran was due: its successor's delay
	// counts from there, not from when the job happened to run (on the
	// real clock a job runs a few milliseconds late, and "after: 1h" then
	// "after: 7m" must add up to exactly 1h07m).
	from time.Time
}

// Planned is a step still to run, as the bindings listing shows it.
type Planned struct {
	Step  int    `json:"step"`
	Line  int    `json:"line"`
	Verb  string `json:"verb"`
	After string `json:"after,omitempty"`
	At    string `json:"at,omitempty"`
	When  string `json:"when,omitempty"`
}

// LogEntry is one step that ran (or could not).
type LogEntry struct {
	Step    int       `json:"step"`
	Line    int       `json:"line"`
	Verb    string    `json:"verb"`
	At      time.Time `json:"at"`
	Outcome string    `json:"outcome"`
}

// Resource is a resource being created, as the engine sees it.
type Resource struct {
	Kind string
	Key  string
	// Ref is what the partner calls the resource (a txid): with the
	// scenario's seed it fixes the jitter, so the same requests give the
	// same times in any sandbox. Key when empty.
	Ref   string
	AppID string
	// Named is the X-Sandbox-Scenario header of the creating request.
	Named string
	// Body is the creating request, for select rules.
	Body map[string]any
}

// Engine loads the catalogue and runs bindings.
type Engine struct {
	DB      *store.DB
	Clocks  *clock.Clocks
	Jobs    *jobs.Scheduler
	Log     *slog.Logger
	Schemas *schema.Registry
	Kinds   Kinds
	// Shipped holds the embedded scenarios; Dir is --scenarios.
	Shipped fs.FS
	Dir     string
	Faults  *Faults

	cat     atomic.Pointer[Catalogue]
	own     sync.Map // company → *Catalogue of its uploads
	runners map[string]Runner
	mu      sync.Mutex
	next    map[string]string // kind + "\x00" + app → scenario of the app's next resource
}

// Handle registers the runner of a kind.
func (e *Engine) Handle(kind string, r Runner) {
	if e.runners == nil {
		e.runners = map[string]Runner{}
	}
	e.runners[kind] = r
}

// Start loads the catalogue and registers the step job.
func (e *Engine) Start(ctx context.Context) error {
	e.Jobs.HandleInTx(JobStep, e.stepJob)
	return e.Reload(ctx)
}

// Catalogue returns the loaded scenarios.
func (e *Engine) Catalogue() *Catalogue { return e.cat.Load() }

// Files gathers every shared source in override order: shipped, the
// folder, then the operator's uploads.
func (e *Engine) Files(ctx context.Context) ([]File, error) {
	var files []File
	if e.Shipped != nil {
		fs, err := ReadFS(e.Shipped, "scenarios/")
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	if e.Dir != "" {
		fs, err := ReadDir(e.Dir)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	err := e.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, source FROM scenario_uploads WHERE company_id = '' ORDER BY uploaded_at, id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, src string
			if err := rows.Scan(&id, &src); err != nil {
				return err
			}
			files = append(files, File{Name: "upload/" + id + ".yaml", Data: []byte(src)})
		}
		return rows.Err()
	})
	return files, err
}

// Reload rebuilds the catalogue from every source, and each company's
// scenarios; on any problem the current ones stay and every problem is
// returned.
func (e *Engine) Reload(ctx context.Context) error {
	files, err := e.Files(ctx)
	if err != nil {
		return err
	}
	c, err := Build(files, e.Kinds, e.Schemas)
	if err != nil {
		return err
	}
	owned, err := e.ownedFiles(ctx)
	if err != nil {
		return err
	}
	own := map[string]*Catalogue{}
	for company, fs := range owned {
		if own[company], err = Build(fs, e.Kinds, e.Schemas); err != nil {
			return err
		}
	}
	e.cat.Store(c)
	e.own.Range(func(k, _ any) bool { e.own.Delete(k); return true })
	for company, oc := range own {
		e.own.Store(company, oc)
	}
	e.refreshFaults()
	return nil
}

// ownedFiles are the companies' uploads, by company.
func (e *Engine) ownedFiles(ctx context.Context) (map[string][]File, error) {
	out := map[string][]File{}
	err := e.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT company_id, id, source FROM scenario_uploads WHERE company_id <> '' ORDER BY uploaded_at, id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var company, id, src string
			if err := rows.Scan(&company, &id, &src); err != nil {
				return err
			}
			out[company] = append(out[company], File{Name: "upload/" + id + ".yaml", Data: []byte(src)})
		}
		return rows.Err()
	})
	return out, err
}

// refreshFaults points fault activations at the scenarios as now loaded.
func (e *Engine) refreshFaults() {
	if e.Faults != nil {
		e.Faults.refresh(e.Lookup)
	}
}

// Upload validates a scenario sent through the control API, stores it and
// reloads; nothing changes when it or the resulting set is invalid. A
// company's upload is its own; the operator's is shared.
func (e *Engine) Upload(ctx context.Context, data []byte) (*Scenario, error) {
	s, err := Parse("upload", data, e.Kinds, e.Schemas)
	if err != nil {
		return nil, err
	}
	if prev := e.Catalogue().Get(s.ID); prev != nil && !strings.HasPrefix(prev.File, "upload/") {
		return nil, &LoadError{Problems: []Problem{{File: "upload", Line: lineOfID(data), Field: "id",
			Message: fmt.Sprintf("o id %q é de um cenário de %s; escolha outro id (uma pasta --scenarios pode substituí-lo)", s.ID, prev.File)}}}
	}
	sc, err := tenant.Of(ctx)
	if err != nil {
		return nil, err
	}
	// The operator's upload is shared: stored as no company's.
	company, own := sc.Company()
	files, err := e.filesOf(ctx, sc)
	if err != nil {
		return nil, err
	}
	files = slices.DeleteFunc(files, func(f File) bool { return f.Name == "upload/"+s.ID+".yaml" })
	files = append(files, File{Name: "upload/" + s.ID + ".yaml", Data: data})
	c, err := Build(files, e.Kinds, e.Schemas)
	if err != nil {
		return nil, err
	}
	err = e.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO scenario_uploads (company_id, id, source, uploaded_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (company_id, id) DO UPDATE SET source = excluded.source, uploaded_at = excluded.uploaded_at`, company, s.ID, string(data), e.Clocks.Now(ctx).UnixNano())
		return err
	})
	if err != nil {
		return nil, err
	}
	if own {
		e.own.Store(company, c)
	} else {
		e.cat.Store(c)
	}
	e.refreshFaults()
	return c.Get(s.ID), nil
}

// filesOf is what a scope's catalogue is built from: a company's
// uploads; the shared sources for the operator.
func (e *Engine) filesOf(ctx context.Context, sc tenant.Scope) ([]File, error) {
	company, one := sc.Company()
	if !one {
		return e.Files(ctx)
	}
	owned, err := e.ownedFiles(ctx)
	return owned[company], err
}

// Remove deletes an uploaded scenario: a company removes its own, the
// operator the shared ones.
func (e *Engine) Remove(ctx context.Context, id string) error {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return err
	}
	company, one := sc.Company() // the operator removes shared ones: no company's
	s := e.viewFor(company).Get(id)
	if s == nil {
		return errs.Errorf(errs.NotFound, "não há cenário %q", id)
	}
	owned := one && e.viewFor(company).own != nil && e.viewFor(company).own.Get(id) != nil
	if !strings.HasPrefix(s.File, "upload/") || (one && !owned) {
		return errs.Errorf(errs.Conflict, "o cenário %s vem de %s; só cenários enviados pela sua empresa podem ser removidos", id, s.File)
	}
	err = e.DB.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM scenario_uploads WHERE company_id = ? AND id = ?`, company, id)
		return err
	})
	if err != nil {
		return err
	}
	return e.Reload(ctx)
}

// BindNext makes scenario id drive the next resource of its kind that app
// creates.
func (e *Engine) BindNext(ctx context.Context, id, appID string) error {
	s := e.viewOf(ctx).Get(id)
	if s == nil {
		return errs.Errorf(errs.NotFound, "não há cenário %q", id)
	}
	if _, ok := e.Kinds[s.AppliesTo]; !ok || len(s.Steps) == 0 {
		return errs.Errorf(errs.Conflict, "o cenário %s não conduz recurso (aplica-se a %s e não tem passos); ative as falhas dele", id, s.AppliesTo)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.next == nil {
		e.next = map[string]string{}
	}
	e.next[s.AppliesTo+"\x00"+appID] = id
	return nil
}

// Bind chooses the scenario of a resource being created (the header, a
// control-API binding for the app's next resource, a select rule, or the
// kind's default) and starts it, in the creating transaction. A default
// with no steps stores nothing, so plain creations cost nothing here.
func (e *Engine) Bind(ctx context.Context, tx *store.Tx, r Resource) error {
	cat := e.viewOf(ctx)
	var s *Scenario
	how := ""
	if r.Named != "" {
		s, how = cat.Get(r.Named), "header"
		switch {
		case s == nil:
			return errs.Invalidf(Header, "não há cenário %q; GET /sandbox/scenarios lista os cenários", r.Named)
		case len(s.Steps) == 0:
			return nil // a fault-only scenario: the fault middleware activated it
		case s.AppliesTo != r.Kind:
			return errs.Invalidf(Header, "o cenário %s conduz %s, não %s", s.ID, s.AppliesTo, r.Kind)
		}
	}
	if s == nil {
		e.mu.Lock()
		if id, ok := e.next[r.Kind+"\x00"+r.AppID]; ok {
			delete(e.next, r.Kind+"\x00"+r.AppID)
			s, how = cat.Get(id), "control"
		}
		e.mu.Unlock()
	}
	if s == nil && r.Body != nil {
		s, how = cat.Selected(r.Kind, r.Body), "select"
	}
	if s == nil {
		s, how = cat.Default(r.Kind), "default"
	}
	if s == nil || len(s.Steps) == 0 {
		return nil
	}
	_, err := e.start(ctx, tx, s, r.Kind, r.Key, r.Ref, r.AppID, how)
	return err
}

// BindExisting starts scenario id on an existing resource; earlier
// bindings of the resource stop.
func (e *Engine) BindExisting(ctx context.Context, tx *store.Tx, id, appID string, ref map[string]string) (*Binding, error) {
	s := e.viewOf(ctx).Get(id)
	if s == nil {
		return nil, errs.Errorf(errs.NotFound, "não há cenário %q", id)
	}
	res, ok := e.runners[s.AppliesTo].(Resolver)
	if !ok || len(s.Steps) == 0 {
		return nil, errs.Errorf(errs.Conflict, "o cenário %s não conduz recurso que se possa indicar aqui", id)
	}
	key, err := res.Resolve(ctx, tx, appID, ref)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE scenario_bindings SET status = ?, waiting = '', updated_at = ? WHERE kind = ? AND key = ? AND status = ?`,
		Stopped, e.Clocks.Now(ctx).UnixNano(), s.AppliesTo, key, Running); err != nil {
		return nil, err
	}
	return e.start(ctx, tx, s, s.AppliesTo, key, ref["txid"]+ref["e2eid"]+refSep(ref)+ref["id"], appID, "control")
}

func refSep(ref map[string]string) string {
	if ref["e2eid"] != "" && ref["id"] != "" {
		return "/"
	}
	return ""
}

func (e *Engine) start(ctx context.Context, tx *store.Tx, s *Scenario, kind, key, ref, appID, how string) (*Binding, error) {
	now := e.Clocks.Now(ctx)
	if ref == "" {
		ref = key
	}
	b := &Binding{ScenarioID: s.ID, Kind: kind, Key: key, Ref: ref, AppID: appID, How: how, Seed: s.Seed, Next: -1, Status: Running, Log: []LogEntry{}, CreatedAt: now}
	// The first step's delay counts from the binding's creation, as the
	// later ones count from when their previous step was due: on a running
	// clock "now" read again a moment later is sandbox seconds later when
	// the clock is accelerated (TestStepDelaysAddUpOnARunningClock).
	b.from = now
	res, err := tx.ExecContext(ctx, `INSERT INTO scenario_bindings (scenario_id, kind, key, ref, app_id, how, seed, next_step, status, log, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, -1, ?, '[]', ?, ?)`, s.ID, kind, key, ref, appID, how, s.Seed, Running, now.UnixNano(), now.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("bind %s to %s %s: %w", s.ID, kind, key, err)
	}
	b.ID, _ = res.LastInsertId()
	return b, e.advance(ctx, tx, s, b)
}

// advance moves b to its next step: done after the last, waiting when the
// step has a trigger that has not fired, scheduled otherwise.
func (e *Engine) advance(ctx context.Context, tx *store.Tx, s *Scenario, b *Binding) error {
	b.Next++
	fired := strings.Fields(b.fired)
	b.fired = ""
	b.NextAt = nil
	if b.Next >= len(s.Steps) {
		b.Status = Done
		return e.save(ctx, tx, b)
	}
	st := s.Steps[b.Next]
	if st.When != "" && !slices.Contains(fired, st.When) {
		b.Waiting = st.When
		return e.save(ctx, tx, b)
	}
	if err := e.schedule(ctx, tx, b, st); err != nil {
		return err
	}
	return e.save(ctx, tx, b)
}

// schedule puts the job of b's next step at its time: the named instant or
// now, plus after, plus the seeded jitter.
func (e *Engine) schedule(ctx context.Context, tx *store.Tx, b *Binding, st Step) error {
	base := e.Clocks.Now(ctx)
	if !b.from.IsZero() && b.from.Before(base) && st.When == "" {
		base = b.from
	}
	if st.At != "" {
		r, ok := e.runners[b.Kind]
		if !ok {
			return fmt.Errorf("no runner for %s", b.Kind)
		}
		t, err := r.Instant(ctx, tx, b, st.At)
		if err != nil {
			return fmt.Errorf("instant %s of %s %s: %w", st.At, b.Kind, b.Key, err)
		}
		base = t
	}
	at := base.Add(st.After + jitter(b.Seed, b.Ref, b.Next, st.Jitter))
	b.NextAt = &at
	_, err := e.Jobs.Schedule(ctx, tx, JobStep, at, stepPayload{Binding: b.ID, Step: b.Next})
	return err
}

// jitter is a reproducible offset in [0, max]: the same seed, resource and
// step give the same delay on every run.
func jitter(seed int64, key string, step int, max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	r := rand.New(rand.NewPCG(uint64(seed), h.Sum64()^uint64(step)))
	return time.Duration(r.Int64N(int64(max) + 1)).Truncate(time.Millisecond)
}

type stepPayload struct {
	Binding int64 `json:"binding"`
	Step    int   `json:"step"`
}

// stepJob runs one step. A step that cannot apply stops the binding with
// the reason, and nothing of the step is kept.
func (e *Engine) stepJob(ctx context.Context, tx *store.Tx, j jobs.Job) error {
	var p stepPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return fmt.Errorf("scenario step payload: %w", err)
	}
	b, err := e.load(ctx, tx, p.Binding)
	if err != nil || b == nil || b.Status != Running || b.Next != p.Step || b.Waiting != "" {
		return err // gone, stopped, or a stale job: nothing to do
	}
	s := e.viewOf(ctx).Get(b.ScenarioID)
	if s == nil || p.Step >= len(s.Steps) {
		b.Status = Stopped
		b.Log = append(b.Log, LogEntry{Step: p.Step, At: e.Clocks.Now(ctx), Outcome: "stopped: scenario " + b.ScenarioID + " is no longer loaded (or lost this step)"})
		return e.save(ctx, tx, b)
	}
	st := s.Steps[p.Step]
	entry := LogEntry{Step: p.Step, Line: st.Line, Verb: st.Verb, At: e.Clocks.Now(ctx)}
	if _, err := tx.ExecContext(ctx, `SAVEPOINT scenario_step`); err != nil {
		return err
	}
	outcome, err := e.do(ctx, tx, b, st)
	if errors.Is(err, ErrNotApplicable) {
		if _, err := tx.ExecContext(ctx, `ROLLBACK TO scenario_step`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `RELEASE scenario_step`); err != nil {
			return err
		}
		entry.Outcome = "stopped: " + err.Error()
		b.Log = append(b.Log, entry)
		b.Status = Stopped
		e.Log.Info("scenario stopped", "scenario", b.ScenarioID, "kind", b.Kind, "key", b.Key, "step", p.Step, "reason", err.Error())
		return e.save(ctx, tx, b)
	}
	if err != nil {
		return fmt.Errorf("scenario %s step %d on %s %s: %w", b.ScenarioID, p.Step, b.Kind, b.Key, err)
	}
	if _, err := tx.ExecContext(ctx, `RELEASE scenario_step`); err != nil {
		return err
	}
	// What the step fired on its own resource (a payment fires paid)
	// is in the row now; read it back before advancing.
	var fired string
	if err := tx.QueryRowContext(ctx, `SELECT fired FROM scenario_bindings WHERE id = ?`, b.ID).Scan(&fired); err != nil {
		return err
	}
	b.fired = fired
	b.from = j.Due
	entry.Outcome = outcome
	b.Log = append(b.Log, entry)
	return e.advance(ctx, tx, s, b)
}

func (e *Engine) do(ctx context.Context, tx *store.Tx, b *Binding, st Step) (string, error) {
	r, ok := e.runners[b.Kind]
	if !ok {
		return "", fmt.Errorf("no runner for %s", b.Kind)
	}
	return r.Do(ctx, tx, b, st)
}

// Observe is the engine as an observer of the state machines: a move that
// names a trigger (statemachine.Tell) reaches the resource's bindings in
// the move's own transaction. Triggers that are not moves (a revision, a
// pending answered) call Trigger directly.
func (e *Engine) Observe(ctx context.Context, tx *store.Tx, m statemachine.Move, _ *events.Envelope) error {
	if m.Scenario.Trigger == "" {
		return nil
	}
	return e.Trigger(ctx, tx, m.Scenario.Kind, m.Scenario.Key, m.Scenario.Trigger)
}

// Trigger tells the running bindings of a resource that something
// happened to it: a binding waiting for it schedules its step; the others
// remember it for a later step that waits for it.
func (e *Engine) Trigger(ctx context.Context, tx *store.Tx, kind, key, name string) error {
	rows, err := tx.QueryContext(ctx, `SELECT `+bindingColumns+` FROM scenario_bindings WHERE kind = ? AND key = ? AND status = ?`, kind, key, Running)
	if err != nil {
		return err
	}
	var bs []*Binding
	for rows.Next() {
		b, err := scanBinding(rows)
		if err != nil {
			rows.Close()
			return err
		}
		bs = append(bs, b)
	}
	rows.Close()
	cat := e.viewOf(ctx)
	for _, b := range bs {
		s := cat.Get(b.ScenarioID)
		if b.Waiting == name && s != nil && b.Next < len(s.Steps) {
			b.Waiting = ""
			if err := e.schedule(ctx, tx, b, s.Steps[b.Next]); err != nil {
				return err
			}
		} else {
			b.fired = strings.TrimSpace(b.fired + " " + name)
		}
		if err := e.save(ctx, tx, b); err != nil {
			return err
		}
	}
	return nil
}

// Awaits reports whether a running binding of the resource waits for the
// trigger: the domain can then leave the next move to the scenario.
func (e *Engine) Awaits(ctx context.Context, tx *store.Tx, kind, key, trigger string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM scenario_bindings WHERE kind = ? AND key = ? AND status = ? AND waiting = ?`,
		kind, key, Running, trigger).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("bindings of %s %s: %w", kind, key, err)
	}
	return n > 0, nil
}

const bindingColumns = `id, scenario_id, kind, key, ref, app_id, how, seed, next_step, waiting, next_at, fired, status, log, created_at`

func scanBinding(row interface{ Scan(...any) error }) (*Binding, error) {
	var b Binding
	var log string
	var at int64
	var next sql.NullInt64
	if err := row.Scan(&b.ID, &b.ScenarioID, &b.Kind, &b.Key, &b.Ref, &b.AppID, &b.How, &b.Seed, &b.Next, &b.Waiting, &next, &b.fired, &b.Status, &log, &at); err != nil {
		return nil, err
	}
	if next.Valid && b.Status == Running {
		t := time.Unix(0, next.Int64).UTC()
		b.NextAt = &t
	}
	if err := json.Unmarshal([]byte(log), &b.Log); err != nil {
		return nil, fmt.Errorf("binding %d log: %w", b.ID, err)
	}
	b.CreatedAt = time.Unix(0, at).UTC()
	return &b, nil
}

func (e *Engine) load(ctx context.Context, tx *store.Tx, id int64) (*Binding, error) {
	b, err := scanBinding(tx.QueryRowContext(ctx, `SELECT `+bindingColumns+` FROM scenario_bindings WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return b, err
}

func (e *Engine) save(ctx context.Context, tx *store.Tx, b *Binding) error {
	log, _ := json.Marshal(b.Log)
	var next sql.NullInt64
	if b.NextAt != nil {
		next = sql.NullInt64{Int64: b.NextAt.UnixNano(), Valid: true}
	}
	_, err := tx.ExecContext(ctx, `UPDATE scenario_bindings SET next_step = ?, waiting = ?, next_at = ?, fired = ?, status = ?, log = ?, updated_at = ? WHERE id = ?`,
		b.Next, b.Waiting, next, b.fired, b.Status, string(log), e.Clocks.Now(ctx).UnixNano(), b.ID)
	return err
}

// Bindings lists bindings, newest first, optionally of one kind and key:
// those of the apps of the company ctx acts for (every one for the
// operator).
func (e *Engine) Bindings(ctx context.Context, kind, key string, limit int) ([]*Binding, error) {
	var out []*Binding
	sc, err := tenant.Of(ctx)
	if err != nil {
		return nil, err
	}
	apps, all := []string{}, sc.Every()
	if company, one := sc.Company(); one {
		if apps, err = e.Faults.Apps.AppIDsOf(ctx, company); err != nil {
			return nil, err
		}
	}
	owned, _ := json.Marshal(apps)
	err = e.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+bindingColumns+` FROM scenario_bindings
			WHERE (? = '' OR kind = ?) AND (? = '' OR key = ?) AND (? OR app_id IN (SELECT value FROM json_each(?)))
			ORDER BY id DESC LIMIT ?`, kind, kind, key, key, all, string(owned), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		cat := e.viewOf(ctx)
		for rows.Next() {
			b, err := scanBinding(rows)
			if err != nil {
				return err
			}
			if s := cat.Get(b.ScenarioID); s != nil && b.Status == Running {
				for i := max(b.Next, 0); i < len(s.Steps); i++ {
					st := s.Steps[i]
					p := Planned{Step: i, Line: st.Line, Verb: st.Verb, At: st.At, When: st.When}
					if st.After > 0 {
						p.After = st.After.String()
					}
					b.Pending = append(b.Pending, p)
				}
			}
			out = append(out, b)
		}
		return rows.Err()
	})
	return out, err
}

// ResetCompany forgets what drives a company's resources (a reset of its
// sandbox): the bindings of its apps, the scenarios named for their next
// resources and the faults activated for them.
func (e *Engine) ResetCompany(ctx context.Context, tx *store.Tx, _ string, appIDs []string) error {
	for _, id := range appIDs {
		if _, err := tx.ExecContext(ctx, `DELETE FROM scenario_bindings WHERE app_id = ?`, id); err != nil {
			return fmt.Errorf("reset scenario bindings: %w", err)
		}
	}
	tx.AfterCommit(func() {
		e.mu.Lock()
		for k := range e.next {
			for _, id := range appIDs {
				if strings.HasSuffix(k, "\x00"+id) {
					delete(e.next, k)
				}
			}
		}
		e.mu.Unlock()
		if e.Faults != nil {
			e.Faults.forgetApps(appIDs)
		}
	})
	return nil
}
