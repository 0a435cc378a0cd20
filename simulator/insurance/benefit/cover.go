package benefit

import (
	"slices"

	"homologa/simulator/insurance/customer"
	"homologa/simulator/money"
)

// The catalogue's causa ids (catalog/offers.yaml): what a coverage pays for.
const (
	causaMorte         = 1 // MORTE POR QUALQUER CAUSA
	causaMorteAcidente = 2 // MORTE ACIDENTAL
	causaInvalidez     = 3 // INVALIDEZ POR ACIDENTE
	causaDoencaGrave   = 4 // DOENÇAS GRAVES
	causaFuneral       = 5 // FUNERAL
)

// Who receives a paid benefit.
const (
	paraBeneficiarios = iota // the proposal's beneficiaries, or the legal heirs
	paraSegurado             // the insured, alive
	paraComunicante          // whoever paid the expenses (funeral)
)

// causaSpec is what a notice's causa means to the sandbox.
type causaSpec struct {
	// Causas are the catalogue causa ids whose coverages pay it.
	Causas []int
	// Encerra: paying it ends the enrollment (the insured died).
	Encerra bool
	Para    int
}

// causas are the accepted notice causes, OPIN EnumCodeCoverage names
// (SUMMARY §3.8). An accidental death is also a death by any cause, so a
// MORTE POR QUALQUER CAUSA coverage pays it too (and an additional
// MORTE ACIDENTAL capital, when contracted, is paid on top). The funeral
// cover reimburses whoever paid the funeral, who gave the notice.
// INTERNACAO_HOSPITALAR is a real cause no offer of the catalogue covers:
// it is accepted and refused as not covered, as the insurer would.
var causas = map[string]causaSpec{
	"MORTE":                          {Causas: []int{causaMorte}, Encerra: true, Para: paraBeneficiarios},
	"MORTE_ACIDENTAL":                {Causas: []int{causaMorteAcidente, causaMorte}, Encerra: true, Para: paraBeneficiarios},
	"INVALIDEZ_TOTAL_POR_ACIDENTE":   {Causas: []int{causaInvalidez}, Para: paraSegurado},
	"INVALIDEZ_PARCIAL_POR_ACIDENTE": {Causas: []int{causaInvalidez}, Para: paraSegurado},
	"DOENCA_GRAVE":                   {Causas: []int{causaDoencaGrave}, Para: paraSegurado},
	"FUNERAL":                        {Causas: []int{causaFuneral}, Para: paraComunicante},
	"INTERNACAO_HOSPITALAR":          {Para: paraSegurado},
}

// covInfo is one coverage of an enrollment with what the catalogue says
// it pays for.
type covInfo struct {
	ItemProdutoID int
	Descricao     string
	Causas        []int
	Capital       money.Cents
}

// claimable picks the coverages that pay causa: item alone when the notice
// names one (none when it does not pay causa), else every coverage whose
// causas include one of the cause's.
func claimable(causa string, covs []covInfo, item int) []covInfo {
	spec, ok := causas[causa]
	if !ok {
		return nil
	}
	var out []covInfo
	for _, c := range covs {
		if item != 0 && c.ItemProdutoID != item {
			continue
		}
		if slices.ContainsFunc(spec.Causas, func(id int) bool { return slices.Contains(c.Causas, id) }) {
			out = append(out, c)
		}
	}
	return out
}

// coveragesOf reads an enrollment's coverages with their causas from the
// offer it was sold under.
func (s *Service) coveragesOf(in *customer.Inscricao) []covInfo {
	var out []covInfo
	for _, c := range in.Coberturas {
		ci := covInfo{ItemProdutoID: c.ItemProdutoID, Capital: c.CapitalSegurado}
		if cov := s.Catalog.Cobertura(in.OfferID, in.ProdutoID, c.ItemProdutoID); cov != nil {
			ci.Descricao = cov.Descricao
			for _, d := range cov.Causas {
				ci.Causas = append(ci.Causas, d.ID)
			}
		}
		out = append(out, ci)
	}
	return out
}
