package sale

import (
	"context"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

func insertOutboxMessage(ctx context.Context, tx *store.Tx, m *outboxMessage) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO outbox_messages (id, company_id, app_id, cpf, channel, destination, subject, body, code, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, m.ID, m.CompanyID, m.AppID, m.CPF, m.Channel, m.Destination, m.Subject, m.Body, m.Code, m.CreatedAt.UnixNano())
	return err
}

// listOutbox reads the newest messages of every company, of a CPF and of
// an app when they are not "".
func listOutbox(ctx context.Context, tx *store.Tx, cpf, appID string, limit int) ([]outboxMessage, error) {
	q := `SELECT id, app_id, cpf, channel, destination, subject, body, code, created_at FROM outbox_messages WHERE 1 = 1`
	var args []any
	if cpf != "" {
		q += ` AND cpf = ?`
		args = append(args, cpf)
	}
	if appID != "" {
		q += ` AND app_id = ?`
		args = append(args, appID)
	}
	return wire.All(ctx, tx, func(row wire.Scanner) (outboxMessage, error) {
		var m outboxMessage
		var at int64
		err := row.Scan(&m.ID, &m.AppID, &m.CPF, &m.Channel, &m.Destination, &m.Subject, &m.Body, &m.Code, &at)
		m.CreatedAt = time.Unix(0, at).UTC()
		return m, err
	}, q+` ORDER BY created_at DESC, id LIMIT ?`, append(args, limit)...)
}
