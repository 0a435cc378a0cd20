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
	"devolucao": {Name: "devolucao", Machine: devolucaoMachine, Verbs: map[string]string{"settle": Devolvido, "fail": NaoRealizado, "status": "", "emit": ""}},
}

func chargeKind(kind string, instants ...string) scenario.Kind {
	return scenario.Kind{
		Name: kind, Machine: machines[kind], Instants: instants,
		Verbs:    map[string]string{"pay": Concluida, "status": RemovidaPeloPSP, "create": "", "emit": ""},
		Triggers: map[string]string{"paid": Concluida, "revised": Ativa, "removed": RemovidaUsuario, "refund_requested": Concluida},
	}
}

// errNoInstant is the answer of a kind that declares no named instants.
var errNoInstant = errors.New("este recurso não tem instantes nomeados")

type (
	stepFunc    func(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error)
	instantFunc func(ctx context.Context, tx *store.Tx, b *scenario.Binding, name string) (time.Time, error)
	resolveFunc func(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error)
)

// runner is the scenario.Runner of a Pix kind: its steps, and its named
// instants (nil when it has none).
type runner struct {
	do      stepFunc
	instant instantFunc
}

// Do performs one step; a refusal of the domain stops the binding.
func (r runner) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

// Instant returns a named instant of the resource.
func (r runner) Instant(ctx context.Context, tx *store.Tx, b *scenario.Binding, name string) (time.Time, error) {
	if r.instant == nil {
		return time.Time{}, errNoInstant
	}
	return r.instant(ctx, tx, b, name)
}

// resolvingRunner is a runner whose resources the control API can name.
type resolvingRunner struct {
	runner
	resolve resolveFunc
}

// Resolve finds the key of a resource the user names.
func (r resolvingRunner) Resolve(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	return r.resolve(ctx, tx, appID, ref)
}

// ScenarioRunners registers the runners of the Pix kinds.
func (s *Service) ScenarioRunners(e *scenario.Engine) {
	charges := resolvingRunner{runner{s.chargeStep, s.chargeInstant}, s.resolveCharge}
	e.Handle("cob", charges)
	e.Handle("cobv", charges)
	e.Handle("devolucao", resolvingRunner{runner{do: s.devolucaoStep}, s.resolveDevolucao})
	e.Handle("rec", runner{do: s.recStep})
	e.Handle("solicrec", resolvingRunner{runner{do: s.solicRecStep}, resolveSolicRec})
	e.Handle("cobr", resolvingRunner{runner{s.cobrStep, s.cobrInstant}, resolveCobR})
}

// chargeKey is a charge's key in scenario bindings: txids are unique per
// receiver only.
func chargeKey(companyID, txid string) string { return companyID + "/" + txid }

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

// boundCharge is the charge of a binding, whose key names its company.
func boundCharge(ctx context.Context, tx *store.Tx, b *scenario.Binding) (*charge, error) {
	companyID, txid, _ := strings.Cut(b.Key, "/")
	c, err := findCharge(ctx, tx, companyID, txid)
	if err == nil && c == nil {
		return nil, errs.Errorf(errs.NotFound, "%s %s não existe mais", b.Kind, txid)
	}
	return c, err
}

// resolveCharge finds a charge of the app by {"txid"}.
func (s *Service) resolveCharge(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	companyID, err := findAppCompany(ctx, tx, appID)
	if err != nil {
		return "", errs.Invalidf("clientId", "nenhum aplicativo %q", appID)
	}
	c, err := findCharge(ctx, tx, companyID, ref["txid"])
	if err != nil {
		return "", err
	}
	if c == nil {
		return "", errs.Invalidf("txid", "o aplicativo não tem cobrança com txid %q", ref["txid"])
	}
	return chargeKey(companyID, c.TxID), nil
}

// chargeInstant: a cob's expiry; a cobv's due (noon of the adjusted due
// date) and expiry (the end of its last payable day).
func (s *Service) chargeInstant(ctx context.Context, tx *store.Tx, b *scenario.Binding, name string) (time.Time, error) {
	c, err := boundCharge(ctx, tx, b)
	if err != nil {
		return time.Time{}, err
	}
	if c.Kind == "cob" {
		return expiry(c)
	}
	ch, vs := dueCharge(c.Body)
	if len(vs) > 0 {
		return time.Time{}, errors.New(vs[0].reason)
	}
	if name == "due" {
		return atBRT(ch.AdjustedDueDate(), 12, 0, 0), nil
	}
	return atBRT(ch.PayableUntil().AddDays(1), 0, 0, 0).Add(-time.Second), nil
}

// chargeStep does a step of a cob or cobv.
func (s *Service) chargeStep(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	c, err := boundCharge(ctx, tx, b)
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
		in.ISPB = orString(in.ISPB, PayerISPB)
		p, err := s.payLoaded(ctx, tx, c, in)
		if err != nil {
			return "", err
		}
		return "paid " + str(p, "valor") + ": " + str(p, "endToEndId"), nil
	case "status":
		if c.Status != Ativa {
			return "", errs.Errorf(errs.Conflict, "a cobrança %s está %s", c.TxID, c.Status)
		}
		if _, err := s.move(ctx, tx, c, st.Status, false, ""); err != nil {
			return "", err
		}
		return "moved to " + st.Status, nil
	case "create":
		return s.followUpPix(ctx, tx, c, st)
	case "emit":
		return emit(ctx, s, tx, c.CompanyID, b.AppID, doc{"txid": c.TxID}, "txid:"+c.TxID, st)
	}
	return "", errs.Errorf(errs.Invalid, "%s não aceita o passo %s", c.Kind, st.Verb)
}

// followUpPix credits a Pix without txid on a charge's key.
func (s *Service) followUpPix(ctx context.Context, tx *store.Tx, c *charge, st scenario.Step) (string, error) {
	if res, _ := st.Args["resource"].(string); res != "pix" {
		return "", errs.Errorf(errs.Invalid, "um passo de %s pode criar um pix (um Pix na chave da cobrança, sem txid), não %q", c.Kind, res)
	}
	valor, _ := st.Args["valor"].(string)
	p, err := s.credit(ctx, tx, Payment{Chave: str(c.Body, "chave"), Valor: orString(valor, str(sub(c.Body, "valor"), "original")), ISPB: PayerISPB})
	if err != nil {
		return "", err
	}
	return "created a Pix without txid: " + str(p, "endToEndId"), nil
}

// resolveDevolucao finds a refund of the app by {"e2eid", "id"}.
func (s *Service) resolveDevolucao(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	ok, err := existsDevolucaoOfApp(ctx, tx, appID, ref["e2eid"], ref["id"])
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errs.Invalidf("id", "o aplicativo não tem a devolução %q do Pix %q", ref["id"], ref["e2eid"])
	}
	return devolucaoKey(ref["e2eid"], ref["id"]), nil
}

// devolucaoStep does a step of a refund.
func (s *Service) devolucaoStep(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	e2eid, id, _ := strings.Cut(b.Key, "/")
	to := st.Status
	switch st.Verb {
	case "settle":
		to = Devolvido
	case "fail":
		to = NaoRealizado
	case "emit":
		companyID, err := findPixCompany(ctx, tx, e2eid)
		if err != nil {
			return "", err
		}
		return emit(ctx, s, tx, companyID, b.AppID, doc{"endToEndId": e2eid, "id": id}, "e2eid:"+e2eid, st)
	}
	if _, err := s.settleDevolucao(ctx, tx, e2eid, id, to, st.Reason); err != nil {
		return "", err
	}
	return "refund " + to, nil
}

// emit sends a scenario's own event to the app (webhook and stream).
func emit(ctx context.Context, s *Service, tx *store.Tx, companyID, appID string, subject doc, key string, st scenario.Step) (string, error) {
	co, err := findCompany(ctx, tx, companyID)
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
