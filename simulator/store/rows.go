package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"homologa/simulator/tenant"
)

// The generic row helpers every domain's store files share: a domain's
// finders say their SQL and how to scan one row, these do the rest.

// Scanner is one row to scan: *sql.Row or *sql.Rows.
type Scanner interface{ Scan(dest ...any) error }

// All runs a query and scans each of its rows with scan.
func All[T any](ctx context.Context, tx *Tx, scan func(Scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return Collect(rows, scan)
}

// Collect scans every row and closes them.
func Collect[T any](rows *sql.Rows, scan func(Scanner) (T, error)) ([]T, error) {
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

// Value scans the one column of the one row a query returns.
func Value[T any](ctx context.Context, tx *Tx, query string, args ...any) (T, error) {
	var v T
	err := tx.QueryRowContext(ctx, query, args...).Scan(&v)
	return v, err
}

// Values scans the one column of every row a query returns.
func Values[T any](ctx context.Context, tx *Tx, query string, args ...any) ([]T, error) {
	return All(ctx, tx, func(r Scanner) (T, error) {
		var v T
		return v, r.Scan(&v)
	}, query, args...)
}

// Maybe is what a finder of one row answers: nil, and no error, when there
// is no row.
func Maybe[T any](v *T, err error) (*T, error) {
	if err != nil {
		return nil, NoRow(err)
	}
	return v, nil
}

// NoRow is nil for "no row", err otherwise.
func NoRow(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}

// ScanID scans a row of one integer id.
func ScanID(row Scanner) (int64, error) {
	var id int64
	err := row.Scan(&id)
	return id, err
}

// DeleteCompany runs a domain's deletes of one company's rows (each with
// the company id as its one argument), in order: children before the rows
// they reference, as foreign keys are on. An id that names no company is
// refused: rows of no company are the sandbox's own (the index table),
// never a company's to lose.
func DeleteCompany(ctx context.Context, tx *Tx, companyID string, deletes []string) error {
	if !tenant.Named(companyID) {
		return fmt.Errorf("reset: %w", tenant.NoCompany())
	}
	return ExecEach(ctx, tx, companyID, deletes...)
}

// DeleteIn runs deletes of the rows a list of keys names, each statement
// reading the list as JSON (`IN (SELECT value FROM json_each(?))`), in
// order: children first. An empty list deletes nothing.
func DeleteIn[K any](ctx context.Context, tx *Tx, keys []K, deletes ...string) error {
	if len(keys) == 0 {
		return nil
	}
	list, err := json.Marshal(keys)
	if err != nil {
		return err
	}
	return ExecEach(ctx, tx, string(list), deletes...)
}

// ExecEach runs statements in order, each with the one argument arg.
func ExecEach(ctx context.Context, tx *Tx, arg any, statements ...string) error {
	for _, q := range statements {
		if _, err := tx.ExecContext(ctx, q, arg); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}
