package pix

import (
	"context"
	"time"

	"homologa/simulator/store"
)

const webhookColumns = `chave, url, app_id, created_at`

func scanWebhook(row store.Scanner) (*webhook, error) {
	var w webhook
	return &w, row.Scan(&w.Chave, &w.URL, &w.AppID, nanos{&w.CreatedAt})
}

func findWebhook(ctx context.Context, tx *store.Tx, companyID, chave string) (*webhook, error) {
	return store.Maybe(scanWebhook(tx.QueryRowContext(ctx, `SELECT `+webhookColumns+` FROM pix_webhooks WHERE company_id = ? AND chave = ?`, companyID, chave)))
}

// upsertWebhook stores a key's webhook. Re-registering keeps the creation
// time, as a PUT of the same resource does.
func upsertWebhook(ctx context.Context, tx *store.Tx, companyID, appID, chave, url string, now time.Time) error {
	return exec(ctx, tx, `INSERT INTO pix_webhooks (company_id, chave, app_id, url, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (company_id, chave) DO UPDATE SET url = excluded.url, app_id = excluded.app_id`,
		companyID, chave, appID, url, now.UnixNano())
}

// deleteWebhook removes a key's webhook and says how many there were.
func deleteWebhook(ctx context.Context, tx *store.Tx, companyID, chave string) (int64, error) {
	return execCount(ctx, tx, `DELETE FROM pix_webhooks WHERE company_id = ? AND chave = ?`, companyID, chave)
}

func webhookListing(companyID string, lq *listQuery) listing {
	return lq.listing(companyID, "pix_webhooks", webhookColumns, "created_at, chave")
}
