package sale

import (
	"context"
	"database/sql"
	"errors"

	"homologa/simulator/store"
)

func insertSignature(ctx context.Context, tx *store.Tx, s *signature) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO signatures (id, company_id, app_id, cpf, token_id, description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.CompanyID, s.AppID, s.CPF, s.TokenID, s.Description, s.CreatedAt.UnixNano())
	return err
}

// unusedSignature is the id of the payer's oldest signature that signed
// no proposal yet; "" when there is none.
func unusedSignature(ctx context.Context, tx *store.Tx, payer Payer) (string, error) {
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM signatures WHERE company_id = ? AND cpf = ? AND used_by IS NULL ORDER BY created_at, id LIMIT 1`,
		payer.CompanyID, payer.CPF).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

func markSignatureUsed(ctx context.Context, tx *store.Tx, id string, numero int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE signatures SET used_by = ? WHERE id = ?`, numero, id)
	return err
}
