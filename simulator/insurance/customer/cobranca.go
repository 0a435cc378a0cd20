package customer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
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

// cobrancasDe are the enrollments' charges, by enrollment.
var cobrancasDe = wire.Children{Machine: cobrancaMachine, Parent: "inscricao_id"}

// cobranca is a stored charge.
type cobranca struct {
	ID          int64
	InscricaoID int64
	CompanyID   string
	AppID       string
	Competencia string
	Parcela     int
	Valor       money.Cents
	Vencimento  string
	Forma       string
	Status      string
	// Motivo is a refusal's reason as stored: its code, then ": " and
	// its description when it has one (see recusa).
	Motivo string
	// PagaEm is when it was paid; zero while it is not.
	PagaEm time.Time
}

// recusa splits a stored refusal reason into the code partners branch on
// (motivoRecusa, e.g. SALDO_INSUFICIENTE) and its words (descricaoRecusa),
// as the benefit cycle answers motivoRecusa and its description apart.
func recusa(motivo string) (codigo, descricao string) {
	codigo, descricao, _ = strings.Cut(motivo, ": ")
	return codigo, descricao
}

// recusaFields are a refusal's fields in an answer or an event: none for
// a charge never refused.
func recusaFields(out map[string]any, motivo string) {
	if motivo == "" {
		return
	}
	codigo, descricao := recusa(motivo)
	out["motivoRecusa"] = codigo
	if descricao != "" {
		out["descricaoRecusa"] = descricao
	}
}

// open reports whether the charge still waits for its payment.
func (c *cobranca) open() bool { return c.Status == CobEmitida || c.Status == CobRecusada }

func (c *cobranca) subject() map[string]any {
	return map[string]any{"inscricaoId": c.InscricaoID, "cobrancaId": c.ID}
}

// key orders a charge's events with its enrollment's.
func (c *cobranca) key() string { return fmt.Sprintf("inscricao:%d", c.InscricaoID) }

// cobrancasOf lists the charges of the company's enrollment id in status
// ("" for all), oldest first.
func (s *Service) cobrancasOf(ctx context.Context, companyID string, id int64, status string) ([]*cobranca, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) ([]*cobranca, error) {
		if _, err := mustInscricao(ctx, tx, companyID, id); err != nil {
			return nil, err
		}
		return listCobrancas(ctx, tx, id, status)
	})
}

// cobrancaOf reads the company's charge id.
func (s *Service) cobrancaOf(ctx context.Context, companyID string, id int64) (*cobranca, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) (*cobranca, error) {
		return wire.Found(cobrancas.Of(ctx, tx, companyID, id))(wire.NotFound("COBRANCA_NAO_ENCONTRADA", "cobrança %d não encontrada", id))
	})
}

// moveCobranca changes a charge's status with its event; PAGA also issues
// the commission, and a payment may lift a suspension.
func (s *Service) moveCobranca(ctx context.Context, tx *store.Tx, c *cobranca, to, motivo string) error {
	now := s.NowOf(c.CompanyID)
	data := map[string]any{"valor": c.Valor, "formaCobranca": c.Forma, "competencia": c.Competencia, "parcela": c.Parcela}
	switch to {
	case CobRecebida:
		data["dataRecebimento"] = now.Format(time.RFC3339)
	case CobPaga:
		data["valorPago"], data["dataPagamento"] = c.Valor, now.Format(time.RFC3339)
	case CobRecusada:
		recusaFields(data, motivo)
		data["tentativa"] = 1
	}
	err := s.Move(ctx, tx, c.AppID, statemachine.Move{
		Machine: cobrancaMachine, From: c.Status, To: to, Subject: c.subject(), SubjectKey: c.key(), Data: data,
		Store: func(ctx context.Context, tx *store.Tx) error {
			return storeCobrancaStatus(ctx, tx, c.ID, to, motivo, now)
		},
	})
	if err != nil {
		return err
	}
	c.Status, c.Motivo = to, motivo
	if to == CobPaga {
		c.PagaEm = now
		if err := s.issueCommission(ctx, tx, c); err != nil {
			return err
		}
	}
	if to == CobPaga || to == CobRecebida {
		return s.liftSuspension(ctx, tx, c.InscricaoID)
	}
	return nil
}

// liftSuspension reactivates a suspended enrollment once no charge of it
// is overdue.
func (s *Service) liftSuspension(ctx context.Context, tx *store.Tx, id int64) error {
	in, err := inscricoes.AnyCompany(ctx, tx, id)
	if err != nil || in == nil || in.Status != InscSuspensa {
		return err
	}
	overdue, err := countOverdue(ctx, tx, id, s.NowOf(in.CompanyID).In(wire.Brasilia).Format(time.DateOnly))
	if err != nil || overdue > 0 {
		return err
	}
	return s.moveInscricao(ctx, tx, in, InscAtiva)
}
