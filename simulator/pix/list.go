package pix

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// listQuery is what every list operation reads: inicio and fim (required but
// for GET /webhook), the paging of the literal paginacao.paginaAtual and
// paginacao.itensPorPagina parameters, and the payer filters.
type listQuery struct {
	Inicio, Fim     time.Time
	Page, PerPage   int
	CPF, CNPJ       string
	q               url.Values
	params          doc // echoed back as parametros
	invalid         []violation
	consultaInvalid string
}

// parseList reads the common list parameters; typ is the operation's
// ConsultaInvalida type. required says whether inicio and fim must be given.
func parseList(q url.Values, typ string, required bool) *listQuery {
	lq := &listQuery{Page: 0, PerPage: 100, q: q, params: doc{}, consultaInvalid: typ}
	lq.period(required)
	lq.number("paginacao.paginaAtual", &lq.Page, 0, 1<<31-1)
	lq.number("paginacao.itensPorPagina", &lq.PerPage, 1, 1000)
	lq.CPF, lq.CNPJ = q.Get("cpf"), q.Get("cnpj")
	if lq.CPF != "" && lq.CNPJ != "" {
		lq.bad("cnpj", "cpf e cnpj não podem ser informados juntos", lq.CNPJ)
	}
	lq.taxID("cpf", lq.CPF, taxid.CheckCPF)
	lq.taxID("cnpj", lq.CNPJ, taxid.CheckCNPJ)
	return lq
}

// period reads inicio and fim; an open fim is the end of time.
func (lq *listQuery) period(required bool) {
	for _, name := range []string{"inicio", "fim"} {
		v := lq.q.Get(name)
		if v == "" {
			if required {
				lq.bad(name, "é obrigatório (data e hora RFC 3339)", "")
			}
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			lq.bad(name, "deve ser uma data e hora RFC 3339, como 2026-01-01T00:00:00Z", v)
			continue
		}
		if name == "inicio" {
			lq.Inicio = t
		} else {
			lq.Fim = t
		}
		lq.params[name] = v
	}
	if !lq.Inicio.IsZero() && !lq.Fim.IsZero() && lq.Fim.Before(lq.Inicio) {
		lq.bad("fim", "é anterior a inicio", lq.q.Get("fim"))
	}
	if lq.Fim.IsZero() {
		lq.Fim = time.Unix(0, 1<<62)
	}
}

func (lq *listQuery) number(name string, dst *int, lo, hi int) {
	v := lq.q.Get(name)
	if v == "" {
		return
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		lq.bad(name, "deve ser um inteiro de "+strconv.Itoa(lo)+" a "+strconv.Itoa(hi), v)
		return
	}
	*dst = n
}

func (lq *listQuery) taxID(name, v string, check func(string) error) {
	if v == "" {
		return
	}
	if err := check(v); err != nil {
		lq.bad(name, err.Error(), v)
	}
	lq.params[name] = v
}

func (lq *listQuery) bad(field, reason, value string) {
	lq.invalid = append(lq.invalid, violation{field, reason, value})
}

// boolParam reads an optional boolean filter into the echo.
func (lq *listQuery) boolParam(name string) *bool {
	v := lq.q.Get(name)
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		lq.bad(name, "deve ser true ou false", v)
		return nil
	}
	lq.params[name] = b
	return &b
}

// echo reads an optional text filter into the echo.
func (lq *listQuery) echo(name string) string {
	v := lq.q.Get(name)
	if v != "" {
		lq.params[name] = v
	}
	return v
}

// oneOf reads an optional filter that must be one of values; reason says
// so when it is not.
func (lq *listQuery) oneOf(name, reason string, values ...string) string {
	v := lq.q.Get(name)
	if v == "" {
		return ""
	}
	for _, ok := range values {
		if v == ok {
			lq.params[name] = v
			return v
		}
	}
	lq.bad(name, reason, v)
	return v
}

// err is the ConsultaInvalida error, or nil.
func (lq *listQuery) err() error {
	if len(lq.invalid) == 0 {
		return nil
	}
	return invalid(lq.consultaInvalid, lq.invalid...)
}

// page completes parametros with the paginacao of total items and returns
// the SQL LIMIT and OFFSET.
func (lq *listQuery) page(total int) (doc, int, int) {
	pages := (total + lq.PerPage - 1) / lq.PerPage
	if pages == 0 {
		pages = 1 // page 0 exists, empty: the spec wants at least one page
	}
	p := clone(lq.params)
	p["paginacao"] = doc{"paginaAtual": lq.Page, "itensPorPagina": lq.PerPage, "quantidadeDePaginas": pages, "quantidadeTotalDeItens": total}
	return p, lq.PerPage, lq.Page * lq.PerPage
}

// listing is the SQL of one list operation: where its rows come from, the
// columns a row is scanned from, the filter and the order. Store files
// build it; pageRows runs it.
type listing struct {
	from, columns, order string
	where                []string
	args                 []any
}

// listing starts the listing of a company's rows of from created in lq's
// period.
func (lq *listQuery) listing(companyID, from, columns, order string) listing {
	return lq.listingAt(companyID, from, columns, order, "", "created_at")
}

// listingAt is listing with a table alias ("c.") and another time column.
func (lq *listQuery) listingAt(companyID, from, columns, order, alias, at string) listing {
	l := listing{from: from, columns: columns, order: order}
	l.and(alias+"company_id = ? AND "+alias+at+" >= ? AND "+alias+at+" <= ?", companyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano())
	return l
}

// and adds a condition to the filter.
func (l *listing) and(cond string, args ...any) {
	l.where = append(l.where, cond)
	l.args = append(l.args, args...)
}

// eq adds "column = value" for each column, value pair whose value is not
// empty: the optional filters of a list.
func (l *listing) eq(pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			l.and(pairs[i]+" = ?", pairs[i+1])
		}
	}
}

// andIf adds a presence condition: present when *b is true, absent when
// false, none when b is nil.
func (l *listing) andIf(b *bool, present, absent string) {
	if b == nil {
		return
	}
	if *b {
		l.and(present)
	} else {
		l.and(absent)
	}
}

func (l *listing) filter() string { return strings.Join(l.where, " AND ") }

// list is every list operation: in one read transaction, the page of rows
// lq asks for, each scanned and then completed by full (which may read
// more; nil when the scanned row is the answer), under key next to
// parametros.
func list[T any](ctx context.Context, db *store.DB, lq *listQuery, l listing, key string,
	scan func(row store.Scanner) (T, error), full func(ctx context.Context, tx *store.Tx, v T) (any, error)) (doc, error) {
	return read(ctx, db, func(tx *store.Tx) (doc, error) {
		params, rows, err := pageRows(ctx, tx, lq, l, scan)
		if err != nil {
			return nil, err
		}
		items := make([]any, 0, len(rows))
		for _, v := range rows {
			var item any = v
			if full != nil {
				if item, err = full(ctx, tx, v); err != nil {
					return nil, err
				}
			}
			items = append(items, item)
		}
		return doc{"parametros": params, key: items}, nil
	})
}
