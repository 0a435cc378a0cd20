package pix

import (
	"context"

	"homologa/simulator/store"
)

const locRecColumns = `id, company_id, token, location, id_rec, created_at`

func scanLocRec(row store.Scanner) (*locRec, error) {
	var l locRec
	return &l, row.Scan(&l.ID, &l.CompanyID, &l.Token, &l.Location, &l.IDRec, nanos{&l.CreatedAt})
}

func findLocRec(ctx context.Context, tx *store.Tx, companyID string, id int64) (*locRec, error) {
	return store.Maybe(scanLocRec(tx.QueryRowContext(ctx, `SELECT `+locRecColumns+` FROM pix_locrecs WHERE id = ? AND company_id = ?`, id, companyID)))
}

// findLocRecByToken finds a location of recurrences by the token of its
// URL, whoever owns it: the public payload endpoint reads a QR code, which
// names no receiver.
func findLocRecByToken(ctx context.Context, tx *store.Tx, token string) (*locRec, error) {
	return store.Maybe(scanLocRec(tx.QueryRowContext(ctx, `SELECT `+locRecColumns+` FROM pix_locrecs WHERE token = ?`, token)))
}

// insertLocRec stores a new location and sets its id.
func insertLocRec(ctx context.Context, tx *store.Tx, l *locRec, appID string) error {
	if err := exec(ctx, tx, `INSERT INTO pix_locrecs (company_id, app_id, token, location, created_at) VALUES (?, ?, ?, ?, ?)`,
		l.CompanyID, appID, l.Token, l.Location, l.CreatedAt.UnixNano()); err != nil {
		return err
	}
	var err error
	l.ID, err = store.Value[int64](ctx, tx, `SELECT last_insert_rowid()`)
	return err
}

// linkLocRec makes a location serve a recurrence.
func linkLocRec(ctx context.Context, tx *store.Tx, id int64, idRec string) error {
	return exec(ctx, tx, `UPDATE pix_locrecs SET id_rec = ? WHERE id = ?`, idRec, id)
}

// releaseLocRec makes a location serve no recurrence.
func releaseLocRec(ctx context.Context, tx *store.Tx, id int64) error {
	return exec(ctx, tx, `UPDATE pix_locrecs SET id_rec = NULL WHERE id = ?`, id)
}

func locRecListing(companyID string, lq *listQuery, f locRecFilter) listing {
	l := lq.listing(companyID, "pix_locrecs", locRecColumns, "created_at, id")
	l.andIf(f.present, "id_rec IS NOT NULL", "id_rec IS NULL")
	if f.convenio != "" {
		l.and(`id_rec IN (SELECT id_rec FROM pix_recs WHERE convenio = ?)`, f.convenio)
	}
	return l
}
