package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"homologa/simulator/store"
)

// scanner is a row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(...any) error }

// pageRows runs a listing: it counts its rows, completes parametros with
// the paginacao lq asks for, and scans the page's rows in order.
func pageRows[T any](ctx context.Context, tx *store.Tx, lq *listQuery, l listing, scan func(scanner) (T, error)) (doc, []T, error) {
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+l.from+` WHERE `+l.filter(), l.args...).Scan(&total); err != nil {
		return nil, nil, err
	}
	params, limit, offset := lq.page(total)
	rows, err := tx.QueryContext(ctx, `SELECT `+l.columns+` FROM `+l.from+` WHERE `+l.filter()+` ORDER BY `+l.order+` LIMIT ? OFFSET ?`,
		append(l.args, limit, offset)...)
	if err != nil {
		return nil, nil, err
	}
	list, err := scanAll(rows, scan)
	return params, list, err
}

// scanAll scans every row and closes them.
func scanAll[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// queryAll runs a query and scans every row.
func queryAll[T any](ctx context.Context, tx *store.Tx, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return scanAll(rows, scan)
}

// scanString scans a row of one text column.
func scanString(row scanner) (string, error) {
	var s string
	err := row.Scan(&s)
	return s, err
}

// scanJSON scans a row of one JSON column, kept as it was stored.
func scanJSON(row scanner) (json.RawMessage, error) {
	var s string
	err := row.Scan(&s)
	return json.RawMessage(s), err
}

// maybe turns "no row" into nil: a finder's answer when there is nothing.
func maybe[T any](v *T, err error) (*T, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// maxID is the largest id of a table, 0 when it is empty.
func maxID(ctx context.Context, tx *store.Tx, table string) (int64, error) {
	var max int64
	err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM `+table).Scan(&max)
	return max, err
}

// findCompany reads a company's CNPJ and name.
func findCompany(ctx context.Context, tx *store.Tx, id string) (company, error) {
	var c company
	err := tx.QueryRowContext(ctx, `SELECT cnpj, name FROM companies WHERE id = ?`, id).Scan(&c.CNPJ, &c.Name)
	return c, err
}

// findAppCompany reads the company of an app.
func findAppCompany(ctx context.Context, tx *store.Tx, appID string) (string, error) {
	var companyID string
	err := tx.QueryRowContext(ctx, `SELECT company_id FROM apps WHERE id = ?`, appID).Scan(&companyID)
	return companyID, err
}
