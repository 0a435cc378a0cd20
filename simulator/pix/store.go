package pix

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/store"
)

// exec runs a statement.
func exec(ctx context.Context, tx *store.Tx, query string, args ...any) error {
	_, err := tx.ExecContext(ctx, query, args...)
	return err
}

// execCount runs a statement and says how many rows it changed.
func execCount(ctx context.Context, tx *store.Tx, query string, args ...any) (int64, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// scanString scans a row of one text column.
func scanString(row store.Scanner) (string, error) {
	var s string
	err := row.Scan(&s)
	return s, err
}

// scanJSON scans a row of one JSON column, kept as it was stored.
func scanJSON(row store.Scanner) (json.RawMessage, error) {
	var s string
	err := row.Scan(&s)
	return json.RawMessage(s), err
}

// nanos scans a time the store keeps as Unix nanoseconds.
type nanos struct{ t *time.Time }

func (n nanos) Scan(v any) error {
	i, ok := v.(int64)
	if !ok {
		return fmt.Errorf("a time in nanoseconds, got %T", v)
	}
	*n.t = fromNanos(i)
	return nil
}

// jsonDoc scans a JSON object the store keeps as text.
type jsonDoc struct{ d *doc }

func (j jsonDoc) Scan(v any) error {
	switch s := v.(type) {
	case string:
		return json.Unmarshal([]byte(s), j.d)
	case []byte:
		return json.Unmarshal(s, j.d)
	}
	return fmt.Errorf("a JSON text, got %T", v)
}

// pageRows runs a listing: it counts its rows, completes parametros with
// the paginacao lq asks for, and scans the page's rows in order.
func pageRows[T any](ctx context.Context, tx *store.Tx, lq *listQuery, l listing, scan func(store.Scanner) (T, error)) (doc, []T, error) {
	total, err := store.Value[int](ctx, tx, `SELECT COUNT(*) FROM `+l.from+` WHERE `+l.filter(), l.args...)
	if err != nil {
		return nil, nil, err
	}
	params, limit, offset := lq.page(total)
	args := append(append([]any{}, l.args...), limit, offset)
	list, err := store.All(ctx, tx, scan, `SELECT `+l.columns+` FROM `+l.from+` WHERE `+l.filter()+` ORDER BY `+l.order+` LIMIT ? OFFSET ?`, args...)
	return params, list, err
}

// nextID is the id the next row of an AUTOINCREMENT table gets, read in
// the write transaction that inserts it.
func nextID(ctx context.Context, tx *store.Tx, table string) (int64, error) {
	id, err := store.Value[int64](ctx, tx, `SELECT `+nextIDSQL(table))
	if err != nil {
		return 0, fmt.Errorf("next id of %s: %w", table, err)
	}
	return id, nil
}

// nextIDSQL is the expression of the id the next row of table gets:
// sqlite_sequence remembers the largest id after retention has deleted
// the newest rows, whose ids (a location's is the partner's) must not be
// handed out again.
func nextIDSQL(table string) string {
	return `1 + MAX(COALESCE((SELECT MAX(id) FROM ` + table + `), 0), COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '` + table + `'), 0))`
}

// company is what a charge shows of its receiver: its CNPJ and name.
type company struct{ CNPJ, Name string }

// findCompany reads a company's CNPJ and name.
func findCompany(ctx context.Context, tx *store.Tx, id string) (company, error) {
	var c company
	err := tx.QueryRowContext(ctx, `SELECT cnpj, name FROM companies WHERE id = ?`, id).Scan(&c.CNPJ, &c.Name)
	return c, err
}

// findAppCompany reads the company of an app.
func findAppCompany(ctx context.Context, tx *store.Tx, appID string) (string, error) {
	return store.Value[string](ctx, tx, `SELECT company_id FROM apps WHERE id = ?`, appID)
}
