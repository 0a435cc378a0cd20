package sale

import (
	"context"
	"time"

	"homologa/simulator/store"
)

// grantsOf reads the portal's grants and revocations of the company.
func grantsOf(ctx context.Context, tx *store.Tx, companyID string) ([]grant, error) {
	return store.All(ctx, tx, func(row store.Scanner) (grant, error) {
		var g grant
		return g, row.Scan(&g.OfferID, &g.Granted)
	}, `SELECT offer_id, granted FROM insurance_grants WHERE company_id = ?`, companyID)
}

func putGrant(ctx context.Context, tx *store.Tx, companyID string, g grant, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO insurance_grants (company_id, offer_id, granted, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (company_id, offer_id) DO UPDATE SET granted = excluded.granted, updated_at = excluded.updated_at`,
		companyID, g.OfferID, g.Granted, at.UnixNano())
	return err
}
