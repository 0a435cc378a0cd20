package benefit

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

const pendenciaColumns = `id, beneficio_id, status, grupo, codigo, descricao, documentos_exigidos, responsavel, resposta, autor, documentos, created_at, updated_at`

func scanPendencia(row store.Scanner) (*pendencia, error) {
	var p pendencia
	var exigidos, docs string
	var created, updated int64
	if err := row.Scan(&p.ID, &p.BeneficioID, &p.Status, &p.Grupo, &p.Codigo, &p.Descricao, &exigidos, &p.Responsavel, &p.Resposta, &p.Autor, &docs,
		&created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(exigidos), &p.DocumentosExigidos); err != nil {
		return nil, fmt.Errorf("pendencia %d documentos_exigidos: %w", p.ID, err)
	}
	p.Documentos = json.RawMessage(docs)
	p.CreatedAt, p.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return &p, nil
}

// loadPendencias reads a benefit's pendings in status ("" for all),
// oldest first.
func loadPendencias(ctx context.Context, tx *store.Tx, beneficioID int64, status string) ([]*pendencia, error) {
	where, args := wire.Where([]string{"beneficio_id = ?"}, []any{beneficioID}, wire.Eq{Column: "status", Value: status})
	ps, err := store.All(ctx, tx, scanPendencia, `SELECT `+pendenciaColumns+` FROM beneficio_pendencias `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("pendings of beneficio %d: %w", beneficioID, err)
	}
	return ps, nil
}

// loadPendencia reads pending id of benefit beneficioID; nil when it has
// none.
func loadPendencia(ctx context.Context, tx *store.Tx, beneficioID, id int64) (*pendencia, error) {
	return store.Maybe(scanPendencia(tx.QueryRowContext(ctx, `SELECT `+pendenciaColumns+` FROM beneficio_pendencias WHERE id = ? AND beneficio_id = ?`, id, beneficioID)))
}

func insertPendencia(ctx context.Context, tx *store.Tx, p *pendencia) error {
	ex, err := json.Marshal(p.DocumentosExigidos)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO beneficio_pendencias (beneficio_id, status, grupo, codigo, descricao, documentos_exigidos, responsavel, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.BeneficioID, p.Status, p.Grupo, p.Codigo, p.Descricao, string(ex), p.Responsavel, p.CreatedAt.UnixNano(), p.UpdatedAt.UnixNano())
	if err != nil {
		return fmt.Errorf("insert pending of beneficio %d: %w", p.BeneficioID, err)
	}
	p.ID, err = res.LastInsertId()
	return err
}
