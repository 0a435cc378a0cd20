package pix

import (
	"context"
	"database/sql"
	"time"

	"homologa/simulator/store"
)

// findLote reads a batch with its company's CNPJ; nil when none.
func findLote(ctx context.Context, tx *store.Tx, companyID string, id int64) (*lote, error) {
	l := lote{CompanyID: companyID, ID: id}
	err := tx.QueryRowContext(ctx, `SELECT l.app_id, l.host, l.descricao, l.created_at, c.cnpj FROM pix_lotes l JOIN companies c ON c.id = l.company_id
		WHERE l.company_id = ? AND l.id = ?`, companyID, id).Scan(&l.AppID, &l.Host, &l.Descricao, nanos{&l.CreatedAt}, &l.CNPJ)
	return store.Maybe(&l, err)
}

// findLoteTxids returns the txids of a batch, or nil when there is no
// batch.
func findLoteTxids(ctx context.Context, tx *store.Tx, companyID string, id int64) ([]string, error) {
	if n, err := store.Value[int](ctx, tx, `SELECT COUNT(*) FROM pix_lotes WHERE company_id = ? AND id = ?`, companyID, id); err != nil || n == 0 {
		return nil, err
	}
	out, err := store.All(ctx, tx, scanString, `SELECT txid FROM pix_lote_items WHERE company_id = ? AND lote_id = ? ORDER BY position`, companyID, id)
	if out == nil {
		out = []string{}
	}
	return out, err
}

func insertLote(ctx context.Context, tx *store.Tx, l *lote) error {
	return exec(ctx, tx, `INSERT INTO pix_lotes (company_id, id, app_id, descricao, host, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		l.CompanyID, l.ID, l.AppID, l.Descricao, l.Host, l.CreatedAt.UnixNano())
}

func updateLote(ctx context.Context, tx *store.Tx, companyID string, id int64, descricao, host string) error {
	return exec(ctx, tx, `UPDATE pix_lotes SET descricao = ?, host = ? WHERE company_id = ? AND id = ?`, descricao, host, companyID, id)
}

func updateLoteDescricao(ctx context.Context, tx *store.Tx, companyID string, id int64, descricao string) error {
	return exec(ctx, tx, `UPDATE pix_lotes SET descricao = ? WHERE company_id = ? AND id = ?`, descricao, companyID, id)
}

// txidInUse reports whether a company's charge or batch item has a txid.
func txidInUse(ctx context.Context, tx *store.Tx, companyID, txid string) (bool, error) {
	n, err := store.Value[int](ctx, tx, `SELECT (SELECT COUNT(*) FROM pix_cobs WHERE company_id = ? AND txid = ?) + (SELECT COUNT(*) FROM pix_lote_items WHERE company_id = ? AND txid = ?)`,
		companyID, txid, companyID, txid)
	return n > 0, err
}

func insertLoteItem(ctx context.Context, tx *store.Tx, companyID string, loteID int64, position int, txid, request string) error {
	return exec(ctx, tx, `INSERT INTO pix_lote_items (company_id, lote_id, position, txid, status, request) VALUES (?, ?, ?, ?, ?, ?)`,
		companyID, loteID, position, txid, LoteEmProcessamento, request)
}

const loteItemColumns = `txid, status, request`

func scanLoteItem(row store.Scanner) (*loteItem, error) {
	var it loteItem
	return &it, row.Scan(&it.TxID, &it.Status, &it.Request)
}

// findLoteItems lists a batch's items in a status, in order.
func findLoteItems(ctx context.Context, tx *store.Tx, companyID string, loteID int64, status string) ([]*loteItem, error) {
	return store.All(ctx, tx, scanLoteItem, `SELECT `+loteItemColumns+` FROM pix_lote_items WHERE company_id = ? AND lote_id = ? AND status = ? ORDER BY position`,
		companyID, loteID, status)
}

// findLoteItemBodies lists a batch's items as GET shows them, in order.
func findLoteItemBodies(ctx context.Context, tx *store.Tx, companyID string, loteID int64) ([]doc, error) {
	return store.All(ctx, tx, func(row store.Scanner) (doc, error) {
		var txid, status, problema string
		var at sql.NullInt64
		err := row.Scan(&txid, &status, &problema, &at)
		return loteItemBody(txid, status, problema, at), err
	}, `SELECT txid, status, problema, created_at FROM pix_lote_items WHERE company_id = ? AND lote_id = ? ORDER BY position`, companyID, loteID)
}

// resendLoteItem stores the request of a batch item sent again, clears
// its problem, and returns the item.
func resendLoteItem(ctx context.Context, tx *store.Tx, companyID, txid, request string) (*loteItem, error) {
	if err := exec(ctx, tx, `UPDATE pix_lote_items SET request = ?, problema = '' WHERE company_id = ? AND txid = ?`, request, companyID, txid); err != nil {
		return nil, err
	}
	return scanLoteItem(tx.QueryRowContext(ctx, `SELECT `+loteItemColumns+` FROM pix_lote_items WHERE company_id = ? AND txid = ?`, companyID, txid))
}

func updateLoteItemStatus(ctx context.Context, tx *store.Tx, companyID, txid, status string) error {
	return exec(ctx, tx, `UPDATE pix_lote_items SET status = ? WHERE company_id = ? AND txid = ?`, status, companyID, txid)
}

// updateLoteItemOutcome writes what processing an item gave.
func updateLoteItemOutcome(ctx context.Context, tx *store.Tx, companyID, txid, status, problema string, now time.Time) error {
	return exec(ctx, tx, `UPDATE pix_lote_items SET status = ?, problema = ?, created_at = ? WHERE company_id = ? AND txid = ?`,
		status, problema, now.UnixNano(), companyID, txid)
}

// savepoint runs a SAVEPOINT, ROLLBACK TO or RELEASE statement.
func savepoint(ctx context.Context, tx *store.Tx, stmt string) error {
	return exec(ctx, tx, stmt)
}

func loteListing(companyID string, lq *listQuery) listing {
	return lq.listing(companyID, "pix_lotes", "id", "created_at, id")
}

func scanLoteID(row store.Scanner) (int64, error) {
	var id int64
	err := row.Scan(&id)
	return id, err
}
