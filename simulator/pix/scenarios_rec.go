package pix

import (
	"context"
	"strings"
	"time"

	"homologa/simulator/errs"
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

// recStep does a step of a recurrence; the binding's key is its idRec.
func (s *Service) recStep(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	rc, err := findRecByID(ctx, tx, b.Key)
	if err != nil {
		return "", err
	}
	if rc == nil {
		return "", errs.Errorf(errs.NotFound, "rec %s não existe mais", b.Key)
	}
	switch {
	case st.Verb == "status" && st.Status == RecAprovada:
		pag := copyStrings(doc{"ispbParticipante": PayerISPB}, sub(sub(rc.Body, "vinculo"), "devedor"), "cpf", "cnpj")
		return "approved by the payer (JORNADA_2)", s.approveRec(ctx, tx, rc, "JORNADA_2", pag)
	case st.Verb == "refuse" || st.Verb == "status" && st.Status == RecRejeitada:
		code := orString(st.Reason, "AP13")
		return "rejected " + code, s.rejectRec(ctx, tx, rc, code)
	case st.Verb == "status" && st.Status == RecCancelada:
		return "cancelled by the payer", s.cancelRec(ctx, tx, rc, "USUARIO_PAGADOR", orString(st.Reason, "ACCL"), "Cancelada pelo usuário pagador")
	case st.Verb == "status":
		return "moved to " + st.Status, s.moveRec(ctx, tx, rc, st.Status, nil)
	case st.Verb == "emit":
		return emit(ctx, s, tx, rc.CompanyID, b.AppID, doc{"idRec": rc.ID}, "rec:"+rc.ID, st)
	}
	return "", errs.Errorf(errs.Invalid, "rec não aceita o passo %s", st.Verb)
}

// solicRecStep does a step of a confirmation request; the binding's key
// is its idSolicRec.
func (s *Service) solicRecStep(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	sr, err := findSolicRecByID(ctx, tx, b.Key)
	if err != nil {
		return "", err
	}
	if sr == nil {
		return "", errs.Errorf(errs.NotFound, "solicrec %s não existe mais", b.Key)
	}
	switch st.Verb {
	case "status":
		return "moved to " + st.Status, s.moveSolicRec(ctx, tx, sr, st.Status, st.Reason)
	case "refuse":
		return "rejected", s.moveSolicRec(ctx, tx, sr, SolRejeitada, orString(st.Reason, "AP13"))
	case "emit":
		return emit(ctx, s, tx, sr.CompanyID, b.AppID, doc{"idSolicRec": sr.ID, "idRec": sr.IDRec}, "rec:"+sr.IDRec, st)
	}
	return "", errs.Errorf(errs.Invalid, "solicrec não aceita o passo %s", st.Verb)
}

// boundCobR is the recurring charge of a binding, whose key names its
// company.
func boundCobR(ctx context.Context, tx *store.Tx, b *scenario.Binding) (*cobr, error) {
	company, txid, _ := strings.Cut(b.Key, "/")
	c, err := findCobR(ctx, tx, company, txid)
	if err == nil && c == nil {
		return nil, errs.Errorf(errs.NotFound, "cobr %s não existe mais", txid)
	}
	return c, err
}

// resolveSolicRec finds the app's confirmation request named
// {"idSolicRec"} (bind, and the control API's actions).
func resolveSolicRec(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	sr, err := findSolicRecByID(ctx, tx, ref["idSolicRec"])
	if err != nil {
		return "", err
	}
	if sr == nil || sr.AppID != appID {
		return "", errs.Invalidf("idSolicRec", "o aplicativo não tem a solicitação %q", ref["idSolicRec"])
	}
	return sr.ID, nil
}

// resolveCobR finds the app's recurring charge named {"txid"}.
func resolveCobR(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	companyID, err := findAppCompany(ctx, tx, appID)
	if err != nil {
		return "", errs.Invalidf("clientId", "nenhum aplicativo %q", appID)
	}
	c, err := findCobR(ctx, tx, companyID, ref["txid"])
	if err != nil {
		return "", err
	}
	if c == nil || c.AppID != appID {
		return "", errs.Invalidf("txid", "o aplicativo não tem cobrança recorrente com txid %q", ref["txid"])
	}
	return cobrKey(c), nil
}

// cobrInstant: due is noon of the settlement date; retry noon of the
// newest attempt's date.
func (s *Service) cobrInstant(ctx context.Context, tx *store.Tx, b *scenario.Binding, name string) (time.Time, error) {
	c, err := boundCobR(ctx, tx, b)
	if err != nil {
		return time.Time{}, err
	}
	day, err := settlementDate(c.Body)
	if err != nil {
		return time.Time{}, err
	}
	if list := attempts(c.Body); name == "retry" && len(list) > 0 {
		if m, ok := list[len(list)-1].(map[string]any); ok {
			if d, err := duedate.Parse(str(m, "dataLiquidacao")); err == nil {
				day = d
			}
		}
	}
	return atBRT(day, 12, 0, 0), nil
}

// cobrStep does a step of a recurring charge.
func (s *Service) cobrStep(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	c, err := boundCobR(ctx, tx, b)
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
	return "", errs.Errorf(errs.Invalid, "cobr não aceita o passo %s", st.Verb)
}
