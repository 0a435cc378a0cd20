package sale

import (
	"context"
	"fmt"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// Kinds is the proposal as scenarios see it:
//   - status: EM_ANALISE (also: the insurer accepts the answered pendings),
//     APROVADA, IMPLANTADA (opens the enrollments), CANCELADA;
//   - pending: {code, description, group}: raises a pending (the answered
//     ones it replaces are rejected);
//   - refuse: {reason}: RECUSADA with the reason;
//   - emit: an event of the scenario's own.
//
// Triggers: pending_answered (the partner answered a pending), cancelled.
var Kinds = scenario.Kinds{
	"proposta": {
		Name: "proposta", Machine: propostaMachine,
		Verbs:    map[string]string{"status": "", "pending": Pendente, "refuse": Recusada, "emit": ""},
		Triggers: map[string]string{"pending_answered": Pendente, "cancelled": Cancelada},
	},
}

// ScenarioRunners registers the runner of the proposal kind: the analysis
// the proposal's scenario drives.
func (s *Service) ScenarioRunners(e *scenario.Engine) {
	e.Handle("proposta", wire.Resolving[Proposta]{Ref: "numeroProposta", Runner: wire.Runner[Proposta]{
		Platform: &s.Platform, Noun: "proposta", Load: propostas.AnyCompany,
		About: func(p *Proposta) (string, map[string]any, string) { return p.AppID, subjectOf(p), keyOf(p) },
		Steps: map[string]wire.Step[Proposta]{"status": s.stepStatus, "pending": s.stepPending, "refuse": s.stepRefuse},
	}})
}

func (s *Service) stepStatus(ctx context.Context, tx *store.Tx, p *Proposta, st scenario.Step) (string, error) {
	switch {
	case st.Status == Implantada:
		ids, err := s.implant(ctx, tx, p)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("implanted: inscrições %v", ids), nil
	case st.Status == EmAnalise && p.Status == Pendente:
		if err := pendencias.Resolve(ctx, tx, s.Machines, p.Numero, s.NowOf(p.CompanyID)); err != nil {
			return "", err
		}
	case st.Status == Cancelada:
		if err := pendencias.Close(ctx, tx, s.Machines, p.Numero, s.NowOf(p.CompanyID)); err != nil {
			return "", err
		}
	}
	if err := s.move(ctx, tx, p, st.Status, st.Reason, usuarioSubscricao, nil, ""); err != nil {
		return "", err
	}
	return "moved to " + st.Status, nil
}

func (s *Service) stepPending(ctx context.Context, tx *store.Tx, p *Proposta, st scenario.Step) (string, error) {
	code, group, desc := wire.PendingArgs(st)
	id, err := s.raisePendencia(ctx, tx, p, code, group, desc)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("pending %d raised: %s", id, code), nil
}

func (s *Service) stepRefuse(ctx context.Context, tx *store.Tx, p *Proposta, st scenario.Step) (string, error) {
	reason := st.Reason
	if reason == "" {
		reason, _ = st.Args["description"].(string)
	}
	reason = wire.OrDefault(reason, "Recusa técnica da subscrição")
	if err := pendencias.Close(ctx, tx, s.Machines, p.Numero, s.NowOf(p.CompanyID)); err != nil {
		return "", err
	}
	if err := s.move(ctx, tx, p, Recusada, reason, usuarioSubscricao, nil, ""); err != nil {
		return "", err
	}
	return "refused: " + reason, nil
}
