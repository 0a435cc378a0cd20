package customer

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// rawBody is an enrollment's document as stored: what the API answers.
type rawBody = json.RawMessage

const inscricaoColumns = `id, numero, company_id, app_id, cpf, status, body, created_at`

func scanInscricao(row store.Scanner) (*Inscricao, error) {
	var in Inscricao
	var body string
	var at int64
	if err := row.Scan(&in.ID, &in.Numero, &in.CompanyID, &in.AppID, &in.CPF, &in.Status, &body, &at); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(body), &in.Body); err != nil {
		return nil, fmt.Errorf("inscricao %d: %w", in.ID, err)
	}
	in.CreatedAt = time.Unix(0, at).UTC()
	return &in, in.readBody()
}

// inscricoes are the stored enrollments, by id.
var inscricoes = wire.Table[Inscricao]{Name: "inscricoes", Key: "id", Columns: inscricaoColumns, Scan: scanInscricao}

// loadInscricoesOf reads the enrollments of the company's proposal numero.
func loadInscricoesOf(ctx context.Context, tx *store.Tx, companyID string, numero int64) ([]*Inscricao, error) {
	return inscricoes.Select(ctx, tx, `WHERE numero = ? AND company_id = ? ORDER BY id`, numero, companyID)
}

func inscricaoIDsOf(ctx context.Context, tx *store.Tx, companyID string, numero int64) ([]int64, error) {
	return store.All(ctx, tx, store.ScanID, `SELECT id FROM inscricoes WHERE numero = ? AND company_id = ? ORDER BY id`, numero, companyID)
}

func scanBody(row store.Scanner) (rawBody, error) {
	var b string
	err := row.Scan(&b)
	return rawBody(b), err
}

// listInscricoes reads the company's enrollments' documents, oldest first.
func listInscricoes(ctx context.Context, tx *store.Tx, companyID string, f inscricaoFilter) ([]rawBody, error) {
	where, args := wire.Where([]string{"company_id = ?"}, []any{companyID}, wire.Eq{Column: "cpf", Value: f.CPF}, wire.Eq{Column: "numero", Value: f.Numero})
	return store.All(ctx, tx, scanBody, `SELECT body FROM inscricoes `+where+` ORDER BY id`, args...)
}

// loadInscricaoBody reads the company's enrollment id's document; nil when
// it has none.
func loadInscricaoBody(ctx context.Context, tx *store.Tx, companyID string, id int64) (*rawBody, error) {
	b, err := scanBody(tx.QueryRowContext(ctx, `SELECT body FROM inscricoes WHERE id = ? AND company_id = ?`, id, companyID))
	return store.Maybe(&b, err)
}

// insertInscricao stores a new enrollment; its document names its id.
func insertInscricao(ctx context.Context, tx *store.Tx, in *Inscricao) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO inscricoes (numero, company_id, app_id, cpf, produto_id, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '{}', ?, ?)`,
		in.Numero, in.CompanyID, in.AppID, in.CPF, in.ProdutoID, in.Status, in.CreatedAt.UnixNano(), in.CreatedAt.UnixNano())
	if err != nil {
		return err
	}
	if in.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	in.Body["inscricaoId"] = in.ID
	return storeInscricao(ctx, tx, in, in.CreatedAt)
}

// storeInscricao writes an enrollment's document.
func storeInscricao(ctx context.Context, tx *store.Tx, in *Inscricao, at time.Time) error {
	b, err := json.Marshal(in.Body)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE inscricoes SET body = ?, updated_at = ? WHERE id = ?`, string(b), at.UnixNano(), in.ID)
	return err
}

// storeInscricaoStatus writes an enrollment's status with its document;
// only a move of the enrollment machine calls it.
func storeInscricaoStatus(ctx context.Context, tx *store.Tx, in *Inscricao, at time.Time) error {
	b, err := json.Marshal(in.Body)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE inscricoes SET status = ?, body = ?, updated_at = ? WHERE id = ?`, in.Status, string(b), at.UnixNano(), in.ID)
	return err
}
