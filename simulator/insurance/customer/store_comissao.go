package customer

import (
	"context"
	"database/sql"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

const comissaoColumns = `id, cobranca_id, inscricao_id, company_id, app_id, valor, percentual, competencia, status, pago_em, estornado_em, created_at`

func scanComissao(row store.Scanner) (*comissao, error) {
	var c comissao
	var pago, estornado sql.NullInt64
	var created int64
	if err := row.Scan(&c.ID, &c.CobrancaID, &c.InscricaoID, &c.CompanyID, &c.AppID, &c.Valor, &c.Percentual, &c.Competencia, &c.Status,
		&pago, &estornado, &created); err != nil {
		return nil, err
	}
	if pago.Valid {
		c.PagoEm = time.Unix(0, pago.Int64).UTC()
	}
	if estornado.Valid {
		c.EstornadoEm = time.Unix(0, estornado.Int64).UTC()
	}
	c.CreatedAt = time.Unix(0, created).UTC()
	return &c, nil
}

// listComissoes reads the company's commissions, newest first (the last
// 1000).
func listComissoes(ctx context.Context, tx *store.Tx, companyID string, f comissaoFilter) ([]*comissao, error) {
	where, args := wire.Where([]string{"company_id = ?"}, []any{companyID}, wire.Eq{Column: "status", Value: f.Status},
		wire.Eq{Column: "competencia", Value: f.Competencia}, wire.Eq{Column: "inscricao_id", Value: f.InscricaoID})
	return comissoes.Select(ctx, tx, where+` ORDER BY id DESC LIMIT 1000`, args...)
}

// comissoes are the stored commissions, by id.
var comissoes = wire.Table[comissao]{Name: "comissoes", Key: "id", Columns: comissaoColumns, Scan: scanComissao}

// dueComissoes reads the company's commissions issued by now and not yet
// paid.
func dueComissoes(ctx context.Context, tx *store.Tx, companyID string, now time.Time) ([]*comissao, error) {
	return comissoes.Select(ctx, tx, `WHERE company_id = ? AND status = ? AND created_at <= ? ORDER BY id`, companyID, ComEmitida, now.UnixNano())
}

// reversibleComissoes reads an enrollment's commissions not yet reversed.
func reversibleComissoes(ctx context.Context, tx *store.Tx, inscricaoID int64) ([]*comissao, error) {
	return comissoes.Select(ctx, tx, `WHERE inscricao_id = ? AND status IN (?, ?) ORDER BY id`, inscricaoID, ComEmitida, ComPaga)
}

func insertComissao(ctx context.Context, tx *store.Tx, c *comissao) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO comissoes (cobranca_id, inscricao_id, company_id, app_id, valor, percentual, competencia, status, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.CobrancaID, c.InscricaoID, c.CompanyID, c.AppID, c.Valor, c.Percentual, c.Competencia, c.Status, c.CreatedAt.UnixNano())
	if err != nil {
		return err
	}
	c.ID, err = res.LastInsertId()
	return err
}

// storeComissaoStatus writes a commission's status and when it was paid
// or reversed; only a move of the commission machine calls it.
func storeComissaoStatus(ctx context.Context, tx *store.Tx, id int64, status string, at time.Time) error {
	column := "pago_em"
	if status == ComEstornada {
		column = "estornado_em"
	}
	_, err := tx.ExecContext(ctx, `UPDATE comissoes SET status = ?, `+column+` = ? WHERE id = ?`, status, at.UnixNano(), id)
	return err
}

// openPayout records the company's payout of month mes; false when it was
// already (its job is scheduled).
func openPayout(ctx context.Context, tx *store.Tx, companyID, mes string) (bool, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO comissao_lotes (company_id, mes) VALUES (?, ?) ON CONFLICT DO NOTHING`, companyID, mes)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
