package pix

import (
	"context"
	"encoding/json"
	"time"

	"homologa/simulator/store"
)

const cobrColumns = `company_id, txid, app_id, id_rec, status, vencimento, body`

func scanCobR(row scanner) (*cobr, error) {
	var c cobr
	var body string
	if err := row.Scan(&c.CompanyID, &c.TxID, &c.AppID, &c.IDRec, &c.Status, &c.Vencimento, &body); err != nil {
		return nil, err
	}
	return &c, json.Unmarshal([]byte(body), &c.Body)
}

// findCobR finds a company's recurring charge; nil when none.
func findCobR(ctx context.Context, tx *store.Tx, companyID, txid string) (*cobr, error) {
	return maybe(scanCobR(tx.QueryRowContext(ctx, `SELECT `+cobrColumns+` FROM pix_cobrs WHERE company_id = ? AND txid = ?`, companyID, txid)))
}

// findCobRByTxid finds a recurring charge by its txid alone, whoever owns
// it (the first, should receivers share a txid). Only the simulated payer
// of the control API calls it: it knows the charge by its txid only.
func findCobRByTxid(ctx context.Context, tx *store.Tx, txid string) (*cobr, error) {
	return maybe(scanCobR(tx.QueryRowContext(ctx, `SELECT `+cobrColumns+` FROM pix_cobrs WHERE txid = ?`, txid)))
}

// findOpenCobRs lists the charges of a recurrence not yet settled.
func findOpenCobRs(ctx context.Context, tx *store.Tx, companyID, idRec string) ([]*cobr, error) {
	return queryAll(ctx, tx, scanCobR, `SELECT `+cobrColumns+` FROM pix_cobrs WHERE company_id = ? AND id_rec = ? AND status IN (?, ?)`,
		companyID, idRec, CobRCriada, CobRAtiva)
}

// findCobRVencimentos lists the due dates of a recurrence's charges that
// were not rejected or cancelled.
func findCobRVencimentos(ctx context.Context, tx *store.Tx, idRec string) ([]string, error) {
	return queryAll(ctx, tx, scanString, `SELECT vencimento FROM pix_cobrs WHERE id_rec = ? AND status NOT IN (?, ?)`, idRec, CobRRejeitada, CobRCancelada)
}

func insertCobR(ctx context.Context, tx *store.Tx, c *cobr, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO pix_cobrs (company_id, txid, app_id, id_rec, status, vencimento, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.CompanyID, c.TxID, c.AppID, c.IDRec, c.Status, c.Vencimento, marshal(c.Body), now.UnixNano(), now.UnixNano())
	return err
}

func updateCobR(ctx context.Context, tx *store.Tx, c *cobr, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE pix_cobrs SET status = ?, body = ?, updated_at = ? WHERE company_id = ? AND txid = ?`,
		c.Status, marshal(c.Body), now.UnixNano(), c.CompanyID, c.TxID)
	return err
}

func cobrListing(companyID string, lq *listQuery, f cobrFilter) listing {
	l := listing{from: "pix_cobrs c JOIN pix_recs r ON r.id_rec = c.id_rec", columns: "c.body", order: "c.created_at, c.txid"}
	l.and("c.company_id = ? AND c.created_at >= ? AND c.created_at <= ?", companyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano())
	if f.idRec != "" {
		l.and("c.id_rec = ?", f.idRec)
	}
	if f.status != "" {
		l.and("c.status = ?", f.status)
	}
	if lq.CPF != "" {
		l.and("r.cpf = ?", lq.CPF)
	}
	if lq.CNPJ != "" {
		l.and("r.cnpj = ?", lq.CNPJ)
	}
	if f.convenio != "" {
		l.and("r.convenio = ?", f.convenio)
	}
	return l
}
