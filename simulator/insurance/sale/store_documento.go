package sale

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/store"
)

func insertDocumento(ctx context.Context, tx *store.Tx, companyID, id string, body map[string]any, at time.Time) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO documentos (id, company_id, body, created_at) VALUES (?, ?, ?, ?)`, companyID+"/"+id, companyID, string(b), at.UnixNano())
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return errs.Errorf(errs.Conflict, "o documento %s já existe", id).WithType("DOCUMENTO_JA_EXISTE")
	}
	return err
}

// loadDocumento reads the company's document id; nil when it has none.
func loadDocumento(ctx context.Context, tx *store.Tx, companyID, id string) (map[string]any, error) {
	var body string
	err := tx.QueryRowContext(ctx, `SELECT body FROM documentos WHERE id = ? AND company_id = ?`, companyID+"/"+id, companyID).Scan(&body)
	d, err := store.Maybe(&body, err)
	if d == nil || err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal([]byte(*d), &out)
}

// findDocumentos lists the company's documents indexed by valor (of kind
// tipo when not "").
func findDocumentos(ctx context.Context, tx *store.Tx, companyID, valor, tipo string) ([]map[string]any, error) {
	out, err := store.All(ctx, tx, func(row store.Scanner) (map[string]any, error) {
		var body string
		if err := row.Scan(&body); err != nil {
			return nil, err
		}
		var d map[string]any
		return d, json.Unmarshal([]byte(body), &d)
	}, `SELECT body FROM documentos WHERE company_id = ? AND EXISTS (SELECT 1 FROM json_each(body, '$.indicesDocumento') AS i
		WHERE json_extract(i.value, '$.valor') = ? AND (json_extract(i.value, '$.tipoIndice') = ? OR ? = '')) ORDER BY created_at, id`,
		companyID, valor, tipo, tipo)
	if out == nil {
		out = []map[string]any{}
	}
	return out, err
}

// unusedSignedDocument is the key of the payer's oldest signed proposal in
// the GED (tipoDocumento PROPOSTA ASSINADA, an index CPF of the payer's)
// that signed no proposal yet; "" when there is none.
func unusedSignedDocument(ctx context.Context, tx *store.Tx, payer Payer) (string, error) {
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM documentos WHERE company_id = ? AND used_by IS NULL
		AND upper(replace(json_extract(body, '$.tipoDocumento'), '_', ' ')) = ?
		AND EXISTS (SELECT 1 FROM json_each(body, '$.indicesDocumento') AS i
			WHERE upper(json_extract(i.value, '$.tipoIndice')) = 'CPF' AND json_extract(i.value, '$.valor') = ?)
		ORDER BY created_at, id LIMIT 1`, payer.CompanyID, tipoPropostaAssinada, payer.CPF).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

func markDocumentUsed(ctx context.Context, tx *store.Tx, key string, numero int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE documentos SET used_by = ? WHERE id = ?`, numero, key)
	return err
}
