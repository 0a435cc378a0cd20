package benefit

import (
	"context"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/customer"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// herdeirosLegais is who receives a death benefit when the proposal named
// no beneficiary (SUMMARY §3.5: an empty list means the legal heirs).
const herdeirosLegais = "HERDEIROS LEGAIS"

// whole is the share of a sole recipient: 100 percent.
const whole = 100 * money.RateOne

// payBeneficio pays an approved benefit: PAGO, the value split among the
// recipients, Status de Benefício and Beneficio Pago. A paid death ends
// the enrollment (SUMMARY §5.3: ATIVA → ENCERRADA). valor, when > 0,
// replaces the claimed capital (a partial indemnity).
func (s *Service) payBeneficio(ctx context.Context, tx *store.Tx, b *beneficio, valor money.Cents) error {
	if b.Status != BenAprovado {
		return errs.Errorf(errs.Conflict, "o benefício %d está %s: só um benefício APROVADO é pago", b.ID, b.Status)
	}
	if valor <= 0 {
		for _, c := range b.Coberturas {
			valor += c.CapitalSegurado
		}
	}
	recipients, err := s.recipientsOf(ctx, tx, b)
	if err != nil {
		return err
	}
	shares := make([]int64, len(recipients))
	for i, r := range recipients {
		shares[i] = int64(r.Percentual)
	}
	// The value and the percentages (in hundredths, which Cents.Rate
	// reads as two places) are shared alike: each its proportion rounded
	// down, the cents left to the largest remainders, earlier first.
	amounts, pcts := valor.Apportion(shares), money.Cents(100_00).Apportion(shares)
	for i := range recipients {
		recipients[i].Valor, recipients[i].Percentual = amounts[i], pcts[i].Rate()
	}
	now := s.NowOf(b.CompanyID)
	if err := storePagamento(ctx, tx, b.ID, valor, now, recipients); err != nil {
		return err
	}
	if err := s.moveBeneficio(ctx, tx, b, BenPago, "", usuarioRegulacao, ""); err != nil {
		return err
	}
	b.Valor, b.DataPagamento, b.Beneficiarios = valor, now.In(wire.Brasilia).Format(time.DateOnly), recipients
	if err := s.EmitFor(ctx, tx, b.AppID, wire.Event{Type: "beneficio.pago", Name: "Beneficio Pago", Subject: b.subject(), Key: b.key(),
		Data: map[string]any{"valor": valor, "dataPagamento": b.DataPagamento, "beneficiarios": recipients}}); err != nil {
		return err
	}
	if causas[b.Causa].Encerra {
		return s.Customer.End(ctx, tx, b.InscricaoID, customer.InscEncerrada, "BENEFICIO_PAGO")
	}
	return nil
}

// recipientsOf says who receives a benefit, with their shares (weights,
// not yet percentages): the insured for a living cause, the notice's
// communicant for a funeral, else the proposal's beneficiaries of the
// enrollment's plan, or the legal heirs when it named none.
func (s *Service) recipientsOf(ctx context.Context, tx *store.Tx, b *beneficio) ([]beneficiario, error) {
	p, err := s.Sale.PropostaAnyCompany(ctx, tx, b.Numero)
	if err != nil {
		return nil, err
	}
	prop := map[string]any{}
	if p != nil {
		prop = wire.Obj(p.Request, "PROPOSTA")
	}
	switch causas[b.Causa].Para {
	case paraSegurado:
		return []beneficiario{{CPF: b.CPF, Nome: wire.Str(wire.Obj(prop, "DADOS_PROPONENTE"), "NOME"), Parentesco: "SEGURADO", Percentual: whole}}, nil
	case paraComunicante:
		c := wire.Obj(b.Aviso, "comunicante")
		r := beneficiario{Nome: wire.Str(c, "nome"), Parentesco: wire.Str(c, "relacao"), Percentual: whole}
		if wire.Str(c, "tipoDocumento") == "CPF" {
			r.CPF = wire.Str(c, "documento")
		}
		return []beneficiario{r}, nil
	}
	var produto int
	if in, err := s.Customer.InscricaoAnyCompany(ctx, tx, b.InscricaoID); err != nil {
		return nil, err
	} else if in != nil {
		produto = in.ProdutoID
	}
	return beneficiariosOf(wire.Items(wire.Obj(prop, "BENEFICIARIOS")["BENEFICIARIO"]), produto), nil
}

// beneficiariosOf reads BENEFICIARIOS.BENEFICIARIO for the plan produto: a
// beneficiary tied to another plan (CD_PLANO) is not one of this plan's.
func beneficiariosOf(list []map[string]any, produto int) []beneficiario {
	var out []beneficiario
	for _, it := range list {
		if plano, err := wire.Int(it["CD_PLANO"]); err == nil && plano != 0 && produto != 0 && plano != produto {
			continue
		}
		share, err := wire.Rate(it["PARTICIPACAO"])
		if err != nil || share <= 0 {
			continue
		}
		out = append(out, beneficiario{CPF: wire.Digits(wire.Str(it, "CPF")), Nome: wire.Str(it, "NOME"), Parentesco: wire.Str(it, "PARENTESCO"), Percentual: share})
	}
	if len(out) == 0 {
		return []beneficiario{{Nome: herdeirosLegais, Percentual: whole}}
	}
	return out
}
