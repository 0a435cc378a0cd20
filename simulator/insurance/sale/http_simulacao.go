package sale

import (
	"net/http"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// postSimulacao is POST /simulacao?cnpj=&codigoModeloProposta=[&canalVenda=]:
// the quote of each simulation item. The answer is 200 even for an item
// the offer's limits refuse; Mensagens say which limit.
func (s *Service) postSimulacao(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	code := wire.Params(r).Get("codigoModeloProposta")
	if code == "" {
		return nil, errs.Invalidf("codigoModeloProposta", "informe o modelo de proposta a simular (codigoModeloProposta)")
	}
	var in struct {
		Simulacoes []map[string]any `json:"simulacoes"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/simulacao.request", &in); err != nil {
		return nil, err
	}
	sim, err := s.simulate(r.Context(), wire.Principal(r), code, in.Simulacoes)
	if err != nil {
		return nil, err
	}
	env := wire.Envelope(map[string]any{"codigoModeloProposta": sim.OfferID, "simulacoes": sim.Items})
	for _, l := range sim.Limits {
		env.Mensagens = append(env.Mensagens, httpx.InsurerMensagem{Codigo: l.Code, Descricao: l.Message, Campo: l.Field})
	}
	return httpx.OK(env), nil
}
