package pix

import (
	"context"

	"homologa/simulator/store"
)

const locColumns = `id, company_id, app_id, tipo_cob, token, location, cob_id, created_at`

func scanLoc(row scanner) (*loc, error) {
	var l loc
	var at int64
	if err := row.Scan(&l.ID, &l.CompanyID, &l.AppID, &l.TipoCob, &l.Token, &l.Location, &l.CobID, &at); err != nil {
		return nil, err
	}
	l.CreatedAt = fromNanos(at)
	return &l, nil
}

func findLoc(ctx context.Context, tx *store.Tx, companyID string, id int64) (*loc, error) {
	return maybe(scanLoc(tx.QueryRowContext(ctx, `SELECT `+locColumns+` FROM pix_locs WHERE company_id = ? AND id = ?`, companyID, id)))
}

// findLocByToken finds a location by the token of its URL, whoever owns
// it: the payer and the public payload endpoints read a QR code, which
// names no receiver.
func findLocByToken(ctx context.Context, tx *store.Tx, token string) (*loc, error) {
	return maybe(scanLoc(tx.QueryRowContext(ctx, `SELECT `+locColumns+` FROM pix_locs WHERE token = ?`, token)))
}

func insertLoc(ctx context.Context, tx *store.Tx, l *loc) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO pix_locs (id, company_id, app_id, tipo_cob, token, location, cob_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		l.ID, l.CompanyID, l.AppID, l.TipoCob, l.Token, l.Location, l.CobID, l.CreatedAt.UnixNano())
	return err
}

// linkLoc makes a location serve a charge.
func linkLoc(ctx context.Context, tx *store.Tx, id, cobID int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE pix_locs SET cob_id = ? WHERE id = ?`, cobID, id)
	return err
}

// releaseLoc makes a location serve no charge.
func releaseLoc(ctx context.Context, tx *store.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE pix_locs SET cob_id = NULL WHERE id = ?`, id)
	return err
}

func locListing(companyID string, lq *listQuery, f locFilter) listing {
	l := listing{from: "pix_locs", columns: locColumns, order: "created_at, id"}
	l.and("company_id = ? AND created_at >= ? AND created_at <= ?", companyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano())
	if f.tipoCob != "" {
		l.and("tipo_cob = ?", f.tipoCob)
	}
	l.andIf(f.txPresent, "cob_id IS NOT NULL", "cob_id IS NULL")
	return l
}
