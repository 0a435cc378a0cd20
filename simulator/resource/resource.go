package resource

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Summary is one resource as the dashboard lists it.
type Summary struct {
	Kind      string    `json:"kind"`
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	AppID     string    `json:"appId"`
	CompanyID string    `json:"-"`
	ClientID  string    `json:"clientId"`
	CNPJ      string    `json:"cnpj"`
	Detail    string    `json:"detail,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Count is how many resources of a kind are in a status.
type Count struct {
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Count  int    `json:"count"`
}

// Query selects resources: of its scope (one company, or every company
// for the operator; none is an error), of one app ("" for all the
// company's), in one status ("" for all), at most Limit of them.
type Query struct {
	Scope  tenant.Scope
	AppID  string
	Status string
	Limit  int
}

// Lister is a domain's listing of its resources.
type Lister interface {
	// ResourceKinds names the kinds the domain lists, in display order.
	ResourceKinds() []string
	// ListResources lists the resources of kinds (all of the domain's
	// when empty) matching q, most recently changed first, and counts
	// them by kind and status (counts follow kinds and the app only).
	ListResources(ctx context.Context, kinds []string, q Query) ([]Summary, []Count, error)
}

// Window is how many of the newest rows of each table a listing and its
// counts look at: the store has one connection, and counting and sorting
// every row of a busy company would hold it, and every partner's request
// with it, for as long as the company is large (BenchmarkResources).
const Window = 1000

// Table is where one kind lives, as SQL expressions over its table
// (aliased t) and what Join adds; App, Company and Updated default to
// t.app_id, t.company_id and t.updated_at.
type Table struct {
	Kind, Table, Join, Where, ID, Detail string
	App, Company, Updated                string
}

func (k Table) col(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// Select returns the tables of kinds, all when kinds is empty.
func Select(tables []Table, kinds []string) []Table {
	if len(kinds) == 0 {
		return tables
	}
	var out []Table
	for _, t := range tables {
		for _, k := range kinds {
			if t.Kind == k {
				out = append(out, t)
			}
		}
	}
	return out
}

// Kinds names the kinds of tables.
func Kinds(tables []Table) []string {
	out := make([]string, len(tables))
	for i, t := range tables {
		out[i] = t.Kind
	}
	return out
}

// List reads the newest Window rows of each table in tx and answers the
// Summaries q selects and the counts by status. A domain calls it on its
// own tables, inside its own read transaction.
func List(ctx context.Context, tx *store.Tx, tables []Table, q Query) ([]Summary, []Count, error) {
	list, counts := []Summary{}, []Count{}
	if len(tables) == 0 {
		return list, counts, nil
	}
	if !q.Scope.Valid() {
		return nil, nil, fmt.Errorf("resource list: %w", tenant.NoCompany())
	}
	company, _ := q.Scope.Company()
	var parts []string
	var args []any
	for _, k := range tables {
		var conds []string
		if k.Where != "" {
			conds = append(conds, k.Where)
		}
		// A company's listing looks at the newest rows of its own, not
		// at its share of everyone's newest.
		inner := ""
		if !q.Scope.Every() {
			if k.Company == "" {
				inner = " WHERE company_id = ?"
			} else {
				conds = append(conds, k.Company+" = ?")
			}
			args = append(args, company)
		}
		if q.AppID != "" {
			conds = append(conds, k.col(k.App, "t.app_id")+" = ?")
			args = append(args, q.AppID)
		}
		where := ""
		if len(conds) > 0 {
			where = " WHERE " + strings.Join(conds, " AND ")
		}
		parts = append(parts, "SELECT * FROM (SELECT '"+k.Kind+"' AS kind, "+k.ID+" AS id, t.status AS status, "+
			k.col(k.App, "t.app_id")+" AS app_id, "+k.col(k.Company, "t.company_id")+" AS company_id, "+k.Detail+" AS detail, t.created_at AS created_at, "+
			k.col(k.Updated, "t.updated_at")+" AS updated_at FROM (SELECT * FROM "+k.Table+inner+" ORDER BY rowid DESC LIMIT "+strconv.Itoa(Window)+") t "+k.Join+where+")")
	}
	window := strings.Join(parts, " UNION ALL ")
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	rows, err := tx.QueryContext(ctx, `SELECT kind, id, status, app_id, company_id, COALESCE(detail, ''), created_at, updated_at
		FROM (`+window+`) WHERE ? = '' OR status = ? ORDER BY updated_at DESC, created_at DESC, kind, id LIMIT ?`,
		append(append([]any{}, args...), q.Status, q.Status, limit)...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var s Summary
		var created, updated int64
		if err := rows.Scan(&s.Kind, &s.ID, &s.Status, &s.AppID, &s.CompanyID, &s.Detail, &created, &updated); err != nil {
			return nil, nil, err
		}
		s.CreatedAt, s.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
		list = append(list, s)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	crows, err := tx.QueryContext(ctx, "SELECT kind, status, COUNT(*) FROM ("+window+") GROUP BY kind, status", args...)
	if err != nil {
		return nil, nil, err
	}
	defer crows.Close()
	for crows.Next() {
		var c Count
		if err := crows.Scan(&c.Kind, &c.Status, &c.Count); err != nil {
			return nil, nil, err
		}
		counts = append(counts, c)
	}
	return list, counts, crows.Err()
}

// CountRows counts a company's rows of tables in tx: what its quota of
// resources counts (package quota). A domain calls it on its own tables.
func CountRows(ctx context.Context, tx *store.Tx, tables []Table, companyID string) (int64, error) {
	var total int64
	for _, k := range tables {
		conds := []string{k.col(k.Company, "t.company_id") + " = ?"}
		if k.Where != "" {
			conds = append(conds, k.Where)
		}
		var n int64
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+k.Table+` t `+k.Join+` WHERE `+strings.Join(conds, " AND "), companyID).Scan(&n); err != nil {
			return 0, fmt.Errorf("count %s: %w", k.Kind, err)
		}
		total += n
	}
	return total, nil
}
