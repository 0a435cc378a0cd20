package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// savedClock is where the default clock stood when last moved or stopped,
// as the settings row 'clock' has kept it since the first version.
type savedClock struct {
	Sandbox time.Time `json:"sandbox"`
	Wall    time.Time `json:"wall"`
}

// saveClock records the clock a scope moved: the default (the operator's)
// in the settings, a company's own in company_clocks. A restart with --db
// resumes from it instead of falling back to wall time (and leaving every
// job it had scheduled in its future).
func saveClock(ctx context.Context, db *store.DB, clocks *clock.Clocks, sc tenant.Scope) error {
	if id, one := sc.Company(); one {
		return saveCompanyClock(ctx, db, clocks, id)
	}
	return saveDefaultClock(ctx, db, clocks)
}

func saveDefaultClock(ctx context.Context, db *store.DB, clocks *clock.Clocks) error {
	return db.Tx(ctx, func(tx *store.Tx) error {
		st := clocks.Default.State()
		b, _ := json.Marshal(savedClock{Sandbox: st.At, Wall: st.Wall})
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO settings (key, value) VALUES ('clock', ?)`, string(b))
		return err
	})
}

func saveCompanyClock(ctx context.Context, db *store.DB, clocks *clock.Clocks, companyID string) error {
	return db.Tx(ctx, func(tx *store.Tx) error {
		if !clocks.Owns(companyID) {
			_, err := tx.ExecContext(ctx, `DELETE FROM company_clocks WHERE company_id = ?`, companyID)
			return err
		}
		b, _ := json.Marshal(clocks.Of(companyID).State())
		_, err := tx.ExecContext(ctx, `INSERT INTO company_clocks (company_id, state) VALUES (?, ?)
			ON CONFLICT (company_id) DO UPDATE SET state = excluded.state`, companyID, string(b))
		return err
	})
}

// saveClocks records every clock (at a graceful stop).
func saveClocks(ctx context.Context, db *store.DB, clocks *clock.Clocks) error {
	if err := saveDefaultClock(ctx, db, clocks); err != nil {
		return fmt.Errorf("save the default clock: %w", err)
	}
	for _, c := range clocks.Owners() {
		if err := saveCompanyClock(ctx, db, clocks, c); err != nil {
			return fmt.Errorf("save clock of company %s: %w", c, err)
		}
	}
	return nil
}

// restoreClocks moves the clocks to where a previous run left them: a
// frozen clock to the same instant; a running one as if it had kept
// running in real time while the sandbox was stopped. restoreDefault is
// false when --clock named a start instant, which wins.
func restoreClocks(ctx context.Context, db *store.DB, clocks *clock.Clocks, restoreDefault bool) error {
	var v string
	var own map[string]clock.State
	err := db.Read(ctx, func(tx *store.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'clock'`).Scan(&v); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT company_id, state FROM company_clocks`)
		if err != nil {
			return err
		}
		defer rows.Close()
		own = map[string]clock.State{}
		for rows.Next() {
			var id, st string
			if err := rows.Scan(&id, &st); err != nil {
				return err
			}
			var s clock.State
			if err := json.Unmarshal([]byte(st), &s); err != nil {
				return fmt.Errorf("clock of company %s: %w", id, err)
			}
			own[id] = s
		}
		return rows.Err()
	})
	if err != nil {
		return fmt.Errorf("restore clocks: %w", err)
	}
	for id, st := range own {
		clocks.Restore(id, st)
	}
	if v == "" || !restoreDefault {
		return nil
	}
	var s savedClock
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return fmt.Errorf("restore clock: %w", err)
	}
	t := s.Sandbox
	if mode, _ := clocks.Default.Mode(); mode != clock.Frozen {
		t = t.Add(time.Since(s.Wall))
	}
	clocks.Default.Set(t)
	return nil
}
