package pix

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/pix/duedate"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// RecKinds are the Pix Automático resources scenarios drive, as data:
//   - rec: status APROVADA (the payer accepts the rec's QR: journey 2),
//     REJEITADA, CANCELADA (by the payer); refuse {reason: AP13|AP14}.
//   - solicrec: status ENVIADA, RECEBIDA, ACEITA (approves the rec by
//     journey 1); refuse {reason} (REJEITADA, rejects the rec).
//   - cobr: status ATIVA (the payer's PSP schedules the first attempt);
//     pay (the open attempt is paid); refuse {reason} (the open attempt is
//     rejected with a code; the final codes reject the charge); trigger
//     retried; instants due (noon of the settlement date) and retry (noon
//     of the newest attempt's date).
var RecKinds = scenario.Kinds{
	"rec": {Name: "rec", Machine: recMachine, Verbs: map[string]string{"status": "", "refuse": RecRejeitada, "emit": ""}},
	"solicrec": {Name: "solicrec", Machine: solicRecMachine, Verbs: map[string]string{"status": "", "refuse": SolRejeitada, "emit": ""},
		Triggers: map[string]string{}},
	"cobr": {Name: "cobr", Machine: cobrMachine, Verbs: map[string]string{"status": "", "pay": "", "refuse": "", "emit": ""},
		Triggers: map[string]string{"retried": CobRAtiva}, Instants: []string{"due", "retry"}},
}

type recRunner struct{ s *Service }
type solicRecRunner struct{ s *Service }
type cobrRunner struct{ s *Service }

func (s *Service) recRunners(e *scenario.Engine) {
	e.Handle("rec", recRunner{s})
	e.Handle("solicrec", solicRecRunner{s})
	e.Handle("cobr", cobrRunner{s})
}

func (r recRunner) Instant(context.Context, *store.Tx, *scenario.Binding, string) (time.Time, error) {
	return time.Time{}, errNoInstant
}

// Do performs one step; a refusal of the domain stops the binding.
func (r recRunner) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

func (r recRunner) do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	s := r.s
	rc, err := loadRec(ctx, tx, "", b.Key)
	if err != nil {
		return "", err
	}
	if rc == nil {
		return "", errs.Errorf(errs.NotFound, "rec %s no longer exists", b.Key)
	}
	switch {
	case st.Verb == "status" && st.Status == RecAprovada:
		dev := sub(sub(rc.Body, "vinculo"), "devedor")
		pag := doc{"ispbParticipante": PayerISPB}
		for _, k := range []string{"cpf", "cnpj"} {
			if v := str(dev, k); v != "" {
				pag[k] = v
			}
		}
		return "approved by the payer (JORNADA_2)", s.approveRec(ctx, tx, rc, "JORNADA_2", pag)
	case st.Verb == "refuse" || st.Verb == "status" && st.Status == RecRejeitada:
		code := orString(st.Reason, "AP13")
		return "rejected " + code, s.moveRec(ctx, tx, rc, RecRejeitada, func(d doc) {
			d["encerramento"] = doc{"rejeicao": doc{"codigo": code, "descricao": rejectionText(code)}}
		})
	case st.Verb == "status" && st.Status == RecCancelada:
		code := orString(st.Reason, "ACCL")
		if err := s.moveRec(ctx, tx, rc, RecCancelada, func(d doc) {
			d["encerramento"] = doc{"cancelamento": doc{"solicitante": "USUARIO_PAGADOR", "codigo": code, "descricao": "Cancelada pelo usuário pagador"}}
		}); err != nil {
			return "", err
		}
		return "cancelled by the payer", s.cancelOpenCobRs(ctx, tx, rc)
	case st.Verb == "status":
		return "moved to " + st.Status, s.moveRec(ctx, tx, rc, st.Status, nil)
	case st.Verb == "emit":
		return emit(ctx, s, tx, rc.CompanyID, b.AppID, doc{"idRec": rc.ID}, "rec:"+rc.ID, st)
	}
	return "", errs.Errorf(errs.Invalid, "rec takes no %s step", st.Verb)
}

func (r solicRecRunner) Instant(context.Context, *store.Tx, *scenario.Binding, string) (time.Time, error) {
	return time.Time{}, errNoInstant
}

// Do performs one step; a refusal of the domain stops the binding.
func (r solicRecRunner) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

func (r solicRecRunner) do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	sr, err := loadSolicRec(ctx, tx, "", b.Key)
	if err != nil {
		return "", err
	}
	if sr == nil {
		return "", errs.Errorf(errs.NotFound, "solicrec %s no longer exists", b.Key)
	}
	switch st.Verb {
	case "status":
		return "moved to " + st.Status, r.s.moveSolicRec(ctx, tx, sr, st.Status, st.Reason)
	case "refuse":
		return "rejected", r.s.moveSolicRec(ctx, tx, sr, SolRejeitada, orString(st.Reason, "AP13"))
	case "emit":
		return emit(ctx, r.s, tx, sr.CompanyID, b.AppID, doc{"idSolicRec": sr.ID, "idRec": sr.IDRec}, "rec:"+sr.IDRec, st)
	}
	return "", errs.Errorf(errs.Invalid, "solicrec takes no %s step", st.Verb)
}

func (r cobrRunner) load(ctx context.Context, tx *store.Tx, b *scenario.Binding) (*cobr, error) {
	company, txid, _ := strings.Cut(b.Key, "/")
	c, err := loadCobR(ctx, tx, company, txid)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, errs.Errorf(errs.NotFound, "cobr %s no longer exists", txid)
	}
	return c, nil
}

func (r cobrRunner) Instant(ctx context.Context, tx *store.Tx, b *scenario.Binding, name string) (time.Time, error) {
	c, err := r.load(ctx, tx, b)
	if err != nil {
		return time.Time{}, err
	}
	day, err := settlementDate(c.Body)
	if err != nil {
		return time.Time{}, err
	}
	if name == "retry" {
		list := attempts(c.Body)
		if len(list) > 0 {
			if m, ok := list[len(list)-1].(map[string]any); ok {
				if d, err := parseDay(str(m, "dataLiquidacao")); err == nil {
					day = d
				}
			}
		}
	}
	return noonBRT(day), nil
}

// Do performs one step; a refusal of the domain stops the binding.
func (r cobrRunner) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

func (r cobrRunner) do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	s := r.s
	c, err := r.load(ctx, tx, b)
	if err != nil {
		return "", err
	}
	switch st.Verb {
	case "status":
		if st.Status == CobRAtiva {
			return "activated; first attempt scheduled", s.activateCobR(ctx, tx, c)
		}
		return "moved to " + st.Status, s.moveCobR(ctx, tx, c, st.Status, nil)
	case "pay":
		return "paid", s.settleCobR(ctx, tx, c)
	case "refuse":
		code := orString(st.Reason, "AM02")
		return "attempt rejected " + code, s.rejectAttempt(ctx, tx, c, code)
	case "emit":
		return emit(ctx, s, tx, c.CompanyID, b.AppID, doc{"txid": c.TxID, "idRec": c.IDRec}, "rec:"+c.IDRec, st)
	}
	return "", errs.Errorf(errs.Invalid, "cobr takes no %s step", st.Verb)
}

func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// approveByPayment authorises a CRIADA recurrence whose journey names the
// charge just paid (the composite QR of journeys 3 and 4).
func (s *Service) approveByPayment(ctx context.Context, tx *store.Tx, c *charge, in Payment) error {
	rows, err := tx.QueryContext(ctx, `SELECT id_rec, body FROM pix_recs WHERE company_id = ? AND status = ?`, c.CompanyID, RecCriada)
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id, body string
		rows.Scan(&id, &body)
		if strings.Contains(body, `"txid":"`+c.TxID+`"`) {
			ids = append(ids, id)
		}
	}
	rows.Close()
	for _, id := range ids {
		rc, err := loadRec(ctx, tx, c.CompanyID, id)
		if err != nil || rc == nil {
			return err
		}
		if str(sub(sub(rc.Body, "ativacao"), "dadosJornada"), "txid") != c.TxID {
			continue
		}
		// The payer is who paid, or else the debtor the recurrence names.
		pag := doc{"ispbParticipante": in.ISPB}
		dev := sub(sub(rc.Body, "vinculo"), "devedor")
		switch {
		case in.Pagador != nil && in.Pagador.CPF != "":
			pag["cpf"] = in.Pagador.CPF
		case in.Pagador != nil && in.Pagador.CNPJ != "":
			pag["cnpj"] = in.Pagador.CNPJ
		case str(dev, "cpf") != "":
			pag["cpf"] = str(dev, "cpf")
		default:
			pag["cnpj"] = str(dev, "cnpj")
		}
		jornada := map[string]string{"cob": "JORNADA_3", "cobv": "JORNADA_4"}[c.Kind]
		if err := s.approveRec(ctx, tx, rc, jornada, pag); err != nil {
			return err
		}
	}
	return nil
}

// payerActsOnRec is POST /sandbox/pix/rec/{idRec}/{aprovar|rejeitar|
// cancelar} {"codigo"}: the payer, through its PSP, answers the rec's QR
// (journey 2) or cancels an approved recurrence.
func (s *Service) payerActsOnRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in struct {
		Codigo string `json:"codigo"`
	}
	if body, _ := httpx.ReadBody(r, 0); len(strings.TrimSpace(string(body))) > 0 {
		if err := httpx.DecodeJSONBytes(body, nil, "", &in); err != nil {
			return nil, err
		}
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		rc, err := loadRec(ctx, tx, "", mux.Vars(r)["idRec"])
		if err != nil {
			return err
		}
		if rc == nil {
			return errs.Errorf(errs.NotFound, "no recurrence %s", mux.Vars(r)["idRec"])
		}
		step := scenario.Step{Verb: "status", Reason: in.Codigo}
		switch mux.Vars(r)["acao"] {
		case "aprovar":
			step.Status = RecAprovada
		case "rejeitar":
			step.Status = RecRejeitada
		case "cancelar":
			step.Status = RecCancelada
		}
		if _, err := (recRunner{s}).Do(ctx, tx, &scenario.Binding{Key: rc.ID, AppID: rc.AppID}, step); err != nil {
			return err
		}
		out, err = s.recCompleta(ctx, tx, rc)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// payerActsOnCobR is POST /sandbox/pix/cobr/{txid}/{pagar|rejeitar}
// {"codigo"}: the payer's PSP settles or rejects the open attempt now.
func (s *Service) payerActsOnCobR(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in struct {
		Codigo string `json:"codigo"`
	}
	if body, _ := httpx.ReadBody(r, 0); len(strings.TrimSpace(string(body))) > 0 {
		if err := httpx.DecodeJSONBytes(body, nil, "", &in); err != nil {
			return nil, err
		}
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		var company string
		if err := tx.QueryRowContext(ctx, `SELECT company_id FROM pix_cobrs WHERE txid = ?`, mux.Vars(r)["txid"]).Scan(&company); err != nil {
			return errs.Errorf(errs.NotFound, "no recurring charge %s", mux.Vars(r)["txid"])
		}
		b := &scenario.Binding{Key: company + "/" + mux.Vars(r)["txid"]}
		step := scenario.Step{Verb: "pay"}
		if mux.Vars(r)["acao"] == "rejeitar" {
			step = scenario.Step{Verb: "refuse", Reason: in.Codigo}
		}
		if _, err := (cobrRunner{s}).Do(ctx, tx, b, step); err != nil {
			return err
		}
		c, err := loadCobR(ctx, tx, company, mux.Vars(r)["txid"])
		if c != nil {
			out = c.Body
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

var errNoInstant = errors.New("this resource has no named instants")

func parseDay(s string) (duedate.Date, error) { return duedate.Parse(s) }

// noonBRT is noon in Brasília of a date: when a payer's PSP settles.
func noonBRT(d duedate.Date) time.Time { return time.Date(d.Y, d.M, d.D, 12, 0, 0, 0, brasilia) }
