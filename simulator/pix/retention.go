package pix

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"homologa/simulator/retention"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// What retention deletes of a company's Pix: charges (cob, cobv) nothing
// can happen to any more, with their locations, revisions, the Pix that
// paid them and those Pix's refunds; and Pix received without a charge,
// with their refunds. Pix Automático and batches are left alone (see
// package retention).

// devolucaoIdle is true of a refund (r) no running scenario drives.
var devolucaoIdle = scenario.Idle("'devolucao'", "r.e2eid || '/' || r.id")

// refundsSettled is true of a Pix (p) none of whose refunds is still
// processing or driven by a running scenario (which would settle it).
var refundsSettled = `NOT EXISTS (SELECT 1 FROM pix_refunds r WHERE r.e2eid = p.e2eid
	AND (r.status = '` + EmProcessamento + `' OR NOT ` + devolucaoIdle + `))`

// refundClosed is true of a Pix (p) whose refund window (devolucaoWindow,
// 90 days on its company's clock) closed before :refundable: a partner
// may refund a Pix until then, so retention keeps it, and the charge it
// paid, that long whatever the retention age. The callers set
// :refundable to the cut minus the window: an aged Pix is one whose
// window closed before the age cut, so a refund asked on day 91 still
// finds its Pix and is refused for its date, not as unknown.
const refundClosed = `p.horario < :refundable`

// chargeDone is true of a charge (c) nothing can happen to any more, at
// :now on its company's clock:
//   - it is CONCLUIDA or removed, or it is ATIVA past done_at, when it
//     can no longer be paid (doneAt);
//   - it is in no batch (a batch lists its charges);
//   - no running scenario drives it (a step would pay or remove it);
//   - none of its Pix has a refund still processing, and every one of
//     them is past its refund window (refundClosed).
//
// A recurrence of journeys 3 and 4 names a charge, but acts on it only
// when the charge is paid, which a charge that is done cannot be.
var chargeDone = fmt.Sprintf(`c.lote_id IS NULL AND (c.status IN ('%s', '%s', '%s') OR (c.status = '%s' AND c.done_at <= :now))
	AND %s
	AND NOT EXISTS (SELECT 1 FROM pix_received p WHERE p.cob_id = c.id AND NOT (%s AND %s))`,
	Concluida, RemovidaUsuario, RemovidaPeloPSP, Ativa,
	scenario.Idle("c.kind", "c.company_id || '/' || c.txid"), refundsSettled, refundClosed)

// refundableBefore is the :refundable of a cut at the instant cut.
func refundableBefore(cut time.Time) sql.NamedArg {
	return sql.Named("refundable", cut.Add(-devolucaoWindow).UnixNano())
}

// doneAt is when an active charge can no longer be paid, as retention
// reads it (the done_at column, written with every body): a cob a
// nanosecond past calendario.expiracao (expiry); a cobv at the start (UTC)
// of the eleventh day after its due date plus validadeAposVencimento,
// ten days to spare for the weekends and holidays that push its last
// day (duedate.PayableUntil has the calendar, and a company's holidays
// may change after the charge is written). Null when the body has no
// date that reads (never done while active).
func doneAt(kind string, created time.Time, body doc) sql.NullInt64 {
	if kind == "cob" {
		at, err := expiry(&charge{Kind: kind, CreatedAt: created, Body: body})
		return sql.NullInt64{Int64: at.UnixNano() + 1, Valid: err == nil}
	}
	cal := sub(body, "calendario")
	due, err := time.Parse(time.DateOnly, str(cal, "dataDeVencimento"))
	if err != nil {
		return sql.NullInt64{}
	}
	validity := 30 // as dueCharge reads it
	if v, ok := cal["validadeAposVencimento"].(float64); ok {
		validity = int(v)
	}
	return sql.NullInt64{Int64: due.AddDate(0, 0, validity+11).UnixNano(), Valid: true}
}

// pixDone is true of a Pix received without a charge (p) whose refunds
// are settled and whose refund window is closed.
var pixDone = `p.cob_id IS NULL AND ` + refundsSettled + ` AND ` + refundClosed

// Prune implements retention.Table for the Pix of a company: charges and
// Pix without a charge that are done with, those last changed (a Pix:
// received) before c.Before first, then the oldest beyond the newest
// c.Keep of each kind. A batch counts the charges and the Pix; each
// charge takes its location, revisions, Pix and refunds along.
func (s *Service) Prune(ctx context.Context, tx *store.Tx, c retention.Cut) (int, error) {
	now := s.nowOf(c.Company)
	steps := []func(limit int) (int, error){
		func(limit int) (int, error) { return pruneAgedCharges(ctx, tx, c, now, limit) },
		func(limit int) (int, error) { return pruneAgedPix(ctx, tx, c.Company, c.Before, limit) },
		func(limit int) (int, error) { return pruneChargesBeyond(ctx, tx, c, "cob", now, limit) },
		func(limit int) (int, error) { return pruneChargesBeyond(ctx, tx, c, "cobv", now, limit) },
		func(limit int) (int, error) { return prunePixBeyond(ctx, tx, c, now, limit) },
	}
	n := 0
	for _, step := range steps {
		if n >= c.Limit {
			break
		}
		m, err := step(c.Limit - n)
		n += m
		if err != nil {
			return n, fmt.Errorf("prune Pix: %w", err)
		}
	}
	return n, nil
}

// pruneAgedCharges deletes charges done with and last changed before
// before.
func pruneAgedCharges(ctx context.Context, tx *store.Tx, c retention.Cut, now time.Time, limit int) (int, error) {
	if c.Before.IsZero() {
		return 0, nil
	}
	ids, err := retention.Scan(ctx, tx, c, "pix_cobs/aged", limit, `SELECT c.id, c.updated_at, `+chargeDone+` FROM pix_cobs c
		WHERE c.company_id = :company AND c.updated_at < :before`, "c.updated_at", "c.id",
		sql.Named("company", c.Company), sql.Named("before", c.Before.UnixNano()), sql.Named("now", now.UnixNano()), refundableBefore(c.Before))
	if err != nil {
		return 0, err
	}
	return len(ids), deleteCharges(ctx, tx, ids)
}

// pruneChargesBeyond deletes a company's charges of a kind done with and
// older than its newest c.Keep.
func pruneChargesBeyond(ctx context.Context, tx *store.Tx, c retention.Cut, kind string, now time.Time, limit int) (int, error) {
	if c.Keep <= 0 {
		return 0, nil
	}
	// The keep-th newest charge is the oldest kept.
	return c.Beyond("pix_cobs/"+kind, limit,
		func() (int64, bool, error) {
			return retention.Bound(ctx, tx, `SELECT created_at FROM pix_cobs WHERE company_id = ? AND kind = ? ORDER BY created_at DESC LIMIT 1 OFFSET ?`,
				c.Company, kind, c.Keep-1)
		},
		func(boundary int64, limit int) (int, error) {
			ids, err := retention.Scan(ctx, tx, c, "pix_cobs/"+kind, limit, `SELECT c.id, c.created_at, `+chargeDone+` FROM pix_cobs c
				WHERE c.company_id = :company AND c.kind = :kind AND c.created_at < :boundary`, "c.created_at", "c.id",
				sql.Named("company", c.Company), sql.Named("kind", kind), sql.Named("boundary", boundary), sql.Named("now", now.UnixNano()), refundableBefore(now))
			if err != nil {
				return 0, err
			}
			return len(ids), deleteCharges(ctx, tx, ids)
		})
}

// pruneAgedPix deletes Pix without a charge whose refund window closed
// before before.
func pruneAgedPix(ctx context.Context, tx *store.Tx, company string, before time.Time, limit int) (int, error) {
	if before.IsZero() {
		return 0, nil
	}
	e2eids, err := store.All(ctx, tx, scanString, `SELECT p.e2eid FROM pix_received p WHERE p.company_id = :company AND `+pixDone+`
		ORDER BY p.horario LIMIT :limit`, sql.Named("company", company), refundableBefore(before), sql.Named("limit", limit))
	if err != nil {
		return 0, err
	}
	return len(e2eids), deletePix(ctx, tx, e2eids)
}

// prunePixBeyond deletes Pix without a charge older than the company's
// newest c.Keep Pix (those that paid a charge count, and go with it).
func prunePixBeyond(ctx context.Context, tx *store.Tx, c retention.Cut, now time.Time, limit int) (int, error) {
	if c.Keep <= 0 {
		return 0, nil
	}
	return c.Beyond("pix_received", limit,
		func() (int64, bool, error) {
			return retention.Bound(ctx, tx, `SELECT horario FROM pix_received WHERE company_id = ? ORDER BY horario DESC LIMIT 1 OFFSET ?`, c.Company, c.Keep-1)
		},
		func(boundary int64, limit int) (int, error) {
			e2eids, err := store.All(ctx, tx, scanString, `SELECT p.e2eid FROM pix_received p WHERE p.company_id = :company
				AND p.horario < :boundary AND `+pixDone+` ORDER BY p.horario LIMIT :limit`,
				sql.Named("company", c.Company), sql.Named("boundary", boundary), refundableBefore(now), sql.Named("limit", limit))
			if err != nil {
				return 0, err
			}
			return len(e2eids), deletePix(ctx, tx, e2eids)
		})
}

// deleteCharges deletes charges with their Pix and those Pix's refunds,
// their locations and, by the foreign key's cascade, their revisions.
func deleteCharges(ctx context.Context, tx *store.Tx, ids []int64) error {
	err := store.DeleteIn(ctx, tx, ids,
		`DELETE FROM pix_refunds WHERE e2eid IN (SELECT e2eid FROM pix_received WHERE cob_id IN (SELECT value FROM json_each(?)))`,
		`DELETE FROM pix_received WHERE cob_id IN (SELECT value FROM json_each(?))`,
		// A charge's location by the charge's loc_id (its primary key), which
		// spares every location written an index by cob_id; cob_id must
		// agree, so a location another charge holds never goes.
		`DELETE FROM pix_locs WHERE id IN (SELECT loc_id FROM pix_cobs WHERE id IN (SELECT value FROM json_each(?1))) AND cob_id IN (SELECT value FROM json_each(?1))`,
		`DELETE FROM pix_cobs WHERE id IN (SELECT value FROM json_each(?))`)
	if err != nil {
		return fmt.Errorf("delete charges: %w", err)
	}
	return nil
}

// deletePix deletes Pix without a charge and their refunds.
func deletePix(ctx context.Context, tx *store.Tx, e2eids []string) error {
	err := store.DeleteIn(ctx, tx, e2eids,
		`DELETE FROM pix_refunds WHERE e2eid IN (SELECT value FROM json_each(?))`,
		`DELETE FROM pix_received WHERE e2eid IN (SELECT value FROM json_each(?))`)
	if err != nil {
		return fmt.Errorf("delete Pix: %w", err)
	}
	return nil
}
