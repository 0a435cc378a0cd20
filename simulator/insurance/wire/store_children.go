package wire

import (
	"context"
	"fmt"
	"strings"
	"time"

	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// Children are the resources that belong to another (a proposal's
// pendings, an enrollment's charges): their machine, whose table holds
// them, and the column naming the resource they belong to.
type Children struct {
	Machine *statemachine.Machine
	Parent  string
}

// Count counts the children of resource parent in status.
func (p Children) Count(ctx context.Context, tx *store.Tx, parent int64, status string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+p.Machine.Table+` WHERE `+p.Parent+` = ? AND status = ?`, parent, status).Scan(&n)
	return n, err
}

// MoveAll moves each child of resource parent that is in one of from to
// to, through the machine; the edges it takes must emit no event, as it
// names no app to send them to.
func (p Children) MoveAll(ctx context.Context, tx *store.Tx, machines *statemachine.Applier, parent int64, now time.Time, to string, from ...string) error {
	args := []any{parent}
	for _, f := range from {
		args = append(args, f)
	}
	type row struct {
		id     int64
		status string
	}
	rows, err := store.All(ctx, tx, func(s store.Scanner) (row, error) {
		var r row
		return r, s.Scan(&r.id, &r.status)
	}, `SELECT id, status FROM `+p.Machine.Table+` WHERE `+p.Parent+` = ? AND status IN (?`+strings.Repeat(", ?", len(from)-1)+`) ORDER BY id`, args...)
	if err != nil {
		return fmt.Errorf("%s of %d: %w", p.Machine.Table, parent, err)
	}
	for _, r := range rows {
		_, err := machines.Apply(ctx, tx, statemachine.Move{Machine: p.Machine, From: r.status, To: to,
			Store: func(ctx context.Context, tx *store.Tx) error {
				_, err := tx.ExecContext(ctx, `UPDATE `+p.Machine.Table+` SET status = ?, updated_at = ? WHERE id = ?`, to, now.UnixNano(), r.id)
				return err
			}})
		if err != nil {
			return err
		}
	}
	return nil
}
