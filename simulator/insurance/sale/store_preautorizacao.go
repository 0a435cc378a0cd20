package sale

import (
	"context"
	"database/sql"
	"time"

	"homologa/simulator/store"
)

// alternateRetry makes a retry card's attempts alternate: when the last
// attempt of the company was refused, it forgets it (this one approves);
// otherwise it records this one as refused.
func alternateRetry(ctx context.Context, tx *store.Tx, companyID, final string, at time.Time) (refused bool, err error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM card_retries WHERE company_id = ? AND final = ?`, companyID, final)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return false, nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO card_retries (company_id, final, created_at) VALUES (?, ?, ?)`, companyID, final, at.UnixNano())
	return true, err
}

func insertPreautorizacao(ctx context.Context, tx *store.Tx, a *preautorizacao, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO card_preauths (code, company_id, cpf, valor, bandeira, final, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		a.Code, a.CompanyID, a.CPF, a.Valor, a.Bandeira, a.Final, at.UnixNano())
	return err
}

// loadPreauth reads the company's pre-authorisation code; nil when it has
// none.
func loadPreauth(ctx context.Context, tx *store.Tx, companyID, code string) (*preautorizacao, error) {
	a := preautorizacao{Code: code}
	var used sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT company_id, cpf, valor, bandeira, final, used_by FROM card_preauths WHERE code = ? AND company_id = ?`, code, companyID).
		Scan(&a.CompanyID, &a.CPF, &a.Valor, &a.Bandeira, &a.Final, &used)
	a.UsedBy = used.Int64
	return store.Maybe(&a, err)
}

func markPreauthUsed(ctx context.Context, tx *store.Tx, code string, numero int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE card_preauths SET used_by = ? WHERE code = ?`, numero, code)
	return err
}
