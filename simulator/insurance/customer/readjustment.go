package customer

import (
	"context"
	"math"
	"time"

	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// accumulated is the index over the twelve months before the anniversary
// month, as the company's table holds them: Π(1 + m/100) − 1, in percent
// to four decimals.
func accumulated(ctx context.Context, tx *store.Tx, companyID, indice string, anniversary time.Time) (float64, error) {
	table, err := effectiveIndex(ctx, tx, companyID, indice)
	if err != nil {
		return 0, err
	}
	months := make([]float64, 0, 12)
	for i := 12; i >= 1; i-- {
		months = append(months, monthOf(table, anniversary.AddDate(0, -i, 0).Format("2006-01")))
	}
	return accumulate(months), nil
}

// accumulate compounds monthly percentages into one, to four decimals.
//
// The rounded percentage, not the exact product, is what readjust
// applies: it is the one figure the partner sees (the REAJUSTE_ANUAL
// event's "percentual"), so new premium and capital can be recomputed
// from the event alone (200000 × 1.061678 = 212335.60, where 1.005^12
// unrounded would give 212335.56). No reference of the insurer states a
// rule of its own; README's customer cycle documents this one.
func accumulate(months []float64) float64 {
	f := 1.0
	for _, v := range months {
		f *= 1 + v/100
	}
	return math.Round((f-1)*1e6) / 1e4
}

// readjust raises each coverage's capital and premium by factor f (1 +
// the accumulated percentage, already rounded to four decimals), each
// rounded to the cent, and returns them with the new premium (the sum of
// theirs).
func readjust(covs []sale.Cobertura, f float64) ([]sale.Cobertura, money.Cents) {
	out := make([]sale.Cobertura, len(covs))
	var total money.Cents
	for i, c := range covs {
		out[i] = sale.Cobertura{ItemProdutoID: c.ItemProdutoID, CapitalSegurado: c.CapitalSegurado.Mul(f), Premio: c.Premio.Mul(f)}
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
	in.Coberturas, in.ValorContribuicao = readjust(in.Coberturas, 1+pct/100)
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
