package pix

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/pix/brcode"
	"homologa/simulator/pix/duedate"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The recurrence statuses (RecStatus, SUMMARY §3.4).
const (
	RecCriada    = "CRIADA"
	RecAprovada  = "APROVADA"
	RecRejeitada = "REJEITADA"
	RecExpirada  = "EXPIRADA"
	RecCancelada = "CANCELADA"
)

// recMachine is the life of a recurrence authorisation.
var recMachine = &statemachine.Machine{Resource: "rec", Table: "pix_recs", Initial: RecCriada, Edges: map[string][]statemachine.Edge{
	RecCriada:   edges("pix.rec.status", "Status de Recorrência", RecAprovada, RecRejeitada, RecExpirada, RecCancelada),
	RecAprovada: edges("pix.rec.status", "Status de Recorrência", RecCancelada),
}}

var recAbsent = absent{typ: "RecNaoEncontrada", format: "nenhuma recorrência %v"}

// NewIDRec makes an idRec (SUMMARY §2): "R", "R" when retries are allowed
// or "N", the ISPB, the creation date and 11 alphanumerics: 29 characters.
func NewIDRec(ids store.IDSource, permiteRetentativa bool, at time.Time) string {
	kind := "N"
	if permiteRetentativa {
		kind = "R"
	}
	return "R" + kind + ISPB + at.In(brasilia).Format("20060102") + randomAlnum(ids, 11)
}

// rec is a stored recurrence.
type rec struct {
	ID        string
	CompanyID string
	AppID     string
	Status    string
	LocID     sql.NullInt64
	Body      doc
	CreatedAt time.Time
}

// recFilter is what GET /rec filters by, beyond the common parameters.
type recFilter struct {
	status, convenio string
	loc              *bool
}

// periodMonthsRec are the periodicities of a recurrence and their length
// in months (SEMANAL in days, handled apart).
var periodMonthsRec = map[string]int{"MENSAL": 1, "TRIMESTRAL": 3, "SEMESTRAL": 6, "ANUAL": 12}

// validateRec checks what the schema cannot of POST /rec: the debtor's
// CPF or CNPJ, dataInicial not in the past, dataFinal not before it, and
// valorRec or valorMinimoRecebedor, not both.
func validateRec(req doc, today duedate.Date) []violation {
	vs := devedorRules("vinculo.devedor", sub(sub(req, "vinculo"), "devedor"))
	cal := sub(req, "calendario")
	ini, errI := time.Parse(time.DateOnly, str(cal, "dataInicial"))
	if errI != nil {
		vs = append(vs, violation{"calendario.dataInicial", "deve ser uma data (AAAA-MM-DD)", str(cal, "dataInicial")})
	} else if ini.Before(today.Time()) {
		vs = append(vs, violation{"calendario.dataInicial", "não pode estar no passado", str(cal, "dataInicial")})
	}
	if f := str(cal, "dataFinal"); f != "" {
		fim, err := time.Parse(time.DateOnly, f)
		if err != nil || errI == nil && fim.Before(ini) {
			vs = append(vs, violation{"calendario.dataFinal", "deve ser uma data igual ou posterior a dataInicial", f})
		}
	}
	valor := sub(req, "valor")
	if valor != nil && str(valor, "valorRec") != "" && str(valor, "valorMinimoRecebedor") != "" {
		vs = append(vs, violation{"valor", "informe valorRec ou valorMinimoRecebedor, não ambos", ""})
	}
	return vs
}

// newRecBody is RecGerada of a new recurrence: the request with the
// receiver, the idRec, CRIADA and a journey yet to be defined.
func newRecBody(req doc, id string, co company, now time.Time) doc {
	body := clone(req)
	rcb := doc{"cnpj": co.CNPJ, "nome": co.Name}
	if conv := str(sub(req, "recebedor"), "convenio"); conv != "" {
		rcb["convenio"] = conv
	}
	body["recebedor"] = rcb
	body["idRec"] = id
	body["status"] = RecCriada
	body["atualizacao"] = []any{doc{"status": RecCriada, "data": rfc3339(now)}}
	ativ := sub(req, "ativacao")
	if ativ == nil {
		ativ = doc{}
	}
	ativ["tipoJornada"] = "AGUARDANDO_DEFINICAO"
	body["ativacao"] = ativ
	return body
}

// createRec stores a new recurrence, CRIADA.
func (s *Service) createRec(ctx context.Context, p auth.Principal, req doc, named string) (doc, error) {
	if vs := validateRec(req, today(s.nowOf(p.CompanyID))); len(vs) > 0 {
		return nil, invalid("RecOperacaoInvalida", vs...)
	}
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		now := s.nowOf(p.CompanyID)
		co, err := findCompany(ctx, tx, p.CompanyID)
		if err != nil {
			return nil, err
		}
		id := NewIDRec(s.DB.IDs, str(req, "politicaRetentativa") == "PERMITE_3R_7D", now)
		body := newRecBody(req, id, co, now)
		rc := &rec{ID: id, CompanyID: p.CompanyID, AppID: p.AppID, Status: RecCriada, Body: body, CreatedAt: now}
		if err := journeyTxidRule(ctx, tx, p.CompanyID, str(sub(sub(body, "ativacao"), "dadosJornada"), "txid")); err != nil {
			return nil, err
		}
		if err := insertRec(ctx, tx, rc); err != nil {
			return nil, err
		}
		if v, ok := req["loc"]; ok {
			if err := s.linkRecLoc(ctx, tx, rc, v); err != nil {
				return nil, err
			}
		}
		if err := s.saveRec(ctx, tx, rc); err != nil {
			return nil, err
		}
		return rc.Body, s.bind(ctx, tx, scenario.Resource{Kind: "rec", Key: id, Ref: str(sub(req, "vinculo"), "contrato"), AppID: p.AppID,
			Named: named, Body: req})
	})
}

// journeyTxidRule: the charge a recurrence's journey names exists.
func journeyTxidRule(ctx context.Context, tx *store.Tx, companyID, txid string) error {
	if txid == "" {
		return nil
	}
	c, err := findCharge(ctx, tx, companyID, txid)
	if err == nil && c == nil {
		return invalid("RecOperacaoInvalida", violation{"ativacao.dadosJornada.txid", "nenhuma cob ou cobv com este txid", txid})
	}
	return err
}

// recLocID reads the location a rec request names: its id, or {"id"}.
func recLocID(v any) (int64, bool) {
	id, ok := v.(float64)
	if !ok {
		if m, isMap := v.(map[string]any); isMap {
			id, ok = m["id"].(float64)
		}
	}
	return int64(id), ok
}

// locRecRule is what a location named by a recurrence must meet: it
// exists and serves no other recurrence; "" when it is fit.
func locRecRule(l *locRec, idRec string) string {
	switch {
	case l == nil:
		return "location de recorrência inexistente"
	case l.IDRec.Valid && l.IDRec.String != idRec:
		return "a location já está em uso por outra recorrência"
	}
	return ""
}

// linkRecLoc points a recurrence at a location of recurrences (its
// request's loc: the id).
func (s *Service) linkRecLoc(ctx context.Context, tx *store.Tx, rc *rec, v any) error {
	id, ok := recLocID(v)
	if !ok {
		return invalid("RecOperacaoInvalida", violation{"loc", "informe o id de uma location de recorrência (POST /locrec)", ""})
	}
	l, err := findLocRec(ctx, tx, rc.CompanyID, id)
	if err != nil {
		return err
	}
	if reason := locRecRule(l, rc.ID); reason != "" {
		return invalid("RecOperacaoInvalida", violation{"loc", reason, strconv.FormatInt(id, 10)})
	}
	if rc.LocID.Valid && rc.LocID.Int64 != l.ID {
		if err := releaseLocRec(ctx, tx, rc.LocID.Int64); err != nil {
			return err
		}
	}
	if err := linkLocRec(ctx, tx, l.ID, rc.ID); err != nil {
		return err
	}
	rc.LocID = sql.NullInt64{Int64: l.ID, Valid: true}
	l.IDRec = sql.NullString{String: rc.ID, Valid: true}
	rc.Body["loc"] = l.body()
	return nil
}

// getRec is GET /rec/{idRec}'s answer.
func (s *Service) getRec(ctx context.Context, companyID, id string) (doc, error) {
	return view(ctx, s.DB, findRec, companyID, id, recAbsent, func(tx *store.Tx, rc *rec) (doc, error) {
		return s.recCompleta(ctx, tx, rc)
	})
}

// recCompleta is a recurrence as GET answers it: the stored RecGerada with
// the confirmation requests and, when the locations are set, the QR of its
// journey (dadosQR).
func (s *Service) recCompleta(ctx context.Context, tx *store.Tx, rc *rec) (doc, error) {
	out := clone(rc.Body)
	sols, err := findSolicRecBodies(ctx, tx, rc.CompanyID, rc.ID)
	if err != nil {
		return nil, err
	}
	out["solicitacao"] = sols
	loc := sub(rc.Body, "loc")
	if loc == nil {
		return out, nil
	}
	co, err := findCompany(ctx, tx, rc.CompanyID)
	if err != nil {
		return nil, err
	}
	p := brcode.Payload{RecURL: str(loc, "location"), MerchantName: co.Name, MerchantCity: str(sandboxAddress, "cidade")}
	jornada := "JORNADA_2"
	if txid := str(sub(sub(rc.Body, "ativacao"), "dadosJornada"), "txid"); txid != "" {
		c, err := findCharge(ctx, tx, rc.CompanyID, txid)
		if err != nil {
			return nil, err
		}
		if c != nil && c.LocID.Valid {
			l, err := findLoc(ctx, tx, c.CompanyID, c.LocID.Int64)
			if err != nil {
				return nil, err
			}
			p.URL = l.Location
			jornada = map[string]string{"cob": "JORNADA_3", "cobv": "JORNADA_4"}[c.Kind]
			if c.Kind == "cob" {
				p.Amount = str(sub(c.Body, "valor"), "original")
			}
		}
	}
	code, err := brcode.Encode(p)
	if err != nil {
		return nil, err
	}
	out["dadosQR"] = doc{"jornada": jornada, "pixCopiaECola": code}
	return out, nil
}

// recFinal reports whether a recurrence admits no more changes.
func recFinal(status string) bool {
	return status == RecExpirada || status == RecCancelada || status == RecRejeitada
}

// recPatchRule is what a PATCH /rec may change of a recurrence in status:
// nothing once it ended, the status only to CANCELADA, the location and
// the initial date only while CRIADA.
func recPatchRule(status string, req doc) *violation {
	if recFinal(status) {
		return &violation{"status", "a recorrência está " + status + " e não admite alterações", status}
	}
	if st, ok := req["status"]; ok {
		if st != RecCancelada {
			return &violation{"status", "o status só pode ser alterado para CANCELADA", str(req, "status")}
		}
		return nil
	}
	if _, ok := req["loc"]; ok && status != RecCriada {
		return &violation{"loc", "a location só pode ser alterada enquanto a recorrência está CRIADA", ""}
	}
	if d := str(sub(req, "calendario"), "dataInicial"); d != "" && status != RecCriada {
		return &violation{"calendario.dataInicial", "a data inicial só pode ser alterada enquanto a recorrência está CRIADA", d}
	}
	return nil
}

// patchRec cancels a recurrence or revises what PATCH may change.
func (s *Service) patchRec(ctx context.Context, companyID, id string, req doc) (doc, error) {
	return change(ctx, s.DB, findRec, companyID, id, recAbsent, func(tx *store.Tx, rc *rec) (doc, error) {
		if v := recPatchRule(rc.Status, req); v != nil {
			return nil, invalid("RecOperacaoInvalida", *v)
		}
		var err error
		if _, ok := req["status"]; ok {
			err = s.cancelRec(ctx, tx, rc, "USUARIO_RECEBEDOR", "SLCR", "Cancelada a pedido do usuário recebedor")
		} else {
			err = s.reviseRec(ctx, tx, rc, req)
		}
		return rc.Body, err
	})
}

// cancelRec cancels a recurrence and its charges not yet settled.
func (s *Service) cancelRec(ctx context.Context, tx *store.Tx, rc *rec, solicitante, codigo, descricao string) error {
	if err := s.moveRec(ctx, tx, rc, RecCancelada, func(d doc) {
		d["encerramento"] = doc{"cancelamento": doc{"solicitante": solicitante, "codigo": codigo, "descricao": descricao}}
	}); err != nil {
		return err
	}
	return s.cancelOpenCobRs(ctx, tx, rc)
}

// reviseRec applies what a PATCH changes of a recurrence but its status.
func (s *Service) reviseRec(ctx context.Context, tx *store.Tx, rc *rec, req doc) error {
	if d := str(sub(req, "calendario"), "dataInicial"); d != "" {
		sub(rc.Body, "calendario")["dataInicial"] = d
	}
	if nome := str(sub(sub(req, "vinculo"), "devedor"), "nome"); nome != "" {
		sub(sub(rc.Body, "vinculo"), "devedor")["nome"] = nome
	}
	if txid := str(sub(sub(req, "ativacao"), "dadosJornada"), "txid"); txid != "" {
		if err := journeyTxidRule(ctx, tx, rc.CompanyID, txid); err != nil {
			return err
		}
		sub(rc.Body, "ativacao")["dadosJornada"] = doc{"txid": txid}
	}
	if v, ok := req["loc"]; ok {
		if err := s.linkRecLoc(ctx, tx, rc, v); err != nil {
			return err
		}
	}
	return s.saveRec(ctx, tx, rc)
}

// listRecs is GET /rec's answer.
func (s *Service) listRecs(ctx context.Context, companyID string, lq *listQuery, f recFilter) (doc, error) {
	return list(ctx, s.DB, lq, recListing(companyID, lq, f), "recs", scanJSON, nil)
}

// saveRec writes a recurrence, its status included.
func (s *Service) saveRec(ctx context.Context, tx *store.Tx, r *rec) error {
	r.Body["status"] = r.Status
	return updateRec(ctx, tx, r, s.nowOf(r.CompanyID))
}

// atualizacao appends a status to a document's history.
func atualizacao(d doc, status string, at time.Time) {
	list, _ := d["atualizacao"].([]any)
	d["atualizacao"] = append(list, doc{"status": status, "data": rfc3339(at)})
}

// recNotification is what the /rec callback carries for a recurrence.
func recNotification(r *rec) doc {
	return copyFields(doc{"idRec": r.ID, "status": r.Status, "atualizacao": r.Body["atualizacao"]}, r.Body, "encerramento", "ativacao")
}

// moveRec changes a recurrence's status, with its history, its /rec
// callback and its event.
func (s *Service) moveRec(ctx context.Context, tx *store.Tx, r *rec, to string, change func(d doc)) error {
	co, err := findCompany(ctx, tx, r.CompanyID)
	if err != nil {
		return err
	}
	from := r.Status
	if _, err := recMachine.Check(from, to); err != nil {
		return invalid("RecOperacaoInvalida", violation{"status", "a recorrência está " + from + " e não pode passar a " + to, to})
	}
	r.Status = to
	atualizacao(r.Body, to, s.nowOf(r.CompanyID))
	if change != nil {
		change(r.Body)
	}
	targets, err := callbackTargets(ctx, tx, r.CompanyID, "rec", recNotification(r))
	if err != nil {
		return err
	}
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: recMachine, From: from, To: to, AppID: r.AppID, CNPJ: co.CNPJ,
		Subject: doc{"idRec": r.ID}, SubjectKey: "rec:" + r.ID, Data: recNotification(r), Targets: targets,
		Store: func(ctx context.Context, tx *store.Tx) error { return s.saveRec(ctx, tx, r) },
	})
	if err != nil {
		return err
	}
	if to == RecCancelada || to == RecRejeitada || to == RecExpirada {
		return s.cancelLiveSolicRecs(ctx, tx, r)
	}
	return nil
}

// approveRec is the payer's acceptance, by any journey: APROVADA, with the
// payer's data and the journey in ativacao.
func (s *Service) approveRec(ctx context.Context, tx *store.Tx, r *rec, jornada string, pagador doc) error {
	return s.moveRec(ctx, tx, r, RecAprovada, func(d doc) {
		at := sub(d, "ativacao")
		if at == nil {
			at = doc{}
		}
		at["tipoJornada"] = jornada
		d["ativacao"] = at
		if pagador != nil {
			d["pagador"] = pagador
		}
	})
}

// rejectRec is the payer's refusal, with a rejection code.
func (s *Service) rejectRec(ctx context.Context, tx *store.Tx, r *rec, code string) error {
	return s.moveRec(ctx, tx, r, RecRejeitada, func(d doc) {
		d["encerramento"] = doc{"rejeicao": doc{"codigo": code, "descricao": rejectionText(code)}}
	})
}

// rejectionText describes the recurrence rejection codes. The spec lists
// AP13 and AP14 without meanings; the sandbox reads them as the payer's
// refusal and the payer PSP's, and says so.
func rejectionText(code string) string {
	switch code {
	case "AP13":
		return "Rejeitada pelo usuário pagador"
	case "AP14":
		return "Rejeitada pelo PSP do usuário pagador"
	}
	return "Rejeitada"
}

// approveByPayment authorises a CRIADA recurrence whose journey names the
// charge just paid (the composite QR of journeys 3 and 4).
func (s *Service) approveByPayment(ctx context.Context, tx *store.Tx, c *charge, in Payment) error {
	recs, err := findRecsNamingTxid(ctx, tx, c.CompanyID, c.TxID)
	if err != nil {
		return err
	}
	for _, rc := range recs {
		if str(sub(sub(rc.Body, "ativacao"), "dadosJornada"), "txid") != c.TxID {
			continue
		}
		jornada := map[string]string{"cob": "JORNADA_3", "cobv": "JORNADA_4"}[c.Kind]
		if err := s.approveRec(ctx, tx, rc, jornada, payerOf(in, sub(sub(rc.Body, "vinculo"), "devedor"))); err != nil {
			return err
		}
	}
	return nil
}

// payerOf is the pagador of a recurrence approved by a payment: who paid,
// or else the debtor the recurrence names.
func payerOf(in Payment, dev doc) doc {
	pag := doc{"ispbParticipante": in.ISPB}
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
	return pag
}
