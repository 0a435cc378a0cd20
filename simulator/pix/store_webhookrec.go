package pix

import (
	"context"
	"time"

	"homologa/simulator/store"
)

// findWebhookRec reads the webhook of kind rec or cobr; nil when none.
func findWebhookRec(ctx context.Context, tx *store.Tx, companyID, kind string) (*webhook, error) {
	var w webhook
	err := tx.QueryRowContext(ctx, `SELECT url, created_at FROM pix_rec_webhooks WHERE company_id = ? AND kind = ?`, companyID, kind).
		Scan(&w.URL, nanos{&w.CreatedAt})
	return store.Maybe(&w, err)
}

func upsertWebhookRec(ctx context.Context, tx *store.Tx, companyID, kind, appID, url string, now time.Time) error {
	return exec(ctx, tx, `INSERT INTO pix_rec_webhooks (company_id, kind, app_id, url, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (company_id, kind) DO UPDATE SET url = excluded.url, app_id = excluded.app_id`, companyID, kind, appID, url, now.UnixNano())
}

// deleteWebhookRec removes the webhook of kind rec or cobr and says how
// many there were.
func deleteWebhookRec(ctx context.Context, tx *store.Tx, companyID, kind string) (int64, error) {
	return execCount(ctx, tx, `DELETE FROM pix_rec_webhooks WHERE company_id = ? AND kind = ?`, companyID, kind)
}
