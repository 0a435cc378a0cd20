package customer

import (
	"context"
	"time"

	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// accumulated is the index over the twelve months before the anniversary
// month, as the company's table holds them: Π(1 + m/100) − 1, in percent
// to four decimals.
func accumulated(ctx context.Context, tx *store.Tx, companyID, indice string, anniversary time.Time) (money.Rate, error) {
	table, err := effectiveIndex(ctx, tx, companyID, indice)
	if err != nil {
		return 0, err
	}
	months := make([]money.Rate, 0, 12)
	for i := 12; i >= 1; i-- {
		months = append(months, monthOf(table, anniversary.AddDate(0, -i, 0).Format("2006-01")))
	}
	return accumulate(months), nil
}

// accumulate compounds monthly percentages into one, to four decimals,
// rounded half away from zero once, from the exact product.
//
// The rounded percentage, not the exact product, is what readjust
// applies: it is the one figure the partner sees (the REAJUSTE_ANUAL
// event's "percentual"), so new premium and capital can be recomputed
// from the event alone (200000 × 1.061678 = 212335.60, where 1.005^12
// unrounded would give 212335.56). No reference of the insurer states a
// rule of its own; README's customer cycle documents this one.
func accumulate(months []money.Rate) money.Rate { return money.CompoundPercent(months, 4) }

// readjust raises each coverage's capital and premium by pct percent (the
// accumulated percentage, already rounded to four decimals), each rounded
// half-up to the cent, and returns them with the new premium (the sum of
// theirs).
func readjust(covs []sale.Cobertura, pct money.Rate) ([]sale.Cobertura, money.Cents) {
	// 1 + pct/100 is exact: four decimals of a percent are six of a factor.
	f := money.RateOne + pct.Scale(1, 100)
	out := make([]sale.Cobertura, len(covs))
	var total money.Cents
	for i, c := range covs {
		out[i] = sale.Cobertura{ItemProdutoID: c.ItemProdutoID, CapitalSegurado: c.CapitalSegurado.Times(f), Premio: c.Premio.Times(f)}
		total += out[i].Premio
	}
	return out, total
}

// readjustJob readjusts premium and capitals on the enrollment's
// anniversary (Valor Pago Alterado, motivo REAJUSTE_ANUAL) and schedules
// the next year's.
func (s *Service) readjustJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	in, err := inscricoes.AnyCompany(ctx, tx, ref.ID)
	if err != nil || in == nil || (in.Status != InscAtiva && in.Status != InscSuspensa) {
		return err
	}
	now := s.NowOf(in.CompanyID)
	pct, err := accumulated(ctx, tx, in.CompanyID, indiceReajuste, now)
	if err != nil {
		return err
	}
	antes, capAntes := in.ValorContribuicao, in.Capital()
	in.Coberturas, in.ValorContribuicao = readjust(in.Coberturas, pct)
	in.Body["competenciaReajuste"] = now.In(wire.Brasilia).AddDate(1, 0, 0).Format("01/2006")
	if err := s.save(ctx, tx, in); err != nil {
		return err
	}
	if err := s.valorPagoAlterado(ctx, tx, in, "REAJUSTE_ANUAL", antes, in.ValorContribuicao, capAntes, in.Capital(),
		map[string]any{"indice": indiceReajuste, "percentual": pct}); err != nil {
		return err
	}
	return s.schedule(ctx, tx, in.CompanyID, jobReadjust, now.AddDate(1, 0, 0), jobRef{ID: in.ID})
}
