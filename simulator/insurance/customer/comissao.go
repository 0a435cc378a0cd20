package customer

import (
	"context"
	"fmt"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// The commission states (SUMMARY §5.5).
const (
	ComEmitida   = "EMITIDA"
	ComPaga      = "PAGA"
	ComEstornada = "ESTORNADA"
)

// comissaoMachine is the life of a commission: issued on a paid charge,
// paid in the month's payout, reversed when the enrollment is cancelled
// inside the chargeback window (a paid one as a negative entry).
var comissaoMachine = &statemachine.Machine{
	Resource: "comissao",
	Table:    "comissoes",
	Initial:  ComEmitida,
	Edges: map[string][]statemachine.Edge{
		ComEmitida: {{To: ComPaga, Type: "comissao.paga", Name: "Comissão Paga"}, estornada},
		ComPaga:    {estornada},
	},
}

var estornada = statemachine.Edge{To: ComEstornada, Type: "comissao.estornada", Name: "Comissão Estornada"}

// commissionRule is an offer's commission (v2 RegraComissao, reduced to
// what the sandbox computes with): a percentage of each paid charge, and
// the months after the start of cover during which a cancellation reverses
// what was paid.
type commissionRule struct {
	Percentual    money.Rate `json:"percentual"`
	JanelaMeses   int        `json:"janelaEstornoMeses"`
	Periodicidade string     `json:"periodicidade"`
}

// commissionRules are the sandbox's rules per offer; an offer not listed
// gets defaultCommission. Pension plans pay less, as in the market.
var commissionRules = map[string]commissionRule{
	"YZ":  {Percentual: 25 * money.RateOne, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"YX":  {Percentual: 20 * money.RateOne, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"EIS": {Percentual: 30 * money.RateOne, JanelaMeses: 6, Periodicidade: "MENSAL"},
	"A7Z": {Percentual: 25 * money.RateOne, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"A75": {Percentual: 20 * money.RateOne, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"105": {Percentual: 3 * money.RateOne, JanelaMeses: 12, Periodicidade: "MENSAL"},
	"106": {Percentual: 3 * money.RateOne, JanelaMeses: 12, Periodicidade: "MENSAL"},
}

var defaultCommission = commissionRule{Percentual: 15 * money.RateOne, JanelaMeses: 12, Periodicidade: "MENSAL"}

func ruleFor(offer string) commissionRule {
	if r, ok := commissionRules[offer]; ok {
		return r
	}
	return defaultCommission
}

// commissionRuleOf is the rule of an offer of the catalogue.
func (s *Service) commissionRuleOf(offer string) (commissionRule, error) {
	if _, ok := s.Catalog.Offer(offer); !ok {
		return commissionRule{}, errs.Invalidf("codigoModeloProposta", "informe um modelo de proposta do catálogo")
	}
	return ruleFor(offer), nil
}

// comissao is a stored commission.
type comissao struct {
	ID, CobrancaID, InscricaoID int64
	CompanyID, AppID            string
	Valor                       money.Cents
	Percentual                  money.Rate
	Competencia, Status         string
	// PagoEm and EstornadoEm are zero until it is paid, reversed.
	PagoEm, EstornadoEm, CreatedAt time.Time
}

func (c *comissao) subject() map[string]any {
	return map[string]any{"inscricaoId": c.InscricaoID, "cobrancaId": c.CobrancaID, "comissaoId": c.ID}
}

func (c *comissao) key() string { return fmt.Sprintf("comissao:%d", c.ID) }

// comissaoFilter selects the company's commissions; empty fields select
// all.
type comissaoFilter struct{ Status, Competencia, InscricaoID string }

// comissoesOf lists the company's commissions, newest first.
func (s *Service) comissoesOf(ctx context.Context, companyID string, f comissaoFilter) ([]*comissao, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) ([]*comissao, error) { return listComissoes(ctx, tx, companyID, f) })
}

// issueCommission accrues the partner's commission on a paid charge
// (Comissão Emitida) and makes sure the month's payout is scheduled.
func (s *Service) issueCommission(ctx context.Context, tx *store.Tx, c *cobranca) error {
	in, err := inscricoes.AnyCompany(ctx, tx, c.InscricaoID)
	if err != nil || in == nil {
		return err
	}
	rule := ruleFor(in.OfferID)
	now := s.NowOf(c.CompanyID)
	com := &comissao{CobrancaID: c.ID, InscricaoID: c.InscricaoID, CompanyID: c.CompanyID, AppID: c.AppID, Valor: c.Valor.Percent(rule.Percentual),
		Percentual: rule.Percentual, Competencia: c.Competencia, Status: ComEmitida, CreatedAt: now}
	if err := insertComissao(ctx, tx, com); err != nil {
		return err
	}
	if err := s.EmitFor(ctx, tx, c.AppID, wire.Event{Type: "comissao.emitida", Name: "Comissão Emitida", Subject: com.subject(), Key: com.key(),
		Data: map[string]any{"valor": com.Valor, "percentual": rule.Percentual, "competencia": c.Competencia, "valorCobranca": c.Valor}}); err != nil {
		return err
	}
	// The payout of the month after: the first day, 10:00 in Brasília.
	local := now.In(wire.Brasilia)
	payday := time.Date(local.Year(), local.Month()+1, 1, 10, 0, 0, 0, wire.Brasilia)
	mes := payday.Format("2006-01")
	first, err := openPayout(ctx, tx, c.CompanyID, mes)
	if err != nil || !first {
		return err
	}
	return s.schedule(ctx, tx, c.CompanyID, jobPayout, payday, jobRef{Company: c.CompanyID, Mes: mes})
}

// payoutJob pays the company's accrued commissions: each becomes PAGA
// (Comissão Paga) in the month's batch.
func (s *Service) payoutJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	_, err := s.payComissoes(ctx, tx, ref.Company, ref.Mes)
	return err
}

// payComissoes moves the company's accrued commissions to PAGA in the
// batch lote, and says how many.
func (s *Service) payComissoes(ctx context.Context, tx *store.Tx, companyID, lote string) (int, error) {
	now := s.NowOf(companyID)
	due, err := dueComissoes(ctx, tx, companyID, now)
	if err != nil {
		return 0, err
	}
	for _, c := range due {
		data := map[string]any{"valor": c.Valor, "dataPagamento": now.Format(time.RFC3339), "competencia": c.Competencia, "lote": lote}
		if err := s.moveComissao(ctx, tx, c, ComPaga, data, now); err != nil {
			return 0, err
		}
	}
	return len(due), nil
}

// PayoutNow is the month's commission payout run today for the company
// (the control API's, as the insurer's finance area would): every
// accrued commission becomes PAGA (Comissão Paga) in a batch of the
// current month. The payout scheduled for its day still runs, and finds
// nothing left to pay.
func (s *Service) PayoutNow(ctx context.Context, companyID string) (paid int, lote string, err error) {
	if !tenant.Named(companyID) {
		return 0, "", errs.Errorf(errs.Invalid, "o pagamento de comissões é de uma empresa: chame com o token de um app dela")
	}
	lote = s.NowOf(companyID).In(wire.Brasilia).Format("2006-01")
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		var err error
		paid, err = s.payComissoes(ctx, tx, companyID, lote)
		return err
	})
	return paid, lote, err
}

// reverseCommissions reverses an enrollment's commissions when it is
// cancelled inside its offer's chargeback window (Comissão Estornada; a
// paid one is a negative entry).
func (s *Service) reverseCommissions(ctx context.Context, tx *store.Tx, in *Inscricao, motivo string) error {
	rule := ruleFor(in.OfferID)
	now := s.NowOf(in.CompanyID)
	if now.After(in.CreatedAt.AddDate(0, rule.JanelaMeses, 0)) {
		return nil
	}
	all, err := reversibleComissoes(ctx, tx, in.ID)
	if err != nil {
		return err
	}
	for _, c := range all {
		data := map[string]any{"valor": -c.Valor, "motivo": motivo, "statusAnterior": c.Status, "janelaEstornoMeses": rule.JanelaMeses}
		if err := s.moveComissao(ctx, tx, c, ComEstornada, data, now); err != nil {
			return err
		}
	}
	return nil
}

// moveComissao changes a commission's status through its machine, with
// its event (data).
func (s *Service) moveComissao(ctx context.Context, tx *store.Tx, c *comissao, to string, data map[string]any, now time.Time) error {
	return s.Move(ctx, tx, c.AppID, statemachine.Move{Machine: comissaoMachine, From: c.Status, To: to, Subject: c.subject(), SubjectKey: c.key(), Data: data,
		Store: func(ctx context.Context, tx *store.Tx) error { return storeComissaoStatus(ctx, tx, c.ID, to, now) }})
}
