package customer

import (
	"context"
	"fmt"

	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// changeBillingMethod changes how the company's enrollment id is charged:
// a DADOS_COBRANCA block, checked as a proposal's (a card's
// pre-authorisation must cover the premium); the next charges use it
// (Forma de Cobrança Alterada).
func (s *Service) changeBillingMethod(ctx context.Context, companyID string, id int64, cob map[string]any) (*Inscricao, error) {
	return wire.Write(ctx, s.DB, func(tx *store.Tx) (*Inscricao, error) {
		in, err := mustInscricao(ctx, tx, companyID, id)
		if err != nil {
			return nil, err
		}
		if in.Status != InscAtiva && in.Status != InscSuspensa {
			return nil, wire.Rule("id", "INSCRICAO_ENCERRADA", "a inscrição %d está %s", in.ID, in.Status)
		}
		offer, ok := s.Catalog.Offer(in.OfferID)
		if !ok {
			return nil, fmt.Errorf("inscricao %d: offer %q gone from the catalogue", in.ID, in.OfferID)
		}
		payer := sale.Payer{CompanyID: in.CompanyID, CPF: in.CPF}
		if err := sale.CheckBilling(ctx, tx, sale.Billing{Offer: offer, Payer: payer, Block: cob, Premio: in.ValorContribuicao, Numero: in.Numero,
			Now: s.NowOf(in.CompanyID)}); err != nil {
			return nil, err
		}
		antes := wire.Str(in.Body, "formaCobranca")
		in.Body["formaCobranca"] = wire.Str(cob, "TIPO_COBRANCA")
		delete(in.Body, "diaVencimento")
		if dia, err := wire.Int(cob["DIA_VENCIMENTO"]); err == nil && dia > 0 {
			in.Body["diaVencimento"] = dia
		}
		if err := s.save(ctx, tx, in); err != nil {
			return nil, err
		}
		return in, s.EmitFor(ctx, tx, in.AppID, wire.Event{Type: "inscricao.forma_cobranca_alterada", Name: "Forma de Cobrança Alterada",
			Subject: in.subject(), Key: in.key(),
			Data: map[string]any{"formaAnterior": antes, "formaAtual": in.Body["formaCobranca"], "diaVencimento": in.Body["diaVencimento"]}})
	})
}
