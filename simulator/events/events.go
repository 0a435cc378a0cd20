package events

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/jobs"
	"homologa/simulator/jsondoc"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Envelope is the one shape of every event (DESIGN.md, "Events").
type Envelope struct {
	ID          string         `json:"id"`
	Type        string         `json:"type"`
	Name        string         `json:"name"`
	Version     int            `json:"version"`
	OccurredAt  time.Time      `json:"occurredAt"`
	Environment string         `json:"environment"`
	CNPJ        string         `json:"cnpj"`
	Sequence    int64          `json:"sequence"`
	Subject     map[string]any `json:"subject"`
	Data        any            `json:"data"`
	// CompanyID is the tenant the event belongs to; it never leaves the
	// sandbox (two copies of a company share a CNPJ, never an id).
	CompanyID string `json:"-"`
}

// Encoded is an event's data already encoded by encoding/json (valid and
// compact): Emit writes it into the envelope as it is. A json.RawMessage
// is scanned and compacted again by json.Marshal, and a new charge's body
// is the largest part of its event.
type Encoded []byte

// MarshalJSON makes Encoded data encode as the value it holds anywhere
// else an envelope is encoded (the event stream).
func (e Encoded) MarshalJSON() ([]byte, error) {
	if len(e) == 0 {
		return []byte("null"), nil
	}
	return e, nil
}

// encodeEnvelope is json.Marshal(env), byte for byte, with Encoded data
// spliced in unscanned. The head is appended field by field (jsondoc
// writes strings and the subject as encoding/json does), without the
// reflection json.Marshal pays on every event.
func encodeEnvelope(env Envelope) ([]byte, error) {
	data, ok := env.Data.(Encoded)
	if y := env.OccurredAt.Year(); !ok || len(data) == 0 || y < 0 || y > 9999 {
		return json.Marshal(env) // which also words the error of a year out of range
	}
	b := make([]byte, 0, 320+len(data))
	b = append(b, `{"id":`...)
	b, _ = jsondoc.Append(b, env.ID)
	b = append(b, `,"type":`...)
	b, _ = jsondoc.Append(b, env.Type)
	b = append(b, `,"name":`...)
	b, _ = jsondoc.Append(b, env.Name)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, int64(env.Version), 10)
	b = append(b, `,"occurredAt":"`...)
	b = env.OccurredAt.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","environment":`...)
	b, _ = jsondoc.Append(b, env.Environment)
	b = append(b, `,"cnpj":`...)
	b, _ = jsondoc.Append(b, env.CNPJ)
	b = append(b, `,"sequence":`...)
	b = strconv.AppendInt(b, env.Sequence, 10)
	b = append(b, `,"subject":`...)
	b, err := jsondoc.Append(b, env.Subject)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"data":`...)
	b = append(b, data...)
	return append(b, '}'), nil
}

// Event is what a domain emits.
type Event struct {
	AppID string
	CNPJ  string
	Type  string
	Name  string
	// Subject names the resource the event is about; SubjectKey orders its
	// deliveries (events of one key are delivered in order). An empty key
	// orders nothing.
	Subject    map[string]any
	SubjectKey string
	Data       any
	// Targets overrides where the event is delivered; nil sends the
	// envelope to the app's webhook URL. Pix callbacks set their own URL
	// suffix and body here.
	Targets []Target
}

// App is what the bus needs of an app: whose it is and where and how its
// events are delivered.
type App struct {
	CompanyID  string
	WebhookURL string
	Secret     string
}

// Target is one webhook delivery of an event.
type Target struct {
	URL  string
	Body []byte
}

// Bus writes events and delivers them.
type Bus struct {
	DB     *store.DB
	Clocks *clock.Clocks
	Jobs   *jobs.Scheduler
	Hub    *Hub
	// Guard is where deliveries may connect; nil is the loopback
	// default. Every webhook request goes through its client, and no
	// other way out of the sandbox exists.
	Guard *Guard
	// Timeout bounds one attempt; zero is 10 seconds.
	Timeout time.Duration
	Log     *slog.Logger
	Backoff []time.Duration
	// AppOf returns an app's company, its webhook URL and the secret its
	// deliveries are signed with.
	AppOf func(ctx context.Context, tx *store.Tx, appID string) (App, error)
	// Faults, when set, may disturb a delivery (the scenario engine).
	Faults WebhookFaults

	// seq is the last sequence number handed out. Emit runs inside write
	// transactions, which the store serialises; a rolled-back event leaves
	// a gap, which resuming clients do not mind.
	seqMu   sync.Mutex
	seq     int64
	seqInit bool

	clientOnce sync.Once
	httpClient *http.Client
}

// client is the guarded client deliveries are made with, made once.
func (b *Bus) client() *http.Client {
	b.clientOnce.Do(func() {
		g := b.Guard
		if g == nil {
			g = DefaultGuard()
		}
		timeout := b.Timeout
		if timeout <= 0 {
			timeout = 10 * time.Second
		}
		b.httpClient = g.Client(timeout)
	})
	return b.httpClient
}

func (b *Bus) nextSeq(ctx context.Context, tx *store.Tx) (int64, error) {
	b.seqMu.Lock()
	defer b.seqMu.Unlock()
	if !b.seqInit {
		// sqlite_sequence remembers the largest sequence ever stored (the
		// table is AUTOINCREMENT): once retention has deleted the newest
		// events, MAX(seq) alone would hand their numbers out again, and a
		// client resuming after one of them would miss what follows.
		if err := tx.QueryRowContext(ctx, `SELECT MAX(COALESCE((SELECT MAX(seq) FROM events), 0),
			COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0))`).Scan(&b.seq); err != nil {
			return 0, err
		}
		b.seqInit = true
	}
	b.seq++
	return b.seq, nil
}

// DefaultBackoff is the wait before each retry of a failed delivery, on the
// sandbox clock: six attempts over about 8.5 hours, then the dead letter.
var DefaultBackoff = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour}

// JobDeliver is the job kind of one delivery attempt.
const JobDeliver = "events.deliver"

// Register installs the bus's job handler. Deliveries run in their
// company's lane (package jobs, lanes.go), concurrently with other
// companies' and with the rest of the jobs: the order that matters, per
// subject, is kept by the queued state (enqueue, release), and no
// transaction is open while a delivery waits on its receiver.
func (b *Bus) Register() {
	b.Jobs.HandleInLanes(JobDeliver, b.deliverJob)
}

func (b *Bus) backoff() []time.Duration {
	if b.Backoff == nil {
		return DefaultBackoff
	}
	return b.Backoff
}

// Emit writes ev in tx, creates its deliveries and, once tx commits,
// publishes it on the hub.
func (b *Bus) Emit(ctx context.Context, tx *store.Tx, ev Event) (Envelope, error) {
	// The event is the company's ctx acts for; the operator's (or a
	// caller's of no company) is its app's company's. The app is read
	// only when the event goes to its webhook or names its company: Pix
	// callbacks name their targets, and reading the app for each was a
	// cost of every charge.
	sc, _ := tenant.Of(ctx)
	company, one := sc.Company()
	var app App
	if ev.AppID != "" && (ev.Targets == nil || !one) {
		var err error
		if app, err = b.AppOf(ctx, tx, ev.AppID); err != nil {
			return Envelope{}, fmt.Errorf("emit %s: %w", ev.Type, err)
		}
		if !one {
			company, one = app.CompanyID, tenant.Named(app.CompanyID)
		}
	}
	if !one {
		return Envelope{}, fmt.Errorf("emit %s: %w", ev.Type, tenant.NoCompany())
	}
	env := Envelope{
		ID: b.DB.IDs.UUID(), Type: ev.Type, Name: ev.Name, Version: 1, OccurredAt: b.Clocks.NowOf(company),
		Environment: "sandbox", CNPJ: ev.CNPJ, Subject: ev.Subject, Data: ev.Data, CompanyID: company,
	}
	if env.Subject == nil {
		env.Subject = map[string]any{}
	}
	if env.Data == nil {
		env.Data = map[string]any{}
	}
	key := ev.SubjectKey
	if key == "" {
		key = "event:" + env.ID
	}
	seq, err := b.nextSeq(ctx, tx)
	if err != nil {
		return Envelope{}, fmt.Errorf("emit %s: %w", ev.Type, err)
	}
	env.Sequence = seq
	body, err := encodeEnvelope(env)
	if err != nil {
		return Envelope{}, fmt.Errorf("emit %s: %w", ev.Type, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO events (seq, id, app_id, company_id, cnpj, type, subject_key, occurred_at, envelope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		env.Sequence, env.ID, ev.AppID, company, ev.CNPJ, ev.Type, key, env.OccurredAt.UnixNano(), string(body)); err != nil {
		return Envelope{}, fmt.Errorf("emit %s: %w", ev.Type, err)
	}
	targets := ev.Targets
	if targets == nil && app.WebhookURL != "" {
		targets = []Target{{URL: app.WebhookURL, Body: body}}
	}
	// A delivery is its event's company's: due on its clock, and run in
	// its lane, whoever caused the event.
	dctx := ctx
	if own, _ := sc.Company(); own != company {
		dctx = tenant.With(ctx, company)
	}
	for _, t := range targets {
		if _, err := b.enqueue(dctx, tx, env.Sequence, ev.AppID, key, t); err != nil {
			return Envelope{}, fmt.Errorf("emit %s: %w", ev.Type, err)
		}
	}
	if b.Hub != nil {
		tx.AfterCommit(func() { b.Hub.Publish(env) })
	}
	return env, nil
}

// enqueue creates a delivery: pending with a job when nothing earlier of
// the same subject is still on its way, queued behind it otherwise.
func (b *Bus) enqueue(ctx context.Context, tx *store.Tx, seq int64, appID, key string, t Target) (string, error) {
	var waiting bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM deliveries WHERE app_id = ? AND subject_key = ? AND status IN ('pending', 'queued'))`,
		appID, key).Scan(&waiting); err != nil {
		return "", err
	}
	id := b.DB.IDs.UUID()
	now := b.Clocks.Now(ctx)
	status := statusPending
	if waiting {
		status = statusQueued
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO deliveries (id, event_seq, app_id, url, body, subject_key, status, next_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, seq, appID, t.URL, string(t.Body), key, status, now.UnixNano(), now.UnixNano(), now.UnixNano()); err != nil {
		return "", err
	}
	if status == statusPending {
		if _, err := b.Jobs.Schedule(ctx, tx, JobDeliver, now, deliverPayload{DeliveryID: id}); err != nil {
			return "", err
		}
	}
	return id, nil
}

// Events returns the envelopes f's company (or, for the operator's
// filter, every company, or one CNPJ) may see after sequence since,
// oldest first, at most limit.
func (b *Bus) Events(ctx context.Context, f Filter, since int64, limit int) ([]Envelope, error) {
	var out []Envelope
	err := b.DB.Read(ctx, func(tx *store.Tx) error {
		// Only the terms set: a company's page then walks its own events
		// (events_company), not every company's after since.
		q, args := `SELECT envelope, company_id FROM events WHERE seq > ?`, []any{since}
		if !f.Every {
			q, args = q+` AND company_id = ?`, append(args, f.CompanyID)
		}
		if f.CNPJ != "" {
			q, args = q+` AND cnpj = ?`, append(args, f.CNPJ)
		}
		rows, err := tx.QueryContext(ctx, q+` ORDER BY seq LIMIT ?`, append(args, limit)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s, company string
			if err := rows.Scan(&s, &company); err != nil {
				return err
			}
			var e Envelope
			if err := json.Unmarshal([]byte(s), &e); err != nil {
				return err
			}
			e.CompanyID = company
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	return out, nil
}
