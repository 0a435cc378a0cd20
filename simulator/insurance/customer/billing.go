package customer

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// graceDays is how long a suspended enrollment waits for the overdue
// charge before it is cancelled (SUMMARY §5.3 proposes 60 days).
const graceDays = 60

// startBilling schedules what an implanted enrollment lives by: its first
// charge now, and its first readjustment a year later.
func (s *Service) startBilling(ctx context.Context, tx *store.Tx, companyID string, id int64, now time.Time) error {
	if s.Jobs == nil {
		return nil
	}
	if err := s.schedule(ctx, tx, companyID, jobIssue, now, jobRef{ID: id, Parcela: 1}); err != nil {
		return err
	}
	return s.schedule(ctx, tx, companyID, jobReadjust, now.AddDate(1, 0, 0), jobRef{ID: id})
}

// periodMonths is the months between charges of a periodicity.
func periodMonths(p string) int {
	switch p {
	case "TRIMESTRAL":
		return 3
	case "SEMESTRAL":
		return 6
	case "ANUAL":
		return 12
	}
	return 1
}

// dueDate is the charge's due date: the enrollment's due day on or after
// the issue date's next week (a boleto needs a few days), or the last day
// of the month for payroll.
func dueDate(issued time.Time, dia int) time.Time {
	local := issued.In(wire.Brasilia)
	if dia <= 0 {
		first := time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, time.UTC)
		return first.AddDate(0, 1, -1)
	}
	start := local.AddDate(0, 0, 7)
	d := time.Date(start.Year(), start.Month(), dia, 0, 0, 0, 0, time.UTC)
	if d.Before(time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)) {
		d = d.AddDate(0, 1, 0)
	}
	return d
}

// issueJob issues charge ref.Parcela of an enrollment (Cobrança Emitida),
// binds its scenario, and schedules its overdue check and the next issue.
func (s *Service) issueJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	in, err := inscricoes.AnyCompany(ctx, tx, ref.ID)
	if err != nil || in == nil {
		return err
	}
	if in.Status != InscAtiva && in.Status != InscSuspensa {
		return nil // the enrollment ended: no more charges
	}
	now := s.NowOf(in.CompanyID)
	dia, _ := wire.Int(in.Body["diaVencimento"])
	due := dueDate(now, dia)
	c := &cobranca{InscricaoID: in.ID, CompanyID: in.CompanyID, AppID: in.AppID, Competencia: due.Format("01/2006"), Parcela: ref.Parcela,
		Valor: in.ValorContribuicao, Vencimento: due.Format(time.DateOnly), Forma: wire.Str(in.Body, "formaCobranca"), Status: CobEmitida}
	if issued, err := insertCobranca(ctx, tx, c, now); err != nil || !issued {
		return err // not issued: issued already, by a job run twice
	}
	if err := s.EmitFor(ctx, tx, in.AppID, wire.Event{Type: "cobranca.emitida", Name: "Cobrança Emitida", Subject: c.subject(), Key: in.key(),
		Data: map[string]any{"competencia": c.Competencia, "parcela": c.Parcela, "valor": c.Valor, "dataVencimento": c.Vencimento, "formaCobranca": c.Forma}}); err != nil {
		return err
	}
	// The scenario selects on the charge as a JSON body reads: money as a
	// number, its text as the answers write it.
	valor, _ := c.Valor.MarshalJSON()
	if err := s.Bind(ctx, tx, scenario.Resource{Kind: "cobranca", Key: wire.ID(c.ID), Ref: fmt.Sprintf("%d/%d", in.ID, c.Parcela), AppID: in.AppID,
		Body: map[string]any{"cpf": in.CPF, "formaCobranca": c.Forma, "valor": json.Number(valor), "parcela": c.Parcela, "inscricaoId": in.ID}}); err != nil {
		return err
	}
	// The day after the due date (Brasília), an unpaid charge suspends.
	overdue := time.Date(due.Year(), due.Month(), due.Day()+1, 0, 0, 0, 0, wire.Brasilia)
	if err := s.schedule(ctx, tx, in.CompanyID, jobOverdue, overdue, jobRef{ID: c.ID}); err != nil {
		return err
	}
	next := now.AddDate(0, periodMonths(wire.Str(in.Body, "periodicidade")), 0)
	return s.schedule(ctx, tx, in.CompanyID, jobIssue, next, jobRef{ID: in.ID, Parcela: ref.Parcela + 1})
}

// overdueJob suspends the enrollment of a charge still unpaid the day after
// its due date, and gives it the grace period.
func (s *Service) overdueJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	c, in, err := s.unpaid(ctx, tx, ref.ID, InscAtiva)
	if err != nil || c == nil {
		return err
	}
	if err := s.moveInscricao(ctx, tx, in, InscSuspensa); err != nil {
		return err
	}
	return s.schedule(ctx, tx, in.CompanyID, jobGrace, s.NowOf(in.CompanyID).AddDate(0, 0, graceDays), jobRef{ID: c.ID})
}

// graceJob cancels an enrollment whose overdue charge is still unpaid at
// the end of the grace period (Valor Pago Alterado, motivo INADIMPLENCIA).
func (s *Service) graceJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	c, in, err := s.unpaid(ctx, tx, ref.ID, InscSuspensa)
	if err != nil || c == nil {
		return err
	}
	return s.End(ctx, tx, in.ID, InscCancelada, "INADIMPLENCIA")
}

// unpaid reads charge id when it is still unpaid and its enrollment is in
// status; nil when not, as there is nothing to do.
func (s *Service) unpaid(ctx context.Context, tx *store.Tx, id int64, status string) (*cobranca, *Inscricao, error) {
	c, err := cobrancas.AnyCompany(ctx, tx, id)
	if err != nil || c == nil || !c.open() {
		return nil, nil, err
	}
	in, err := inscricoes.AnyCompany(ctx, tx, c.InscricaoID)
	if err != nil || in == nil || in.Status != status {
		return nil, nil, err
	}
	return c, in, nil
}
