package sale

import (
	"context"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// Plano is a plan (a product) of an implanted proposal: what the customer
// cycle opens an enrollment for.
type Plano struct {
	Numero                         int64
	CompanyID, AppID, CPF, OfferID string
	ProdutoID                      int
	// Produto is the product's description in the catalogue.
	Produto    string
	Coberturas []Cobertura
	// ValorContribuicao is the premium per period: the coverages' sum.
	ValorContribuicao money.Cents
	Periodicidade     string
	FormaCobranca     string
	// DiaVencimento is the due day; 0 for payroll (FOLHA), which has none.
	DiaVencimento int
	// At is when the cover starts.
	At time.Time
}

// Cobertura is a coverage of a plan with its capital and premium.
type Cobertura struct {
	CapitalSegurado money.Cents `json:"capitalSegurado"`
	ItemProdutoID   int         `json:"itemProdutoId"`
	Premio          money.Cents `json:"premio"`
}

// implant turns an APROVADA proposal into one enrollment per plan, moves
// it to IMPLANTADA and emits Proposta Implantada with the enrollments'
// ids.
func (s *Service) implant(ctx context.Context, tx *store.Tx, p *Proposta) ([]int64, error) {
	if p.Status != Aprovada {
		return nil, errs.Errorf(errs.Conflict, "a proposta %d está %s: só uma proposta APROVADA é implantada", p.Numero, p.Status)
	}
	now := s.NowOf(p.CompanyID)
	var ids []int64
	for _, plano := range planosOf(p, s.Catalog, now) {
		id, err := s.Enrollments.Enroll(ctx, tx, plano)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	err := s.move(ctx, tx, p, Implantada, "", usuarioSubscricao, map[string]any{
		"dataImplantacao": now.Format(time.RFC3339), "valorTotal": p.Total, "inscricaoIds": ids,
	}, "")
	return ids, err
}

// planosOf reads the plans of a proposal as it was received (its premiums
// were checked then).
func planosOf(p *Proposta, c *catalog.Catalog, at time.Time) []Plano {
	prop := wire.Obj(p.Request, "PROPOSTA")
	cob := wire.Obj(prop, "DADOS_COBRANCA")
	dia, _ := wire.Int(cob["DIA_VENCIMENTO"])
	var out []Plano
	for _, plano := range wire.Items(wire.Obj(prop, "PLANOS")["PLANO"]) {
		pl := Plano{Numero: p.Numero, CompanyID: p.CompanyID, AppID: p.AppID, CPF: p.CPF, OfferID: p.OfferID,
			Periodicidade: wire.OrDefault(wire.Str(cob, "PERIODICIDADE"), "MENSAL"), FormaCobranca: wire.Str(cob, "TIPO_COBRANCA"),
			DiaVencimento: max(dia, 0), At: at}
		pl.ProdutoID, _ = wire.Int(plano["CODIGO"])
		if o, ok := c.Offer(p.OfferID); ok {
			if prod := o.Produto(pl.ProdutoID); prod != nil {
				pl.Produto = prod.Descricao
			}
		}
		for _, c := range wire.Items(wire.Obj(plano, "COBERTURAS")["COBERTURA"]) {
			var cov Cobertura
			cov.ItemProdutoID, _ = wire.Int(c["CODIGO"])
			cov.Premio, _ = wire.Money(c["VL_CONTRIB"])
			cov.CapitalSegurado, _ = wire.Money(c["VL_COBERTURA"])
			pl.ValorContribuicao += cov.Premio
			pl.Coberturas = append(pl.Coberturas, cov)
		}
		out = append(out, pl)
	}
	return out
}
