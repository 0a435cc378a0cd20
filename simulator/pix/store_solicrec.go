package pix

import (
	"context"
	"encoding/json"
	"time"

	"homologa/simulator/store"
)

const solicRecColumns = `id_solic_rec, id_rec, company_id, app_id, status, body`

func scanSolicRec(row store.Scanner) (*solicRec, error) {
	var sr solicRec
	return &sr, row.Scan(&sr.ID, &sr.IDRec, &sr.CompanyID, &sr.AppID, &sr.Status, jsonDoc{&sr.Body})
}

// findSolicRec finds a company's confirmation request; nil when none.
func findSolicRec(ctx context.Context, tx *store.Tx, companyID, id string) (*solicRec, error) {
	return store.Maybe(scanSolicRec(tx.QueryRowContext(ctx, `SELECT `+solicRecColumns+` FROM pix_solicrecs WHERE id_solic_rec = ? AND company_id = ?`, id, companyID)))
}

// findSolicRecByID finds a confirmation request by its id alone, whoever
// owns it. Only the system calls it, for callers that act for no
// receiver: the scenario engine (a binding knows its id only) and the
// expiry job.
func findSolicRecByID(ctx context.Context, tx *store.Tx, id string) (*solicRec, error) {
	return store.Maybe(scanSolicRec(tx.QueryRowContext(ctx, `SELECT `+solicRecColumns+` FROM pix_solicrecs WHERE id_solic_rec = ?`, id)))
}

// findLiveSolicRecs lists the requests of a recurrence still travelling.
func findLiveSolicRecs(ctx context.Context, tx *store.Tx, companyID, idRec string) ([]*solicRec, error) {
	return store.All(ctx, tx, scanSolicRec, `SELECT `+solicRecColumns+` FROM pix_solicrecs WHERE company_id = ? AND id_rec = ? AND status IN (?, ?, ?)
		ORDER BY created_at, id_solic_rec`, companyID, idRec, solicRecLive[0], solicRecLive[1], solicRecLive[2])
}

// findSolicRecBodies lists the requests of a company's recurrence as
// answered.
func findSolicRecBodies(ctx context.Context, tx *store.Tx, companyID, idRec string) ([]json.RawMessage, error) {
	out, err := store.All(ctx, tx, scanJSON, `SELECT body FROM pix_solicrecs WHERE company_id = ? AND id_rec = ? ORDER BY created_at, id_solic_rec`, companyID, idRec)
	if out == nil {
		out = []json.RawMessage{}
	}
	return out, err
}

func insertSolicRec(ctx context.Context, tx *store.Tx, sr *solicRec, now time.Time) error {
	return exec(ctx, tx, `INSERT INTO pix_solicrecs (id_solic_rec, id_rec, company_id, app_id, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		sr.ID, sr.IDRec, sr.CompanyID, sr.AppID, sr.Status, marshal(sr.Body), now.UnixNano(), now.UnixNano())
}

func updateSolicRec(ctx context.Context, tx *store.Tx, sr *solicRec, now time.Time) error {
	return exec(ctx, tx, `UPDATE pix_solicrecs SET status = ?, body = ?, updated_at = ? WHERE id_solic_rec = ?`, sr.Status, marshal(sr.Body), now.UnixNano(), sr.ID)
}
