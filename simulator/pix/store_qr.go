package pix

import (
	"context"
	"database/sql"
	"errors"

	"homologa/simulator/store"
)

// findSigningKey reads the PEM of the payload signing key; "" when none.
func findSigningKey(ctx context.Context, tx *store.Tx) (string, error) {
	var pemText string
	err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'pix.jws.key'`).Scan(&pemText)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return pemText, err
}

func upsertSigningKey(ctx context.Context, tx *store.Tx, pemText string) error {
	return exec(ctx, tx, `INSERT OR REPLACE INTO settings (key, value) VALUES ('pix.jws.key', ?)`, pemText)
}
