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
	"homologa/simulator/store"
)

// The enrollment state a fresh implantation starts in (SUMMARY §5.3); the
// customer cycle moves it on.
const inscricaoAtiva = "ATIVA"

// implant turns an APROVADA proposal into one enrollment per plan
// (product), moves it to IMPLANTADA and emits Proposta Implantada with the
// enrollments' ids.
func (s *Service) implant(ctx context.Context, tx *store.Tx, p *proposta) ([]int64, error) {
	if p.Status != Aprovada {
		return nil, errs.Errorf(errs.Conflict, "proposta %d is %s: only an APROVADA proposal is implanted", p.Numero, p.Status)
	}
	now := s.Clock.Now()
	prop := obj(p.Request, "PROPOSTA")
	cob := obj(prop, "DADOS_COBRANCA")
	var ids []int64
	for _, plano := range items(obj(prop, "PLANOS")["PLANO"]) {
		produto, _ := intOf(plano["CODIGO"])
		var covers []map[string]any
		total := 0.0
		for _, c := range items(obj(plano, "COBERTURAS")["COBERTURA"]) {
			item, _ := intOf(c["CODIGO"])
			premio, _ := moneyOf(c["VL_CONTRIB"])
			capital, _ := moneyOf(c["VL_COBERTURA"])
			total += premio
			covers = append(covers, map[string]any{"itemProdutoId": item, "capitalSegurado": capital, "premio": premio})
		}
		dia, _ := intOf(cob["DIA_VENCIMENTO"])
		body := map[string]any{
			"numeroProposta": p.Numero, "cpf": p.CPF, "codigoModeloProposta": p.OfferID,
			"produto":             map[string]any{"idProduto": produto, "descricao": s.productName(p.OfferID, produto)},
			"coberturas":          covers,
			"valorContribuicao":   round2(total),
			"periodicidade":       orDefault(str(cob, "PERIODICIDADE"), "MENSAL"),
			"formaCobranca":       str(cob, "TIPO_COBRANCA"),
			"status":              inscricaoAtiva,
			"dataInicioVigencia":  now.Format(time.DateOnly),
			"competenciaReajuste": now.AddDate(1, 0, 0).Format("01/2006"),
			"indiceReajuste":      "IPCA-IBGE",
		}
		if dia > 0 { // payroll (FOLHA) has no due day
			body["diaVencimento"] = dia
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO inscricoes (numero, company_id, app_id, cpf, produto_id, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '{}', ?, ?)`,
			p.Numero, p.CompanyID, p.AppID, p.CPF, produto, inscricaoAtiva, now.UnixNano(), now.UnixNano())
		if err != nil {
			return nil, err
		}
		id, _ := res.LastInsertId()
		body["inscricaoId"] = id
		b, _ := json.Marshal(body)
		if _, err := tx.ExecContext(ctx, `UPDATE inscricoes SET body = ? WHERE id = ?`, string(b), id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
		if err := s.startBilling(ctx, tx, id, now); err != nil {
			return nil, err
		}
	}
	err := s.move(ctx, tx, p, Implantada, "", "SUBSCRICAO", map[string]any{
		"dataImplantacao": now.Format(time.RFC3339), "valorTotal": p.Total, "inscricaoIds": ids,
	})
	return ids, err
}

func (s *Service) productName(offer string, id int) string {
	if o, ok := s.Catalog.Offer(offer); ok {
		if prod := productOf(o, id); prod != nil {
			return prod.Descricao
		}
	}
	return ""
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
			principal(r).CompanyID, q.Get("cpf"), q.Get("cpf"), numero, numero)
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
		return tx.QueryRowContext(ctx, `SELECT body FROM inscricoes WHERE id = ? AND company_id = ?`, mux.Vars(r)["id"], principal(r).CompanyID).Scan(&b)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.Errorf(errs.NotFound, "inscrição %s não encontrada", mux.Vars(r)["id"]).WithType("INSCRICAO_NAO_ENCONTRADA")
	}
	if err != nil {
		return nil, err
	}
	return ok(json.RawMessage(b)), nil
}
