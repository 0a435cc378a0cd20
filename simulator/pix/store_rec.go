package pix

import (
	"context"
	"time"

	"homologa/simulator/store"
)

const recColumns = `id_rec, company_id, app_id, status, loc_id, body, created_at`

func scanRec(row store.Scanner) (*rec, error) {
	var r rec
	return &r, row.Scan(&r.ID, &r.CompanyID, &r.AppID, &r.Status, &r.LocID, jsonDoc{&r.Body}, nanos{&r.CreatedAt})
}

// findRec finds a company's recurrence; nil when none.
func findRec(ctx context.Context, tx *store.Tx, companyID, id string) (*rec, error) {
	return store.Maybe(scanRec(tx.QueryRowContext(ctx, `SELECT `+recColumns+` FROM pix_recs WHERE id_rec = ? AND company_id = ?`, id, companyID)))
}

// findRecByID finds a recurrence by its idRec alone, whoever owns it. Only
// the system calls it, for callers that act for no receiver: the scenario
// engine (a binding knows its idRec only), the simulated payer of the
// control API and the public payload of a recurrence's QR.
func findRecByID(ctx context.Context, tx *store.Tx, id string) (*rec, error) {
	return store.Maybe(scanRec(tx.QueryRowContext(ctx, `SELECT `+recColumns+` FROM pix_recs WHERE id_rec = ?`, id)))
}

// findRecsNamingTxid lists a company's CRIADA recurrences whose body
// mentions a txid (the caller checks where).
func findRecsNamingTxid(ctx context.Context, tx *store.Tx, companyID, txid string) ([]*rec, error) {
	return store.All(ctx, tx, scanRec, `SELECT `+recColumns+` FROM pix_recs WHERE company_id = ? AND status = ? AND instr(body, ?) > 0`,
		companyID, RecCriada, `"txid":"`+txid+`"`)
}

// insertRec stores a new recurrence; saveRec writes its body.
func insertRec(ctx context.Context, tx *store.Tx, r *rec) error {
	return exec(ctx, tx, `INSERT INTO pix_recs (id_rec, company_id, app_id, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', ?, ?)`,
		r.ID, r.CompanyID, r.AppID, r.Status, r.CreatedAt.UnixNano(), r.CreatedAt.UnixNano())
}

// updateRec writes a recurrence with the columns lists filter by.
func updateRec(ctx context.Context, tx *store.Tx, r *rec, now time.Time) error {
	dev := sub(sub(r.Body, "vinculo"), "devedor")
	return exec(ctx, tx, `UPDATE pix_recs SET status = ?, cpf = ?, cnpj = ?, convenio = ?, loc_id = ?, body = ?, updated_at = ? WHERE id_rec = ?`,
		r.Status, str(dev, "cpf"), str(dev, "cnpj"), str(sub(r.Body, "recebedor"), "convenio"), r.LocID, marshal(r.Body), now.UnixNano(), r.ID)
}

func recListing(companyID string, lq *listQuery, f recFilter) listing {
	l := lq.listing(companyID, "pix_recs", "body", "created_at, id_rec")
	l.eq("cpf", lq.CPF, "cnpj", lq.CNPJ, "status", f.status, "convenio", f.convenio)
	l.andIf(f.loc, "loc_id IS NOT NULL", "loc_id IS NULL")
	return l
}
