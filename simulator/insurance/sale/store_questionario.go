package sale

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/store"
)

// loadRespostas reads the answers saved for proposal (or reserved number)
// numero; nil when none are.
func loadRespostas(ctx context.Context, tx *store.Tx, numero int64, qid int) (*respostas, error) {
	var raw string
	var updated int64
	var rs respostas
	err := tx.QueryRowContext(ctx, `SELECT respostas, autor, updated_at FROM questionario_respostas WHERE numero = ? AND questionario_id = ?`,
		numero, qid).Scan(&raw, &rs.Autor, &updated)
	if err == nil {
		rs.UpdatedAt = time.Unix(0, updated).UTC()
		if err = json.Unmarshal([]byte(raw), &rs.Respostas); err != nil {
			err = fmt.Errorf("respostas %d/%d: %w", numero, qid, err)
		}
	}
	return store.Maybe(&rs, err)
}

func putRespostas(ctx context.Context, tx *store.Tx, t *answerTarget, companyID string, rs []resposta, autor string, at time.Time) error {
	b, err := json.Marshal(rs)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO questionario_respostas (numero, questionario_id, company_id, offer_id, respostas, autor, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (numero, questionario_id) DO UPDATE SET respostas = excluded.respostas, autor = excluded.autor, updated_at = excluded.updated_at`,
		t.numero, t.q.ID, companyID, t.offerID, string(b), autor, at.UnixNano(), at.UnixNano())
	return err
}
