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
)

// savedClock is where the sandbox clock stood when last moved or stopped.
type savedClock struct {
	Sandbox time.Time `json:"sandbox"`
	Wall    time.Time `json:"wall"`
}

// saveClock records the sandbox clock, so that a restart with --db resumes
// from it instead of falling back to wall time (and leaving every job the
// sandbox had scheduled in its own future).
func saveClock(ctx context.Context, db *store.DB, clk *clock.Clock) error {
	b, _ := json.Marshal(savedClock{Sandbox: clk.Now(), Wall: time.Now().UTC()})
	return db.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO settings (key, value) VALUES ('clock', ?)`, string(b))
		return err
	})
}

// restoreClock moves a new clock to where a previous run left it: a frozen
// clock to the same instant; a running one as if it had kept running in
// real time while the sandbox was stopped.
func restoreClock(ctx context.Context, db *store.DB, clk *clock.Clock) error {
	var v string
	err := db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'clock'`).Scan(&v)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("restore clock: %w", err)
	}
	var s savedClock
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return fmt.Errorf("restore clock: %w", err)
	}
	t := s.Sandbox
	if mode, _ := clk.Mode(); mode != clock.Frozen {
		t = t.Add(time.Since(s.Wall))
	}
	clk.Set(t)
	return nil
}
