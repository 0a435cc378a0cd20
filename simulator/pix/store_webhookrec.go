package pix

import (
	"context"
	"time"

	"homologa/simulator/store"
)

// findWebhookRec reads the webhook of kind rec or cobr; nil when none.
func findWebhookRec(ctx context.Context, tx *store.Tx, companyID, kind string) (*webhook, error) {
	var w webhook
	var at int64
	err := tx.QueryRowContext(ctx, `SELECT url, created_at FROM pix_rec_webhooks WHERE company_id = ? AND kind = ?`, companyID, kind).Scan(&w.URL, &at)
	w.CreatedAt = fromNanos(at)
	return maybe(&w, err)
}

func upsertWebhookRec(ctx context.Context, tx *store.Tx, companyID, kind, appID, url string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO pix_rec_webhooks (company_id, kind, app_id, url, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (company_id, kind) DO UPDATE SET url = excluded.url, app_id = excluded.app_id`, companyID, kind, appID, url, now.UnixNano())
	return err
}

// deleteWebhookRec removes the webhook of kind rec or cobr and says how
// many there were.
func deleteWebhookRec(ctx context.Context, tx *store.Tx, companyID, kind string) (int64, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM pix_rec_webhooks WHERE company_id = ? AND kind = ?`, companyID, kind)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
