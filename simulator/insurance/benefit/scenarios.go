package benefit

import (
	"context"
	"fmt"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// Kinds is the benefit as scenarios see it:
//   - status: EM_REGULACAO (from PENDENTE it also accepts the answered
//     pendings), APROVADO, REABERTO, CANCELADO; PAGO and RECUSADO are the
//     pay and refuse steps';
//   - pending: {code, group, description, documentosExigidos}: raises a
//     Pendência de Benefício (the answered ones it replaces are rejected);
//   - pay: true, or {valor}: PAGO, split among the beneficiaries;
//   - refuse: {reason, description}: RECUSADO, reason an OPIN
//     denialJustification;
//   - emit: an event of the scenario's own.
//
// Triggers: pending_answered (the partner answered a pending), reopened
// (the benefit was reopened).
var Kinds = scenario.Kinds{
	"beneficio": {
		Name: "beneficio", Machine: beneficioMachine,
		Verbs:    map[string]string{"status": "", "pending": BenPendente, "pay": BenPago, "refuse": BenRecusado, "emit": ""},
		Triggers: map[string]string{"pending_answered": BenPendente, "reopened": BenReaberto},
	},
}

// ScenarioRunners registers the runner of the benefit kind: the
// regulation the benefit's scenario drives.
func (s *Service) ScenarioRunners(e *scenario.Engine) {
	e.Handle("beneficio", wire.Resolving[beneficio]{Ref: "beneficioId", Runner: wire.Runner[beneficio]{
		Platform: &s.Platform, Noun: "benefício", Load: loadBeneficioAnyCompany,
		About: func(b *beneficio) (string, map[string]any, string) { return b.AppID, b.subject(), b.key() },
		Steps: map[string]wire.Step[beneficio]{"status": s.stepStatus, "pending": s.stepPending, "pay": s.stepPay, "refuse": s.stepRefuse},
	}})
}

func (s *Service) stepStatus(ctx context.Context, tx *store.Tx, b *beneficio, st scenario.Step) (string, error) {
	switch st.Status {
	case BenPago:
		return s.stepPay(ctx, tx, b, st)
	case BenRecusado:
		return s.stepRefuse(ctx, tx, b, st)
	case BenPendente:
		return "", errs.Errorf(errs.Invalid, "abra uma pendência com o passo pending, não com status: PENDENTE")
	case BenReaberto:
		if err := s.reopen(ctx, tx, b, st.Reason, usuarioRegulacao); err != nil {
			return "", err
		}
		return "reopened", nil
	case BenEmRegulacao:
		if b.Status == BenPendente {
			if err := pendencias.Resolve(ctx, tx, s.Machines, b.ID, s.NowOf(b.CompanyID)); err != nil {
				return "", err
			}
		}
	case BenCancelado:
		if err := pendencias.Close(ctx, tx, s.Machines, b.ID, s.NowOf(b.CompanyID)); err != nil {
			return "", err
		}
	}
	if err := s.moveBeneficio(ctx, tx, b, st.Status, st.Reason, usuarioRegulacao, ""); err != nil {
		return "", err
	}
	return "moved to " + st.Status, nil
}

func (s *Service) stepPending(ctx context.Context, tx *store.Tx, b *beneficio, st scenario.Step) (string, error) {
	code, group, desc := wire.PendingArgs(st)
	var exigidos []string
	if list, ok := st.Args["documentosExigidos"].([]any); ok {
		for _, d := range list {
			exigidos = append(exigidos, fmt.Sprint(d))
		}
	}
	id, err := s.raisePendencia(ctx, tx, b, code, group, desc, exigidos)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("pending %d raised: %s", id, code), nil
}

func (s *Service) stepPay(ctx context.Context, tx *store.Tx, b *beneficio, st scenario.Step) (string, error) {
	var valor money.Cents
	if v, ok := st.Args["valor"]; ok {
		c, err := wire.Money(v)
		if err != nil {
			return "", errs.Errorf(errs.Invalid, "o valor %v do pagamento não é uma quantia em reais", v)
		}
		valor = c
	}
	if err := s.payBeneficio(ctx, tx, b, valor); err != nil {
		return "", err
	}
	return fmt.Sprintf("paid %s to %d recipient(s)", b.Valor, len(b.Beneficiarios)), nil
}

func (s *Service) stepRefuse(ctx context.Context, tx *store.Tx, b *beneficio, st scenario.Step) (string, error) {
	desc, _ := st.Args["description"].(string)
	motivo, desc := motivoRecusa(st.Reason, desc)
	if err := s.refuseBeneficio(ctx, tx, b, motivo, wire.OrDefault(desc, "Recusa da regulação do sinistro")); err != nil {
		return "", err
	}
	return "refused: " + motivo, nil
}
