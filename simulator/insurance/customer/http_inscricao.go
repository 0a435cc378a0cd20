package customer

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
)

// bodyOf answers an enrollment an operation changed as its document.
func bodyOf(in *Inscricao, err error) (*httpx.Reply, error) {
	if err != nil {
		return nil, err
	}
	return wire.OK(in.Body), nil
}

// inscricaoID reads the path's enrollment id.
func inscricaoID(r *http.Request) (int64, error) {
	return wire.PathID(r, "id", "id de inscrição inválido")
}

// listInscricoes is GET /inscricao?cpf=&numeroProposta=: the company's
// enrollments, oldest first.
func (s *Service) listInscricoes(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	q := wire.Params(r)
	f := inscricaoFilter{CPF: q.Get("cpf"), Numero: q.Get("numeroProposta")}
	if f.Numero != "" {
		if _, err := strconv.ParseInt(f.Numero, 10, 64); err != nil {
			return nil, errs.Invalidf("numeroProposta", "numeroProposta deve ser um número")
		}
	}
	out, err := s.listInscricoesOf(r.Context(), wire.Principal(r).CompanyID, f)
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []rawBody{}
	}
	return wire.OK(out), nil
}

// getInscricao is GET /inscricao/{id}.
func (s *Service) getInscricao(r *http.Request) (*httpx.Reply, error) {
	id, err := inscricaoID(r)
	if err != nil {
		return nil, err
	}
	return wire.OKOf(s.inscricaoBody(r.Context(), wire.Principal(r).CompanyID, id))
}

// cancelInscricao is POST /inscricao/{id}/cancelamento {motivo,
// tipoCancelamento, dataSolicitacao, solicitante}: answered 202 with a
// protocol; the cancellation is processed cancelDelay later.
func (s *Service) cancelInscricao(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		Motivo           string `json:"motivo"`
		TipoCancelamento string `json:"tipoCancelamento"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/inscricao.cancelamento", &in); err != nil {
		return nil, err
	}
	id, err := inscricaoID(r)
	if err != nil {
		return nil, err
	}
	at, err := s.requestCancellation(r.Context(), wire.Principal(r).CompanyID, id, in.Motivo)
	if err != nil {
		return nil, err
	}
	return wire.Reply(http.StatusAccepted, map[string]any{"protocolo": fmt.Sprintf("CAN-%d-%s", id, at.Format("20060102150405")),
		"dataHoraProtocolo": at.Format(time.RFC3339), "status": InscCancelamentoSolicitado, "inscricaoId": id}), nil
}

// reduceInscricao is POST /inscricao/{id}/reducao: lower capitals
// ({coberturas: [{itemProdutoId, capitalSeguradoNovo}]}) or the premium
// ({valorContribuicaoNovo}).
func (s *Service) reduceInscricao(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		Coberturas []struct {
			ItemProdutoID       int          `json:"itemProdutoId"`
			CapitalSeguradoNovo *json.Number `json:"capitalSeguradoNovo"`
		} `json:"coberturas"`
		ValorContribuicaoNovo *json.Number `json:"valorContribuicaoNovo"`
		Motivo                string       `json:"motivo"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/inscricao.reducao", &in); err != nil {
		return nil, err
	}
	if (len(in.Coberturas) == 0) == (in.ValorContribuicaoNovo == nil) {
		return nil, errs.Invalidf("coberturas", "informe coberturas (capitais novos) ou valorContribuicaoNovo, não ambos")
	}
	red := reducao{Motivo: in.Motivo}
	var err error
	if red.ValorContribuicao, err = cents("valorContribuicaoNovo", in.ValorContribuicaoNovo); err != nil {
		return nil, err
	}
	for i, c := range in.Coberturas {
		capital, err := cents(fmt.Sprintf("coberturas.%d.capitalSeguradoNovo", i), c.CapitalSeguradoNovo)
		if err != nil {
			return nil, err
		}
		red.Capitais = append(red.Capitais, capitalNovo{ItemProdutoID: c.ItemProdutoID, Capital: capital})
	}
	id, err := inscricaoID(r)
	if err != nil {
		return nil, err
	}
	return bodyOf(s.reduce(r.Context(), wire.Principal(r).CompanyID, id, red))
}

// cents reads an optional amount sent as a JSON number, as the text the
// client wrote, more decimals rounding half-up to the cent (wire.Money).
func cents(field string, v *json.Number) (*money.Cents, error) {
	if v == nil {
		return nil, nil
	}
	c, err := wire.Money(string(*v))
	if err != nil {
		return nil, errs.Invalidf(field, "valor inválido")
	}
	return &c, nil
}

// changeBilling is PUT /inscricao/{id}/forma-cobranca: a DADOS_COBRANCA
// fragment (TIPO_COBRANCA, DIA_VENCIMENTO and the method's data), checked as
// a proposal's; the next charges use it (Forma de Cobrança Alterada).
func (s *Service) changeBilling(r *http.Request) (*httpx.Reply, error) {
	raw, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, err
	}
	var body map[string]any
	if httpx.CheckSyntax(raw) == nil {
		json.Unmarshal(raw, &body)
		if err := sale.RefuseCardData(body); err != nil {
			return nil, err
		}
	}
	if err := httpx.DecodeJSONBytes(raw, s.Schemas, "insurance/inscricao.forma-cobranca", &body); err != nil {
		return nil, err
	}
	id, err := inscricaoID(r)
	if err != nil {
		return nil, err
	}
	return bodyOf(s.changeBillingMethod(r.Context(), wire.Principal(r).CompanyID, id, body))
}

// changeRegistration is PUT /inscricao/{id}/dados-cadastrais {email,
// telefone, endereco}: what changed is kept and announced (Dados Cadastrais
// Alterados, camposAlterados).
func (s *Service) changeRegistration(r *http.Request) (*httpx.Reply, error) {
	var in map[string]any
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/inscricao.dados-cadastrais", &in); err != nil {
		return nil, err
	}
	if err := checkDadosCadastrais(in); err != nil {
		return nil, err
	}
	id, err := inscricaoID(r)
	if err != nil {
		return nil, err
	}
	return bodyOf(s.changeDadosCadastrais(r.Context(), wire.Principal(r).CompanyID, id, in))
}
