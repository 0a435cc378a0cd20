package sale

import (
	"encoding/json"
	"net/http"
	"strconv"

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
	var simulacoes any = sim.Items
	if httpx.InfoOf(r.Context()).Style == httpx.StyleV2 {
		simulacoes = v2Simulacoes(sim.Items)
	}
	env := wire.Envelope(map[string]any{"codigoModeloProposta": sim.OfferID, "simulacoes": simulacoes})
	for _, l := range sim.Limits {
		env.Mensagens = append(env.Mensagens, httpx.InsurerMensagem{Codigo: l.Code, Descricao: l.Message, Campo: l.Field})
	}
	return httpx.OK(env), nil
}

// v2Simulacoes is the simulation's items as the v2 model types them: each
// coverage's causaId a String (M:SimulacaoSimulacaoCobertura.js; insurance
// CLIENTS §3.3 and the additions' item 5), where the other clients read
// a number.
func v2Simulacoes(items []map[string]any) []map[string]any {
	b, _ := json.Marshal(items)
	var out []map[string]any
	json.Unmarshal(b, &out)
	for _, it := range out {
		for _, p := range wire.Items(it["produtos"]) {
			for _, c := range wire.Items(p["coberturas"]) {
				if id, ok := c["causaId"].(float64); ok {
					c["causaId"] = strconv.FormatFloat(id, 'f', -1, 64)
				}
			}
		}
	}
	return out
}
