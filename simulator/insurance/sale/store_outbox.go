package sale

import (
	"context"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

func insertOutboxMessage(ctx context.Context, tx *store.Tx, m *outboxMessage) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO outbox_messages (id, company_id, app_id, cpf, channel, destination, subject, body, code, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, m.ID, m.CompanyID, m.AppID, m.CPF, m.Channel, m.Destination, m.Subject, m.Body, m.Code, m.CreatedAt.UnixNano())
	return err
}

// listOutbox reads the newest messages of the filter's scope, of its CPF and of app appID when they are not
// "", newest first: on a frozen clock many share an instant, and then the
// later insert (rowid; ids are random) comes first.
func listOutbox(ctx context.Context, tx *store.Tx, f outboxFilter, appID string, limit int) ([]outboxMessage, error) {
	var conds []string
	var args []any
	if company, one := f.Scope.Company(); one {
		conds, args = append(conds, "company_id = ?"), append(args, company)
	} else if !f.Scope.Every() {
		return nil, tenant.NoCompany()
	}
	where, args := wire.Where(conds, args, wire.Eq{Column: "cpf", Value: f.CPF}, wire.Eq{Column: "app_id", Value: appID})
	q := `SELECT id, app_id, cpf, channel, destination, subject, body, code, created_at FROM outbox_messages ` + where
	return store.All(ctx, tx, func(row store.Scanner) (outboxMessage, error) {
		var m outboxMessage
		var at int64
		err := row.Scan(&m.ID, &m.AppID, &m.CPF, &m.Channel, &m.Destination, &m.Subject, &m.Body, &m.Code, &at)
		m.CreatedAt = time.Unix(0, at).UTC()
		return m, err
	}, q+` ORDER BY created_at DESC, rowid DESC LIMIT ?`, append(args, limit)...)
}
