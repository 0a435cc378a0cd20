package pix

import (
	"context"
	"time"

	"homologa/simulator/money"
	"homologa/simulator/store"
)

func scanDoc(row store.Scanner) (doc, error) {
	var d doc
	err := row.Scan(jsonDoc{&d})
	return d, err
}

// findDevolucoes lists the refunds of a Pix, oldest first.
func findDevolucoes(ctx context.Context, tx *store.Tx, e2eid string) ([]doc, error) {
	return store.All(ctx, tx, scanDoc, `SELECT body FROM pix_refunds WHERE e2eid = ? ORDER BY created_at, id`, e2eid)
}

// findDevolucao is a refund's body, nil when the Pix has no such refund.
func findDevolucao(ctx context.Context, tx *store.Tx, e2eid, id string) (doc, error) {
	d, err := scanDoc(tx.QueryRowContext(ctx, `SELECT body FROM pix_refunds WHERE e2eid = ? AND id = ?`, e2eid, id))
	return d, store.NoRow(err)
}

// findDevolucaoByID finds a refund by its Pix and id alone, with the
// receiver of the Pix; nil when none. The scenario engine and the control
// API know a refund by these only.
func findDevolucaoByID(ctx context.Context, tx *store.Tx, e2eid, id string) (*devolucao, error) {
	dv := devolucao{E2EID: e2eid, ID: id}
	err := tx.QueryRowContext(ctx, `SELECT d.body, d.status, p.company_id FROM pix_refunds d JOIN pix_received p ON p.e2eid = d.e2eid WHERE d.e2eid = ? AND d.id = ?`,
		e2eid, id).Scan(jsonDoc{&dv.Body}, &dv.Status, &dv.CompanyID)
	return store.Maybe(&dv, err)
}

// existsDevolucaoOfApp reports whether an app received the Pix of a refund.
func existsDevolucaoOfApp(ctx context.Context, tx *store.Tx, appID, e2eid, id string) (bool, error) {
	return store.Value[bool](ctx, tx, `SELECT EXISTS (SELECT 1 FROM pix_refunds d JOIN pix_received p ON p.e2eid = d.e2eid WHERE d.e2eid = ? AND d.id = ? AND p.app_id = ?)`,
		e2eid, id, appID)
}

func existsDevolucao(ctx context.Context, tx *store.Tx, e2eid, id string) (bool, error) {
	return store.Value[bool](ctx, tx, `SELECT EXISTS (SELECT 1 FROM pix_refunds WHERE e2eid = ? AND id = ?)`, e2eid, id)
}

// sumDevolucoes is what the refunds of a natureza, but the failed ones,
// ask of a Pix.
func sumDevolucoes(ctx context.Context, tx *store.Tx, e2eid, natureza string) (money.Cents, error) {
	return store.Value[money.Cents](ctx, tx, `SELECT COALESCE(SUM(valor), 0) FROM pix_refunds WHERE e2eid = ? AND natureza = ? AND status <> ?`,
		e2eid, natureza, NaoRealizado)
}

func insertDevolucao(ctx context.Context, tx *store.Tx, in devolucaoRequest, valor money.Cents, body doc, now time.Time) error {
	return exec(ctx, tx, `INSERT INTO pix_refunds (e2eid, id, rtr_id, valor, natureza, status, created_at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		in.E2EID, in.ID, body["rtrId"], valor, in.Natureza, EmProcessamento, now.UnixNano(), marshal(body))
}

func updateDevolucao(ctx context.Context, tx *store.Tx, e2eid, id, status string, body doc) error {
	return exec(ctx, tx, `UPDATE pix_refunds SET status = ?, body = ? WHERE e2eid = ? AND id = ?`, status, marshal(body), e2eid, id)
}
