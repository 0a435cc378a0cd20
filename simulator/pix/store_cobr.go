package pix

import (
	"context"
	"time"

	"homologa/simulator/store"
)

const cobrColumns = `company_id, txid, app_id, id_rec, status, vencimento, body`

func scanCobR(row store.Scanner) (*cobr, error) {
	var c cobr
	return &c, row.Scan(&c.CompanyID, &c.TxID, &c.AppID, &c.IDRec, &c.Status, &c.Vencimento, jsonDoc{&c.Body})
}

// findCobR finds a company's recurring charge; nil when none.
func findCobR(ctx context.Context, tx *store.Tx, companyID, txid string) (*cobr, error) {
	return store.Maybe(scanCobR(tx.QueryRowContext(ctx, `SELECT `+cobrColumns+` FROM pix_cobrs WHERE company_id = ? AND txid = ?`, companyID, txid)))
}

// findOpenCobRs lists the charges of a recurrence not yet settled.
func findOpenCobRs(ctx context.Context, tx *store.Tx, companyID, idRec string) ([]*cobr, error) {
	return store.All(ctx, tx, scanCobR, `SELECT `+cobrColumns+` FROM pix_cobrs WHERE company_id = ? AND id_rec = ? AND status IN (?, ?)`,
		companyID, idRec, CobRCriada, CobRAtiva)
}

// findCobRVencimentos lists the due dates of a company's recurrence's
// charges that were not rejected or cancelled.
func findCobRVencimentos(ctx context.Context, tx *store.Tx, companyID, idRec string) ([]string, error) {
	return store.All(ctx, tx, scanString, `SELECT vencimento FROM pix_cobrs WHERE company_id = ? AND id_rec = ? AND status NOT IN (?, ?)`,
		companyID, idRec, CobRRejeitada, CobRCancelada)
}

func insertCobR(ctx context.Context, tx *store.Tx, c *cobr, now time.Time) error {
	return exec(ctx, tx, `INSERT INTO pix_cobrs (company_id, txid, app_id, id_rec, status, vencimento, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.CompanyID, c.TxID, c.AppID, c.IDRec, c.Status, c.Vencimento, marshal(c.Body), now.UnixNano(), now.UnixNano())
}

func updateCobR(ctx context.Context, tx *store.Tx, c *cobr, now time.Time) error {
	return exec(ctx, tx, `UPDATE pix_cobrs SET status = ?, body = ?, updated_at = ? WHERE company_id = ? AND txid = ?`,
		c.Status, marshal(c.Body), now.UnixNano(), c.CompanyID, c.TxID)
}

func cobrListing(companyID string, lq *listQuery, f cobrFilter) listing {
	l := lq.listingAt(companyID, "pix_cobrs c JOIN pix_recs r ON r.id_rec = c.id_rec", "c.body", "c.created_at, c.txid", "c.", "created_at")
	l.eq("c.id_rec", f.idRec, "c.status", f.status, "r.cpf", lq.CPF, "r.cnpj", lq.CNPJ, "r.convenio", f.convenio)
	return l
}
