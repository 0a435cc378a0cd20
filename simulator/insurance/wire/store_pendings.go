package wire

import (
	"context"
	"fmt"
	"strings"
	"time"

	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The states of a pending, of a proposal or of a benefit (SUMMARY §5.2).
const (
	Aberta     = "ABERTA"
	Respondida = "RESPONDIDA"
	Resolvida  = "RESOLVIDA"
	Rejeitada  = "REJEITADA"
	// PendCancelada is a pending whose resource ended first.
	PendCancelada = "CANCELADA"
)

// PendenciaMachine is the life of a pending; answered is the event of
// the partner's answer (proposta.pendencia_respondida, …).
func PendenciaMachine(resource, table, answered string) *statemachine.Machine {
	return &statemachine.Machine{
		Resource: resource,
		Table:    table,
		Initial:  Aberta,
		Edges: map[string][]statemachine.Edge{
			Aberta:     {{To: Respondida, Type: answered, Name: "Pendência Respondida"}, {To: PendCancelada}},
			Respondida: {{To: Resolvida}, {To: Rejeitada}, {To: PendCancelada}},
		},
	}
}

// Pendings are the pendings of one kind of resource: their machine (whose
// table holds them) and the column naming the resource.
type Pendings struct {
	Machine *statemachine.Machine
	Parent  string
}

// Count counts the pendings of resource parent in status.
func (p Pendings) Count(ctx context.Context, tx *store.Tx, parent int64, status string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+p.Machine.Table+` WHERE `+p.Parent+` = ? AND status = ?`, parent, status).Scan(&n)
	return n, err
}

// MoveAll moves each pending of resource parent that is in one of from
// to to, through the machine (these edges emit no event).
func (p Pendings) MoveAll(ctx context.Context, tx *store.Tx, machines *statemachine.Applier, parent int64, now time.Time, to string, from ...string) error {
	args := []any{parent}
	for _, f := range from {
		args = append(args, f)
	}
	type row struct {
		id     int64
		status string
	}
	rows, err := All(ctx, tx, func(s Scanner) (row, error) {
		var r row
		return r, s.Scan(&r.id, &r.status)
	}, `SELECT id, status FROM `+p.Machine.Table+` WHERE `+p.Parent+` = ? AND status IN (?`+strings.Repeat(", ?", len(from)-1)+`) ORDER BY id`, args...)
	if err != nil {
		return fmt.Errorf("pendings of %d: %w", parent, err)
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
