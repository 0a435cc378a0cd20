package customer

import (
	"context"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// Kinds are the customer-cycle resources scenarios drive: a charge
// (cobranca). Steps: status RECEBIDA | PAGA | CANCELADA, pay (received and
// settled at once), refuse {reason, description} (RECUSADA: reason is the
// code answered as motivoRecusa, description its words, descricaoRecusa),
// emit; instant due (noon in Brasília of the due date).
var Kinds = scenario.Kinds{
	"cobranca": {
		Name: "cobranca", Machine: cobrancaMachine, Instants: []string{"due"},
		Verbs: map[string]string{"status": "", "pay": "", "refuse": CobRecusada, "emit": ""},
	},
}

// ScenarioRunners registers the runner of the charge kind; a charge is
// named by its cobrancaId (bind, and the control API's actions).
func (s *Service) ScenarioRunners(e *scenario.Engine) {
	e.Handle("cobranca", wire.Resolving[cobranca]{Ref: "cobrancaId", Runner: wire.Runner[cobranca]{
		Platform: &s.Platform, Noun: "cobrança", Load: cobrancas.AnyCompany,
		About:    func(c *cobranca) (string, map[string]any, string) { return c.AppID, c.subject(), c.key() },
		Steps:    map[string]wire.Step[cobranca]{"status": s.stepStatus, "pay": s.stepPay, "refuse": s.stepRefuse},
		Instants: dueInstant,
	}})
}

// dueInstant is a charge's due instant: noon in Brasília of its due date.
func dueInstant(_ context.Context, _ *store.Tx, c *cobranca, _ string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, c.Vencimento)
	if err != nil {
		return time.Time{}, err
	}
	return time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, wire.Brasilia), nil
}

func (s *Service) stepStatus(ctx context.Context, tx *store.Tx, c *cobranca, st scenario.Step) (string, error) {
	if err := s.moveCobranca(ctx, tx, c, st.Status, st.Reason); err != nil {
		return "", err
	}
	return "moved to " + st.Status, nil
}

func (s *Service) stepPay(ctx context.Context, tx *store.Tx, c *cobranca, _ scenario.Step) (string, error) {
	if c.open() {
		if err := s.moveCobranca(ctx, tx, c, CobRecebida, ""); err != nil {
			return "", err
		}
	}
	if err := s.moveCobranca(ctx, tx, c, CobPaga, ""); err != nil {
		return "", err
	}
	return "paid", nil
}

func (s *Service) stepRefuse(ctx context.Context, tx *store.Tx, c *cobranca, st scenario.Step) (string, error) {
	reason := wire.OrDefault(st.Reason, "RECUSADA_PELO_EMISSOR")
	motivo := reason
	if desc, _ := st.Args["description"].(string); desc != "" {
		motivo += ": " + desc // one column: recusa splits it again
	}
	if err := s.moveCobranca(ctx, tx, c, CobRecusada, motivo); err != nil {
		return "", err
	}
	return "refused: " + reason, nil
}
