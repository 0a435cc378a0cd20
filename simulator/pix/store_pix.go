package pix

import (
	"context"
	"fmt"

	"homologa/simulator/store"
)

const pixColumns = `e2eid, company_id, app_id, chave, txid, cob_id, valor, horario, body`

func scanPix(row store.Scanner) (*pixRecebido, error) {
	var p pixRecebido
	return &p, row.Scan(&p.E2EID, &p.CompanyID, &p.AppID, &p.Chave, &p.TxID, &p.CobID, &p.Valor, nanos{&p.Horario}, jsonDoc{&p.Body})
}

func findPix(ctx context.Context, tx *store.Tx, companyID, e2eid string) (*pixRecebido, error) {
	return store.Maybe(scanPix(tx.QueryRowContext(ctx, `SELECT `+pixColumns+` FROM pix_received WHERE company_id = ? AND e2eid = ?`, companyID, e2eid)))
}

// findPixCompany is the receiver of a Pix, found by its endToEndId alone:
// the scenario engine knows a refund by its Pix and id only.
func findPixCompany(ctx context.Context, tx *store.Tx, e2eid string) (string, error) {
	return store.Value[string](ctx, tx, `SELECT company_id FROM pix_received WHERE e2eid = ?`, e2eid)
}

// findPixOfCharge lists the Pix that paid a charge, oldest first.
func findPixOfCharge(ctx context.Context, tx *store.Tx, cobID int64) ([]*pixRecebido, error) {
	// Most charges are read unpaid: a one-row probe costs less than
	// opening a result set that turns out empty.
	if paid, err := store.Value[bool](ctx, tx, `SELECT EXISTS (SELECT 1 FROM pix_received WHERE cob_id = ?)`, cobID); err != nil || !paid {
		return nil, err
	}
	return store.All(ctx, tx, scanPix, `SELECT `+pixColumns+` FROM pix_received WHERE cob_id = ? ORDER BY horario, e2eid`, cobID)
}

// insertPix stores a received Pix with the CPF or CNPJ of who paid.
func insertPix(ctx context.Context, tx *store.Tx, p *pixRecebido, in Payment) error {
	cpf, cnpj := in.payer()
	err := exec(ctx, tx, `INSERT INTO pix_received (e2eid, company_id, app_id, chave, txid, cob_id, valor, pagador_cpf, pagador_cnpj, horario, body)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.E2EID, p.CompanyID, p.AppID, p.Chave, p.TxID, p.CobID, p.Valor, cpf, cnpj, p.Horario.UnixNano(), marshal(p.Body))
	if err != nil {
		return fmt.Errorf("store the Pix: %w", err)
	}
	return nil
}

func pixListing(companyID string, lq *listQuery, f pixFilter) listing {
	l := lq.listingAt(companyID, "pix_received", pixColumns, "horario, e2eid", "", "horario")
	l.eq("txid", f.txid, "pagador_cpf", lq.CPF, "pagador_cnpj", lq.CNPJ)
	l.andIf(f.txPresent, "txid <> ''", "txid = ''")
	l.andIf(f.devolucaoPresent, "EXISTS (SELECT 1 FROM pix_refunds d WHERE d.e2eid = pix_received.e2eid)",
		"NOT EXISTS (SELECT 1 FROM pix_refunds d WHERE d.e2eid = pix_received.e2eid)")
	return l
}
