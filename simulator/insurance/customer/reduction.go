package customer

import (
	"context"
	"fmt"
	"maps"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// reducao is a request to lower an enrollment's capitals, or its premium
// (the capitals follow it).
type reducao struct {
	Capitais []capitalNovo
	// ValorContribuicao is the new premium, nil when capitals are given.
	ValorContribuicao *money.Cents
	Motivo            string
}

// capitalNovo is a coverage's new capital; nil when the partner sent none.
type capitalNovo struct {
	ItemProdutoID int
	Capital       *money.Cents
}

// reduce lowers the company's enrollment id, never below the offer's
// minimums (Valor Pago Alterado, motivo REDUCAO).
func (s *Service) reduce(ctx context.Context, companyID string, id int64, red reducao) (*Inscricao, error) {
	return wire.Write(ctx, s.DB, func(tx *store.Tx) (*Inscricao, error) {
		in, err := mustInscricao(ctx, tx, companyID, id)
		if err != nil {
			return nil, err
		}
		if in.Status != InscAtiva {
			return nil, wire.Rule("id", "INSCRICAO_NAO_ATIVA", "a inscrição %d está %s: só uma inscrição ATIVA é reduzida", in.ID, in.Status)
		}
		novos, err := newCapitals(in, red)
		if err != nil {
			return nil, err
		}
		var ticket money.Cents
		if offer, ok := s.Catalog.Offer(in.OfferID); ok {
			ticket = offer.TicketMinimo
		}
		cobertura := func(item int) *catalog.Cobertura { return s.Catalog.Cobertura(in.OfferID, in.ProdutoID, item) }
		covs, total, vs := reduced(in.Coberturas, novos, cobertura, ticket, in.OfferID)
		if err := vs.Err("REDUCAO_INVALIDA", "a redução viola as regras do modelo de proposta"); err != nil {
			return nil, err
		}
		antes, capAntes := in.ValorContribuicao, in.Capital()
		in.Coberturas, in.ValorContribuicao = covs, total
		if err := s.save(ctx, tx, in); err != nil {
			return nil, err
		}
		return in, s.valorPagoAlterado(ctx, tx, in, "REDUCAO", antes, total, capAntes, in.Capital(), map[string]any{"motivoSolicitacao": red.Motivo})
	})
}

// newCapitals is the new capital of each coverage the reduction changes:
// as sent, or, for a new premium, each capital lowered in its proportion
// (to whole reais).
func newCapitals(in *Inscricao, red reducao) (map[int]money.Cents, error) {
	out := map[int]money.Cents{}
	for i, c := range red.Capitais {
		if c.Capital == nil {
			return nil, errs.Invalidf(fmt.Sprintf("coberturas.%d.capitalSeguradoNovo", i), "informe o capital novo")
		}
		out[c.ItemProdutoID] = *c.Capital
	}
	if v := red.ValorContribuicao; v != nil {
		antes := in.ValorContribuicao
		if *v >= antes || *v <= 0 {
			return nil, wire.Rule("valorContribuicaoNovo", "REDUCAO_INVALIDA", "a contribuição nova deve ser positiva e menor que a atual (%s)", antes)
		}
		for _, c := range in.Coberturas {
			// capital × new ÷ old premium, rounded half-up to whole reais
			out[c.ItemProdutoID] = money.Reais(int64(c.CapitalSegurado.Scale(int64(*v), 100*int64(antes))))
		}
	}
	return out, nil
}

// reduced applies new capitals to the coverages: each must go down, not
// below the coverage's minimum, and not on a fixed capital (cobertura
// reads the catalogue's, nil when it is gone); its premium follows the
// capital proportionally. The premium left must reach the offer's ticket
// (0 when the offer is gone). It returns the coverages, the premium and
// what breaks the rules.
func reduced(covs []sale.Cobertura, novos map[int]money.Cents, cobertura func(item int) *catalog.Cobertura, ticket money.Cents, offerID string) ([]sale.Cobertura, money.Cents, wire.Violations) {
	var vs wire.Violations
	var total money.Cents
	novos = maps.Clone(novos)
	out := make([]sale.Cobertura, len(covs))
	for i, c := range covs {
		out[i] = c
		nc, changed := novos[c.ItemProdutoID]
		if !changed {
			total += c.Premio
			continue
		}
		delete(novos, c.ItemProdutoID)
		cat := cobertura(c.ItemProdutoID)
		field := fmt.Sprintf("coberturas.%d.capitalSeguradoNovo", i)
		switch {
		case nc >= c.CapitalSegurado:
			vs.Add(field, "a redução deve diminuir o capital %s da cobertura %d", c.CapitalSegurado, c.ItemProdutoID)
		case cat != nil && cat.CapitalFixo:
			vs.Add(field, "a cobertura %d tem capital fixo", c.ItemProdutoID)
		case cat != nil && nc < cat.ValorMinimoCapitalContratacao:
			vs.Add(field, "capital %s abaixo do mínimo de %s da cobertura %d", nc, cat.ValorMinimoCapitalContratacao, c.ItemProdutoID)
		default:
			out[i].Premio = c.Premio.Scale(int64(nc), int64(c.CapitalSegurado))
			out[i].CapitalSegurado = nc
			total += out[i].Premio
		}
	}
	for item := range novos {
		vs.Add("coberturas", "a inscrição não tem a cobertura %d", item)
	}
	if len(vs) == 0 && total < ticket {
		vs.Add("coberturas", "a contribuição resultante %s fica abaixo do ticket mínimo %s do modelo %s", total, ticket, offerID)
	}
	return out, total, vs
}
