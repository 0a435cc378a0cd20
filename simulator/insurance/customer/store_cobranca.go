package customer

import (
	"context"
	"database/sql"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

const cobrancaColumns = `id, inscricao_id, company_id, app_id, competencia, parcela, valor, vencimento, forma, status, motivo_recusa, data_pagamento`

func scanCobranca(row store.Scanner) (*cobranca, error) {
	var c cobranca
	var paid sql.NullInt64
	if err := row.Scan(&c.ID, &c.InscricaoID, &c.CompanyID, &c.AppID, &c.Competencia, &c.Parcela, &c.Valor, &c.Vencimento, &c.Forma, &c.Status, &c.Motivo, &paid); err != nil {
		return nil, err
	}
	if paid.Valid {
		c.PagaEm = time.Unix(0, paid.Int64).UTC()
	}
	return &c, nil
}

// cobrancas are the stored charges, by id.
var cobrancas = wire.Table[cobranca]{Name: "cobrancas", Key: "id", Columns: cobrancaColumns, Scan: scanCobranca}

// listCobrancas reads an enrollment's charges in status ("" for all),
// oldest first.
func listCobrancas(ctx context.Context, tx *store.Tx, inscricaoID int64, status string) ([]*cobranca, error) {
	where, args := wire.Where([]string{"inscricao_id = ?"}, []any{inscricaoID}, wire.Eq{Column: "status", Value: status})
	return cobrancas.Select(ctx, tx, where+` ORDER BY parcela`, args...)
}

// insertCobranca stores a new charge unless the enrollment has its
// parcela already (a job run twice): then it reports false.
func insertCobranca(ctx context.Context, tx *store.Tx, c *cobranca, at time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO cobrancas (inscricao_id, company_id, app_id, competencia, parcela, valor, vencimento, forma, status, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (inscricao_id, parcela) DO NOTHING`,
		c.InscricaoID, c.CompanyID, c.AppID, c.Competencia, c.Parcela, c.Valor, c.Vencimento, c.Forma, c.Status, at.UnixNano(), at.UnixNano())
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	c.ID, err = res.LastInsertId()
	return true, err
}

// storeCobrancaStatus writes a charge's status; only a move of the charge
// machine calls it. PAGA records when.
func storeCobrancaStatus(ctx context.Context, tx *store.Tx, id int64, status, motivo string, at time.Time) error {
	var paid any
	if status == CobPaga {
		paid = at.UnixNano()
	}
	_, err := tx.ExecContext(ctx, `UPDATE cobrancas SET status = ?, motivo_recusa = ?, data_pagamento = COALESCE(?, data_pagamento), updated_at = ? WHERE id = ?`,
		status, motivo, paid, at.UnixNano(), id)
	return err
}

// countOverdue counts an enrollment's charges still unpaid after their
// due date, today being a date in Brasília.
func countOverdue(ctx context.Context, tx *store.Tx, inscricaoID int64, today string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cobrancas WHERE inscricao_id = ? AND status IN (?, ?) AND vencimento < ?`,
		inscricaoID, CobEmitida, CobRecusada, today).Scan(&n)
	return n, err
}
