package customer

import (
	"net/http"
	"time"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// listCobrancas is GET /inscricao/{id}/cobrancas: the enrollment's charges,
// oldest first (?status= filters).
func (s *Service) listCobrancas(r *http.Request) (*httpx.Reply, error) {
	id, err := inscricaoID(r)
	if err != nil {
		return nil, err
	}
	cs, err := s.cobrancasOf(r.Context(), wire.Principal(r).CompanyID, id, wire.Params(r).Get("status"))
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, c := range cs {
		out = append(out, cobrancaBody(c))
	}
	return wire.OK(out), nil
}

// getCobranca is GET /cobranca/{id}.
func (s *Service) getCobranca(r *http.Request) (*httpx.Reply, error) {
	id, _ := wire.PathID(r, "id", "id de cobrança inválido")
	c, err := s.cobrancaOf(r.Context(), wire.Principal(r).CompanyID, id)
	if err != nil {
		return nil, err
	}
	return wire.OK(cobrancaBody(c)), nil
}

// cobrancaBody is a charge as the API answers it.
func cobrancaBody(c *cobranca) map[string]any {
	out := map[string]any{"cobrancaId": c.ID, "inscricaoId": c.InscricaoID, "competencia": c.Competencia, "parcela": c.Parcela,
		"valor": c.Valor, "dataVencimento": c.Vencimento, "formaCobranca": c.Forma, "status": c.Status}
	recusaFields(out, c.Motivo)
	if !c.PagaEm.IsZero() {
		out["dataPagamento"] = c.PagaEm.Format(time.RFC3339)
	}
	return out
}
