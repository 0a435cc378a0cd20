package wire

import (
	"context"
	"database/sql"
	"errors"

	"homologa/simulator/store"
)

// Scanner is one row to scan: *sql.Row or *sql.Rows.
type Scanner interface{ Scan(dest ...any) error }

// All runs a query and scans each of its rows with scan.
func All[T any](ctx context.Context, tx *store.Tx, scan func(Scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
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

// Maybe is what a loader of one row answers: nil, and no error, when there
// is no row.
func Maybe[T any](v *T, err error) (*T, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// ScanID scans a row of one id.
func ScanID(row Scanner) (int64, error) {
	var id int64
	err := row.Scan(&id)
	return id, err
}
