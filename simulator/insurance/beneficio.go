package insurance

// The benefit cycle (SPEC area A; insurance SUMMARY §3.8, §5.2, §5.6, §6):
// a benefit notice against an enrollment, its regulation driven by the
// benefit's scenario (default: scenarios/beneficio-padrao.yaml), pendings
// of documents the partner answers, and payment or refusal. This file holds
// the machines, the stored benefit and the routes; beneficio_aviso.go the
// notice, beneficio_regulacao.go the moves and the scenario runner,
// beneficio_consulta.go the reads and the partner's answers.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The benefit states (SUMMARY §5.6).
const (
	BenAvisado     = "AVISADO"
	BenEmRegulacao = "EM_REGULACAO"
	BenPendente    = "PENDENTE"
	BenAprovado    = "APROVADO"
	BenPago        = "PAGO"
	BenRecusado    = "RECUSADO"
	BenReaberto    = "REABERTO"
	BenCancelado   = "CANCELADO"
)

// statusOpin is the OPIN claim status of each state (SUMMARY §4, §5.6).
// These are person-insurance claims, so PAGO and RECUSADO take the
// InsurancePersonClaim pair (COM/SEM_INDENIZACAO). OPIN has no state for a
// pending or an approved-but-unpaid claim: both are still under
// evaluation, AVALIACAO_INICIAL.
var statusOpin = map[string]string{
	BenAvisado: "ABERTO", BenEmRegulacao: "AVALIACAO_INICIAL", BenPendente: "AVALIACAO_INICIAL", BenAprovado: "AVALIACAO_INICIAL",
	BenPago: "ENCERRADO_COM_INDENIZACAO", BenRecusado: "ENCERRADO_SEM_INDENIZACAO", BenReaberto: "REABERTO", BenCancelado: "CANCELADO_POR_ERRO_OPERACIONAL",
}

func benStatusEdge(to string) statemachine.Edge {
	return statemachine.Edge{To: to, Type: "beneficio.status", Name: "Status de Benefício"}
}

// beneficioMachine is the life of a benefit. Every change of state emits
// Status de Benefício; PAGO and RECUSADO also emit Beneficio Pago and
// Beneficio Recusado with their data. PENDENTE → PENDENTE is a further
// pending (an answer rejected): no change of state, so no status event,
// only the new pending's Pendência de Benefício. Only a refusal is
// reopened: reopening a paid benefit would pay it twice, and the sandbox
// models no complementary payment.
var beneficioMachine = &statemachine.Machine{
	Resource: "beneficio",
	Table:    "beneficios",
	Initial:  BenAvisado,
	Edges: map[string][]statemachine.Edge{
		BenAvisado:     {benStatusEdge(BenEmRegulacao), benStatusEdge(BenCancelado)},
		BenEmRegulacao: {benStatusEdge(BenPendente), benStatusEdge(BenAprovado), benStatusEdge(BenRecusado), benStatusEdge(BenCancelado)},
		BenPendente:    {{To: BenPendente}, benStatusEdge(BenEmRegulacao), benStatusEdge(BenRecusado), benStatusEdge(BenCancelado)},
		BenAprovado:    {benStatusEdge(BenPago)},
		BenRecusado:    {benStatusEdge(BenReaberto)},
		BenReaberto:    {benStatusEdge(BenEmRegulacao)},
	},
}

// benPendenciaMachine is a benefit pending: the proposal pending's states
// (SUMMARY §5.2), with the benefit's event for the answer.
var benPendenciaMachine = &statemachine.Machine{
	Resource: "pendencia de beneficio",
	Table:    "beneficio_pendencias",
	Initial:  Aberta,
	Edges: map[string][]statemachine.Edge{
		Aberta:     {{To: Respondida, Type: "beneficio.pendencia_respondida", Name: "Pendência Respondida"}, {To: PendCancelada}},
		Respondida: {{To: Resolvida}, {To: Rejeitada}, {To: PendCancelada}},
	},
}

// BenefitKinds is the benefit as scenarios see it:
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
var BenefitKinds = scenario.Kinds{
	"beneficio": {
		Name: "beneficio", Machine: beneficioMachine,
		Verbs:    map[string]string{"status": "", "pending": BenPendente, "pay": BenPago, "refuse": BenRecusado, "emit": ""},
		Triggers: map[string]string{"pending_answered": BenPendente, "reopened": BenReaberto},
	},
}

// reopenScenario drives a benefit the partner reopened when no scenario
// of its own is left to.
const reopenScenario = "beneficio-regulacao-apos-reabertura"

// benefitRunners registers the runners of the benefit kinds.
func (s *Service) benefitRunners(e *scenario.Engine) { e.Handle("beneficio", beneficioRunner{s}) }

// beneficio is a stored benefit notice and where its regulation stands.
type beneficio struct {
	ID              int64
	Protocolo       string
	CompanyID       string
	AppID           string
	InscricaoID     int64
	Numero          int64
	CPF             string
	Causa           string
	Status          string
	DataOcorrencia  string
	Aviso           map[string]any // what the notice said, echoed by GET (documents without content)
	Coberturas      []benCobertura
	Valor           float64
	DataPagamento   string
	Beneficiarios   []beneficiario
	MotivoRecusa    string
	DescricaoRecusa string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// benCobertura is a coverage of the enrollment the notice claims, with the
// capital it had when the notice came in.
type benCobertura struct {
	ItemProdutoID   int     `json:"itemProdutoId"`
	Descricao       string  `json:"descricao"`
	CapitalSegurado float64 `json:"capitalSegurado"`
}

// beneficiario is one recipient of a paid benefit.
type beneficiario struct {
	CPF        string  `json:"cpf,omitempty"`
	Nome       string  `json:"nome"`
	Parentesco string  `json:"parentesco,omitempty"`
	Percentual float64 `json:"percentual"`
	Valor      float64 `json:"valor"`
}

const beneficioColumns = `id, protocolo, company_id, app_id, inscricao_id, numero, cpf, causa, status, data_ocorrencia, aviso, coberturas,
	valor, pago_em, beneficiarios, motivo_recusa, descricao_recusa, created_at, updated_at`

func scanBeneficio(row interface{ Scan(...any) error }) (*beneficio, error) {
	var b beneficio
	var aviso, covs, benefs string
	var created, updated int64
	var paid sql.NullInt64
	if err := row.Scan(&b.ID, &b.Protocolo, &b.CompanyID, &b.AppID, &b.InscricaoID, &b.Numero, &b.CPF, &b.Causa, &b.Status, &b.DataOcorrencia,
		&aviso, &covs, &b.Valor, &paid, &benefs, &b.MotivoRecusa, &b.DescricaoRecusa, &created, &updated); err != nil {
		return nil, err
	}
	if paid.Valid {
		b.DataPagamento = time.Unix(0, paid.Int64).UTC().Format(time.DateOnly)
	}
	if err := json.Unmarshal([]byte(aviso), &b.Aviso); err != nil {
		return nil, fmt.Errorf("beneficio %d aviso: %w", b.ID, err)
	}
	if err := json.Unmarshal([]byte(covs), &b.Coberturas); err != nil {
		return nil, fmt.Errorf("beneficio %d coberturas: %w", b.ID, err)
	}
	if err := json.Unmarshal([]byte(benefs), &b.Beneficiarios); err != nil {
		return nil, fmt.Errorf("beneficio %d beneficiarios: %w", b.ID, err)
	}
	b.CreatedAt, b.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return &b, nil
}

// loadBeneficio reads a benefit of the company ("" for any company: the
// scenario runner acts for the insurer); nil when there is none.
func loadBeneficio(ctx context.Context, tx *store.Tx, companyID string, id int64) (*beneficio, error) {
	b, err := scanBeneficio(tx.QueryRowContext(ctx, `SELECT `+beneficioColumns+` FROM beneficios WHERE id = ? AND (? = '' OR company_id = ?)`,
		id, companyID, companyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load beneficio %d: %w", id, err)
	}
	return b, nil
}

func benSubject(b *beneficio) map[string]any {
	return map[string]any{"beneficioId": b.ID, "inscricaoId": b.InscricaoID, "numeroProposta": b.Numero}
}

func benKey(b *beneficio) string { return fmt.Sprintf("beneficio:%d", b.ID) }

func addBenTimeline(ctx context.Context, tx *store.Tx, id int64, at time.Time, status, usuario, descricao string, pendencia int64) error {
	var pend any
	if pendencia > 0 {
		pend = pendencia
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO beneficio_timeline (beneficio_id, at, status, usuario, descricao, pendencia) VALUES (?, ?, ?, ?, ?, ?)`,
		id, at.UnixNano(), status, usuario, descricao, pend)
	if err != nil {
		return fmt.Errorf("timeline of beneficio %d: %w", id, err)
	}
	return nil
}
