package pix

import (
	"context"
	"fmt"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/money"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The refund statuses (Devolucao.status).
const (
	EmProcessamento = "EM_PROCESSAMENTO"
	Devolvido       = "DEVOLVIDO"
	NaoRealizado    = "NAO_REALIZADO"
)

// devolucaoMachine: a refund is processed once. Its moves emit no event of
// their own; notify sends the /pix callback with the Pix and its refunds.
var devolucaoMachine = &statemachine.Machine{Resource: "devolucao", Table: "pix_refunds", Initial: EmProcessamento, Edges: map[string][]statemachine.Edge{
	EmProcessamento: edges("", "", Devolvido, NaoRealizado),
}}

// devolucaoWindow is the 90 days after the Pix in which it can be refunded.
const devolucaoWindow = 90 * 24 * time.Hour

// devolucaoRequest is a PUT /pix/{e2eid}/devolucao/{id}.
type devolucaoRequest struct {
	E2EID     string `json:"-"`
	ID        string `json:"-"`
	Named     string `json:"-"` // the scenario the partner named
	Valor     string `json:"valor"`
	Natureza  string `json:"natureza"`
	Descricao string `json:"descricao"`
}

// devolucao is a stored refund, with the receiver of its Pix.
type devolucao struct {
	E2EID, ID, Status, CompanyID string
	Body                         doc
}

// devolucaoIDRule is the id a client chooses for a refund.
func devolucaoIDRule(id string) error {
	if !devolucaoID.MatchString(id) {
		return invalid("PixDevolucaoInvalida", violation{"id", "deve ter de 1 a 35 caracteres alfanuméricos", id})
	}
	return nil
}

// createDevolucao asks for a refund of a received Pix; its scenario decides
// what happens next (by default, scenarios/devolucao-padrao.yaml,
// DEVOLVIDO 5 s later).
func (s *Service) createDevolucao(ctx context.Context, companyID string, in devolucaoRequest) (doc, error) {
	if in.Natureza == "" {
		in.Natureza = "ORIGINAL"
	}
	valor, _ := money.Parse(in.Valor)
	if valor <= 0 {
		return nil, invalid("PixDevolucaoInvalida", violation{"valor", "deve ser maior que zero", in.Valor})
	}
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		// PixNaoEncontrado is the catalogue's for GET /pix/{e2eid}
		// only: the PUT's declared 404 is the general NaoEncontrado.
		p, err := load(ctx, tx, findPix, companyID, in.E2EID, absent{typ: "NaoEncontrado", format: pixAbsent.format})
		if err != nil {
			return nil, err
		}
		taken, err := existsDevolucao(ctx, tx, in.E2EID, in.ID)
		if err != nil {
			return nil, err
		}
		done, err := sumDevolucoes(ctx, tx, in.E2EID, in.Natureza)
		if err != nil {
			return nil, err
		}
		now := s.nowOf(companyID)
		if v := devolucaoRule(p, in, valor, taken, done, now); v != nil {
			return nil, invalid("PixDevolucaoInvalida", *v)
		}
		d := devolucaoBody(in, NewRtrID(s.DB.IDs, now), now)
		if err := insertDevolucao(ctx, tx, in, valor, d, now); err != nil {
			return nil, err
		}
		return d, s.devolucaoRequested(ctx, tx, p, in)
	})
}

// devolucaoRule is what a refund must meet: an id new for its Pix, the 90
// days not over, a natureza the Pix has, and the refunds of that natureza
// (done, besides this one) within what the Pix can refund.
func devolucaoRule(p *pixRecebido, in devolucaoRequest, valor money.Cents, taken bool, done money.Cents, now time.Time) *violation {
	if taken {
		return &violation{"id", "já existe uma devolução com este id para este Pix", in.ID}
	}
	if end := p.Horario.Add(devolucaoWindow); now.After(end) {
		return &violation{"valor", "o prazo de 90 dias para devolução deste Pix terminou em " + rfc3339(end), in.Valor}
	}
	limit := devolucaoLimits(p)[in.Natureza]
	if in.Natureza == "RETIRADA" && limit == 0 {
		return &violation{"natureza", "RETIRADA só se aplica a um Pix Saque ou Pix Troco", in.Natureza}
	}
	if done+valor > limit {
		return &violation{"valor", fmt.Sprintf("a soma das devoluções (%s já pedidos + %s) excede o valor devolvível de %s (%s)",
			done, in.Valor, limit, in.Natureza), in.Valor}
	}
	return nil
}

// devolucaoLimits returns how much of each natureza a Pix can refund:
// ORIGINAL is what was paid for the purchase, RETIRADA the saque or troco.
func devolucaoLimits(p *pixRecebido) map[string]money.Cents {
	comp := sub(p.Body, "componentesValor")
	var retirada money.Cents
	for _, k := range []string{"saque", "troco"} {
		if c := sub(comp, k); c != nil {
			v, _ := money.Parse(str(c, "valor"))
			retirada += v
		}
	}
	return map[string]money.Cents{"ORIGINAL": p.Valor - retirada, "RETIRADA": retirada}
}

// devolucaoBody is a new refund as the API answers it.
func devolucaoBody(in devolucaoRequest, rtrID string, now time.Time) doc {
	d := doc{"id": in.ID, "rtrId": rtrID, "valor": in.Valor, "natureza": in.Natureza,
		"horario": doc{"solicitacao": rfc3339(now)}, "status": EmProcessamento}
	if in.Descricao != "" {
		d["descricao"] = in.Descricao
	}
	return d
}

// devolucaoRequested starts the refund's scenario and tells the scenario
// of the charge the Pix paid.
func (s *Service) devolucaoRequested(ctx context.Context, tx *store.Tx, p *pixRecebido, in devolucaoRequest) error {
	if err := s.bind(ctx, tx, scenario.Resource{Kind: "devolucao", Key: devolucaoKey(in.E2EID, in.ID), AppID: p.AppID, Named: in.Named,
		Body: doc{"valor": in.Valor, "natureza": in.Natureza, "descricao": in.Descricao}}); err != nil {
		return err
	}
	if !p.CobID.Valid {
		return nil
	}
	c, err := findChargeByID(ctx, tx, p.CompanyID, p.CobID.Int64)
	if err != nil {
		return err
	}
	return s.trigger(ctx, tx, c, "refund_requested")
}

// getDevolucao is a refund as the API answers it.
func (s *Service) getDevolucao(ctx context.Context, companyID, e2eid, id string) (doc, error) {
	// Without the Pix there is no refund of it: PixDevolucaoNaoEncontrada,
	// the catalogue's type for this operation.
	noPix := absent{typ: "PixDevolucaoNaoEncontrada", format: "nenhuma devolução " + id + ": nenhum Pix com endToEndId %v"}
	return view(ctx, s.DB, findPix, companyID, e2eid, noPix, func(tx *store.Tx, _ *pixRecebido) (doc, error) {
		d, err := findDevolucao(ctx, tx, e2eid, id)
		if err == nil && d == nil {
			return nil, notFound("PixDevolucaoNaoEncontrada", "nenhuma devolução %s do Pix %s", id, e2eid)
		}
		return d, err
	})
}

// settleDevolucao ends a refund still processing in status to, and sends
// the /pix callback; a refund already settled refuses (its machine has no
// move out of a final state). A company settles only its own refunds (its
// scenario's steps run as it); the operator any company's.
func (s *Service) settleDevolucao(ctx context.Context, tx *store.Tx, e2eid, id, to, motivo string) (doc, error) {
	dv, err := findDevolucaoByID(ctx, tx, e2eid, id)
	if err != nil {
		return nil, err
	}
	if dv == nil || !mayActOn(ctx, dv.CompanyID) {
		return nil, errs.Errorf(errs.NotFound, "nenhuma devolução %s do Pix %s", id, e2eid)
	}
	ctx = actingFor(ctx, dv.CompanyID)
	now := s.nowOf(dv.CompanyID)
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{Machine: devolucaoMachine, From: dv.Status, To: to,
		Store: func(ctx context.Context, tx *store.Tx) error {
			settled(dv.Body, to, motivo, now)
			return updateDevolucao(ctx, tx, e2eid, id, to, dv.Body)
		}})
	if err != nil {
		return nil, err
	}
	p, err := findPix(ctx, tx, dv.CompanyID, e2eid)
	if err != nil {
		return nil, err
	}
	return dv.Body, s.notify(ctx, tx, p, "pix.devolucao", "Devolução de Pix", doc{"devolucao": dv.Body})
}

// settled writes a refund's outcome into its body.
func settled(d doc, to, motivo string, now time.Time) {
	d["status"] = to
	if to == Devolvido {
		sub(d, "horario")["liquidacao"] = rfc3339(now)
	}
	if motivo != "" {
		d["motivo"] = motivo
	}
}

func devolucaoKey(e2eid, id string) string { return e2eid + "/" + id }
