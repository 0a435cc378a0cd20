package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/jobs"
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

func cobrEdge(to string) statemachine.Edge {
	return statemachine.Edge{To: to, Type: "pix.cobr.status", Name: "Status de Cobrança Recorrente"}
}

var cobrMachine = &statemachine.Machine{
	Resource: "cobr",
	Table:    "pix_cobrs",
	Initial:  CobRCriada,
	Edges: map[string][]statemachine.Edge{
		CobRCriada: {cobrEdge(CobRAtiva), cobrEdge(CobRRejeitada), cobrEdge(CobRCancelada)},
		CobRAtiva:  {cobrEdge(CobRConcluida), cobrEdge(CobRExpirada), cobrEdge(CobRRejeitada), cobrEdge(CobRCancelada)},
	},
}

// finalRejections are the attempt rejection codes that also reject the
// charge (SUMMARY §3.7); any other leaves it open for a retry.
var finalRejections = []string{"AC05", "AM09", "DENC", "DS27", "DTED", "MIDI", "MSUC", "NITX", "RC09"}

// Job kinds of recurring charges.
const JobExpireCobR = "pix.cobr.expire"

// maxRetries and retryWindow are what PERMITE_3R_7D says by its name (the
// spec does not spell it out): three retries, within seven days of the
// due date.
const (
	maxRetries  = 3
	retryWindow = 7
)

type cobr struct {
	CompanyID, TxID, AppID, IDRec, Status, Vencimento string
	Body                                              doc
}

func loadCobR(ctx context.Context, tx *store.Tx, companyID, txid string) (*cobr, error) {
	var c cobr
	var body string
	err := tx.QueryRowContext(ctx, `SELECT company_id, txid, app_id, id_rec, status, vencimento, body FROM pix_cobrs WHERE company_id = ? AND txid = ?`,
		companyID, txid).Scan(&c.CompanyID, &c.TxID, &c.AppID, &c.IDRec, &c.Status, &c.Vencimento, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &c, json.Unmarshal([]byte(body), &c.Body)
}

func (s *Service) saveCobR(ctx context.Context, tx *store.Tx, c *cobr) error {
	c.Body["status"] = c.Status
	_, err := tx.ExecContext(ctx, `UPDATE pix_cobrs SET status = ?, body = ?, updated_at = ? WHERE company_id = ? AND txid = ?`,
		c.Status, marshal(c.Body), s.Clock.Now().UnixNano(), c.CompanyID, c.TxID)
	return err
}

// cobrNotification is what the /cobr callback carries for a charge.
func cobrNotification(c *cobr) doc {
	n := doc{"idRec": c.IDRec, "txid": c.TxID, "status": c.Status, "atualizacao": c.Body["atualizacao"]}
	for _, k := range []string{"encerramento", "tentativas", "pix"} {
		if v, ok := c.Body[k]; ok {
			n[k] = v
		}
	}
	return n
}

// notifyCobR sends the /cobr callback and the stream event of a change of
// a charge (from != to) or of one of its attempts (from == to).
func (s *Service) notifyCobR(ctx context.Context, tx *store.Tx, c *cobr, from, to string) error {
	co, err := s.company(ctx, tx, c.CompanyID)
	if err != nil {
		return err
	}
	targets, err := callbackTargets(ctx, tx, c.CompanyID, "cobr", cobrNotification(c))
	if err != nil {
		return err
	}
	if from == to {
		// An attempt changed, the charge did not: the callback still goes
		// (the partner reconciles from it), with its own event type.
		if err := s.saveCobR(ctx, tx, c); err != nil {
			return err
		}
		_, err := s.Bus.Emit(ctx, tx, eventCobR(c, co.CNPJ, "pix.cobr.tentativa", "Tentativa de Cobrança Recorrente", targets))
		return err
	}
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: cobrMachine, From: from, To: to, AppID: c.AppID, CNPJ: co.CNPJ,
		Subject: doc{"txid": c.TxID, "idRec": c.IDRec}, SubjectKey: "rec:" + c.IDRec, Data: cobrNotification(c), Targets: targets,
		Store: func(ctx context.Context, tx *store.Tx) error { return s.saveCobR(ctx, tx, c) },
	})
	return err
}

func eventCobR(c *cobr, cnpj, typ, name string, targets []events.Target) events.Event {
	return events.Event{AppID: c.AppID, CNPJ: cnpj, Type: typ, Name: name, Subject: doc{"txid": c.TxID, "idRec": c.IDRec},
		SubjectKey: "rec:" + c.IDRec, Data: cobrNotification(c), Targets: targets}
}

// moveCobR changes the charge's status with its history and callback.
func (s *Service) moveCobR(ctx context.Context, tx *store.Tx, c *cobr, to string, change func(d doc)) error {
	if _, err := cobrMachine.Check(c.Status, to); err != nil {
		return invalid("CobROperacaoInvalida", violation{"status", "a cobrança recorrente está " + c.Status + " e não pode passar a " + to, to})
	}
	from := c.Status
	c.Status = to
	atualizacao(c.Body, to, s.Clock.Now())
	if change != nil {
		change(c.Body)
	}
	return s.notifyCobR(ctx, tx, c, from, to)
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

// putCobR is PUT /cobr/{txid}; postCobR is POST /cobr (the PSP makes the
// txid). The charge of one cycle of an approved recurrence.
func (s *Service) putCobR(r *http.Request) (*httpx.Reply, error) {
	txid := mux.Vars(r)["txid"]
	if !txidCreate.MatchString(txid) {
		return nil, invalid("CobROperacaoInvalida", violation{"txid", "deve ter de 26 a 35 caracteres alfanuméricos ([a-zA-Z0-9]{26,35})", txid})
	}
	return s.createCobR(r, txid)
}

func (s *Service) postCobR(r *http.Request) (*httpx.Reply, error) {
	return s.createCobR(r, NewTxID(s.DB.IDs))
}

func (s *Service) createCobR(r *http.Request, txid string) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	var req doc
	if err := decode(r, s.Schemas, "pix/cobr.request", "", "CobROperacaoInvalida", &req); err != nil {
		return nil, err
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		if prev, err := loadCobR(ctx, tx, p.CompanyID, txid); err != nil {
			return err
		} else if prev != nil {
			return invalid("CobROperacaoInvalida", violation{"txid", "o txid já identifica uma cobrança recorrente", txid})
		}
		idRec := str(req, "idRec")
		rc, err := loadRec(ctx, tx, p.CompanyID, idRec)
		if err != nil {
			return err
		}
		if rc == nil {
			return notFound("RecNaoEncontrado", "nenhuma recorrência %s", idRec)
		}
		if rc.Status != RecAprovada {
			return invalid("CobROperacaoInvalida", violation{"idRec", "a recorrência está " + rc.Status + ": só uma recorrência APROVADA é cobrada", idRec})
		}
		venc, err := time.Parse(time.DateOnly, str(sub(req, "calendario"), "dataDeVencimento"))
		if err != nil {
			return invalid("CobROperacaoInvalida", violation{"calendario.dataDeVencimento", "deve ser uma data (AAAA-MM-DD)", str(sub(req, "calendario"), "dataDeVencimento")})
		}
		now := s.Clock.Now()
		if !venc.After(today(now).Time()) {
			return invalid("CobROperacaoInvalida", violation{"calendario.dataDeVencimento", "deve ser posterior à data de hoje", str(sub(req, "calendario"), "dataDeVencimento")})
		}
		rcal := sub(rc.Body, "calendario")
		if ini, _ := time.Parse(time.DateOnly, str(rcal, "dataInicial")); venc.Before(ini) {
			return invalid("CobROperacaoInvalida", violation{"calendario.dataDeVencimento", "anterior à data inicial da recorrência " + str(rcal, "dataInicial"), venc.Format(time.DateOnly)})
		}
		if f := str(rcal, "dataFinal"); f != "" {
			if fim, _ := time.Parse(time.DateOnly, f); venc.After(fim) {
				return invalid("CobROperacaoInvalida", violation{"calendario.dataDeVencimento", "posterior à data final da recorrência " + f, venc.Format(time.DateOnly)})
			}
		}
		orig, err := parseCents(str(sub(req, "valor"), "original"))
		if err != nil || orig <= 0 {
			return invalid("CobROperacaoInvalida", violation{"valor.original", "deve ser um valor positivo com duas casas", str(sub(req, "valor"), "original")})
		}
		rv := sub(rc.Body, "valor")
		if fixed := str(rv, "valorRec"); fixed != "" {
			if want, _ := parseCents(fixed); want != orig {
				return invalid("CobROperacaoInvalida", violation{"valor.original", "a recorrência tem valor fixo " + fixed, str(sub(req, "valor"), "original")})
			}
		} else if min := str(rv, "valorMinimoRecebedor"); min != "" {
			if m, _ := parseCents(min); orig < m {
				return invalid("CobROperacaoInvalida", violation{"valor.original", "abaixo do valor mínimo da recorrência " + min, str(sub(req, "valor"), "original")})
			}
		}
		cycle := cycleOf(rc, venc)
		rows, err := tx.QueryContext(ctx, `SELECT vencimento FROM pix_cobrs WHERE id_rec = ? AND status NOT IN (?, ?)`, idRec, CobRRejeitada, CobRCancelada)
		if err != nil {
			return err
		}
		for rows.Next() {
			var v string
			rows.Scan(&v)
			if t, _ := time.Parse(time.DateOnly, v); cycleOf(rc, t) == cycle {
				rows.Close()
				return invalid("CobROperacaoInvalida", violation{"calendario.dataDeVencimento", "já existe uma cobrança deste ciclo da recorrência (vencimento " + v + ")", venc.Format(time.DateOnly)})
			}
		}
		rows.Close()
		body := clone(req)
		body["txid"] = txid
		body["status"] = CobRCriada
		co, err := s.company(ctx, tx, p.CompanyID)
		if err != nil {
			return err
		}
		rcb := sub(body, "recebedor")
		rcb["cnpj"], rcb["nome"] = co.CNPJ, co.Name
		cal := sub(body, "calendario")
		cal["criacao"] = now.In(brasilia).Format(time.DateOnly)
		if _, ok := body["ajusteDiaUtil"]; !ok {
			body["ajusteDiaUtil"] = true
		}
		body["politicaRetentativa"] = str(rc.Body, "politicaRetentativa")
		body["atualizacao"] = []any{doc{"status": CobRCriada, "data": rfc3339(now)}}
		body["tentativas"] = []any{}
		if _, err := tx.ExecContext(ctx, `INSERT INTO pix_cobrs (company_id, txid, app_id, id_rec, status, vencimento, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.CompanyID, txid, p.AppID, idRec, CobRCriada, venc.Format(time.DateOnly), marshal(body), now.UnixNano(), now.UnixNano()); err != nil {
			return err
		}
		c := &cobr{CompanyID: p.CompanyID, TxID: txid, AppID: p.AppID, IDRec: idRec, Status: CobRCriada, Vencimento: venc.Format(time.DateOnly), Body: body}
		settle, _ := settlementDate(body)
		expires := settle
		if str(rc.Body, "politicaRetentativa") == "PERMITE_3R_7D" {
			expires = settle.AddDays(retryWindow)
		}
		exp := time.Date(expires.Y, expires.M, expires.D, 23, 59, 59, 0, brasilia)
		if _, err := s.Jobs.Schedule(ctx, tx, JobExpireCobR, exp, doc{"company": c.CompanyID, "txid": txid}); err != nil {
			return err
		}
		if err := s.bind(ctx, tx, scenario.Resource{Kind: "cobr", Key: c.CompanyID + "/" + txid, Ref: txid, AppID: p.AppID, Named: r.Header.Get(scenario.Header), Body: req}); err != nil {
			return err
		}
		out = body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(out), nil
}

// activateCobR is the payer's PSP accepting the charge: ATIVA, with the
// first settlement attempt scheduled for the (adjusted) due date.
func (s *Service) activateCobR(ctx context.Context, tx *store.Tx, c *cobr) error {
	settle, err := settlementDate(c.Body)
	if err != nil {
		return err
	}
	at := s.Clock.Now()
	now := rfc3339(at)
	// The payment instruction, and so its endToEndId, exists from the
	// scheduling on (the spec requires it on every attempt).
	e2e := NewEndToEndID(s.DB.IDs, PayerISPB, at)
	return s.moveCobR(ctx, tx, c, CobRAtiva, func(d doc) {
		t := doc{"dataLiquidacao": settle.String(), "tipo": "AGND", "status": TentAgendada, "endToEndId": e2e,
			"atualizacao": []any{doc{"status": TentSolicitada, "data": now}, doc{"status": TentAgendada, "data": now}}}
		d["tentativas"] = append(attempts(d), t)
	})
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

// settleCobR pays the open attempt: PAGA, the charge CONCLUIDA, and its
// PixAutomatico in pix[].
func (s *Service) settleCobR(ctx context.Context, tx *store.Tx, c *cobr) error {
	t := openAttempt(c.Body)
	if c.Status != CobRAtiva || t == nil {
		return errs.Errorf(errs.Conflict, "cobr %s is %s with no attempt to settle", c.TxID, c.Status)
	}
	now := s.Clock.Now()
	e2e := str(t, "endToEndId")
	t["status"] = TentPaga
	t["atualizacao"] = append(t["atualizacao"].([]any), doc{"status": TentPaga, "data": rfc3339(now)})
	valor := str(sub(c.Body, "valor"), "original")
	return s.moveCobR(ctx, tx, c, CobRConcluida, func(d doc) {
		d["pix"] = []any{doc{"endToEndId": e2e, "txid": c.TxID, "valor": valor, "horario": rfc3339(now), "componentesValor": doc{"original": doc{"valor": valor}}}}
	})
}

// rejectAttempt rejects the open attempt with a code; a final code also
// rejects the charge (SUMMARY §3.7).
func (s *Service) rejectAttempt(ctx context.Context, tx *store.Tx, c *cobr, code string) error {
	t := openAttempt(c.Body)
	if c.Status != CobRAtiva || t == nil {
		return errs.Errorf(errs.Conflict, "cobr %s is %s with no attempt to reject", c.TxID, c.Status)
	}
	now := rfc3339(s.Clock.Now())
	t["status"] = TentRejeitada
	t["rejeicao"] = doc{"codigo": code, "descricao": "Tentativa de liquidação rejeitada pelo PSP do pagador (" + code + ")"}
	t["atualizacao"] = append(t["atualizacao"].([]any), doc{"status": TentRejeitada, "data": now})
	if slices.Contains(finalRejections, code) {
		return s.moveCobR(ctx, tx, c, CobRRejeitada, func(d doc) {
			d["encerramento"] = doc{"rejeicao": doc{"codigo": code, "descricao": "Cobrança rejeitada: " + code}}
		})
	}
	return s.notifyCobR(ctx, tx, c, c.Status, c.Status)
}

// retryCobR is POST /cobr/{txid}/retentativa/{data} (SUMMARY §3.7 rules).
func (s *Service) retryCobR(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	data := mux.Vars(r)["data"]
	day, err := duedate.Parse(data)
	if err != nil {
		return nil, invalid("CobROperacaoInvalida", violation{"data", "deve ser uma data (AAAA-MM-DD)", data})
	}
	var out doc
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		c, err := loadCobR(ctx, tx, p.CompanyID, mux.Vars(r)["txid"])
		if err != nil {
			return err
		}
		if c == nil {
			return notFound("CobRNaoEncontrada", "nenhuma cobrança recorrente com txid %s", mux.Vars(r)["txid"])
		}
		bad := func(reason string) error {
			return invalid("CobROperacaoInvalida", violation{"data", reason, data})
		}
		switch {
		case str(c.Body, "politicaRetentativa") != "PERMITE_3R_7D":
			return invalid("CobROperacaoInvalida", violation{"politicaRetentativa", "a recorrência não permite retentativas (NAO_PERMITE)", str(c.Body, "politicaRetentativa")})
		case c.Status != CobRAtiva:
			return invalid("CobROperacaoInvalida", violation{"status", "a cobrança está " + c.Status, c.Status})
		case openAttempt(c.Body) != nil:
			return bad("há uma tentativa ainda não concluída")
		case !day.After(today(s.Clock.Now())):
			return bad("a data da retentativa deve estar no futuro")
		}
		settle, _ := settlementDate(c.Body)
		if day.After(settle.AddDays(retryWindow)) {
			return bad("fora da janela de " + "7 dias após o vencimento (PERMITE_3R_7D)")
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
		at := s.Clock.Now()
		now := rfc3339(at)
		c.Body["tentativas"] = append(attempts(c.Body), doc{"dataLiquidacao": day.String(), "tipo": "NTAG", "status": TentAgendada,
			"endToEndId":  NewEndToEndID(s.DB.IDs, PayerISPB, at),
			"atualizacao": []any{doc{"status": TentSolicitada, "data": now}, doc{"status": TentAgendada, "data": now}}})
		if err := s.notifyCobR(ctx, tx, c, c.Status, c.Status); err != nil {
			return err
		}
		if s.Scenarios != nil {
			if err := s.Scenarios.Trigger(ctx, tx, "cobr", c.CompanyID+"/"+c.TxID, "retried"); err != nil {
				return err
			}
		}
		out = c.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(out), nil
}

// getCobR is GET /cobr/{txid}.
func (s *Service) getCobR(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		c, err := loadCobR(ctx, tx, principal(r).CompanyID, mux.Vars(r)["txid"])
		if err != nil {
			return err
		}
		if c == nil {
			return notFound("CobRNaoEncontrada", "nenhuma cobrança recorrente com txid %s", mux.Vars(r)["txid"])
		}
		out = c.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// patchCobR is PATCH /cobr/{txid} {status: CANCELADA}: refused on or after
// the date of the first settlement attempt.
func (s *Service) patchCobR(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var req doc
	if err := decode(r, s.Schemas, "pix/cobr.patch", "", "CobROperacaoInvalida", &req); err != nil {
		return nil, err
	}
	if str(req, "status") != CobRCancelada {
		return nil, invalid("CobROperacaoInvalida", violation{"status", "o status só pode ser alterado para CANCELADA", str(req, "status")})
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		c, err := loadCobR(ctx, tx, principal(r).CompanyID, mux.Vars(r)["txid"])
		if err != nil {
			return err
		}
		if c == nil {
			return notFound("CobRNaoEncontrada", "nenhuma cobrança recorrente com txid %s", mux.Vars(r)["txid"])
		}
		settle, _ := settlementDate(c.Body)
		if !today(s.Clock.Now()).Before(settle) {
			return invalid("CobROperacaoInvalida", violation{"status", "a cobrança não pode ser cancelada na data da primeira tentativa de liquidação (" + settle.String() + ") ou depois", CobRCancelada})
		}
		if err := s.moveCobR(ctx, tx, c, CobRCancelada, func(d doc) {
			for _, t := range attempts(d) {
				if m, ok := t.(map[string]any); ok && (m["status"] == TentSolicitada || m["status"] == TentAgendada) {
					m["status"] = TentCancelada
				}
			}
			d["encerramento"] = doc{"cancelamento": doc{"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": "Cancelada a pedido do usuário recebedor"}}
		}); err != nil {
			return err
		}
		out = c.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// cancelOpenCobRs cancels the charges not yet settled of a cancelled
// recurrence.
func (s *Service) cancelOpenCobRs(ctx context.Context, tx *store.Tx, rc *rec) error {
	rows, err := tx.QueryContext(ctx, `SELECT txid FROM pix_cobrs WHERE id_rec = ? AND status IN (?, ?)`, rc.ID, CobRCriada, CobRAtiva)
	if err != nil {
		return err
	}
	var txids []string
	for rows.Next() {
		var t string
		rows.Scan(&t)
		txids = append(txids, t)
	}
	rows.Close()
	for _, t := range txids {
		c, err := loadCobR(ctx, tx, rc.CompanyID, t)
		if err != nil || c == nil {
			return err
		}
		if err := s.moveCobR(ctx, tx, c, CobRCancelada, func(d doc) {
			d["encerramento"] = doc{"cancelamento": doc{"solicitante": "PSP_RECEBEDOR", "codigo": "CCLD", "descricao": "Recorrência cancelada"}}
		}); err != nil {
			return err
		}
	}
	return nil
}

// expireCobRJob expires a charge still unpaid at the end of its last
// possible settlement day.
func (s *Service) expireCobRJob(ctx context.Context, j jobs.Job) error {
	var p struct {
		Company string `json:"company"`
		TxID    string `json:"txid"`
	}
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		c, err := loadCobR(ctx, tx, p.Company, p.TxID)
		if err != nil || c == nil || (c.Status != CobRAtiva && c.Status != CobRCriada) {
			return err
		}
		if c.Status == CobRCriada {
			return s.moveCobR(ctx, tx, c, CobRCancelada, func(d doc) {
				d["encerramento"] = doc{"cancelamento": doc{"solicitante": "PSP_PAGADOR", "codigo": "FAIL", "descricao": "Não confirmada pelo PSP do pagador"}}
			})
		}
		return s.moveCobR(ctx, tx, c, CobRExpirada, func(d doc) {
			for _, t := range attempts(d) {
				if m, ok := t.(map[string]any); ok && (m["status"] == TentSolicitada || m["status"] == TentAgendada) {
					m["status"] = TentExpirada
				}
			}
		})
	})
}

// listCobRs is GET /cobr.
func (s *Service) listCobRs(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	lq := parseList(r, "CobRConsultaInvalida", true)
	q := r.URL.Query()
	where := `c.company_id = ? AND c.created_at >= ? AND c.created_at <= ?`
	args := []any{p.CompanyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano()}
	if v := q.Get("idRec"); v != "" {
		lq.params["idRec"] = v
		where += ` AND c.id_rec = ?`
		args = append(args, v)
	}
	if st := q.Get("status"); st != "" {
		if !slices.Contains([]string{CobRCriada, CobRAtiva, CobRConcluida, CobRExpirada, CobRRejeitada, CobRCancelada}, st) {
			lq.bad("status", "status de cobrança recorrente desconhecido", st)
		}
		lq.params["status"] = st
		where += ` AND c.status = ?`
		args = append(args, st)
	}
	if lq.CPF != "" {
		where += ` AND r.cpf = ?`
		args = append(args, lq.CPF)
	}
	if lq.CNPJ != "" {
		where += ` AND r.cnpj = ?`
		args = append(args, lq.CNPJ)
	}
	if conv := q.Get("convenio"); conv != "" {
		lq.params["convenio"] = conv
		where += ` AND r.convenio = ?`
		args = append(args, conv)
	}
	if err := lq.err(); err != nil {
		return nil, err
	}
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		params, rows, err := lq.pageRows(ctx, tx, "pix_cobrs c JOIN pix_recs r ON r.id_rec = c.id_rec", "c.body", where, "c.created_at, c.txid", args)
		if err != nil {
			return err
		}
		defer rows.Close()
		list := []json.RawMessage{}
		for rows.Next() {
			var b string
			if err := rows.Scan(&b); err != nil {
				return err
			}
			list = append(list, json.RawMessage(b))
		}
		out = doc{"parametros": params, "cobsr": list}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}
