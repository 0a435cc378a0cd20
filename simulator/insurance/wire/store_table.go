package wire

import (
	"context"

	"homologa/simulator/store"
)

// Table reads one kind of resource: its table, the column of its id, the
// columns Scan reads. Of reads a company's resource; AnyCompany reads
// whichever company's, for the insurer's own work (jobs, scenarios,
// regulation), never for a partner's request.
type Table[T any] struct {
	Name, Key, Columns string
	Scan               func(store.Scanner) (*T, error)
}

// Of reads the company's resource id; nil when it has none.
func (t Table[T]) Of(ctx context.Context, tx *store.Tx, companyID string, id int64) (*T, error) {
	return store.Maybe(t.Scan(tx.QueryRowContext(ctx, `SELECT `+t.Columns+` FROM `+t.Name+` WHERE `+t.Key+` = ? AND company_id = ?`, id, companyID)))
}

// AnyCompany reads resource id of whichever company; nil when there is
// none.
func (t Table[T]) AnyCompany(ctx context.Context, tx *store.Tx, id int64) (*T, error) {
	return store.Maybe(t.Scan(tx.QueryRowContext(ctx, `SELECT `+t.Columns+` FROM `+t.Name+` WHERE `+t.Key+` = ?`, id)))
}

// Select reads the resources the query (after FROM the table: WHERE …,
// ORDER BY …) selects.
func (t Table[T]) Select(ctx context.Context, tx *store.Tx, query string, args ...any) ([]*T, error) {
	return store.All(ctx, tx, t.Scan, `SELECT `+t.Columns+` FROM `+t.Name+` `+query, args...)
}

// Eq is a filter of a list: Column equals Value, or anything when Value
// is "".
type Eq struct{ Column, Value string }

// Where is a WHERE clause of the conditions given (each "column = ?" with
// its argument in args) and of each filter that has a value.
func Where(conds []string, args []any, eqs ...Eq) (string, []any) {
	for _, e := range eqs {
		if e.Value != "" {
			conds, args = append(conds, e.Column+" = ?"), append(args, e.Value)
		}
	}
	q := ""
	for i, c := range conds {
		if i == 0 {
			q = "WHERE " + c
		} else {
			q += " AND " + c
		}
	}
	return q, args
}
