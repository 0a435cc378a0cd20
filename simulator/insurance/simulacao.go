package insurance

import (
	"fmt"
	"net/http"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// simulate is POST /simulacao?cnpj=&codigoModeloProposta=[&canalVenda=]:
// each simulation item is priced by catalog.Price (deterministic; see the
// README's pricing model). An item the offer's limits refuse comes back
// without products, and Mensagens say which limit (the answer is still 200,
// as the v2 API filters by the operational limits).
func (s *Service) simulate(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	code := r.URL.Query().Get("codigoModeloProposta")
	if code == "" {
		return nil, errs.Invalidf("codigoModeloProposta", "informe o modelo de proposta a simular (codigoModeloProposta)")
	}
	var in struct {
		Simulacoes []map[string]any `json:"simulacoes"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/simulacao.request", &in); err != nil {
		return nil, err
	}
	var o *catalog.Offer
	if err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		o, err = s.offerFor(ctx, tx, r, code)
		return err
	}); err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	env := envelope(nil)
	var out []map[string]any
	for i, sim := range in.Simulacoes {
		prefix := fmt.Sprintf("simulacoes.%d.", i)
		prop, _ := sim["proponente"].(map[string]any)
		if cpf := str(prop, "cpf"); cpf != "" {
			if err := taxid.CheckCPF(cpf); err != nil {
				return nil, errs.Invalidf(prefix+"proponente.cpf", "CPF inválido: %v", err)
			}
		}
		birth, err := parseDate(str(prop, "dataNascimento"))
		if err != nil {
			return nil, errs.Invalidf(prefix+"proponente.dataNascimento", "%v", err)
		}
		sexo, _ := intOf(prop["sexoId"])
		renda, _ := moneyOf(prop["renda"])
		fumante, _ := prop["fumante"].(bool)
		per, perr := intOf(sim["periodicidadeCobrancaId"])
		if perr != nil {
			per = 30
		}
		capital, cerr := moneyOf(sim["capitalSegurado"])
		if cerr != nil {
			capital = 0
		}
		q, limits := catalog.Price(o, catalog.Profile{BirthDate: birth, At: now, SexoID: sexo, Renda: renda,
			ProfissaoCBO: str(prop, "profissaoCbo"), UF: strings.ToUpper(str(prop, "uf")), Fumante: fumante}, capital, per)
		item := map[string]any{}
		for k, v := range sim {
			item[k] = v
		}
		item["periodicidadeCobrancaId"] = per
		item["ticketMinimo"] = o.TicketMinimo
		item["idade"] = q.Idade
		item["produtos"] = q.Produtos
		item["premioMensalTotal"] = q.PremioMensal
		item["premioTotal"] = q.Premio
		item["limites"] = orEmptyLimits(limits)
		out = append(out, item)
		for _, l := range limits {
			env.Mensagens = append(env.Mensagens, httpx.InsurerMensagem{Codigo: l.Code, Descricao: l.Message, Campo: prefix + l.Field})
		}
	}
	env.Valor = map[string]any{"codigoModeloProposta": o.ID, "simulacoes": out}
	return httpx.OK(env), nil
}

func orEmptyLimits(ls []catalog.Limit) []catalog.Limit {
	if ls == nil {
		return []catalog.Limit{}
	}
	return ls
}
