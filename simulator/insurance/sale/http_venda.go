package sale

import (
	"net/http"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// postVenda is the v2 POST /venda (DadosRegistrarVenda; insurance CLIENTS
// §3.6): the partner's CNPJ and the offer in the body, PascalCase (or the
// generated classes' lower camel case). It is judged as a PROPOSTA
// (vendaProposta maps it; errors name the PROPOSTA's fields), signed as
// one without an ASSINATURA block is (POST /gestao-acesso/v1/signature),
// and answered as the v2 model declares: Valor is the proposal number.
func (s *Service) postVenda(r *http.Request) (*httpx.Reply, error) {
	var cnpj, offer string
	body, card, err := s.readProposta(r, func(v map[string]any) map[string]any {
		var prop map[string]any
		prop, cnpj, offer = vendaProposta(v)
		return prop
	})
	if err != nil {
		return nil, err
	}
	if err := wire.CheckCNPJValue(r, "CNPJ", cnpj); err != nil {
		return nil, err
	}
	if offer == "" {
		return nil, errs.Invalidf("ModeloProposta", "informe o modelo de proposta (ModeloProposta, ou UsoMongeral.ModeloProposta)")
	}
	p, status, err := s.register(r, offer, body, card, true)
	if err != nil {
		return nil, err
	}
	return wire.Reply(status, p.Numero), nil
}
