package pix

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/jobs"
	"homologa/simulator/money"
	"homologa/simulator/pix/duedate"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The recurring charge statuses (SUMMARY §3.6) and its attempts' (§3.7).
const (
	CobRCriada    = "CRIADA"
	CobRAtiva     = "ATIVA"
	CobRConcluida = "CONCLUIDA"
	CobRExpirada  = "EXPIRADA"
	CobRRejeitada = "REJEITADA"
	CobRCancelada = "CANCELADA"

	TentSolicitada = "SOLICITADA"
	TentAgendada   = "AGENDADA"
	TentPaga       = "PAGA"
	TentRejeitada  = "REJEITADA"
	TentCancelada  = "CANCELADA"
	TentExpirada   = "EXPIRADA"
)

// cobrMachine is the life of a recurring charge.
var cobrMachine = &statemachine.Machine{Resource: "cobr", Table: "pix_cobrs", Initial: CobRCriada, Edges: map[string][]statemachine.Edge{
	CobRCriada: edges("pix.cobr.status", "Status de Cobrança Recorrente", CobRAtiva, CobRRejeitada, CobRCancelada),
	CobRAtiva:  edges("pix.cobr.status", "Status de Cobrança Recorrente", CobRConcluida, CobRExpirada, CobRRejeitada, CobRCancelada),
}}

// finalRejections are the attempt rejection codes that also reject the
// charge (SUMMARY §3.7); any other leaves it open for a retry.
var finalRejections = []string{"AC05", "AM09", "DENC", "DS27", "DTED", "MIDI", "MSUC", "NITX", "RC09"}

// JobExpireCobR expires a recurring charge unpaid at the end of its last
// possible settlement day.
const JobExpireCobR = "pix.cobr.expire"

// maxRetries and retryWindow are what PERMITE_3R_7D says by its name (the
// spec does not spell it out): three retries, within seven days of the
// due date.
const (
	maxRetries  = 3
	retryWindow = 7
)

var cobrAbsent = absent{typ: "CobRNaoEncontrado", format: "nenhuma cobrança recorrente com txid %v"}

type cobr struct {
	CompanyID, TxID, AppID, IDRec, Status, Vencimento string
	Body                                              doc
}

// cobrFilter is what GET /cobr filters by, beyond the common parameters.
type cobrFilter struct {
	idRec, status, convenio string
}

// validateCobR is what a recurring charge must meet against its
// recurrence (SUMMARY §3.6): an APROVADA recurrence, a due date after
// today and within the recurrence's dates, and the recurrence's fixed or
// minimum amount. It returns the due date.
func validateCobR(rc *rec, req doc, today duedate.Date) (time.Time, *violation) {
	if rc.Status != RecAprovada {
		return time.Time{}, &violation{"idRec", "a recorrência está " + rc.Status + ": só uma recorrência APROVADA é cobrada", rc.ID}
	}
	vencText := str(sub(req, "calendario"), "dataDeVencimento")
	venc, err := time.Parse(time.DateOnly, vencText)
	if err != nil {
		return venc, &violation{"calendario.dataDeVencimento", "deve ser uma data (AAAA-MM-DD)", vencText}
	}
	if !venc.After(today.Time()) {
		return venc, &violation{"calendario.dataDeVencimento", "deve ser posterior à data de hoje", vencText}
	}
	rcal := sub(rc.Body, "calendario")
	if ini, _ := time.Parse(time.DateOnly, str(rcal, "dataInicial")); venc.Before(ini) {
		return venc, &violation{"calendario.dataDeVencimento", "anterior à data inicial da recorrência " + str(rcal, "dataInicial"), venc.Format(time.DateOnly)}
	}
	if f := str(rcal, "dataFinal"); f != "" {
		if fim, _ := time.Parse(time.DateOnly, f); venc.After(fim) {
			return venc, &violation{"calendario.dataDeVencimento", "posterior à data final da recorrência " + f, venc.Format(time.DateOnly)}
		}
	}
	return venc, cobrValorRule(sub(rc.Body, "valor"), str(sub(req, "valor"), "original"))
}

// cobrValorRule: a positive amount, the recurrence's fixed valorRec, or
// not below its valorMinimoRecebedor.
func cobrValorRule(rv doc, original string) *violation {
	orig, err := money.Parse(original)
	if err != nil || orig <= 0 {
		return &violation{"valor.original", "deve ser um valor positivo com duas casas", original}
	}
	if fixed := str(rv, "valorRec"); fixed != "" {
		if want, _ := money.Parse(fixed); want != orig {
			return &violation{"valor.original", "a recorrência tem valor fixo " + fixed, original}
		}
	} else if min := str(rv, "valorMinimoRecebedor"); min != "" {
		if m, _ := money.Parse(min); orig < m {
			return &violation{"valor.original", "abaixo do valor mínimo da recorrência " + min, original}
		}
	}
	return nil
}

// cycleRule: one charge per cycle of a recurrence, among those not
// rejected or cancelled (taken are their due dates).
func cycleRule(rc *rec, venc time.Time, taken []string) *violation {
	cycle := cycleOf(rc, venc)
	for _, v := range taken {
		if t, _ := time.Parse(time.DateOnly, v); cycleOf(rc, t) == cycle {
			return &violation{"calendario.dataDeVencimento", "já existe uma cobrança deste ciclo da recorrência (vencimento " + v + ")", venc.Format(time.DateOnly)}
		}
	}
	return nil
}

// cycleOf is the index of the recurrence period a due date falls in.
func cycleOf(rc *rec, venc time.Time) int {
	ini, _ := time.Parse(time.DateOnly, str(sub(rc.Body, "calendario"), "dataInicial"))
	per := str(sub(rc.Body, "calendario"), "periodicidade")
	if per == "SEMANAL" {
		return int(venc.Sub(ini).Hours() / (24 * 7))
	}
	months := (venc.Year()-ini.Year())*12 + int(venc.Month()) - int(ini.Month())
	if venc.Day() < ini.Day() {
		months--
	}
	return months / periodMonthsRec[per]
}

// createCobR stores the charge of one cycle of an approved recurrence and
// schedules its expiry.
func (s *Service) createCobR(ctx context.Context, p auth.Principal, txid string, req doc, named string) (doc, error) {
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		if prev, err := findCobR(ctx, tx, p.CompanyID, txid); err != nil || prev != nil {
			if err == nil {
				err = invalid("CobROperacaoInvalida", violation{"txid", "o txid já identifica uma cobrança recorrente", txid})
			}
			return nil, err
		}
		// The recurrence is named in the body: an unknown one is a
		// broken field (POST /cobr declares no 404).
		rc, err := load(ctx, tx, findRec, p.CompanyID, str(req, "idRec"), absentIn("CobROperacaoInvalida", "idRec", "nenhuma recorrência %v"))
		if err != nil {
			return nil, err
		}
		now := s.nowOf(p.CompanyID)
		venc, v := validateCobR(rc, req, today(now))
		if v == nil {
			taken, err := findCobRVencimentos(ctx, tx, rc.CompanyID, rc.ID)
			if err != nil {
				return nil, err
			}
			v = cycleRule(rc, venc, taken)
		}
		if v != nil {
			return nil, invalid("CobROperacaoInvalida", *v)
		}
		co, err := findCompany(ctx, tx, p.CompanyID)
		if err != nil {
			return nil, err
		}
		c := &cobr{CompanyID: p.CompanyID, TxID: txid, AppID: p.AppID, IDRec: rc.ID, Status: CobRCriada, Vencimento: venc.Format(time.DateOnly)}
		c.Body = newCobRBody(req, c, rc, co, now)
		if err := insertCobR(ctx, tx, c, now); err != nil {
			return nil, err
		}
		if _, err := s.Jobs.Schedule(ctx, tx, JobExpireCobR, cobrExpiry(c.Body), doc{"company": c.CompanyID, "txid": txid}); err != nil {
			return nil, err
		}
		return c.Body, s.bind(ctx, tx, scenario.Resource{Kind: "cobr", Key: cobrKey(c), Ref: txid, AppID: p.AppID, Named: named, Body: req})
	})
}

// newCobRBody is CobRGerada of a new charge.
func newCobRBody(req doc, c *cobr, rc *rec, co company, now time.Time) doc {
	body := clone(req)
	body["txid"] = c.TxID
	body["status"] = CobRCriada
	rcb := sub(body, "recebedor")
	rcb["cnpj"], rcb["nome"] = co.CNPJ, co.Name
	sub(body, "calendario")["criacao"] = now.In(brasilia).Format(time.DateOnly)
	if _, ok := body["ajusteDiaUtil"]; !ok {
		body["ajusteDiaUtil"] = true
	}
	body["politicaRetentativa"] = str(rc.Body, "politicaRetentativa")
	body["atualizacao"] = []any{doc{"status": CobRCriada, "data": rfc3339(now)}}
	body["tentativas"] = []any{}
	return body
}

// cobrExpiry is the end of a charge's last settlement day: the adjusted
// due date, or seven days after it when retries are allowed.
func cobrExpiry(body doc) time.Time {
	day, _ := settlementDate(body)
	if str(body, "politicaRetentativa") == "PERMITE_3R_7D" {
		day = day.AddDays(retryWindow)
	}
	return atBRT(day, 23, 59, 59)
}

// settlementDate is the due date, moved to the next business day when the
// charge asks for it (ajusteDiaUtil, true by default).
func settlementDate(body doc) (duedate.Date, error) {
	d, err := duedate.Parse(str(sub(body, "calendario"), "dataDeVencimento"))
	if err != nil {
		return duedate.Date{}, err
	}
	if v, ok := body["ajusteDiaUtil"].(bool); !ok || v {
		return duedate.NextBusinessDay(d), nil
	}
	return d, nil
}

func cobrKey(c *cobr) string { return c.CompanyID + "/" + c.TxID }

// getCobR is GET /cobr/{txid}'s answer.
func (s *Service) getCobR(ctx context.Context, companyID, txid string) (doc, error) {
	return view(ctx, s.DB, findCobR, companyID, txid, cobrAbsent, func(_ *store.Tx, c *cobr) (doc, error) {
		return c.Body, nil
	})
}

// cancelCobR is the receiver's cancellation, refused on or after the date
// of the first settlement attempt.
func (s *Service) cancelCobR(ctx context.Context, companyID, txid string) (doc, error) {
	return change(ctx, s.DB, findCobR, companyID, txid, cobrAbsent, func(tx *store.Tx, c *cobr) (doc, error) {
		settle, _ := settlementDate(c.Body)
		if !today(s.nowOf(c.CompanyID)).Before(settle) {
			return nil, invalid("CobROperacaoInvalida", violation{"status",
				"a cobrança não pode ser cancelada na data da primeira tentativa de liquidação (" + settle.String() + ") ou depois", CobRCancelada})
		}
		return c.Body, s.moveCobR(ctx, tx, c, CobRCancelada, func(d doc) {
			closeAttempts(d, TentCancelada)
			d["encerramento"] = cancelamento("USUARIO_RECEBEDOR", "SLCR", "Cancelada a pedido do usuário recebedor")
		})
	})
}

// cancelamento is the encerramento of a cancelled rec or cobr.
func cancelamento(solicitante, codigo, descricao string) doc {
	return doc{"cancelamento": doc{"solicitante": solicitante, "codigo": codigo, "descricao": descricao}}
}

// cancelOpenCobRs cancels the charges not yet settled of a cancelled
// recurrence.
func (s *Service) cancelOpenCobRs(ctx context.Context, tx *store.Tx, rc *rec) error {
	open, err := findOpenCobRs(ctx, tx, rc.CompanyID, rc.ID)
	if err != nil {
		return err
	}
	for _, c := range open {
		if err := s.moveCobR(ctx, tx, c, CobRCancelada, func(d doc) {
			d["encerramento"] = cancelamento("PSP_RECEBEDOR", "CCLD", "Recorrência cancelada")
		}); err != nil {
			return err
		}
	}
	return nil
}

// expireCobRJob expires a charge still unpaid at the end of its last
// possible settlement day; one its payer's PSP never confirmed is
// cancelled.
func (s *Service) expireCobRJob(ctx context.Context, j jobs.Job) error {
	var p struct {
		Company string `json:"company"`
		TxID    string `json:"txid"`
	}
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		c, err := findCobR(ctx, tx, p.Company, p.TxID)
		if err != nil || c == nil || (c.Status != CobRAtiva && c.Status != CobRCriada) {
			return err
		}
		if c.Status == CobRCriada {
			return s.moveCobR(ctx, tx, c, CobRCancelada, func(d doc) {
				d["encerramento"] = cancelamento("PSP_PAGADOR", "FAIL", "Não confirmada pelo PSP do pagador")
			})
		}
		return s.moveCobR(ctx, tx, c, CobRExpirada, func(d doc) { closeAttempts(d, TentExpirada) })
	})
}

// listCobRs is GET /cobr's answer.
func (s *Service) listCobRs(ctx context.Context, companyID string, lq *listQuery, f cobrFilter) (doc, error) {
	return list(ctx, s.DB, lq, cobrListing(companyID, lq, f), "cobsr", scanJSON, nil)
}

// cobrNotification is what the /cobr callback carries for a charge.
func cobrNotification(c *cobr) doc {
	n := doc{"idRec": c.IDRec, "txid": c.TxID, "status": c.Status, "atualizacao": c.Body["atualizacao"]}
	return copyFields(n, c.Body, "encerramento", "tentativas", "pix")
}

// saveCobR writes a charge, its status included.
func (s *Service) saveCobR(ctx context.Context, tx *store.Tx, c *cobr) error {
	c.Body["status"] = c.Status
	return updateCobR(ctx, tx, c, s.nowOf(c.CompanyID))
}

// moveCobR changes the charge's status with its history and callback.
func (s *Service) moveCobR(ctx context.Context, tx *store.Tx, c *cobr, to string, change func(d doc)) error {
	if _, err := cobrMachine.Check(c.Status, to); err != nil {
		return invalid("CobROperacaoInvalida", violation{"status", "a cobrança recorrente está " + c.Status + " e não pode passar a " + to, to})
	}
	from := c.Status
	c.Status = to
	atualizacao(c.Body, to, s.nowOf(c.CompanyID))
	if change != nil {
		change(c.Body)
	}
	return s.notifyCobR(ctx, tx, c, from, to)
}

// notifyCobR sends the /cobr callback and the stream event of a change of
// a charge (from != to) or of one of its attempts (from == to).
func (s *Service) notifyCobR(ctx context.Context, tx *store.Tx, c *cobr, from, to string) error {
	co, err := findCompany(ctx, tx, c.CompanyID)
	if err != nil {
		return err
	}
	targets, err := callbackTargets(ctx, tx, c.CompanyID, "cobr", cobrNotification(c))
	if err != nil {
		return err
	}
	subject := doc{"txid": c.TxID, "idRec": c.IDRec}
	if from == to {
		// An attempt changed, the charge did not: the callback still goes
		// (the partner reconciles from it), with its own event type.
		if err := s.saveCobR(ctx, tx, c); err != nil {
			return err
		}
		_, err := s.Bus.Emit(ctx, tx, events.Event{AppID: c.AppID, CNPJ: co.CNPJ, Type: "pix.cobr.tentativa", Name: "Tentativa de Cobrança Recorrente",
			Subject: subject, SubjectKey: "rec:" + c.IDRec, Data: cobrNotification(c), Targets: targets})
		return err
	}
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: cobrMachine, From: from, To: to, AppID: c.AppID, CNPJ: co.CNPJ,
		Subject: subject, SubjectKey: "rec:" + c.IDRec, Data: cobrNotification(c), Targets: targets,
		Store: func(ctx context.Context, tx *store.Tx) error { return s.saveCobR(ctx, tx, c) },
	})
	return err
}

func attempts(d doc) []any { l, _ := d["tentativas"].([]any); return l }

// openAttempt is the attempt awaiting settlement, or nil.
func openAttempt(d doc) doc {
	for _, t := range attempts(d) {
		if m, ok := t.(map[string]any); ok && (m["status"] == TentSolicitada || m["status"] == TentAgendada) {
			return m
		}
	}
	return nil
}

// closeAttempts ends the attempts awaiting settlement in status.
func closeAttempts(d doc, status string) {
	for _, t := range attempts(d) {
		if m, ok := t.(map[string]any); ok && (m["status"] == TentSolicitada || m["status"] == TentAgendada) {
			m["status"] = status
		}
	}
}

// newAttempt is a settlement attempt scheduled for day: its payment
// instruction, and so its endToEndId, exists from the scheduling on (the
// spec requires it on every attempt).
func newAttempt(day duedate.Date, tipo, e2e string, at time.Time) doc {
	now := rfc3339(at)
	return doc{"dataLiquidacao": day.String(), "tipo": tipo, "status": TentAgendada, "endToEndId": e2e,
		"atualizacao": []any{doc{"status": TentSolicitada, "data": now}, doc{"status": TentAgendada, "data": now}}}
}

// activateCobR is the payer's PSP accepting the charge: ATIVA, with the
// first settlement attempt scheduled for the (adjusted) due date.
func (s *Service) activateCobR(ctx context.Context, tx *store.Tx, c *cobr) error {
	settle, err := settlementDate(c.Body)
	if err != nil {
		return err
	}
	at := s.nowOf(c.CompanyID)
	t := newAttempt(settle, "AGND", NewEndToEndID(s.DB.IDs, PayerISPB, at), at)
	return s.moveCobR(ctx, tx, c, CobRAtiva, func(d doc) { d["tentativas"] = append(attempts(d), t) })
}

// settleCobR pays the open attempt: PAGA, the charge CONCLUIDA, and its
// PixAutomatico in pix[].
func (s *Service) settleCobR(ctx context.Context, tx *store.Tx, c *cobr) error {
	t := openAttempt(c.Body)
	if c.Status != CobRAtiva || t == nil {
		return errs.Errorf(errs.Conflict, "a cobrança recorrente %s está %s, sem tentativa a liquidar", c.TxID, c.Status)
	}
	now := s.nowOf(c.CompanyID)
	t["status"] = TentPaga
	t["atualizacao"] = append(t["atualizacao"].([]any), doc{"status": TentPaga, "data": rfc3339(now)})
	valor := str(sub(c.Body, "valor"), "original")
	return s.moveCobR(ctx, tx, c, CobRConcluida, func(d doc) {
		d["pix"] = []any{doc{"endToEndId": str(t, "endToEndId"), "txid": c.TxID, "valor": valor, "horario": rfc3339(now),
			"componentesValor": doc{"original": doc{"valor": valor}}}}
	})
}

// rejectAttempt rejects the open attempt with a code; a final code also
// rejects the charge (SUMMARY §3.7).
func (s *Service) rejectAttempt(ctx context.Context, tx *store.Tx, c *cobr, code string) error {
	t := openAttempt(c.Body)
	if c.Status != CobRAtiva || t == nil {
		return errs.Errorf(errs.Conflict, "a cobrança recorrente %s está %s, sem tentativa a rejeitar", c.TxID, c.Status)
	}
	t["status"] = TentRejeitada
	t["rejeicao"] = doc{"codigo": code, "descricao": "Tentativa de liquidação rejeitada pelo PSP do pagador (" + code + ")"}
	t["atualizacao"] = append(t["atualizacao"].([]any), doc{"status": TentRejeitada, "data": rfc3339(s.nowOf(c.CompanyID))})
	if slices.Contains(finalRejections, code) {
		return s.moveCobR(ctx, tx, c, CobRRejeitada, func(d doc) {
			d["encerramento"] = doc{"rejeicao": doc{"codigo": code, "descricao": "Cobrança rejeitada: " + code}}
		})
	}
	return s.notifyCobR(ctx, tx, c, c.Status, c.Status)
}

// retryRule is what a retry of a charge on day must meet (SUMMARY §3.7):
// PERMITE_3R_7D, an ATIVA charge with no attempt open, a future day
// within seven days of the due date, not a day already tried, and fewer
// than three retries so far.
func retryRule(c *cobr, day, today duedate.Date) *violation {
	bad := func(reason string) *violation { return &violation{"data", reason, day.String()} }
	switch {
	case str(c.Body, "politicaRetentativa") != "PERMITE_3R_7D":
		return &violation{"politicaRetentativa", "a recorrência não permite retentativas (NAO_PERMITE)", str(c.Body, "politicaRetentativa")}
	case c.Status != CobRAtiva:
		return &violation{"status", "a cobrança está " + c.Status, c.Status}
	case openAttempt(c.Body) != nil:
		return bad("há uma tentativa ainda não concluída")
	case !day.After(today):
		return bad("a data da retentativa deve estar no futuro")
	}
	if settle, _ := settlementDate(c.Body); day.After(settle.AddDays(retryWindow)) {
		return bad("fora da janela de 7 dias após o vencimento (PERMITE_3R_7D)")
	}
	retries := 0
	for _, t := range attempts(c.Body) {
		m, _ := t.(map[string]any)
		if m["dataLiquidacao"] == day.String() {
			return bad("já existe uma tentativa para esta data")
		}
		if m["tipo"] != "AGND" {
			retries++
		}
	}
	if retries >= maxRetries {
		return bad("as 3 retentativas de PERMITE_3R_7D já foram usadas")
	}
	return nil
}

// retryCobR schedules a new settlement attempt of a rejected charge.
func (s *Service) retryCobR(ctx context.Context, companyID, txid, data string) (doc, error) {
	day, err := duedate.Parse(data)
	if err != nil {
		return nil, invalid("CobROperacaoInvalida", violation{"data", "deve ser uma data (AAAA-MM-DD)", data})
	}
	return change(ctx, s.DB, findCobR, companyID, txid, cobrAbsent, func(tx *store.Tx, c *cobr) (doc, error) {
		at := s.nowOf(c.CompanyID)
		if v := retryRule(c, day, today(at)); v != nil {
			if v.field == "data" {
				v.value = data
			}
			return nil, invalid("CobROperacaoInvalida", *v)
		}
		c.Body["tentativas"] = append(attempts(c.Body), newAttempt(day, "NTAG", NewEndToEndID(s.DB.IDs, PayerISPB, at), at))
		if err := s.notifyCobR(ctx, tx, c, c.Status, c.Status); err != nil {
			return nil, err
		}
		if s.Scenarios != nil {
			if err := s.Scenarios.Trigger(ctx, tx, "cobr", cobrKey(c), "retried"); err != nil {
				return nil, err
			}
		}
		return c.Body, nil
	})
}
