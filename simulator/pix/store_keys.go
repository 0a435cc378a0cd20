package pix

import (
	"context"

	"homologa/simulator/store"
)

// findKeyOwner is the app of a company holding a key, "" when none does:
// a key has one owner within its company's world, as DICT gives it one.
// Another company holding the same key holds nothing of this one's: in a
// shared sandbox, whoever registered a key first would otherwise keep it
// from its real owner.
func findKeyOwner(ctx context.Context, tx *store.Tx, companyID, chave string) (string, error) {
	owner, err := store.Value[string](ctx, tx, `SELECT app_id FROM pix_keys WHERE company_id = ? AND chave = ?`, companyID, chave)
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
