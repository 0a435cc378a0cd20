package insurance

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/jobs"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The charge states (SUMMARY §5.4). RECEBIDA is captured but not yet
// reconciled; PAGA is reconciled.
const (
	CobEmitida   = "EMITIDA"
	CobRecebida  = "RECEBIDA"
	CobPaga      = "PAGA"
	CobRecusada  = "RECUSADA"
	CobCancelada = "CANCELADA"
	CobEstornada = "ESTORNADA"
)

// cobrancaMachine is the life of a charge and the event of each move.
var cobrancaMachine = &statemachine.Machine{
	Resource: "cobranca",
	Table:    "cobrancas",
	Initial:  CobEmitida,
	Edges: map[string][]statemachine.Edge{
		CobEmitida: {
			{To: CobRecebida, Type: "cobranca.recebida", Name: "Cobrança Recebida"},
			{To: CobRecusada, Type: "cobranca.recusada", Name: "Cobrança Recusada"},
			{To: CobCancelada},
		},
		CobRecebida: {{To: CobPaga, Type: "cobranca.paga", Name: "Cobrança Paga"}, {To: CobRecusada, Type: "cobranca.recusada", Name: "Cobrança Recusada"}},
		CobRecusada: {{To: CobRecebida, Type: "cobranca.recebida", Name: "Cobrança Recebida"}, {To: CobCancelada}},
		CobPaga:     {{To: CobEstornada}},
	},
}

// Job kinds of the customer cycle.
const (
	jobIssue    = "insurance.billing.issue"
	jobOverdue  = "insurance.billing.overdue"
	jobGrace    = "insurance.billing.grace"
	jobPayout   = "insurance.commission.payout"
	jobReadjust = "insurance.readjust"
	jobCancel   = "insurance.cancel"
)

// graceDays is how long a suspended enrollment waits for the overdue
// charge before it is cancelled (SUMMARY §5.3 proposes 60 days).
const graceDays = 60

// CustomerKinds are the customer-cycle resources scenarios drive: a charge
// (cobranca). Steps: status RECEBIDA | PAGA | CANCELADA, pay (received and
// settled at once), refuse {reason} (RECUSADA), emit; instant due (noon in
// Brasília of the due date).
var CustomerKinds = scenario.Kinds{
	"cobranca": {
		Name: "cobranca", Machine: cobrancaMachine, Instants: []string{"due"},
		Verbs: map[string]string{"status": "", "pay": "", "refuse": CobRecusada, "emit": ""},
	},
}

type jobRef struct {
	ID      int64  `json:"id"`
	Parcela int    `json:"parcela,omitempty"`
	Company string `json:"company,omitempty"`
	Mes     string `json:"mes,omitempty"`
}

// RegisterJobs registers the customer cycle's scheduled work.
func (s *Service) RegisterJobs(js *jobs.Scheduler) {
	s.Jobs = js
	handle := func(kind string, f func(ctx context.Context, tx *store.Tx, ref jobRef) error) {
		js.Handle(kind, func(ctx context.Context, j jobs.Job) error {
			var ref jobRef
			if err := json.Unmarshal(j.Payload, &ref); err != nil {
				return fmt.Errorf("%s payload: %w", kind, err)
			}
			return s.DB.Tx(ctx, func(tx *store.Tx) error { return f(ctx, tx, ref) })
		})
	}
	handle(jobIssue, s.issueJob)
	handle(jobOverdue, s.overdueJob)
	handle(jobGrace, s.graceJob)
	handle(jobPayout, s.payoutJob)
	handle(jobReadjust, s.readjustJob)
	handle(jobCancel, s.cancelJob)
}

// startBilling schedules what an implanted enrollment lives by: its first
// charge now, and its first readjustment a year later.
func (s *Service) startBilling(ctx context.Context, tx *store.Tx, id int64, now time.Time) error {
	if s.Jobs == nil {
		return nil
	}
	if _, err := s.Jobs.Schedule(ctx, tx, jobIssue, now, jobRef{ID: id, Parcela: 1}); err != nil {
		return err
	}
	_, err := s.Jobs.Schedule(ctx, tx, jobReadjust, now.AddDate(1, 0, 0), jobRef{ID: id})
	return err
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
	local := issued.In(brasilia)
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

// issueJob issues charge n of an enrollment (Cobrança Emitida), binds its
// scenario, and schedules its overdue check and the next issue.
func (s *Service) issueJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	in, err := loadInscricao(ctx, tx, "", ref.ID)
	if err != nil || in == nil {
		return err
	}
	if in.Status != InscAtiva && in.Status != InscSuspensa {
		return nil // the enrollment ended: no more charges
	}
	now := s.Clock.Now()
	dia, _ := in.Body["diaVencimento"].(float64)
	due := dueDate(now, int(dia))
	forma, _ := in.Body["formaCobranca"].(string)
	valor := premio(in)
	comp := due.Format("01/2006")
	res, err := tx.ExecContext(ctx, `INSERT INTO cobrancas (inscricao_id, company_id, app_id, competencia, parcela, valor, vencimento, forma, status, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (inscricao_id, parcela) DO NOTHING`,
		in.ID, in.CompanyID, in.AppID, comp, ref.Parcela, valor, due.Format(time.DateOnly), forma, CobEmitida, now.UnixNano(), now.UnixNano())
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil // issued already (a job run twice)
	}
	id, _ := res.LastInsertId()
	own, err := s.ownerOf(ctx, tx, in.AppID)
	if err != nil {
		return err
	}
	subject := map[string]any{"inscricaoId": in.ID, "cobrancaId": id}
	if err := s.emit(ctx, tx, own, "cobranca.emitida", "Cobrança Emitida", subject, inscKey(in), map[string]any{
		"competencia": comp, "parcela": ref.Parcela, "valor": valor, "dataVencimento": due.Format(time.DateOnly), "formaCobranca": forma,
	}); err != nil {
		return err
	}
	if s.Scenarios != nil {
		if err := s.Scenarios.Bind(ctx, tx, scenario.Resource{Kind: "cobranca", Key: strconv.FormatInt(id, 10),
			Ref: fmt.Sprintf("%d/%d", in.ID, ref.Parcela), AppID: in.AppID,
			Body: map[string]any{"cpf": in.CPF, "formaCobranca": forma, "valor": valor, "parcela": ref.Parcela, "inscricaoId": in.ID}}); err != nil {
			return err
		}
	}
	// The day after the due date (Brasília), an unpaid charge suspends.
	overdue := time.Date(due.Year(), due.Month(), due.Day()+1, 0, 0, 0, 0, brasilia)
	if _, err := s.Jobs.Schedule(ctx, tx, jobOverdue, overdue, jobRef{ID: id}); err != nil {
		return err
	}
	per, _ := in.Body["periodicidade"].(string)
	_, err = s.Jobs.Schedule(ctx, tx, jobIssue, now.AddDate(0, periodMonths(per), 0), jobRef{ID: in.ID, Parcela: ref.Parcela + 1})
	return err
}

// cobranca is a stored charge.
type cobranca struct {
	ID          int64
	InscricaoID int64
	CompanyID   string
	AppID       string
	Competencia string
	Parcela     int
	Valor       float64
	Vencimento  string
	Forma       string
	Status      string
	Motivo      string
	PagaEm      sql.NullInt64
}

const cobrancaColumns = `id, inscricao_id, company_id, app_id, competencia, parcela, valor, vencimento, forma, status, motivo_recusa, data_pagamento`

func scanCobranca(row interface{ Scan(...any) error }) (*cobranca, error) {
	var c cobranca
	err := row.Scan(&c.ID, &c.InscricaoID, &c.CompanyID, &c.AppID, &c.Competencia, &c.Parcela, &c.Valor, &c.Vencimento, &c.Forma, &c.Status, &c.Motivo, &c.PagaEm)
	return &c, err
}

func loadCobranca(ctx context.Context, tx *store.Tx, companyID string, id int64) (*cobranca, error) {
	c, err := scanCobranca(tx.QueryRowContext(ctx, `SELECT `+cobrancaColumns+` FROM cobrancas WHERE id = ? AND (? = '' OR company_id = ?)`, id, companyID, companyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return c, err
}

// body is a charge as the API answers it.
func (c *cobranca) body() map[string]any {
	out := map[string]any{"cobrancaId": c.ID, "inscricaoId": c.InscricaoID, "competencia": c.Competencia, "parcela": c.Parcela,
		"valor": c.Valor, "dataVencimento": c.Vencimento, "formaCobranca": c.Forma, "status": c.Status}
	if c.Motivo != "" {
		out["motivoRecusa"] = c.Motivo
	}
	if c.PagaEm.Valid {
		out["dataPagamento"] = time.Unix(0, c.PagaEm.Int64).UTC().Format(time.RFC3339)
	}
	return out
}

// moveCobranca changes a charge's status with its event; PAGA also issues
// the commission and may lift a suspension.
func (s *Service) moveCobranca(ctx context.Context, tx *store.Tx, c *cobranca, to, motivo string) error {
	own, err := s.ownerOf(ctx, tx, c.AppID)
	if err != nil {
		return err
	}
	now := s.Clock.Now()
	data := map[string]any{"valor": c.Valor, "formaCobranca": c.Forma, "competencia": c.Competencia, "parcela": c.Parcela}
	switch to {
	case CobRecebida:
		data["dataRecebimento"] = now.Format(time.RFC3339)
	case CobPaga:
		data["valorPago"], data["dataPagamento"] = c.Valor, now.Format(time.RFC3339)
	case CobRecusada:
		data["motivoRecusa"], data["tentativa"] = motivo, 1
	}
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: cobrancaMachine, From: c.Status, To: to, AppID: own.AppID, CNPJ: own.CNPJ,
		Subject: map[string]any{"inscricaoId": c.InscricaoID, "cobrancaId": c.ID}, SubjectKey: fmt.Sprintf("inscricao:%d", c.InscricaoID), Data: data,
		Store: func(ctx context.Context, tx *store.Tx) error {
			var paid any
			if to == CobPaga {
				paid = now.UnixNano()
			}
			_, err := tx.ExecContext(ctx, `UPDATE cobrancas SET status = ?, motivo_recusa = ?, data_pagamento = COALESCE(?, data_pagamento), updated_at = ? WHERE id = ?`,
				to, motivo, paid, now.UnixNano(), c.ID)
			return err
		},
	})
	if err != nil {
		return err
	}
	c.Status, c.Motivo = to, motivo
	if to != CobPaga && to != CobRecebida {
		return nil
	}
	if to == CobPaga {
		if err := s.issueCommission(ctx, tx, c); err != nil {
			return err
		}
	}
	return s.liftSuspension(ctx, tx, c.InscricaoID)
}

// overdueJob suspends the enrollment of a charge still unpaid the day after
// its due date, and gives it the grace period.
func (s *Service) overdueJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	c, err := loadCobranca(ctx, tx, "", ref.ID)
	if err != nil || c == nil || (c.Status != CobEmitida && c.Status != CobRecusada) {
		return err
	}
	in, err := loadInscricao(ctx, tx, "", c.InscricaoID)
	if err != nil || in == nil || in.Status != InscAtiva {
		return err
	}
	if err := s.moveInscricao(ctx, tx, in, InscSuspensa); err != nil {
		return err
	}
	_, err = s.Jobs.Schedule(ctx, tx, jobGrace, s.Clock.Now().AddDate(0, 0, graceDays), jobRef{ID: c.ID})
	return err
}

// graceJob cancels an enrollment whose overdue charge is still unpaid at
// the end of the grace period (Valor Pago Alterado, motivo INADIMPLENCIA).
func (s *Service) graceJob(ctx context.Context, tx *store.Tx, ref jobRef) error {
	c, err := loadCobranca(ctx, tx, "", ref.ID)
	if err != nil || c == nil || (c.Status != CobEmitida && c.Status != CobRecusada) {
		return err
	}
	in, err := loadInscricao(ctx, tx, "", c.InscricaoID)
	if err != nil || in == nil || in.Status != InscSuspensa {
		return err
	}
	return s.endEnrollment(ctx, tx, in.ID, InscCancelada, "INADIMPLENCIA")
}

// liftSuspension reactivates a suspended enrollment once no charge of it
// is overdue.
func (s *Service) liftSuspension(ctx context.Context, tx *store.Tx, id int64) error {
	in, err := loadInscricao(ctx, tx, "", id)
	if err != nil || in == nil || in.Status != InscSuspensa {
		return err
	}
	var overdue int
	today := s.Clock.Now().In(brasilia).Format(time.DateOnly)
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cobrancas WHERE inscricao_id = ? AND status IN (?, ?) AND vencimento < ?`,
		id, CobEmitida, CobRecusada, today).Scan(&overdue); err != nil {
		return err
	}
	if overdue > 0 {
		return nil
	}
	return s.moveInscricao(ctx, tx, in, InscAtiva)
}

// cancelOpenCharges cancels the charges not yet paid of an ending
// enrollment.
func (s *Service) cancelOpenCharges(ctx context.Context, tx *store.Tx, in *inscricao) error {
	_, err := tx.ExecContext(ctx, `UPDATE cobrancas SET status = ?, updated_at = ? WHERE inscricao_id = ? AND status IN (?, ?)`,
		CobCancelada, s.Clock.Now().UnixNano(), in.ID, CobEmitida, CobRecusada)
	return err
}

// cobrancaRunner does the steps of charge bindings.
type cobrancaRunner struct{ s *Service }

func (s *Service) customerRunners(e *scenario.Engine) { e.Handle("cobranca", cobrancaRunner{s}) }

func (r cobrancaRunner) load(ctx context.Context, tx *store.Tx, b *scenario.Binding) (*cobranca, error) {
	id, err := strconv.ParseInt(b.Key, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("binding key %q: %w", b.Key, err)
	}
	c, err := loadCobranca(ctx, tx, "", id)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, errs.Errorf(errs.NotFound, "cobrança %d no longer exists", id)
	}
	return c, nil
}

func (r cobrancaRunner) Instant(ctx context.Context, tx *store.Tx, b *scenario.Binding, name string) (time.Time, error) {
	c, err := r.load(ctx, tx, b)
	if err != nil {
		return time.Time{}, err
	}
	d, err := time.Parse(time.DateOnly, c.Vencimento)
	if err != nil {
		return time.Time{}, err
	}
	return time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, brasilia), nil
}

// Do performs one step; a refusal of the domain stops the binding.
func (r cobrancaRunner) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

func (r cobrancaRunner) do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	s := r.s
	c, err := r.load(ctx, tx, b)
	if err != nil {
		return "", err
	}
	switch st.Verb {
	case "status":
		if err := s.moveCobranca(ctx, tx, c, st.Status, st.Reason); err != nil {
			return "", err
		}
		return "moved to " + st.Status, nil
	case "pay":
		if c.Status == CobEmitida || c.Status == CobRecusada {
			if err := s.moveCobranca(ctx, tx, c, CobRecebida, ""); err != nil {
				return "", err
			}
		}
		if err := s.moveCobranca(ctx, tx, c, CobPaga, ""); err != nil {
			return "", err
		}
		return "paid", nil
	case "refuse":
		reason := st.Reason
		if reason == "" {
			reason = "RECUSADA_PELO_EMISSOR"
		}
		if err := s.moveCobranca(ctx, tx, c, CobRecusada, reason); err != nil {
			return "", err
		}
		return "refused: " + reason, nil
	case "emit":
		own, err := s.ownerOf(ctx, tx, c.AppID)
		if err != nil {
			return "", err
		}
		typ, name, data := st.Event()
		subject := map[string]any{"inscricaoId": c.InscricaoID, "cobrancaId": c.ID}
		if err := s.emit(ctx, tx, own, typ, name, subject, fmt.Sprintf("inscricao:%d", c.InscricaoID), data); err != nil {
			return "", err
		}
		return "emitted " + typ, nil
	}
	return "", errs.Errorf(errs.Invalid, "cobranca takes no %s step", st.Verb)
}
