package sale

import (
	"context"
	"database/sql"
	"time"

	"homologa/simulator/store"
)

func insertToken(ctx context.Context, tx *store.Tx, t *signatureToken) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO signature_tokens (id, company_id, app_id, cpf, code, channel, system_id, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.CompanyID, t.AppID, t.CPF, t.Code, t.Channel, t.SystemID, t.CreatedAt.UnixNano(), t.ExpiresAt.UnixNano())
	return err
}

// latestToken reads the last code issued to the company for the payer's
// CPF; nil when there is none.
func latestToken(ctx context.Context, tx *store.Tx, payer Payer, code string) (*usedToken, error) {
	var t usedToken
	var expires int64
	var used sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT id, expires_at, used_at FROM signature_tokens WHERE company_id = ? AND cpf = ? AND code = ? ORDER BY created_at DESC LIMIT 1`,
		payer.CompanyID, payer.CPF, code).Scan(&t.ID, &expires, &used)
	t.ExpiresAt, t.Used = time.Unix(0, expires), used.Valid
	return store.Maybe(&t, err)
}

func markTokenUsed(ctx context.Context, tx *store.Tx, id string, numero int64, at time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE signature_tokens SET used_at = ?, used_by = ? WHERE id = ?`, at.UnixNano(), numero, id)
	return err
}
