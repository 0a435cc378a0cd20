package homologation

import (
	"context"
	"encoding/json"
	"time"

	"homologa/simulator/store"
)

const runColumns = `id, app_id, status, partner, report, ready, error, created_at, finished_at`

func scanRun(row store.Scanner) (Run, error) {
	var r Run
	var report string
	var created, finished int64
	if err := row.Scan(&r.ID, &r.AppID, &r.Status, &r.Partner, &report, &r.Ready, &r.Error, &created, &finished); err != nil {
		return Run{}, err
	}
	r.CreatedAt = time.Unix(0, created).UTC()
	if finished > 0 {
		t := time.Unix(0, finished).UTC()
		r.FinishedAt = &t
	}
	if report != "" {
		r.Report = &Report{}
		if err := json.Unmarshal([]byte(report), r.Report); err != nil {
			return Run{}, err
		}
	}
	return r, nil
}

func insertRun(ctx context.Context, tx *store.Tx, r Run) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO homologation_runs (id, app_id, status, partner, created_at) VALUES (?, ?, ?, ?, ?)`,
		r.ID, r.AppID, r.Status, r.Partner, r.CreatedAt.UnixNano())
	return err
}

func finishRun(ctx context.Context, tx *store.Tx, r Run) error {
	report := ""
	if r.Report != nil {
		b, err := json.Marshal(r.Report)
		if err != nil {
			return err
		}
		report = string(b)
	}
	_, err := tx.ExecContext(ctx, `UPDATE homologation_runs SET status = ?, report = ?, ready = ?, error = ?, finished_at = ? WHERE id = ?`,
		r.Status, report, r.Ready, r.Error, r.FinishedAt.UnixNano(), r.ID)
	return err
}

// failInterrupted ends the runs a stopped sandbox left running.
func failInterrupted(ctx context.Context, tx *store.Tx, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE homologation_runs SET status = ?, error = ?, finished_at = ? WHERE status = ?`,
		Failed, "o sandbox parou durante a homologação; rode de novo", now.UnixNano(), Running)
	return err
}

// runningFor names the app's run in progress, "" when none is.
func runningFor(ctx context.Context, tx *store.Tx, appID string) (string, error) {
	id, err := store.Value[string](ctx, tx, `SELECT id FROM homologation_runs WHERE app_id = ? AND status = ? LIMIT 1`, appID, Running)
	return id, store.NoRow(err)
}

// runsOf lists an app's newest runs, their reports left out.
func runsOf(ctx context.Context, tx *store.Tx, appID string, limit int) ([]Run, error) {
	rs, err := store.All(ctx, tx, scanRun, `SELECT `+runColumns+` FROM homologation_runs WHERE app_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, appID, limit)
	for i := range rs {
		rs[i].Report, rs[i].Partner = nil, ""
	}
	return rs, err
}

func findRun(ctx context.Context, tx *store.Tx, appID, id string) (*Run, error) {
	r, err := scanRun(tx.QueryRowContext(ctx, `SELECT `+runColumns+` FROM homologation_runs WHERE app_id = ? AND id = ?`, appID, id))
	return store.Maybe(&r, err)
}

func lastFinished(ctx context.Context, tx *store.Tx, appID string) (*Run, error) {
	r, err := scanRun(tx.QueryRowContext(ctx, `SELECT `+runColumns+` FROM homologation_runs WHERE app_id = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT 1`, appID, Finished))
	return store.Maybe(&r, err)
}
