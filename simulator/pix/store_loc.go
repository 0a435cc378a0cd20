package pix

import (
	"context"

	"homologa/simulator/store"
)

const locColumns = `id, company_id, app_id, tipo_cob, token, location, cob_id, created_at`

func scanLoc(row store.Scanner) (*loc, error) {
	var l loc
	return &l, row.Scan(&l.ID, &l.CompanyID, &l.AppID, &l.TipoCob, &l.Token, &l.Location, &l.CobID, nanos{&l.CreatedAt})
}

func findLoc(ctx context.Context, tx *store.Tx, companyID string, id int64) (*loc, error) {
	return store.Maybe(scanLoc(tx.QueryRowContext(ctx, `SELECT `+locColumns+` FROM pix_locs WHERE company_id = ? AND id = ?`, companyID, id)))
}

// findLocByToken finds a location by the token of its URL, whoever owns
// it: the payer and the public payload endpoints read a QR code, which
// names no receiver.
func findLocByToken(ctx context.Context, tx *store.Tx, token string) (*loc, error) {
	return store.Maybe(scanLoc(tx.QueryRowContext(ctx, `SELECT `+locColumns+` FROM pix_locs WHERE token = ?`, token)))
}

func insertLoc(ctx context.Context, tx *store.Tx, l *loc) error {
	return exec(ctx, tx, `INSERT INTO pix_locs (id, company_id, app_id, tipo_cob, token, location, cob_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		l.ID, l.CompanyID, l.AppID, l.TipoCob, l.Token, l.Location, l.CobID, l.CreatedAt.UnixNano())
}

// linkLoc makes a location serve a charge.
func linkLoc(ctx context.Context, tx *store.Tx, id, cobID int64) error {
	return exec(ctx, tx, `UPDATE pix_locs SET cob_id = ? WHERE id = ?`, cobID, id)
}

// releaseLoc makes a location serve no charge.
func releaseLoc(ctx context.Context, tx *store.Tx, id int64) error {
	return exec(ctx, tx, `UPDATE pix_locs SET cob_id = NULL WHERE id = ?`, id)
}

func locListing(companyID string, lq *listQuery, f locFilter) listing {
	l := lq.listing(companyID, "pix_locs", locColumns, "created_at, id")
	l.eq("tipo_cob", f.tipoCob)
	l.andIf(f.txPresent, "cob_id IS NOT NULL", "cob_id IS NULL")
	return l
}
