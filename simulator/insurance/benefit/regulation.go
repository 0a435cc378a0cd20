package benefit

import (
	"context"
	"slices"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// usuarioRegulacao is who acts for the insurer in a benefit's timeline.
const usuarioRegulacao = "REGULACAO"

// The OPIN denialJustification values (SUMMARY §4).
var motivosRecusa = []string{"RISCO_EXCLUIDO", "RISCO_AGRAVADO", "SEM_DOCUMENTACAO", "DOCUMENTACAO_INCOMPLETA", "PRESCRICAO", "FORA_COBERTURA", "OUTROS"}

// moveBeneficio changes a benefit's status through its machine, with
// Status de Benefício and a timeline entry. motivo goes into the event and
// the timeline.
func (s *Service) moveBeneficio(ctx context.Context, tx *store.Tx, b *beneficio, to, motivo, usuario, trigger string) error {
	from := b.Status
	data := map[string]any{"statusAnterior": from, "statusAtual": to, "statusOpin": statusOpin[to]}
	if motivo != "" {
		data["motivo"] = motivo
	}
	now := s.NowOf(b.CompanyID)
	err := s.Move(ctx, tx, b.AppID, statemachine.Move{
		Machine: beneficioMachine, From: from, To: to, Subject: b.subject(), SubjectKey: b.key(), Data: data,
		Scenario: statemachine.Tell{Kind: "beneficio", Key: wire.ID(b.ID), Trigger: trigger},
		Store: func(ctx context.Context, tx *store.Tx) error {
			if err := storeBeneficioStatus(ctx, tx, b.ID, to, now); err != nil {
				return err
			}
			if from == to {
				return nil // a further pending: its own entry says it
			}
			desc := "Benefício " + to
			if motivo != "" {
				desc += ": " + motivo
			}
			return beneficioTimeline.Add(ctx, tx, b.ID, wire.Entry{At: now, Status: to, Usuario: usuario, Descricao: desc})
		},
	})
	if err != nil {
		return err
	}
	b.Status = to
	return nil
}

// motivoRecusa reads a refuse step's reason as a denialJustification. A
// reason outside the list is kept in words under OUTROS rather than lost.
func motivoRecusa(reason, descricao string) (string, string) {
	if slices.Contains(motivosRecusa, reason) {
		return reason, descricao
	}
	if reason == "" {
		return "OUTROS", descricao
	}
	if descricao == "" {
		return "OUTROS", reason
	}
	return "OUTROS", reason + ": " + descricao
}

// refuseBeneficio ends regulation without payment: RECUSADO, with Status
// de Benefício and Beneficio Recusado.
func (s *Service) refuseBeneficio(ctx context.Context, tx *store.Tx, b *beneficio, motivo, descricao string) error {
	if b.Status != BenEmRegulacao && b.Status != BenPendente {
		return errs.Errorf(errs.Conflict, "o benefício %d está %s: só um benefício em regulação é recusado", b.ID, b.Status)
	}
	if err := pendencias.Close(ctx, tx, s.Machines, b.ID, s.NowOf(b.CompanyID)); err != nil {
		return err
	}
	if err := storeRecusa(ctx, tx, b.ID, motivo, descricao); err != nil {
		return err
	}
	if err := s.moveBeneficio(ctx, tx, b, BenRecusado, motivo, usuarioRegulacao, ""); err != nil {
		return err
	}
	b.MotivoRecusa, b.DescricaoRecusa = motivo, descricao
	return s.EmitFor(ctx, tx, b.AppID, wire.Event{Type: "beneficio.recusado", Name: "Beneficio Recusado", Subject: b.subject(), Key: b.key(),
		Data: map[string]any{"motivoRecusa": motivo, "descricao": descricao}})
}

// reopen moves a refused benefit to REABERTO (the refusal stays in the
// timeline, no longer on the benefit) and tells its scenario.
func (s *Service) reopen(ctx context.Context, tx *store.Tx, b *beneficio, justificativa, usuario string) error {
	if _, err := beneficioMachine.Check(b.Status, BenReaberto); err != nil {
		return err
	}
	if err := storeRecusa(ctx, tx, b.ID, "", ""); err != nil {
		return err
	}
	if err := s.moveBeneficio(ctx, tx, b, BenReaberto, justificativa, usuario, "reopened"); err != nil {
		return err
	}
	b.MotivoRecusa, b.DescricaoRecusa = "", ""
	return nil
}
