package benefit

import (
	"context"
	"fmt"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
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

func statusEdge(to string) statemachine.Edge {
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
		BenAvisado:     {statusEdge(BenEmRegulacao), statusEdge(BenCancelado)},
		BenEmRegulacao: {statusEdge(BenPendente), statusEdge(BenAprovado), statusEdge(BenRecusado), statusEdge(BenCancelado)},
		BenPendente:    {{To: BenPendente}, statusEdge(BenEmRegulacao), statusEdge(BenRecusado), statusEdge(BenCancelado)},
		BenAprovado:    {statusEdge(BenPago)},
		BenRecusado:    {statusEdge(BenReaberto)},
		BenReaberto:    {statusEdge(BenEmRegulacao)},
	},
}

// beneficioTimeline is where a benefit's history is kept.
var beneficioTimeline = wire.Timeline{Table: "beneficio_timeline", Parent: "beneficio_id"}

// reopenScenario drives a benefit the partner reopened when no scenario
// of its own is left to.
const reopenScenario = "beneficio-regulacao-apos-reabertura"

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
	Valor           money.Cents
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
	ItemProdutoID   int         `json:"itemProdutoId"`
	Descricao       string      `json:"descricao"`
	CapitalSegurado money.Cents `json:"capitalSegurado"`
}

// beneficiario is one recipient of a paid benefit.
type beneficiario struct {
	CPF        string      `json:"cpf,omitempty"`
	Nome       string      `json:"nome"`
	Parentesco string      `json:"parentesco,omitempty"`
	Percentual money.Rate  `json:"percentual"`
	Valor      money.Cents `json:"valor"`
}

func (b *beneficio) subject() map[string]any {
	return map[string]any{"beneficioId": b.ID, "inscricaoId": b.InscricaoID, "numeroProposta": b.Numero}
}

func (b *beneficio) key() string { return fmt.Sprintf("beneficio:%d", b.ID) }

// mustBeneficio reads the company's benefit id; another company's is as
// unknown as a missing one.
func mustBeneficio(ctx context.Context, tx *store.Tx, companyID string, id int64) (*beneficio, error) {
	b, err := loadBeneficio(ctx, tx, companyID, id)
	if err == nil && b == nil {
		err = wire.NotFound("BENEFICIO_NAO_ENCONTRADO", "benefício %d não encontrado", id)
	}
	return b, err
}

// resumo is a benefit as GET /beneficio/{id} answers it: with its pendings.
type resumo struct {
	*beneficio
	Pendencias []map[string]any
}

func resumoOf(ctx context.Context, tx *store.Tx, b *beneficio) (resumo, error) {
	pend, err := pendenciasOf(ctx, tx, b.ID)
	return resumo{b, pend}, err
}

// beneficioOf reads the company's benefit id.
func (s *Service) beneficioOf(ctx context.Context, companyID string, id int64) (resumo, error) {
	var out resumo
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		b, err := mustBeneficio(ctx, tx, companyID, id)
		if err != nil {
			return err
		}
		out, err = resumoOf(ctx, tx, b)
		return err
	})
	return out, err
}

// beneficioFilter selects the company's benefits; empty fields select all.
type beneficioFilter struct{ InscricaoID, Numero, CPF, Status string }

// beneficios lists the company's benefits, oldest first.
func (s *Service) beneficios(ctx context.Context, companyID string, f beneficioFilter) ([]resumo, error) {
	out := []resumo{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		bs, err := listBeneficios(ctx, tx, companyID, f)
		if err != nil {
			return err
		}
		for _, b := range bs {
			r, err := resumoOf(ctx, tx, b)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// timelineOf reads the company's benefit's timeline: every status and
// pending, oldest first.
func (s *Service) timelineOf(ctx context.Context, companyID string, id int64) ([]map[string]any, error) {
	var out []map[string]any
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		b, err := mustBeneficio(ctx, tx, companyID, id)
		if err != nil {
			return err
		}
		pend, err := pendenciasOf(ctx, tx, b.ID)
		if err != nil {
			return err
		}
		out, err = beneficioTimeline.Read(ctx, tx, b.ID, pend)
		return err
	})
	return out, err
}

// contest contests the refusal of the company's benefit id: it
// goes to REABERTO; its scenario, if it waits for reopened, goes on;
// otherwise beneficio-regulacao-apos-reabertura takes the benefit over
// (stopping what else ran on it), so a reopening always leads somewhere.
func (s *Service) contest(ctx context.Context, by auth.Principal, id int64, justificativa string) (resumo, error) {
	var out resumo
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		b, err := mustBeneficio(ctx, tx, by.CompanyID, id)
		if err != nil {
			return err
		}
		if _, err := beneficioMachine.Check(b.Status, BenReaberto); err != nil {
			return wire.Rule("status", "BENEFICIO_NAO_REABRIVEL", "o benefício %d está %s: só um benefício RECUSADO é reaberto", b.ID, b.Status)
		}
		driven, err := s.awaitsReopening(ctx, tx, b)
		if err != nil {
			return err
		}
		if err := s.reopen(ctx, tx, b, justificativa, by.ClientID); err != nil {
			return err
		}
		if !driven && s.Scenarios != nil && s.Scenarios.Catalogue().Get(reopenScenario) != nil {
			if _, err := s.Scenarios.BindExisting(ctx, tx, reopenScenario, b.AppID, map[string]string{"beneficioId": wire.ID(b.ID)}); err != nil {
				return err
			}
		}
		if b, err = mustBeneficio(ctx, tx, by.CompanyID, b.ID); err != nil {
			return err
		}
		out, err = resumoOf(ctx, tx, b)
		return err
	})
	return out, err
}

// awaitsReopening reports whether a scenario of the benefit waits for
// reopened (it goes on by itself).
func (s *Service) awaitsReopening(ctx context.Context, tx *store.Tx, b *beneficio) (bool, error) {
	if s.Scenarios == nil {
		return false, nil
	}
	return s.Scenarios.Awaits(ctx, tx, "beneficio", wire.ID(b.ID), "reopened")
}
