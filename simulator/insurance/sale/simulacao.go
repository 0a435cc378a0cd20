package sale

import (
	"context"
	"fmt"
	"strings"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/taxid"
)

// simulacao is a priced simulation: each item as sent, with its quote,
// and the limits that refused what could not be priced (each Field named
// in the request: simulacoes.0.capitalSegurado).
type simulacao struct {
	OfferID string
	Items   []map[string]any
	Limits  []catalog.Limit
}

// simulate prices each simulation item of the offer by catalog.Price
// (deterministic; see the README's pricing model). An item the offer's
// limits refuse comes back without products, and Limits say which limit:
// the v2 API filters by the operational limits rather than failing.
func (s *Service) simulate(ctx context.Context, by auth.Principal, code string, items []map[string]any) (*simulacao, error) {
	o, err := s.offer(ctx, by, code)
	if err != nil {
		return nil, err
	}
	now := s.NowOf(by.CompanyID)
	out := &simulacao{OfferID: o.ID}
	for i, sim := range items {
		prefix := fmt.Sprintf("simulacoes.%d.", i)
		prop, _ := sim["proponente"].(map[string]any)
		if err := simulationTypes(ctx, prefix, prop); err != nil {
			return nil, err
		}
		item, limits, err := priceItem(o, sim, prefix, now)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, item)
		for _, l := range limits {
			l.Field = prefix + l.Field
			out.Limits = append(out.Limits, l)
		}
	}
	return out, nil
}

// priceItem prices one simulation item: the item as sent, with its quote.
func priceItem(o *catalog.Offer, sim map[string]any, prefix string, now time.Time) (map[string]any, []catalog.Limit, error) {
	prop, _ := sim["proponente"].(map[string]any)
	if cpf := wire.Str(prop, "cpf"); cpf != "" {
		if err := taxid.CheckCPF(cpf); err != nil {
			return nil, nil, errs.Invalidf(prefix+"proponente.cpf", "CPF inválido: %v", err)
		}
	}
	birth, err := wire.ParseDate(wire.Str(prop, "dataNascimento"))
	if err != nil {
		return nil, nil, errs.Invalidf(prefix+"proponente.dataNascimento", "%v", err)
	}
	sexo, _ := wire.Int(prop["sexoId"])
	renda, _ := wire.Money(prop["renda"])
	fumante := prop["fumante"] == true || prop["fumante"] == "true" || prop["fumante"] == "S"
	per, perr := wire.Int(sim["periodicidadeCobrancaId"])
	if perr != nil {
		per = 30
	}
	capital, _ := wire.Money(sim["capitalSegurado"])
	q, limits := catalog.Price(o, catalog.Profile{BirthDate: birth, At: now, SexoID: sexo, Renda: renda,
		ProfissaoCBO: wire.Str(prop, "profissaoCbo"), UF: strings.ToUpper(wire.Str(prop, "uf")), Fumante: fumante}, capital, per)
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
	item["limites"] = limits
	if limits == nil {
		item["limites"] = []catalog.Limit{}
	}
	return item, limits, nil
}
