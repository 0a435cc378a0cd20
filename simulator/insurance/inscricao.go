package insurance

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// The enrollment state a fresh implantation starts in (SUMMARY §5.3); the
// customer cycle moves it on.
const inscricaoAtiva = "ATIVA"

// Enroll opens the enrollment of one plan of an implanted proposal, ATIVA,
// and starts its billing (sale.Enrollments).
func (s *Service) Enroll(ctx context.Context, tx *store.Tx, p sale.Plano) (int64, error) {
	now := p.At
	body := map[string]any{
		"numeroProposta": p.Numero, "cpf": p.CPF, "codigoModeloProposta": p.OfferID,
		"produto":             map[string]any{"idProduto": p.ProdutoID, "descricao": p.Produto},
		"coberturas":          p.Coberturas,
		"valorContribuicao":   p.ValorContribuicao,
		"periodicidade":       p.Periodicidade,
		"formaCobranca":       p.FormaCobranca,
		"status":              inscricaoAtiva,
		"dataInicioVigencia":  now.Format(time.DateOnly),
		"competenciaReajuste": now.AddDate(1, 0, 0).Format("01/2006"),
		"indiceReajuste":      "IPCA-IBGE",
	}
	if p.DiaVencimento > 0 { // payroll (FOLHA) has no due day
		body["diaVencimento"] = p.DiaVencimento
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO inscricoes (numero, company_id, app_id, cpf, produto_id, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '{}', ?, ?)`,
		p.Numero, p.CompanyID, p.AppID, p.CPF, p.ProdutoID, inscricaoAtiva, now.UnixNano(), now.UnixNano())
	if err != nil {
		return 0, err
	}
	id, _ := res.LastInsertId()
	body["inscricaoId"] = id
	b, _ := json.Marshal(body)
	if _, err := tx.ExecContext(ctx, `UPDATE inscricoes SET body = ? WHERE id = ?`, string(b), id); err != nil {
		return 0, err
	}
	return id, s.startBilling(ctx, tx, id, now)
}

// InscricoesOf lists the ids of the enrollments of the company's proposal
// numero (sale.Enrollments).
func (s *Service) InscricoesOf(ctx context.Context, tx *store.Tx, companyID string, numero int64) ([]int64, error) {
	return wire.All(ctx, tx, wire.ScanID, `SELECT id FROM inscricoes WHERE numero = ? AND company_id = ? ORDER BY id`, numero, companyID)
}

// listInscricoes is GET /inscricao?cpf=&numeroProposta=.
func (s *Service) listInscricoes(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	q := r.URL.Query()
	numero := q.Get("numeroProposta")
	if numero != "" {
		if _, err := strconv.ParseInt(numero, 10, 64); err != nil {
			return nil, errs.Invalidf("numeroProposta", "numeroProposta deve ser um número")
		}
	}
	out := []json.RawMessage{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT body FROM inscricoes WHERE company_id = ? AND (? = '' OR cpf = ?) AND (? = '' OR numero = ?) ORDER BY id`,
			wire.Principal(r).CompanyID, q.Get("cpf"), q.Get("cpf"), numero, numero)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var b string
			if err := rows.Scan(&b); err != nil {
				return err
			}
			out = append(out, json.RawMessage(b))
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// getInscricao is GET /inscricao/{id}.
func (s *Service) getInscricao(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var b string
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT body FROM inscricoes WHERE id = ? AND company_id = ?`, mux.Vars(r)["id"], wire.Principal(r).CompanyID).Scan(&b)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.Errorf(errs.NotFound, "inscrição %s não encontrada", mux.Vars(r)["id"]).WithType("INSCRICAO_NAO_ENCONTRADA")
	}
	if err != nil {
		return nil, err
	}
	return ok(json.RawMessage(b)), nil
}
