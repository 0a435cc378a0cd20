package events

import (
	"context"

	"homologa/simulator/store"
)

// CountEvents counts a company's events, for its quota.
func (b *Bus) CountEvents(ctx context.Context, tx *store.Tx, companyID string) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM events WHERE company_id = ?`, companyID).Scan(&n)
	return n, err
}

// CountDeliveries counts a company's deliveries, for its quota: its
// apps', by the index deliveries have by app.
func (b *Bus) CountDeliveries(ctx context.Context, tx *store.Tx, companyID string) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM deliveries WHERE app_id IN (SELECT id FROM apps WHERE company_id = ?)`, companyID).Scan(&n)
	return n, err
}
