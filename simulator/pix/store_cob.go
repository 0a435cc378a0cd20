package pix

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/store"
)

const chargeColumns = `id, company_id, app_id, kind, txid, status, revisao, loc_id, lote_id, created_at, body`

func scanCharge(row store.Scanner) (*charge, error) {
	var c charge
	if err := row.Scan(&c.ID, &c.CompanyID, &c.AppID, &c.Kind, &c.TxID, &c.Status, &c.Revisao, &c.LocID, &c.LoteID, nanos{&c.CreatedAt}, &c.raw); err != nil {
		return nil, err
	}
	return &c, json.Unmarshal([]byte(c.raw), &c.Body)
}

// findCharge finds a company's cob or cobv by txid; nil when none.
func findCharge(ctx context.Context, tx *store.Tx, companyID, txid string) (*charge, error) {
	return store.Maybe(scanCharge(tx.QueryRowContext(ctx, `SELECT `+chargeColumns+` FROM pix_cobs WHERE company_id = ? AND txid = ?`, companyID, txid)))
}

// findChargeByID finds a company's charge by its row id, which its
// location and its Pix keep.
func findChargeByID(ctx context.Context, tx *store.Tx, companyID string, id int64) (*charge, error) {
	return scanCharge(tx.QueryRowContext(ctx, `SELECT `+chargeColumns+` FROM pix_cobs WHERE company_id = ? AND id = ?`, companyID, id))
}

// findChargeTxid is the txid of a company's charge by its row id.
func findChargeTxid(ctx context.Context, tx *store.Tx, companyID string, id int64) (string, error) {
	return store.Value[string](ctx, tx, `SELECT txid FROM pix_cobs WHERE company_id = ? AND id = ?`, companyID, id)
}

// storedCharge is what GET reads of a charge: just enough to answer.
type storedCharge struct {
	id      int64
	kind    string
	revisao int
	body    string
	// paid says whether a Pix paid it: most charges are read unpaid, and
	// asking in the same statement spares GET a second one.
	paid bool
}

// findStoredCharge reads a company's charge for GET; nil when none.
func findStoredCharge(ctx context.Context, tx *store.Tx, companyID, txid string) (*storedCharge, error) {
	var c storedCharge
	err := tx.QueryRowContext(ctx, `SELECT id, kind, revisao, body, EXISTS (SELECT 1 FROM pix_received WHERE cob_id = pix_cobs.id)
		FROM pix_cobs WHERE company_id = ? AND txid = ?`, companyID, txid).
		Scan(&c.id, &c.kind, &c.revisao, &c.body, &c.paid)
	return store.Maybe(&c, err)
}

// findRevision is the last body of an earlier revision of a charge.
func findRevision(ctx context.Context, tx *store.Tx, cobID int64, revisao int) (string, error) {
	return store.Value[string](ctx, tx, `SELECT body FROM pix_cob_revisions WHERE cob_id = ? AND revisao = ?`, cobID, revisao)
}

// insertCharge stores a new charge with its first body.
func insertCharge(ctx context.Context, tx *store.Tx, c *charge, body doc, encoded string) error {
	return exec(ctx, tx, `INSERT INTO pix_cobs (id, company_id, app_id, kind, txid, status, revisao, loc_id, devedor_cpf, devedor_cnpj, created_at, updated_at, body, lote_id, done_at)
		VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.CompanyID, c.AppID, c.Kind, c.TxID, c.Status, c.LocID, str(body, "devedor", "cpf"), str(body, "devedor", "cnpj"),
		c.CreatedAt.UnixNano(), c.CreatedAt.UnixNano(), encoded, c.LoteID, doneAt(c.Kind, c.CreatedAt, body))
}

// chargeFacts is what creating a charge reads before it writes.
type chargeFacts struct {
	taken    bool   // a charge of the company has the txid
	loteItem string // the status of the batch item that holds the txid, "" for none
	keyOwned bool   // the app owns the request's chave
	receiver company
	// cobID and locID are the ids the charge and a new location get: a
	// charge and its location name each other, so both are known before
	// either row is written.
	cobID, locID int64
}

var chargeFactsSQL = `SELECT
	EXISTS (SELECT 1 FROM pix_cobs WHERE company_id = ?1 AND txid = ?2),
	COALESCE((SELECT status FROM pix_lote_items WHERE company_id = ?1 AND txid = ?2), ''),
	EXISTS (SELECT 1 FROM pix_keys WHERE app_id = ?3 AND chave = ?4),
	cnpj, name, ` + nextIDSQL("pix_cobs") + `, ` + nextIDSQL("pix_locs") + `
	FROM companies WHERE id = ?1`

// findChargeFacts reads, in one statement, what creating the charge txid
// of p's company with key chave needs to know.
func findChargeFacts(ctx context.Context, tx *store.Tx, p auth.Principal, txid, chave string) (chargeFacts, error) {
	var f chargeFacts
	err := tx.QueryRowContext(ctx, chargeFactsSQL, p.CompanyID, txid, p.AppID, chave).Scan(&f.taken, &f.loteItem, &f.keyOwned, &f.receiver.CNPJ, &f.receiver.Name, &f.cobID, &f.locID)
	if err != nil {
		return chargeFacts{}, fmt.Errorf("read what charge %s needs: %w", txid, err)
	}
	return f, nil
}

// updateCharge writes a charge's state and current body (a revision may
// change its calendario, so done_at too).
func updateCharge(ctx context.Context, tx *store.Tx, c *charge, body doc, encoded string, now time.Time) error {
	return exec(ctx, tx, `UPDATE pix_cobs SET status = ?, revisao = ?, loc_id = ?, devedor_cpf = ?, devedor_cnpj = ?, updated_at = ?, body = ?, done_at = ? WHERE id = ?`,
		c.Status, c.Revisao, c.LocID, str(body, "devedor", "cpf"), str(body, "devedor", "cnpj"), now.UnixNano(), encoded, doneAt(c.Kind, c.CreatedAt, body), c.ID)
}

// updateChargeUnlinked writes a charge that lost its location.
func updateChargeUnlinked(ctx context.Context, tx *store.Tx, id int64, encoded string) error {
	return exec(ctx, tx, `UPDATE pix_cobs SET loc_id = NULL, body = ? WHERE id = ?`, encoded, id)
}

// archiveRevision keeps the last body of a revision for GET ?revisao=.
func archiveRevision(ctx context.Context, tx *store.Tx, cobID int64, revisao int, body string) error {
	return exec(ctx, tx, `INSERT OR REPLACE INTO pix_cob_revisions (cob_id, revisao, body) VALUES (?, ?, ?)`, cobID, revisao, body)
}

// chargeListing selects a company's charges of a kind for GET /cob and
// GET /cobv.
func chargeListing(companyID, kind string, lq *listQuery, f chargeFilter) listing {
	l := lq.listing(companyID, "pix_cobs", "id, body", "created_at, id")
	l.eq("kind", kind, "devedor_cpf", lq.CPF, "devedor_cnpj", lq.CNPJ, "status", f.status)
	if f.lote >= 0 {
		l.and("lote_id = ?", f.lote)
	}
	l.andIf(f.loc, "loc_id IS NOT NULL", "loc_id IS NULL")
	return l
}

// listedCharge is a row of a charge listing.
type listedCharge struct {
	id   int64
	body doc
}

func scanListedCharge(row store.Scanner) (listedCharge, error) {
	var c listedCharge
	err := row.Scan(&c.id, jsonDoc{&c.body})
	return c, err
}
