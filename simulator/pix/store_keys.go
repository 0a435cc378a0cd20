package pix

import (
	"context"

	"homologa/simulator/store"
)

// findKeyOwner is the app holding a key in a namespace: a key has one owner
// within a namespace, as DICT gives it one.
func findKeyOwner(ctx context.Context, tx *store.Tx, namespace, chave string) (string, error) {
	owner, err := store.Value[string](ctx, tx, `SELECT app_id FROM pix_keys WHERE namespace = ? AND chave = ?`, namespace, chave)
	return owner, store.NoRow(err)
}

func insertKey(ctx context.Context, tx *store.Tx, k Key, companyID, namespace string) error {
	return exec(ctx, tx, `INSERT INTO pix_keys (chave, tipo, app_id, company_id, namespace, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		k.Chave, k.Tipo, k.AppID, companyID, namespace, k.CreatedAt.UnixNano())
}

// findKeys lists an app's keys by creation.
func findKeys(ctx context.Context, tx *store.Tx, appID string) ([]Key, error) {
	return store.All(ctx, tx, func(row store.Scanner) (Key, error) {
		var k Key
		return k, row.Scan(&k.Chave, &k.Tipo, &k.AppID, nanos{&k.CreatedAt})
	}, `SELECT chave, tipo, app_id, created_at FROM pix_keys WHERE app_id = ? ORDER BY created_at, chave`, appID)
}

// ownsKey reports whether chave is a key of the app.
func ownsKey(ctx context.Context, tx *store.Tx, appID, chave string) (bool, error) {
	return store.Value[bool](ctx, tx, `SELECT EXISTS (SELECT 1 FROM pix_keys WHERE app_id = ? AND chave = ?)`, appID, chave)
}
