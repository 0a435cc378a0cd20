package pix

import (
	"context"
	"time"

	"homologa/simulator/store"
)

const webhookColumns = `chave, url, app_id, created_at`

func scanWebhook(row scanner) (*webhook, error) {
	var w webhook
	var at int64
	if err := row.Scan(&w.Chave, &w.URL, &w.AppID, &at); err != nil {
		return nil, err
	}
	w.CreatedAt = fromNanos(at)
	return &w, nil
}

func findWebhook(ctx context.Context, tx *store.Tx, companyID, chave string) (*webhook, error) {
	return maybe(scanWebhook(tx.QueryRowContext(ctx, `SELECT `+webhookColumns+` FROM pix_webhooks WHERE company_id = ? AND chave = ?`, companyID, chave)))
}

// upsertWebhook stores a key's webhook. Re-registering keeps the creation
// time, as a PUT of the same resource does.
func upsertWebhook(ctx context.Context, tx *store.Tx, companyID, appID, chave, url string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO pix_webhooks (company_id, chave, app_id, url, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (company_id, chave) DO UPDATE SET url = excluded.url, app_id = excluded.app_id`,
		companyID, chave, appID, url, now.UnixNano())
	return err
}

// deleteWebhook removes a key's webhook and says how many there were.
func deleteWebhook(ctx context.Context, tx *store.Tx, companyID, chave string) (int64, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM pix_webhooks WHERE company_id = ? AND chave = ?`, companyID, chave)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func webhookListing(companyID string, lq *listQuery) listing {
	l := listing{from: "pix_webhooks", columns: webhookColumns, order: "created_at, chave"}
	l.and("company_id = ? AND created_at >= ? AND created_at <= ?", companyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano())
	return l
}
