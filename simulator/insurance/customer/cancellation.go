package customer

import (
	"context"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// cancelDelay is how long, on the company's clock, a requested cancellation
// takes to be processed.
const cancelDelay = 5 * time.Minute

// requestCancellation asks for the company's enrollment id to be
// cancelled: CANCELAMENTO_SOLICITADO now, processed cancelDelay later
// (CANCELADA, open charges cancelled, commissions reversed inside the
// window, Valor Pago Alterado with valorNovo 0). It returns when the
// request was taken.
func (s *Service) requestCancellation(ctx context.Context, companyID string, id int64, motivo string) (time.Time, error) {
	now := s.NowOf(companyID)
	return now, s.DB.Tx(ctx, func(tx *store.Tx) error {
		in, err := mustInscricao(ctx, tx, companyID, id)
		if err != nil {
			return err
		}
		if _, err := inscricaoMachine.Check(in.Status, InscCancelamentoSolicitado); err != nil {
			return wire.Rule("id", "INSCRICAO_NAO_CANCELAVEL", "a inscrição %d está %s e não pode ser cancelada", in.ID, in.Status)
		}
		in.Body["motivoCancelamento"] = motivo
		if err := s.moveInscricao(ctx, tx, in, InscCancelamentoSolicitado); err != nil {
			return err
		}
		return s.schedule(ctx, tx, in.CompanyID, jobCancel, now.Add(cancelDelay), jobRef{ID: in.ID})
	})
}

// cancelJob processes a requested cancellation.
func (s *Service) cancelJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	in, err := inscricoes.AnyCompany(ctx, tx, ref.ID)
	if err != nil || in == nil || in.Status != InscCancelamentoSolicitado {
		return err
	}
	return s.End(ctx, tx, in.ID, InscCancelada, "CANCELAMENTO")
}
