package customer

import (
	"context"
	"database/sql"
	"errors"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// loadIndexMonth reads a month of an index table; errNoMonth when the
// table does not hold it.
func loadIndexMonth(ctx context.Context, tx *store.Tx, indice, mes string) (float64, error) {
	var v float64
	err := tx.QueryRowContext(ctx, `SELECT valor FROM indices WHERE indice = ? AND mes = ?`, indice, mes).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errNoMonth
	}
	return v, err
}

// loadIndex reads the months an index table holds.
func loadIndex(ctx context.Context, tx *store.Tx, indice string) (map[string]float64, error) {
	type month struct {
		mes   string
		valor float64
	}
	ms, err := wire.All(ctx, tx, func(row wire.Scanner) (month, error) {
		var m month
		return m, row.Scan(&m.mes, &m.valor)
	}, `SELECT mes, valor FROM indices WHERE indice = ?`, indice)
	out := map[string]float64{}
	for _, m := range ms {
		out[m.mes] = m.valor
	}
	return out, err
}

func putIndexMonth(ctx context.Context, tx *store.Tx, indice, mes string, v float64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO indices (indice, mes, valor) VALUES (?, ?, ?) ON CONFLICT (indice, mes) DO UPDATE SET valor = excluded.valor`,
		indice, mes, v)
	return err
}
