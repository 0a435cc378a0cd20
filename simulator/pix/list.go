package pix

import (
	"context"
	"database/sql"
	"net/http"
	"strconv"
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
	params          doc // echoed back as parametros
	invalid         []violation
	consultaInvalid string
}

// parseList reads the common list parameters; typ is the operation's
// ConsultaInvalida type. required says whether inicio and fim must be given.
func parseList(r *http.Request, typ string, required bool) *listQuery {
	q := r.URL.Query()
	lq := &listQuery{Page: 0, PerPage: 100, params: doc{}, consultaInvalid: typ}
	for _, name := range []string{"inicio", "fim"} {
		v := q.Get(name)
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
		lq.bad("fim", "é anterior a inicio", q.Get("fim"))
	}
	if lq.Fim.IsZero() {
		lq.Fim = time.Unix(0, 1<<62)
	}
	page := func(name string, dst *int, lo, hi int) {
		v := q.Get(name)
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
	page("paginacao.paginaAtual", &lq.Page, 0, 1<<31-1)
	page("paginacao.itensPorPagina", &lq.PerPage, 1, 1000)
	lq.CPF, lq.CNPJ = q.Get("cpf"), q.Get("cnpj")
	if lq.CPF != "" && lq.CNPJ != "" {
		lq.bad("cnpj", "cpf e cnpj não podem ser informados juntos", lq.CNPJ)
	}
	if lq.CPF != "" {
		if err := taxid.CheckCPF(lq.CPF); err != nil {
			lq.bad("cpf", err.Error(), lq.CPF)
		}
		lq.params["cpf"] = lq.CPF
	}
	if lq.CNPJ != "" {
		if err := taxid.CheckCNPJ(lq.CNPJ); err != nil {
			lq.bad("cnpj", err.Error(), lq.CNPJ)
		}
		lq.params["cnpj"] = lq.CNPJ
	}
	return lq
}

func (lq *listQuery) bad(field, reason, value string) {
	lq.invalid = append(lq.invalid, violation{field, reason, value})
}

// boolParam reads an optional boolean filter into the echo.
func (lq *listQuery) boolParam(r *http.Request, name string) *bool {
	v := r.URL.Query().Get(name)
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

// pageRows runs a list query: it counts the rows of table matching where,
// completes parametros with the paginacao, and returns the page's rows in
// order, for the caller to scan and close.
func (lq *listQuery) pageRows(ctx context.Context, tx *store.Tx, table, columns, where, order string, args []any) (doc, *sql.Rows, error) {
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+` WHERE `+where, args...).Scan(&total); err != nil {
		return nil, nil, err
	}
	params, limit, offset := lq.page(total)
	rows, err := tx.QueryContext(ctx, `SELECT `+columns+` FROM `+table+` WHERE `+where+` ORDER BY `+order+` LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	return params, rows, err
}

// rfc3339 formats a time as the spec's examples do, to the millisecond.
func rfc3339(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }
