package sale

import (
	"context"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

const pendenciaColumns = `id, numero, status, grupo, codigo, descricao, responsavel, resposta, autor, documento, created_at, updated_at`

func scanPendencia(row store.Scanner) (*pendencia, error) {
	var p pendencia
	var doc string
	var created, updated int64
	if err := row.Scan(&p.ID, &p.Numero, &p.Status, &p.Grupo, &p.Codigo, &p.Descricao, &p.Responsavel, &p.Resposta, &p.Autor, &doc, &created, &updated); err != nil {
		return nil, err
	}
	if doc != "" {
		p.Documento = []byte(doc)
	}
	p.CreatedAt, p.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return &p, nil
}

// loadPendencias reads a proposal's pendings in status ("" for all),
// oldest first.
func loadPendencias(ctx context.Context, tx *store.Tx, numero int64, status string) ([]*pendencia, error) {
	where, args := wire.Where([]string{"numero = ?"}, []any{numero}, wire.Eq{Column: "status", Value: status})
	return store.All(ctx, tx, scanPendencia, `SELECT `+pendenciaColumns+` FROM pendencias `+where+` ORDER BY id`, args...)
}

// loadPendencia reads pending id of a proposal of the company; nil when
// it has none.
func loadPendencia(ctx context.Context, tx *store.Tx, companyID string, id int64) (*pendencia, error) {
	return store.Maybe(scanPendencia(tx.QueryRowContext(ctx, `SELECT `+pendenciaColumns+` FROM pendencias
		WHERE id = ? AND numero IN (SELECT numero FROM propostas WHERE company_id = ?)`, id, companyID)))
}

func insertPendencia(ctx context.Context, tx *store.Tx, p *pendencia) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO pendencias (numero, status, grupo, codigo, descricao, responsavel, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		p.Numero, p.Status, p.Grupo, p.Codigo, p.Descricao, p.Responsavel, p.CreatedAt.UnixNano(), p.UpdatedAt.UnixNano())
	if err != nil {
		return err
	}
	p.ID, err = res.LastInsertId()
	return err
}
