package customer

import (
	"context"

	"homologa/simulator/store"
)

// loadIndex reads the months an index table holds for a company: the
// sandbox's values (company_id "") with the company's own over them.
func loadIndex(ctx context.Context, tx *store.Tx, companyID, indice string) (map[string]float64, error) {
	type month struct {
		mes   string
		valor float64
	}
	// The sandbox's rows sort first, so the company's own overwrite them.
	ms, err := store.All(ctx, tx, func(row store.Scanner) (month, error) {
		var m month
		return m, row.Scan(&m.mes, &m.valor)
	}, `SELECT mes, valor FROM indices WHERE indice = ? AND company_id IN ('', ?) ORDER BY company_id`, indice, companyID)
	out := map[string]float64{}
	for _, m := range ms {
		out[m.mes] = m.valor
	}
	return out, err
}

// putIndexMonth sets a month of the index values of companyID ("" for the
// sandbox's).
func putIndexMonth(ctx context.Context, tx *store.Tx, companyID, indice, mes string, v float64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO indices (company_id, indice, mes, valor) VALUES (?, ?, ?, ?)
		ON CONFLICT (company_id, indice, mes) DO UPDATE SET valor = excluded.valor`, companyID, indice, mes, v)
	return err
}
