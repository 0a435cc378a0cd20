package wire

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"homologa/simulator/store"
)

// Timeline is the history table of one kind of resource
// (proposta_timeline, beneficio_timeline) and the column naming the
// resource.
type Timeline struct{ Table, Parent string }

// Entry is one line of a timeline; Pendencia, when not 0, is the pending
// it is about.
type Entry struct {
	At                         time.Time
	Status, Usuario, Descricao string
	Pendencia                  int64
}

// Add writes an entry of resource parent.
func (t Timeline) Add(ctx context.Context, tx *store.Tx, parent int64, e Entry) error {
	var pend any
	if e.Pendencia > 0 {
		pend = e.Pendencia
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO `+t.Table+` (`+t.Parent+`, at, status, usuario, descricao, pendencia) VALUES (?, ?, ?, ?, ?, ?)`,
		parent, e.At.UnixNano(), e.Status, e.Usuario, e.Descricao, pend)
	if err != nil {
		return fmt.Errorf("%s of %d: %w", t.Table, parent, err)
	}
	return nil
}

// Moved tells a change of status of resource parent, noun naming it
// ("Proposta APROVADA", with the reason after a colon).
func (t Timeline) Moved(ctx context.Context, tx *store.Tx, parent int64, at time.Time, noun, status, usuario, motivo string) error {
	desc := noun + " " + status
	if motivo != "" {
		desc += ": " + motivo
	}
	return t.Add(ctx, tx, parent, Entry{At: at, Status: status, Usuario: usuario, Descricao: desc})
}

// Read answers the timeline of resource parent, oldest first, each entry
// with the pending it is about as it is now (pend, as the API answers
// pendings: each with its "id").
func (t Timeline) Read(ctx context.Context, tx *store.Tx, parent int64, pend []map[string]any) ([]map[string]any, error) {
	byID := map[int64]map[string]any{}
	for _, p := range pend {
		byID[p["id"].(int64)] = p
	}
	out, err := store.All(ctx, tx, func(row store.Scanner) (map[string]any, error) {
		var at int64
		var status, usuario, desc string
		var pid sql.NullInt64
		if err := row.Scan(&at, &status, &usuario, &desc, &pid); err != nil {
			return nil, err
		}
		item := map[string]any{"data": time.Unix(0, at).UTC().Format(time.RFC3339), "status": status, "usuario": usuario, "descricao": desc, "pendencias": []any{}}
		if pid.Valid && byID[pid.Int64] != nil {
			item["pendencias"] = []any{byID[pid.Int64]}
		}
		return item, nil
	}, `SELECT at, status, usuario, descricao, pendencia FROM `+t.Table+` WHERE `+t.Parent+` = ? ORDER BY at, id`, parent)
	if err != nil {
		return nil, fmt.Errorf("%s of %d: %w", t.Table, parent, err)
	}
	if out == nil {
		out = []map[string]any{}
	}
	return out, nil
}
