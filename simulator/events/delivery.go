package events

import (
	"bytes"
	"context"
	"crypto/tls"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"homologa/simulator/errs"
	"homologa/simulator/jobs"
	"homologa/simulator/store"
)

// Delivery statuses.
const (
	statusQueued    = "queued"
	statusPending   = "pending"
	statusDelivered = "delivered"
	statusDead      = "dead"
)

type deliverPayload struct {
	DeliveryID string `json:"deliveryId"`
}

// Delivery is one event sent to one webhook URL, with every attempt.
type Delivery struct {
	ID         string     `json:"id"`
	EventSeq   int64      `json:"eventSequence"`
	EventID    string     `json:"eventId"`
	EventType  string     `json:"eventType"`
	CompanyID  string     `json:"-"`
	AppID      string     `json:"appId"`
	URL        string     `json:"url"`
	SubjectKey string     `json:"subjectKey"`
	Status     string     `json:"status"`
	Attempts   []Attempt  `json:"attempts"`
	NextAt     *time.Time `json:"nextAttemptAt,omitempty"`
	Injected   string     `json:"injected,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	UpdatedAt  time.Time  `json:"updatedAt"`
	Body       string     `json:"body,omitempty"`
}

// Attempt is one try of a delivery.
type Attempt struct {
	N          int       `json:"n"`
	At         time.Time `json:"at"`
	WallAt     time.Time `json:"wallAt"`
	StatusCode int       `json:"statusCode"`
	LatencyMS  float64   `json:"latencyMs"`
	Error      string    `json:"error,omitempty"`
	Response   string    `json:"response"`
	Replay     bool      `json:"replay,omitempty"`
}

func (b *Bus) deliverJob(ctx context.Context, j jobs.Job) error {
	var p deliverPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return fmt.Errorf("delivery job payload: %w", err)
	}
	d, secret, err := b.load(ctx, p.DeliveryID)
	if err != nil {
		return err
	}
	if d.Status != statusPending && d.Status != statusHeld {
		return nil // replayed to success, or a duplicate job after a crash
	}
	var f *WebhookFault
	if b.Faults != nil && d.Status != statusHeld {
		f = b.Faults.Webhook(d.CompanyID, d.AppID, d.EventType)
	}
	if f != nil && (f.Drop || f.Delay > 0 || f.OutOfOrder) {
		return b.DB.Tx(ctx, func(tx *store.Tx) error { return b.disturb(ctx, tx, d, f) })
	}
	n := len(d.Attempts) + 1
	var tries []Attempt
	switch {
	case f != nil && f.BadSignature:
		tries = append(tries, b.attempt(ctx, d, signing{secret: "whsec_wrong_secret_injected_by_homologa"}, n, false))
	case f != nil && f.StaleSignature:
		tries = append(tries, b.attempt(ctx, d, signing{secret: secret, age: staleSignature}, n, false))
	case f != nil && f.Unsigned:
		tries = append(tries, b.attempt(ctx, d, signing{}, n, false))
	case f != nil && f.Duplicate:
		tries = append(tries, b.attempt(ctx, d, signing{secret: secret}, n, false), b.attempt(ctx, d, signing{secret: secret}, n+1, false))
	default:
		tries = append(tries, b.attempt(ctx, d, signing{secret: secret}, n, false))
	}
	a := tries[len(tries)-1]
	return b.DB.Tx(ctx, func(tx *store.Tx) error {
		for _, t := range tries {
			if err := b.recordAttempt(ctx, tx, d.ID, t); err != nil {
				return err
			}
		}
		if f != nil {
			if err := b.markInjected(ctx, tx, d.ID, f.Name); err != nil {
				return err
			}
		}
		now := b.Clocks.Now(ctx)
		switch {
		case a.ok():
			return b.finish(ctx, tx, d, statusDelivered)
		case a.N > len(b.backoff()):
			return b.finish(ctx, tx, d, statusDead)
		default:
			// A held delivery that fails is retried as any other: pending,
			// so what its subject emits next waits for it again.
			next := now.Add(b.backoff()[a.N-1])
			if _, err := tx.ExecContext(ctx, `UPDATE deliveries SET status = ?, next_at = ?, updated_at = ? WHERE id = ?`, statusPending, next.UnixNano(), now.UnixNano(), d.ID); err != nil {
				return err
			}
			_, err := b.Jobs.Schedule(ctx, tx, JobDeliver, next, deliverPayload{DeliveryID: d.ID})
			return err
		}
	})
}

// WebhookFaults is where the dispatcher asks whether to disturb a
// delivery; the scenario engine answers.
type WebhookFaults interface {
	Webhook(companyID, appID, eventType string) *WebhookFault
}

// WebhookFault is what an injected fault does to one delivery. Name says
// which fault, for the delivery log.
type WebhookFault struct {
	Name         string
	Drop         bool
	Delay        time.Duration
	Duplicate    bool
	OutOfOrder   bool
	BadSignature bool
	// StaleSignature signs the attempt with a t ten minutes old; Unsigned
	// sends it without Homologa-Signature. The retry is right.
	StaleSignature bool
	Unsigned       bool
}

// holdOutOfOrder is how long, on the sandbox clock, an out-of-order
// delivery waits so that the one after it arrives first.
const holdOutOfOrder = time.Minute

// statusHeld is a delivery an out-of-order fault holds back: unlike a
// pending one, it does not make what its subject emits next wait behind
// it, so the next event of the same proposal or charge is delivered
// first, as a retried delivery arrives late in production.
const statusHeld = "held"

// Dropped is the status of a delivery an injected fault lost: the sandbox
// acts as if it had been sent, and the partner never hears of it.
const statusDropped = "dropped"

// disturb applies a fault that changes when (or whether) a delivery goes.
func (b *Bus) disturb(ctx context.Context, tx *store.Tx, d Delivery, f *WebhookFault) error {
	if err := b.markInjected(ctx, tx, d.ID, f.Name); err != nil {
		return err
	}
	now := b.Clocks.Now(ctx)
	if f.Drop {
		if err := b.recordAttempt(ctx, tx, d.ID, Attempt{N: len(d.Attempts) + 1, At: now, WallAt: time.Now().UTC(), Error: "dropped by an injected fault: " + f.Name}); err != nil {
			return err
		}
		return b.finish(ctx, tx, d, statusDropped)
	}
	hold, status := f.Delay, statusPending
	if f.OutOfOrder {
		hold, status = holdOutOfOrder, statusHeld
		// What waits behind it on its subject goes first, and so does
		// what its subject emits while it is held.
		if err := b.release(ctx, tx, d); err != nil {
			return err
		}
	}
	next := now.Add(hold)
	if _, err := tx.ExecContext(ctx, `UPDATE deliveries SET status = ?, next_at = ?, updated_at = ? WHERE id = ?`, status, next.UnixNano(), now.UnixNano(), d.ID); err != nil {
		return err
	}
	_, err := b.Jobs.Schedule(ctx, tx, JobDeliver, next, deliverPayload{DeliveryID: d.ID})
	return err
}

func (b *Bus) markInjected(ctx context.Context, tx *store.Tx, id, name string) error {
	_, err := tx.ExecContext(ctx, `UPDATE deliveries SET injected = CASE WHEN injected = '' THEN ? ELSE injected || '; ' || ? END WHERE id = ?`, name, name, id)
	return err
}

// finish ends a delivery and releases the next one queued on its subject.
func (b *Bus) finish(ctx context.Context, tx *store.Tx, d Delivery, status string) error {
	now := b.Clocks.Now(ctx)
	if _, err := tx.ExecContext(ctx, `UPDATE deliveries SET status = ?, next_at = NULL, updated_at = ? WHERE id = ?`, status, now.UnixNano(), d.ID); err != nil {
		return err
	}
	if d.Status == statusHeld {
		return nil // nothing waits behind a held delivery
	}
	return b.release(ctx, tx, d)
}

// release makes the next delivery queued behind d on its subject pending.
func (b *Bus) release(ctx context.Context, tx *store.Tx, d Delivery) error {
	now := b.Clocks.Now(ctx)
	var next string
	err := tx.QueryRowContext(ctx, `SELECT id FROM deliveries WHERE app_id = ? AND subject_key = ? AND status = 'queued' ORDER BY event_seq, created_at LIMIT 1`,
		d.AppID, d.SubjectKey).Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE deliveries SET status = 'pending', next_at = ?, updated_at = ? WHERE id = ?`, now.UnixNano(), now.UnixNano(), next); err != nil {
		return err
	}
	_, err = b.Jobs.Schedule(ctx, tx, JobDeliver, now, deliverPayload{DeliveryID: next})
	return err
}

func (a Attempt) ok() bool { return a.StatusCode >= 200 && a.StatusCode < 300 }

// attempt POSTs the delivery once. The signature is made with the app's
// current secret and the wall clock.
// signing is how an attempt is signed: with the app's webhook secret at
// the wall clock's now, or as an injected fault makes it (another secret;
// a t of long ago; secret "": no signature at all).
type signing struct {
	secret string
	age    time.Duration
}

// staleSignature is how old a stale_signature fault's t is: twice the
// five minutes a careful receiver tolerates.
const staleSignature = 10 * time.Minute

func (b *Bus) attempt(ctx context.Context, d Delivery, sig signing, n int, replay bool) Attempt {
	a := Attempt{N: n, At: b.Clocks.Now(ctx), WallAt: time.Now().UTC(), Replay: replay}
	body := []byte(d.Body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		a.Error = err.Error()
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Homologa-Webhooks/1")
	if sig.secret != "" {
		req.Header.Set(SignatureHeader, Sign(sig.secret, a.WallAt.Add(-sig.age), body))
	}
	req.Header.Set("Homologa-Delivery-Id", d.ID)
	req.Header.Set("Homologa-Event-Id", d.EventID)
	req.Header.Set("Homologa-Event-Type", d.EventType)
	req.Header.Set("Homologa-Attempt", strconv.Itoa(n))
	start := time.Now()
	resp, err := b.client().Do(req)
	a.LatencyMS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		a.Error = transportError(err)
		// How long a connection took to fail tells a closed port (at
		// once) from a filtered one (the timeout): not shown either.
		a.LatencyMS = 0
		return a
	}
	defer resp.Body.Close()
	a.StatusCode = resp.StatusCode
	switch {
	case a.ok():
		// Only an accepted delivery shows what the receiver said: a
		// refused one is nobody's event, and its answer could be any
		// service's that a webhook URL was pointed at.
		excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		for !utf8.Valid(excerpt) && len(excerpt) > 0 {
			excerpt = excerpt[:len(excerpt)-1]
		}
		a.Response = string(excerpt)
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		a.Error = redirectNotFollowed(resp)
	default:
		a.Error = "non-2xx answer: " + resp.Status
	}
	return a
}

// transportError is the log's text for a delivery that got no answer. A
// refusal says why: nothing was dialled. Any other failure, before an
// answer, says the same words whatever happened (refused, reset, timed
// out, unreachable, unresolved): the delivery log must not work as a port
// scanner, telling a closed port from a filtered one. A certificate the
// partner must fix is named, since only an open, answering TLS port gets
// that far.
func transportError(err error) string {
	if r, ok := Refusal(err); ok {
		return r.Error()
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return "certificado TLS do webhook não é válido: " + cert.Err.Error()
	}
	return "sem resposta do webhook: a conexão falhou ou o tempo se esgotou antes de uma resposta HTTP"
}

// redirectNotFollowed is the log's text for a 3xx answer. A redirect is a
// failed attempt: following it would send the signed event to a place
// nobody registered (and the guard would have to be trusted alone).
func redirectNotFollowed(resp *http.Response) string {
	msg := fmt.Sprintf("redirecionamento não seguido: %d", resp.StatusCode)
	if loc, err := resp.Location(); err == nil {
		msg += " para " + loc.String()
	}
	return msg + "; o webhook deve responder 2xx no endereço cadastrado"
}

func (b *Bus) recordAttempt(ctx context.Context, tx *store.Tx, id string, a Attempt) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO delivery_attempts (delivery_id, n, at, wall_at, status_code, latency_us, error, response, replay)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, a.N, a.At.UnixNano(), a.WallAt.UnixNano(), a.StatusCode, int64(a.LatencyMS*1000), a.Error, a.Response, a.Replay)
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE deliveries SET attempts = attempts + 1, updated_at = ? WHERE id = ?`, b.Clocks.Now(ctx).UnixNano(), id)
	}
	return err
}

const deliveryColumns = `d.id, d.event_seq, e.id, e.type, e.company_id, d.app_id, d.url, d.subject_key, d.status, d.next_at, d.injected, d.created_at, d.updated_at, d.body`

func scanDelivery(row interface{ Scan(...any) error }) (Delivery, error) {
	var d Delivery
	var next sql.NullInt64
	var created, updated int64
	err := row.Scan(&d.ID, &d.EventSeq, &d.EventID, &d.EventType, &d.CompanyID, &d.AppID, &d.URL, &d.SubjectKey, &d.Status, &next, &d.Injected, &created, &updated, &d.Body)
	if next.Valid && (d.Status == statusPending || d.Status == statusHeld) {
		t := time.Unix(0, next.Int64).UTC()
		d.NextAt = &t
	}
	d.CreatedAt, d.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return d, err
}

func (b *Bus) load(ctx context.Context, id string) (Delivery, string, error) {
	var d Delivery
	var secret string
	err := b.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		d, err = scanDelivery(tx.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM deliveries d JOIN events e ON e.seq = d.event_seq WHERE d.id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return errs.Errorf(errs.NotFound, "não há entrega %q", id)
		}
		if err != nil {
			return err
		}
		if d.Attempts, err = attempts(ctx, tx, id); err != nil {
			return err
		}
		if d.AppID != "" {
			var app App
			app, err = b.AppOf(ctx, tx, d.AppID)
			secret = app.Secret
		}
		return err
	})
	if err != nil {
		return Delivery{}, "", fmt.Errorf("load delivery: %w", err)
	}
	return d, secret, nil
}

func attempts(ctx context.Context, tx *store.Tx, id string) ([]Attempt, error) {
	rows, err := tx.QueryContext(ctx, `SELECT n, at, wall_at, status_code, latency_us, error, response, replay FROM delivery_attempts WHERE delivery_id = ? ORDER BY id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Attempt{}
	for rows.Next() {
		var a Attempt
		var at, wall, lat int64
		if err := rows.Scan(&a.N, &at, &wall, &a.StatusCode, &lat, &a.Error, &a.Response, &a.Replay); err != nil {
			return nil, err
		}
		a.At, a.WallAt, a.LatencyMS = time.Unix(0, at).UTC(), time.Unix(0, wall).UTC(), float64(lat)/1000
		out = append(out, a)
	}
	return out, rows.Err()
}

// Delivery returns one delivery with its attempts and body.
func (b *Bus) Delivery(ctx context.Context, id string) (Delivery, error) {
	d, _, err := b.load(ctx, id)
	return d, err
}

// DeliveryFilter selects deliveries for the log.
type DeliveryFilter struct {
	// CompanyID limits the list to one company's; EveryCompany (the
	// operator's view) lists every company's.
	CompanyID    string
	EveryCompany bool
	AppID        string
	Status       string
	EventType    string
	EventID      string
	Limit        int
}

// where is the filter's condition with only the terms it sets: written
// as (? = ” OR col = ?), an unset term still kept SQLite from using an
// index for a set one, and a homologation check polling one event's
// deliveries scanned every delivery of the sandbox.
func (f DeliveryFilter) where() (string, []any) {
	conds, args := []string{"1"}, []any{}
	if !f.EveryCompany {
		conds, args = append(conds, "e.company_id = ?"), append(args, f.CompanyID)
	}
	for _, t := range []struct{ col, v string }{{"d.app_id", f.AppID}, {"d.status", f.Status}, {"e.type", f.EventType}, {"e.id", f.EventID}} {
		if t.v != "" {
			conds, args = append(conds, t.col+" = ?"), append(args, t.v)
		}
	}
	return strings.Join(conds, " AND "), args
}

// Deliveries lists deliveries, newest first, with their attempts.
func (b *Bus) Deliveries(ctx context.Context, f DeliveryFilter) ([]Delivery, error) {
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	out := []Delivery{}
	err := b.DB.Read(ctx, func(tx *store.Tx) error {
		where, args := f.where()
		rows, err := tx.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM deliveries d JOIN events e ON e.seq = d.event_seq
			WHERE `+where+` ORDER BY d.event_seq DESC, d.created_at DESC LIMIT ?`, append(args, f.Limit)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			d, err := scanDelivery(rows)
			if err != nil {
				rows.Close()
				return err
			}
			d.Body = ""
			out = append(out, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range out {
			if out[i].Attempts, err = attempts(ctx, tx, out[i].ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list deliveries: %w", err)
	}
	return out, nil
}

// Replay sends a delivery again now, whatever its status, and records the
// attempt as a replay. A dead or pending delivery that succeeds becomes
// delivered and releases what was queued behind it.
func (b *Bus) Replay(ctx context.Context, id string) (Delivery, error) {
	d, secret, err := b.load(ctx, id)
	if err != nil {
		return Delivery{}, err
	}
	a := b.attempt(ctx, d, signing{secret: secret}, len(d.Attempts)+1, true)
	err = b.DB.Tx(ctx, func(tx *store.Tx) error {
		if err := b.recordAttempt(ctx, tx, d.ID, a); err != nil {
			return err
		}
		if a.ok() && (d.Status == statusDead || d.Status == statusPending || d.Status == statusHeld) {
			return b.finish(ctx, tx, d, statusDelivered)
		}
		return nil
	})
	if err != nil {
		return Delivery{}, fmt.Errorf("replay delivery: %w", err)
	}
	return b.Delivery(ctx, id)
}

// ResetCompany deletes a company's events and their deliveries (a reset
// of its sandbox).
func (b *Bus) ResetCompany(ctx context.Context, tx *store.Tx, companyID string, _ []string) error {
	for _, q := range []string{
		`DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT d.id FROM deliveries d JOIN events e ON e.seq = d.event_seq WHERE e.company_id = ?)`,
		`DELETE FROM deliveries WHERE event_seq IN (SELECT seq FROM events WHERE company_id = ?)`,
		`DELETE FROM events WHERE company_id = ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, companyID); err != nil {
			return fmt.Errorf("reset events: %w", err)
		}
	}
	return nil
}

// CompanyOfDelivery names the company a delivery was made for, "" when
// there is no such delivery.
func (b *Bus) CompanyOfDelivery(ctx context.Context, id string) string {
	var company string
	b.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT e.company_id FROM deliveries d JOIN events e ON e.seq = d.event_seq WHERE d.id = ?`, id).Scan(&company)
	})
	return company
}
