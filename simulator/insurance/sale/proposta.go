package sale

import (
	"context"
	"fmt"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The proposal states (insurance SUMMARY §5.1) and their numeric codes, so
// STATUS_ATUAL can be a code as the one seen (8 = implantada).
const (
	Recebida   = "RECEBIDA"
	EmAnalise  = "EM_ANALISE"
	Pendente   = "PENDENTE"
	Aprovada   = "APROVADA"
	Implantada = "IMPLANTADA"
	Recusada   = "RECUSADA"
	Cancelada  = "CANCELADA"
)

var statusCode = map[string]string{Recebida: "1", EmAnalise: "2", Pendente: "3", Aprovada: "4", Implantada: "8", Recusada: "9", Cancelada: "10"}

func statusEdge(to string) statemachine.Edge {
	return statemachine.Edge{To: to, Type: "proposta.status", Name: "Status de Proposta"}
}

// propostaMachine is the life of a proposal. PENDENTE → PENDENTE is a
// further pending (an answer rejected): it emits no status event, only the
// Pendência de Proposta of the new pending. Implantation emits Proposta
// Implantada instead of a status event.
var propostaMachine = &statemachine.Machine{
	Resource: "proposta",
	Table:    "propostas",
	Initial:  Recebida,
	Edges: map[string][]statemachine.Edge{
		Recebida:  {statusEdge(EmAnalise), statusEdge(Cancelada)},
		EmAnalise: {statusEdge(Pendente), statusEdge(Aprovada), statusEdge(Recusada), statusEdge(Cancelada)},
		Pendente:  {{To: Pendente}, statusEdge(EmAnalise), statusEdge(Recusada), statusEdge(Cancelada)},
		Aprovada:  {{To: Implantada, Type: "proposta.implantada", Name: "Proposta Implantada"}, statusEdge(Cancelada)},
	},
}

// propostaTimeline is where a proposal's history is kept.
var propostaTimeline = wire.Timeline{Table: "proposta_timeline", Parent: "numero"}

// usuarioSubscricao is who acts for the insurer in a proposal's timeline.
const usuarioSubscricao = "SUBSCRICAO"

// Proposta is a stored proposal.
type Proposta struct {
	Numero    int64
	CompanyID string
	AppID     string
	OfferID   string
	CPF       string
	Status    string
	Motivo    string
	Total     money.Cents
	// Request is the body as received, a card number masked (TakeCard).
	Request   map[string]any
	CreatedAt time.Time
	UpdatedAt time.Time
}

func subjectOf(p *Proposta) map[string]any { return map[string]any{"numeroProposta": p.Numero} }
func keyOf(p *Proposta) string             { return fmt.Sprintf("proposta:%d", p.Numero) }

// Proposta reads the company's proposal numero; nil when it has none.
func (s *Service) Proposta(ctx context.Context, tx *store.Tx, companyID string, numero int64) (*Proposta, error) {
	return propostas.Of(ctx, tx, companyID, numero)
}

// PropostaAnyCompany reads proposal numero whichever company it is of: for
// the insurer's own work (a benefit's regulation), never for a partner's
// request.
func (s *Service) PropostaAnyCompany(ctx context.Context, tx *store.Tx, numero int64) (*Proposta, error) {
	return propostas.AnyCompany(ctx, tx, numero)
}

// mustProposta reads the company's proposal numero, or the 404 to answer.
func mustProposta(ctx context.Context, tx *store.Tx, companyID string, numero int64) (*Proposta, error) {
	return wire.Found(propostas.Of(ctx, tx, companyID, numero))(wire.NotFound("PROPOSTA_NAO_ENCONTRADA", "proposta %d não encontrada", numero))
}

// reserve hands out a proposal number for a proposal of offer code that
// the company will send later: the questionnaire is answered under it.
func (s *Service) reserve(ctx context.Context, by auth.Principal, code string) (int64, error) {
	var n int64
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, err := s.offerFor(ctx, tx, by, code); err != nil {
			return err
		}
		var err error
		if n, err = nextNumero(ctx, tx); err != nil {
			return err
		}
		return insertReservation(ctx, tx, n, by.CompanyID, code, s.NowOf(by.CompanyID))
	})
	return n, err
}

// propostaIn is a proposal as the partner sends it.
type propostaIn struct {
	By    auth.Principal
	Offer string // codigoModeloProposta
	// Body is the whole request: PROPOSTA, and whatever else the client
	// sent beside it, kept as received.
	Body map[string]any
	// Scenario is the scenario the partner names for the analysis.
	Scenario string
	// Card is the card the proposal carried, taken out of Body (which
	// keeps it masked).
	Card Card
	// V2 marks a v2 sale (POST /venda), whose clients have no way to sign
	// (checkSignature).
	V2 bool
}

// createProposta registers a signed proposal, RECEBIDA. A proposal
// already made with the reserved number it carries is answered instead,
// replayed: a retry after a lost response.
func (s *Service) createProposta(ctx context.Context, in propostaIn) (p *Proposta, replayed bool, err error) {
	prop := wire.Obj(in.Body, "PROPOSTA")
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		o, err := s.offerFor(ctx, tx, in.By, in.Offer)
		if err != nil {
			return err
		}
		numero, existing, err := numeroFor(ctx, tx, in.By.CompanyID, o.ID, prop)
		if err != nil {
			return err
		}
		if existing != nil {
			p, replayed = existing, true
			return nil
		}
		p, err = s.receive(ctx, tx, in, o, numero)
		return err
	})
	return p, replayed, err
}

// receive checks a new proposal against the offer's rules, its billing
// and its signature, and stores it RECEBIDA with its timeline, its event
// and its scenario.
func (s *Service) receive(ctx context.Context, tx *store.Tx, in propostaIn, o *catalog.Offer, numero int64) (*Proposta, error) {
	prop := wire.Obj(in.Body, "PROPOSTA")
	now := s.NowOf(in.By.CompanyID)
	if err := proposalTypes(ctx, prop); err != nil {
		return nil, err
	}
	total, vs := underwrite(o, prop, now)
	if err := vs.Err("PROPOSTA_INVALIDA", "a proposta viola as regras do modelo de proposta"); err != nil {
		return nil, err
	}
	cpf := wire.Str(wire.Obj(prop, "DADOS_PROPONENTE"), "CPF")
	payer := Payer{CompanyID: in.By.CompanyID, CPF: cpf}
	if err := CheckBilling(ctx, tx, Billing{Offer: o, Payer: payer, Block: wire.Obj(prop, "DADOS_COBRANCA"), Prefix: "PROPOSTA.DADOS_COBRANCA",
		Premio: total, Numero: numero, Card: in.Card, Now: now}); err != nil {
		return nil, err
	}
	if err := checkSignature(ctx, tx, payer, prop, numero, now, in.V2); err != nil {
		return nil, err
	}
	p := &Proposta{Numero: numero, CompanyID: in.By.CompanyID, AppID: in.By.AppID, OfferID: o.ID, CPF: cpf, Status: Recebida,
		Total: total, Request: in.Body, CreatedAt: now, UpdatedAt: now}
	if err := insertProposta(ctx, tx, p); err != nil {
		return nil, err
	}
	if err := propostaTimeline.Add(ctx, tx, numero, wire.Entry{At: now, Status: Recebida, Usuario: in.By.ClientID, Descricao: "Proposta recebida"}); err != nil {
		return nil, err
	}
	// RECEBIDA is where the machine starts: no move emits its event.
	if err := s.Emit(ctx, tx, in.By, wire.Event{Type: "proposta.status", Name: "Status de Proposta", Subject: subjectOf(p), Key: keyOf(p),
		Data: map[string]any{"statusAnterior": nil, "statusAtual": Recebida, "statusAtualCodigo": statusCode[Recebida]}}); err != nil {
		return nil, err
	}
	return p, s.Bind(ctx, tx, scenario.Resource{Kind: "proposta", Key: wire.ID(numero), Ref: wire.ID(numero), AppID: in.By.AppID,
		Named: in.Scenario, Body: in.Body})
}

// numeroFor takes PROPOSTA.NUMERO when it is a number the company reserved
// for the offer (returning the proposal it already made, if any), or hands
// out a new one when it is absent or "0".
func numeroFor(ctx context.Context, tx *store.Tx, companyID, offerID string, prop map[string]any) (int64, *Proposta, error) {
	n, err := wire.Int(prop["NUMERO"])
	if err != nil || n == 0 {
		if _, present := prop["NUMERO"]; present && err != nil {
			return 0, nil, errs.Invalidf("PROPOSTA.NUMERO", "NUMERO deve ser \"0\" ou o número reservado")
		}
		id, err := nextNumero(ctx, tx)
		return id, nil, err
	}
	r, err := loadReservation(ctx, tx, companyID, int64(n))
	if err != nil {
		return 0, nil, err
	}
	if err := checkReservation(r, int64(n), offerID); err != nil {
		return 0, nil, err
	}
	existing, err := propostas.Of(ctx, tx, companyID, int64(n))
	return int64(n), existing, err
}

// reservation is a proposal number a company reserved for an offer.
type reservation struct{ CompanyID, OfferID string }

// checkReservation accepts number n only when the company reserved it (r
// is nil when it did not) for the offer.
func checkReservation(r *reservation, n int64, offerID string) error {
	if r == nil {
		return wire.Rule("PROPOSTA.NUMERO", "NUMERO_NAO_RESERVADO", "o número %d não foi reservado por esta empresa (POST /insurer/v1/proposals/{codigo}/next-number)", n)
	}
	if r.OfferID != offerID {
		return wire.Rule("PROPOSTA.NUMERO", "NUMERO_NAO_RESERVADO", "o número %d foi reservado para o modelo %s, não %s", n, r.OfferID, offerID)
	}
	return nil
}

// resumo is a proposal as GET /proposta/{numero} answers it.
type resumo struct {
	*Proposta
	Pendencias []map[string]any
	Inscricoes []int64
}

// resumoOf reads the company's proposal numero with its pendings and
// enrollments.
func (s *Service) resumoOf(ctx context.Context, companyID string, numero int64) (*resumo, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) (*resumo, error) {
		p, err := mustProposta(ctx, tx, companyID, numero)
		if err != nil {
			return nil, err
		}
		out := &resumo{Proposta: p}
		if out.Pendencias, err = pendenciasOf(ctx, tx, numero, ""); err != nil {
			return nil, err
		}
		out.Inscricoes, err = s.Enrollments.InscricoesOf(ctx, tx, companyID, numero)
		return out, err
	})
}

// withdraw cancels a proposal still in progress: what is still
// pending is cancelled with it, and its scenario hears cancelled.
func (s *Service) withdraw(ctx context.Context, by auth.Principal, numero int64, motivo string) error {
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		p, err := mustProposta(ctx, tx, by.CompanyID, numero)
		if err != nil {
			return err
		}
		if _, err := propostaMachine.Check(p.Status, Cancelada); err != nil {
			return wire.Rule("status", "PROPOSTA_NAO_CANCELAVEL", "a proposta %d está %s e não pode mais ser cancelada", numero, p.Status)
		}
		if err := pendencias.Close(ctx, tx, s.Machines, p.Numero, s.NowOf(p.CompanyID)); err != nil {
			return err
		}
		return s.move(ctx, tx, p, Cancelada, motivo, by.ClientID, nil, "cancelled")
	})
}

// timelineOf reads the company's proposal's timeline: every status and
// pending, oldest first.
func (s *Service) timelineOf(ctx context.Context, companyID string, numero int64) ([]map[string]any, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) ([]map[string]any, error) {
		if _, err := mustProposta(ctx, tx, companyID, numero); err != nil {
			return nil, err
		}
		pend, err := pendenciasOf(ctx, tx, numero, "")
		if err != nil {
			return nil, err
		}
		return propostaTimeline.Read(ctx, tx, numero, pend)
	})
}

// move changes a proposal's status through its machine, with its event
// (Status de Proposta, or Proposta Implantada) and a timeline entry.
func (s *Service) move(ctx context.Context, tx *store.Tx, p *Proposta, to, motivo, usuario string, extra map[string]any, trigger string) error {
	data := map[string]any{"statusAnterior": p.Status, "statusAtual": to, "statusAtualCodigo": statusCode[to]}
	if motivo != "" {
		data["motivo"] = motivo
	}
	for k, v := range extra {
		data[k] = v
	}
	now := s.NowOf(p.CompanyID)
	err := s.Move(ctx, tx, p.AppID, statemachine.Move{
		Machine: propostaMachine, From: p.Status, To: to, Subject: subjectOf(p), SubjectKey: keyOf(p), Data: data,
		Scenario: statemachine.Tell{Kind: "proposta", Key: wire.ID(p.Numero), Trigger: trigger},
		Store: func(ctx context.Context, tx *store.Tx) error {
			if err := updatePropostaStatus(ctx, tx, p.Numero, to, motivo, now); err != nil {
				return err
			}
			return propostaTimeline.Moved(ctx, tx, p.Numero, now, "Proposta", to, usuario, motivo)
		},
	})
	if err != nil {
		return err
	}
	p.Status, p.Motivo = to, motivo
	return nil
}
