package pix

import (
	"context"
	"database/sql"
	"errors"

	"homologa/simulator/store"
)

// findKeyOwner is the app that holds a key in the DICT, "" when none does.
func findKeyOwner(ctx context.Context, tx *store.Tx, chave string) (string, error) {
	var owner string
	err := tx.QueryRowContext(ctx, `SELECT app_id FROM pix_keys WHERE chave = ?`, chave).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return owner, err
}

func insertKey(ctx context.Context, tx *store.Tx, k Key, companyID string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO pix_keys (chave, tipo, app_id, company_id, created_at) VALUES (?, ?, ?, ?, ?)`,
		k.Chave, k.Tipo, k.AppID, companyID, k.CreatedAt.UnixNano())
	return err
}

// findKeys lists an app's keys by creation.
func findKeys(ctx context.Context, tx *store.Tx, appID string) ([]Key, error) {
	return queryAll(ctx, tx, func(row scanner) (Key, error) {
		var k Key
		var at int64
		err := row.Scan(&k.Chave, &k.Tipo, &k.AppID, &at)
		k.CreatedAt = fromNanos(at)
		return k, err
	}, `SELECT chave, tipo, app_id, created_at FROM pix_keys WHERE app_id = ? ORDER BY created_at, chave`, appID)
}

// findKeyReceiver is the app and company that receive on a key; both ""
// when no receiver has it.
func findKeyReceiver(ctx context.Context, tx *store.Tx, chave string) (appID, companyID string, err error) {
	err = tx.QueryRowContext(ctx, `SELECT app_id, company_id FROM pix_keys WHERE chave = ?`, chave).Scan(&appID, &companyID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil
	}
	return appID, companyID, err
}
