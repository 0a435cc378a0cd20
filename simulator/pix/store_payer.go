package pix

import (
	"context"

	"homologa/simulator/store"
)

// The simulated payer knows what it pays by what a payer holds (a txid, a
// key). The operator's payer acts for no receiver, so these lookups cross
// companies; a company's payer looks among its own (findCompanyKeyReceiver
// and the company's finders).

// findChargeCompanies lists the companies that have a charge with a txid,
// of a receiver's CNPJ when cnpj is not "": the simulated payer knows a
// charge by its txid, which is unique per receiver only.
func findChargeCompanies(ctx context.Context, tx *store.Tx, txid, cnpj string) ([]string, error) {
	if cnpj == "" {
		return store.All(ctx, tx, scanString, `SELECT company_id FROM pix_cobs WHERE txid = ?`, txid)
	}
	return store.All(ctx, tx, scanString, `SELECT p.company_id FROM pix_cobs p JOIN companies c ON c.id = p.company_id WHERE p.txid = ? AND c.cnpj = ?`, txid, cnpj)
}

// findCobRByTxid finds a recurring charge by its txid alone, whoever owns
// it (the first, should receivers share a txid). Only the operator's
// simulated payer calls it: it knows the charge by its txid only.
func findCobRByTxid(ctx context.Context, tx *store.Tx, txid string) (*cobr, error) {
	return store.Maybe(scanCobR(tx.QueryRowContext(ctx, `SELECT `+cobrColumns+` FROM pix_cobrs WHERE txid = ?`, txid)))
}

// findKeyReceiver is the app and company that receive on a key in a
// namespace, the oldest holder when companies share it; both "" when no
// receiver has it.
func findKeyReceiver(ctx context.Context, tx *store.Tx, namespace, chave string) (appID, companyID string, err error) {
	err = tx.QueryRowContext(ctx, `SELECT app_id, company_id FROM pix_keys WHERE namespace = ? AND chave = ? ORDER BY created_at LIMIT 1`, namespace, chave).Scan(&appID, &companyID)
	return appID, companyID, store.NoRow(err)
}

// findCompanyKeyReceiver is the app of a company that receives on a key;
// both "" when the company has no such key.
func findCompanyKeyReceiver(ctx context.Context, tx *store.Tx, companyID, chave string) (appID, company string, err error) {
	err = tx.QueryRowContext(ctx, `SELECT app_id, company_id FROM pix_keys WHERE company_id = ? AND chave = ?`, companyID, chave).Scan(&appID, &company)
	return appID, company, store.NoRow(err)
}
