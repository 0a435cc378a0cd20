package customer

import (
	"net/http"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/tenant"
)

// listComissoes is GET /comissao?status=&competencia=&inscricaoId=: the
// company's commissions, newest first.
func (s *Service) listComissoes(r *http.Request) (*httpx.Reply, error) {
	q := wire.Params(r)
	f := comissaoFilter{Status: q.Get("status"), Competencia: q.Get("competencia"), InscricaoID: q.Get("inscricaoId")}
	if f.Status != "" && !comissaoMachine.Has(f.Status) {
		return nil, errs.Invalidf("status", "status deve ser EMITIDA, PAGA ou ESTORNADA")
	}
	cs, err := s.comissoesOf(r.Context(), wire.Principal(r).CompanyID, f)
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, c := range cs {
		m := map[string]any{"comissaoId": c.ID, "cobrancaId": c.CobrancaID, "inscricaoId": c.InscricaoID, "valor": c.Valor, "percentual": c.Percentual,
			"competencia": c.Competencia, "status": c.Status, "dataEmissao": c.CreatedAt.Format(time.RFC3339)}
		if !c.PagoEm.IsZero() {
			m["dataPagamento"] = c.PagoEm.Format(time.RFC3339)
		}
		if !c.EstornadoEm.IsZero() {
			m["dataEstorno"] = c.EstornadoEm.Format(time.RFC3339)
		}
		out = append(out, m)
	}
	return wire.OK(out), nil
}

// getCommissionRule is GET /regracomissao?codigoModeloProposta= (v2
// RegraComissao): what the partner earns on an offer.
func (s *Service) getCommissionRule(r *http.Request) (*httpx.Reply, error) {
	code := wire.Params(r).Get("codigoModeloProposta")
	rule, err := s.commissionRuleOf(code)
	if err != nil {
		return nil, err
	}
	return wire.OK(map[string]any{"nome": "Comissão " + code, "tipoComissionamento": "PERCENTUAL_SOBRE_PREMIO", "tipoPessoa": "JURIDICA",
		"comissionamentos":   []map[string]any{{"tipoComissionamento": "CORRETAGEM", "percentual": rule.Percentual, "periodicidade": rule.Periodicidade}},
		"janelaEstornoMeses": rule.JanelaMeses}), nil
}

// payoutNow is POST /sandbox/comissoes/pagamento: the caller company's
// accrued commissions are paid now (PayoutNow).
func (s *Service) payoutNow(r *http.Request) (*httpx.Reply, error) {
	company, err := tenant.CompanyOf(r.Context())
	if err != nil {
		return nil, err
	}
	paid, lote, err := s.PayoutNow(r.Context(), company)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"pagas": paid, "lote": lote}), nil
}
