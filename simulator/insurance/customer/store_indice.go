package customer

import (
	"context"

	"homologa/simulator/money"
	"homologa/simulator/store"
)

// loadIndex reads the months an index table holds for a company: the
// sandbox's values (company_id "") with the company's own over them.
func loadIndex(ctx context.Context, tx *store.Tx, companyID, indice string) (map[string]money.Rate, error) {
	type month struct {
		mes   string
		valor money.Rate
	}
	// The sandbox's rows sort first, so the company's own overwrite them.
	ms, err := store.All(ctx, tx, func(row store.Scanner) (month, error) {
		var m month
		return m, row.Scan(&m.mes, &m.valor)
	}, `SELECT mes, valor FROM indices WHERE indice = ? AND company_id IN ('', ?) ORDER BY company_id`, indice, companyID)
	out := map[string]money.Rate{}
	for _, m := range ms {
		out[m.mes] = m.valor
	}
	return out, err
}

// putIndexMonth sets a month of the index values of companyID ("" for the
// sandbox's); valor is the percentage in units of 10⁻⁸ (money.Rate).
func putIndexMonth(ctx context.Context, tx *store.Tx, companyID, indice, mes string, v money.Rate) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO indices (company_id, indice, mes, valor) VALUES (?, ?, ?, ?)
		ON CONFLICT (company_id, indice, mes) DO UPDATE SET valor = excluded.valor`, companyID, indice, mes, v)
	return err
}
