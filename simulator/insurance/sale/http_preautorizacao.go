package sale

import (
	"net/http"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// preauthorize is POST /sandbox/cartao/preautorizacao: what the credit-card
// widget does on the partner's page. The card number stops here; the
// partner gets Valor.CodigoPreAutorizacao for CARTAO.NUM_PRE_AUTORIZACAO
// (insurance SUMMARY §3.10).
func (s *Service) preauthorize(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		CNPJ     string `json:"cnpj"`
		CPF      string `json:"cpf"`
		Valor    any    `json:"valor"`
		Numero   string `json:"numero"`
		Bandeira string `json:"bandeira"`
		Validade string `json:"validade"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/preautorizacao.request", &in); err != nil {
		return nil, err
	}
	a, err := s.holdAmount(r.Context(), preautorizacaoIn{CNPJ: in.CNPJ, CPF: in.CPF, Valor: in.Valor,
		Numero: in.Numero, Bandeira: in.Bandeira, Validade: in.Validade})
	if err != nil {
		return nil, err
	}
	return wire.Created(map[string]any{"CodigoPreAutorizacao": a.Code, "Bandeira": a.Bandeira, "Final": a.Final, "Valor": a.Valor}), nil
}
