package pix

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// ScenarioKinds are the Pix resources scenarios drive, as data: what a
// step may do to each and what a step may wait for.
//
//   - cob, cobv: pay (the simulated payer), status REMOVIDA_PELO_PSP (the
//     PSP's own initiative), create a follow-up Pix on the charge's key
//     without txid, emit; triggers paid, revised, removed (by the
//     receiver) and refund_requested; instants expiry (cob: criacao +
//     expiracao; cobv: the end of the last payable day) and due (cobv: noon
//     in Brasília of the due date, moved to the next business day).
//   - devolucao: settle (DEVOLVIDO), fail (NAO_REALIZADO, reason →
//     motivo), status, emit.
var ScenarioKinds = scenario.Kinds{
	"cob":       chargeKind("cob", "expiry"),
	"cobv":      chargeKind("cobv", "due", "expiry"),
	"devolucao": {Name: "devolucao", Machine: refundMachine, Verbs: map[string]string{"settle": Devolvido, "fail": NaoRealizado, "status": "", "emit": ""}},
}

func chargeKind(kind string, instants ...string) scenario.Kind {
	return scenario.Kind{
		Name: kind, Machine: machines[kind], Instants: instants,
		Verbs:    map[string]string{"pay": Concluida, "status": RemovidaPeloPSP, "create": "", "emit": ""},
		Triggers: map[string]string{"paid": Concluida, "revised": Ativa, "removed": RemovidaUsuario, "refund_requested": Concluida},
	}
}

// chargeKey is a charge's key in scenario bindings: txids are unique per
// receiver only.
func chargeKey(companyID, txid string) string { return companyID + "/" + txid }

func refundKey(e2eid, id string) string { return e2eid + "/" + id }

// trigger tells the charge's scenario that something happened to it.
func (s *Service) trigger(ctx context.Context, tx *store.Tx, c *charge, name string) error {
	if s.Scenarios == nil {
		return nil
	}
	return s.Scenarios.Trigger(ctx, tx, c.Kind, chargeKey(c.CompanyID, c.TxID), name)
}

// bind starts the scenario of a new resource.
func (s *Service) bind(ctx context.Context, tx *store.Tx, r scenario.Resource) error {
	if s.Scenarios == nil {
		return nil
	}
	return s.Scenarios.Bind(ctx, tx, r)
}

// chargeRunner does the steps of cob and cobv bindings.
type chargeRunner struct{ s *Service }

// refundRunner does the steps of devolucao bindings.
type refundRunner struct{ s *Service }

// ScenarioRunners registers the runners of the Pix kinds.
func (s *Service) ScenarioRunners(e *scenario.Engine) {
	e.Handle("cob", chargeRunner{s})
	e.Handle("cobv", chargeRunner{s})
	e.Handle("devolucao", refundRunner{s})
	s.recRunners(e)
}

func (r chargeRunner) charge(ctx context.Context, tx *store.Tx, b *scenario.Binding) (*charge, error) {
	companyID, txid, _ := strings.Cut(b.Key, "/")
	c, err := loadCharge(ctx, tx, companyID, txid)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, errs.Errorf(errs.NotFound, "%s %s no longer exists", b.Kind, txid)
	}
	return c, nil
}

// Resolve finds a charge of the app by {"txid"}.
func (r chargeRunner) Resolve(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	var companyID string
	if err := tx.QueryRowContext(ctx, `SELECT company_id FROM apps WHERE id = ?`, appID).Scan(&companyID); err != nil {
		return "", errs.Invalidf("clientId", "no app %q", appID)
	}
	c, err := loadCharge(ctx, tx, companyID, ref["txid"])
	if err != nil {
		return "", err
	}
	if c == nil {
		return "", errs.Invalidf("txid", "the app has no charge with txid %q", ref["txid"])
	}
	return chargeKey(companyID, c.TxID), nil
}

func (r chargeRunner) Instant(ctx context.Context, tx *store.Tx, b *scenario.Binding, name string) (time.Time, error) {
	c, err := r.charge(ctx, tx, b)
	if err != nil {
		return time.Time{}, err
	}
	if c.Kind == "cob" {
		exp, ok := sub(c.Body, "calendario")["expiracao"].(float64)
		if !ok {
			exp = defaultExpiracao
		}
		return c.CreatedAt.Add(time.Duration(exp) * time.Second), nil
	}
	ch, vs := dueCharge(c.Body)
	if len(vs) > 0 {
		return time.Time{}, errors.New(vs[0].reason)
	}
	if name == "due" {
		d := ch.AdjustedDueDate()
		return time.Date(d.Y, d.M, d.D, 12, 0, 0, 0, brasilia), nil
	}
	d := ch.PayableUntil().AddDays(1)
	return time.Date(d.Y, d.M, d.D, 0, 0, 0, 0, brasilia).Add(-time.Second), nil
}

// Do performs one step; a refusal of the domain stops the binding.
func (r chargeRunner) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

func (r chargeRunner) do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	s := r.s
	c, err := r.charge(ctx, tx, b)
	if err != nil {
		return "", err
	}
	switch st.Verb {
	case "pay":
		var in Payment
		if err := remarshal(st.Args, &in); err != nil {
			return "", err
		}
		in.ValorDivergente = in.ValorDivergente || st.Args["divergent"] == true
		if in.ISPB == "" {
			in.ISPB = PayerISPB
		}
		p, err := s.payLoaded(ctx, tx, c, in)
		if err != nil {
			return "", err
		}
		return "paid " + str(p, "valor") + ": " + str(p, "endToEndId"), nil
	case "status":
		if c.Status != Ativa {
			return "", errs.Errorf(errs.Conflict, "charge %s is %s", c.TxID, c.Status)
		}
		if _, err := s.move(ctx, tx, c, st.Status, false); err != nil {
			return "", err
		}
		return "moved to " + st.Status, nil
	case "create":
		if res, _ := st.Args["resource"].(string); res != "pix" {
			return "", errs.Errorf(errs.Invalid, "a %s step can create a pix (a Pix on the charge's key without txid), not %q", c.Kind, res)
		}
		valor, _ := st.Args["valor"].(string)
		if valor == "" {
			valor = str(sub(c.Body, "valor"), "original")
		}
		p, err := s.credit(ctx, tx, Payment{Chave: str(c.Body, "chave"), Valor: valor, ISPB: PayerISPB})
		if err != nil {
			return "", err
		}
		return "created a Pix without txid: " + str(p, "endToEndId"), nil
	case "emit":
		return emit(ctx, s, tx, c.CompanyID, b.AppID, doc{"txid": c.TxID}, "txid:"+c.TxID, st)
	}
	return "", errs.Errorf(errs.Invalid, "%s takes no %s step", c.Kind, st.Verb)
}

func (r refundRunner) Instant(context.Context, *store.Tx, *scenario.Binding, string) (time.Time, error) {
	return time.Time{}, errors.New("a refund has no named instants")
}

// Resolve finds a refund by {"e2eid", "id"}.
func (r refundRunner) Resolve(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pix_refunds d JOIN pix_received p ON p.e2eid = d.e2eid WHERE d.e2eid = ? AND d.id = ? AND p.app_id = ?`,
		ref["e2eid"], ref["id"], appID).Scan(&n); err != nil {
		return "", err
	}
	if n == 0 {
		return "", errs.Invalidf("id", "the app has no refund %q of Pix %q", ref["id"], ref["e2eid"])
	}
	return refundKey(ref["e2eid"], ref["id"]), nil
}

// Do performs one step; a refusal of the domain stops the binding.
func (r refundRunner) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

func (r refundRunner) do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	e2eid, id, _ := strings.Cut(b.Key, "/")
	to := st.Status
	switch st.Verb {
	case "settle":
		to = Devolvido
	case "fail":
		to = NaoRealizado
	case "emit":
		var companyID string
		if err := tx.QueryRowContext(ctx, `SELECT company_id FROM pix_received WHERE e2eid = ?`, e2eid).Scan(&companyID); err != nil {
			return "", err
		}
		return emit(ctx, r.s, tx, companyID, b.AppID, doc{"endToEndId": e2eid, "id": id}, "e2eid:"+e2eid, st)
	}
	if _, err := r.s.settle(ctx, tx, e2eid, id, to, st.Reason); err != nil {
		return "", err
	}
	return "refund " + to, nil
}

// emit sends a scenario's own event to the app (webhook and stream).
func emit(ctx context.Context, s *Service, tx *store.Tx, companyID, appID string, subject doc, key string, st scenario.Step) (string, error) {
	co, err := s.company(ctx, tx, companyID)
	if err != nil {
		return "", err
	}
	typ, name, data := st.Event()
	env, err := s.Bus.Emit(ctx, tx, events.Event{AppID: appID, CNPJ: co.CNPJ, Type: typ, Name: name, Subject: subject, SubjectKey: key, Data: data})
	if err != nil {
		return "", err
	}
	return "emitted " + typ + " #" + env.ID, nil
}

func remarshal(in map[string]any, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
