package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/pix/brcode"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// The recurrence statuses (RecStatus, SUMMARY §3.4).
const (
	RecCriada    = "CRIADA"
	RecAprovada  = "APROVADA"
	RecRejeitada = "REJEITADA"
	RecExpirada  = "EXPIRADA"
	RecCancelada = "CANCELADA"
)

func recEdge(to string) statemachine.Edge {
	return statemachine.Edge{To: to, Type: "pix.rec.status", Name: "Status de Recorrência"}
}

// recMachine is the life of a recurrence authorisation.
var recMachine = &statemachine.Machine{
	Resource: "rec",
	Table:    "pix_recs",
	Initial:  RecCriada,
	Edges: map[string][]statemachine.Edge{
		RecCriada:   {recEdge(RecAprovada), recEdge(RecRejeitada), recEdge(RecExpirada), recEdge(RecCancelada)},
		RecAprovada: {recEdge(RecCancelada)},
	},
}

// NewIDRec makes an idRec (SUMMARY §2): "R", "R" when retries are allowed
// or "N", the ISPB, the creation date and 11 alphanumerics: 29 characters.
func NewIDRec(ids store.IDSource, permiteRetentativa bool, at time.Time) string {
	kind := "N"
	if permiteRetentativa {
		kind = "R"
	}
	return "R" + kind + ISPB + at.In(brasilia).Format("20060102") + randomAlnum(ids, 11)
}

// NewIDSolicRec makes an idSolicRec: "SC", the ISPB, the date and 11
// alphanumerics.
func NewIDSolicRec(ids store.IDSource, at time.Time) string {
	return "SC" + ISPB + at.In(brasilia).Format("20060102") + randomAlnum(ids, 11)
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

func loadRec(ctx context.Context, tx *store.Tx, companyID, id string) (*rec, error) {
	var r rec
	var body string
	var at int64
	err := tx.QueryRowContext(ctx, `SELECT id_rec, company_id, app_id, status, loc_id, body, created_at FROM pix_recs WHERE id_rec = ? AND (? = '' OR company_id = ?)`,
		id, companyID, companyID).Scan(&r.ID, &r.CompanyID, &r.AppID, &r.Status, &r.LocID, &body, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(body), &r.Body); err != nil {
		return nil, err
	}
	r.CreatedAt = time.Unix(0, at).UTC()
	return &r, nil
}

func (s *Service) saveRec(ctx context.Context, tx *store.Tx, r *rec) error {
	r.Body["status"] = r.Status
	dev := sub(sub(r.Body, "vinculo"), "devedor")
	_, err := tx.ExecContext(ctx, `UPDATE pix_recs SET status = ?, cpf = ?, cnpj = ?, convenio = ?, loc_id = ?, body = ?, updated_at = ? WHERE id_rec = ?`,
		r.Status, str(dev, "cpf"), str(dev, "cnpj"), str(sub(r.Body, "recebedor"), "convenio"), r.LocID, marshal(r.Body), s.Clock.Now().UnixNano(), r.ID)
	return err
}

// atualizacao appends a status to a document's history.
func atualizacao(d doc, status string, at time.Time) {
	list, _ := d["atualizacao"].([]any)
	d["atualizacao"] = append(list, doc{"status": status, "data": rfc3339(at)})
}

// recNotification is what the /rec callback carries for a recurrence.
func recNotification(r *rec) doc {
	n := doc{"idRec": r.ID, "status": r.Status, "atualizacao": r.Body["atualizacao"]}
	for _, k := range []string{"encerramento", "ativacao"} {
		if v, ok := r.Body[k]; ok {
			n[k] = v
		}
	}
	return n
}

// recWebhook returns the receiving user's webhook of kind rec or cobr.
func recWebhook(ctx context.Context, tx *store.Tx, companyID, kind string) (string, error) {
	var url string
	err := tx.QueryRowContext(ctx, `SELECT url FROM pix_rec_webhooks WHERE company_id = ? AND kind = ?`, companyID, kind).Scan(&url)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return url, err
}

// callbackTargets is where a change of kind (rec or cobr) is POSTed: the
// official {webhookUrl}/rec or /cobr, with its list body.
func callbackTargets(ctx context.Context, tx *store.Tx, companyID, kind string, item doc) ([]events.Target, error) {
	url, err := recWebhook(ctx, tx, companyID, kind)
	if err != nil || url == "" {
		return []events.Target{}, err
	}
	list := map[string]string{"rec": "recs", "cobr": "cobsr"}[kind]
	b, _ := json.Marshal(doc{list: []doc{item}})
	return []events.Target{{URL: strings.TrimSuffix(url, "/") + "/" + kind, Body: b}}, nil
}

// moveRec changes a recurrence's status, with its history, its /rec
// callback and its event.
func (s *Service) moveRec(ctx context.Context, tx *store.Tx, r *rec, to string, change func(d doc)) error {
	co, err := s.company(ctx, tx, r.CompanyID)
	if err != nil {
		return err
	}
	from := r.Status
	now := s.Clock.Now()
	if _, err := recMachine.Check(from, to); err != nil {
		return invalid("RecOperacaoInvalida", violation{"status", "a recorrência está " + from + " e não pode passar a " + to, to})
	}
	r.Status = to
	atualizacao(r.Body, to, now)
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

// postLocRec is POST /locrec (no body): a location for a future recurrence.
func (s *Service) postLocRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		now := s.Clock.Now()
		token := s.DB.IDs.Token(16)
		location := r.Host + QRPath + "rec/" + token
		res, err := tx.ExecContext(ctx, `INSERT INTO pix_locrecs (company_id, app_id, token, location, created_at) VALUES (?, ?, ?, ?, ?)`,
			p.CompanyID, p.AppID, token, location, now.UnixNano())
		if err != nil {
			return err
		}
		id, _ := res.LastInsertId()
		out = doc{"id": id, "location": location, "criacao": rfc3339(now)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep := httpx.Created(out)
	rep.Header = http.Header{"Location": {out["location"].(string)}}
	return rep, nil
}

type locRec struct {
	ID        int64
	Location  string
	IDRec     sql.NullString
	CreatedAt time.Time
}

func loadLocRec(ctx context.Context, tx *store.Tx, companyID string, id int64) (*locRec, error) {
	var l locRec
	var at int64
	err := tx.QueryRowContext(ctx, `SELECT id, location, id_rec, created_at FROM pix_locrecs WHERE id = ? AND company_id = ?`, id, companyID).
		Scan(&l.ID, &l.Location, &l.IDRec, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	l.CreatedAt = time.Unix(0, at).UTC()
	return &l, err
}

func (l *locRec) body() doc {
	d := doc{"id": l.ID, "location": l.Location, "criacao": rfc3339(l.CreatedAt)}
	if l.IDRec.Valid {
		d["idRec"] = l.IDRec.String
	}
	return d
}

// getLocRec is GET /locrec/{id}.
func (s *Service) getLocRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	id, _ := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		l, err := loadLocRec(ctx, tx, principal(r).CompanyID, id)
		if err != nil {
			return err
		}
		if l == nil {
			return notFound("PayloadLocationRecNaoEncontrado", "nenhuma location de recorrência %d", id)
		}
		out = l.body()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// unlinkLocRec is DELETE /locrec/{id}/idRec: the location no longer serves
// the recurrence; its status is unchanged.
func (s *Service) unlinkLocRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	id, _ := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		l, err := loadLocRec(ctx, tx, principal(r).CompanyID, id)
		if err != nil {
			return err
		}
		if l == nil {
			return notFound("PayloadLocationRecNaoEncontrado", "nenhuma location de recorrência %d", id)
		}
		if l.IDRec.Valid {
			rc, err := loadRec(ctx, tx, "", l.IDRec.String)
			if err != nil {
				return err
			}
			if rc != nil {
				delete(rc.Body, "loc")
				rc.LocID = sql.NullInt64{}
				if err := s.saveRec(ctx, tx, rc); err != nil {
					return err
				}
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE pix_locrecs SET id_rec = NULL WHERE id = ?`, id); err != nil {
			return err
		}
		l.IDRec = sql.NullString{}
		out = l.body()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// listLocRecs is GET /locrec.
func (s *Service) listLocRecs(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	lq := parseList(r, "PayloadLocationRecConsultaInvalida", true)
	present := lq.boolParam(r, "idRecPresente")
	convenio := r.URL.Query().Get("convenio")
	if convenio != "" {
		lq.params["convenio"] = convenio
	}
	if err := lq.err(); err != nil {
		return nil, err
	}
	where := `company_id = ? AND created_at >= ? AND created_at <= ?`
	args := []any{p.CompanyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano()}
	if present != nil {
		where += map[bool]string{true: " AND id_rec IS NOT NULL", false: " AND id_rec IS NULL"}[*present]
	}
	if convenio != "" {
		where += ` AND id_rec IN (SELECT id_rec FROM pix_recs WHERE convenio = ?)`
		args = append(args, convenio)
	}
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		params, rows, err := lq.pageRows(ctx, tx, "pix_locrecs", "id, location, id_rec, created_at", where, "created_at, id", args)
		if err != nil {
			return err
		}
		defer rows.Close()
		list := []doc{}
		for rows.Next() {
			var l locRec
			var at int64
			if err := rows.Scan(&l.ID, &l.Location, &l.IDRec, &at); err != nil {
				return err
			}
			l.CreatedAt = time.Unix(0, at).UTC()
			list = append(list, l.body())
		}
		out = doc{"parametros": params, "loc": list}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// periodicities of a recurrence and their length in months (SEMANAL in
// days, handled apart).
var periodMonthsRec = map[string]int{"MENSAL": 1, "TRIMESTRAL": 3, "SEMESTRAL": 6, "ANUAL": 12}

// postRec is POST /rec: the receiver asks for a recurrence; the PSP makes
// the idRec. It waits CRIADA for the payer (a solicrec, the rec's QR, or a
// composite QR with a charge).
func (s *Service) postRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	var req doc
	if err := decode(r, s.Schemas, "pix/rec.request", "", "RecOperacaoInvalida", &req); err != nil {
		return nil, err
	}
	var vs []violation
	dev := sub(sub(req, "vinculo"), "devedor")
	if cpf := str(dev, "cpf"); cpf != "" {
		if err := taxid.CheckCPF(cpf); err != nil {
			vs = append(vs, violation{"vinculo.devedor.cpf", "CPF inválido: " + err.Error(), cpf})
		}
	}
	if cnpj := str(dev, "cnpj"); cnpj != "" {
		if err := taxid.CheckCNPJ(cnpj); err != nil {
			vs = append(vs, violation{"vinculo.devedor.cnpj", "CNPJ inválido: " + err.Error(), cnpj})
		}
	}
	cal := sub(req, "calendario")
	ini, errI := time.Parse(time.DateOnly, str(cal, "dataInicial"))
	if errI != nil {
		vs = append(vs, violation{"calendario.dataInicial", "deve ser uma data (AAAA-MM-DD)", str(cal, "dataInicial")})
	} else if ini.Before(today(s.Clock.Now()).Time()) {
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
	if len(vs) > 0 {
		return nil, invalid("RecOperacaoInvalida", vs...)
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		now := s.Clock.Now()
		co, err := s.company(ctx, tx, p.CompanyID)
		if err != nil {
			return err
		}
		id := NewIDRec(s.DB.IDs, str(req, "politicaRetentativa") == "PERMITE_3R_7D", now)
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
		rc := &rec{ID: id, CompanyID: p.CompanyID, AppID: p.AppID, Status: RecCriada, Body: body, CreatedAt: now}
		if txid := str(sub(ativ, "dadosJornada"), "txid"); txid != "" {
			c, err := loadCharge(ctx, tx, p.CompanyID, txid)
			if err != nil {
				return err
			}
			if c == nil {
				return invalid("RecOperacaoInvalida", violation{"ativacao.dadosJornada.txid", "nenhuma cob ou cobv com este txid", txid})
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO pix_recs (id_rec, company_id, app_id, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', ?, ?)`,
			id, p.CompanyID, p.AppID, RecCriada, now.UnixNano(), now.UnixNano()); err != nil {
			return err
		}
		if v, ok := req["loc"]; ok {
			if err := s.linkLocRec(ctx, tx, rc, v); err != nil {
				return err
			}
		}
		if err := s.saveRec(ctx, tx, rc); err != nil {
			return err
		}
		if err := s.bind(ctx, tx, scenario.Resource{Kind: "rec", Key: id, Ref: str(sub(req, "vinculo"), "contrato"), AppID: p.AppID,
			Named: r.Header.Get(scenario.Header), Body: req}); err != nil {
			return err
		}
		out = rc.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(out), nil
}

// linkLocRec points a recurrence at a location of recurrences (its
// request's loc: the id).
func (s *Service) linkLocRec(ctx context.Context, tx *store.Tx, rc *rec, v any) error {
	id, ok := v.(float64)
	if !ok {
		if m, isMap := v.(map[string]any); isMap {
			id, ok = m["id"].(float64)
		}
	}
	if !ok {
		return invalid("RecOperacaoInvalida", violation{"loc", "informe o id de uma location de recorrência (POST /locrec)", ""})
	}
	l, err := loadLocRec(ctx, tx, rc.CompanyID, int64(id))
	if err != nil {
		return err
	}
	switch {
	case l == nil:
		return invalid("RecOperacaoInvalida", violation{"loc", "location de recorrência inexistente", strconv.FormatInt(int64(id), 10)})
	case l.IDRec.Valid && l.IDRec.String != rc.ID:
		return invalid("RecOperacaoInvalida", violation{"loc", "a location já está em uso por outra recorrência", strconv.FormatInt(int64(id), 10)})
	}
	if rc.LocID.Valid && rc.LocID.Int64 != l.ID {
		if _, err := tx.ExecContext(ctx, `UPDATE pix_locrecs SET id_rec = NULL WHERE id = ?`, rc.LocID.Int64); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE pix_locrecs SET id_rec = ? WHERE id = ?`, rc.ID, l.ID); err != nil {
		return err
	}
	rc.LocID = sql.NullInt64{Int64: l.ID, Valid: true}
	l.IDRec = sql.NullString{String: rc.ID, Valid: true}
	rc.Body["loc"] = l.body()
	return nil
}

// recCompleta is GET /rec/{idRec}'s answer: the stored RecGerada with the
// confirmation requests and, when the locations are set, the QR of its
// journey (dadosQR).
func (s *Service) recCompleta(ctx context.Context, tx *store.Tx, rc *rec) (doc, error) {
	out := clone(rc.Body)
	sols, err := solicRecsOf(ctx, tx, rc.ID)
	if err != nil {
		return nil, err
	}
	out["solicitacao"] = sols
	if loc := sub(rc.Body, "loc"); loc != nil {
		co, err := s.company(ctx, tx, rc.CompanyID)
		if err != nil {
			return nil, err
		}
		p := brcode.Payload{RecURL: str(loc, "location"), MerchantName: co.Name, MerchantCity: str(sandboxAddress, "cidade")}
		jornada := "JORNADA_2"
		if txid := str(sub(sub(rc.Body, "ativacao"), "dadosJornada"), "txid"); txid != "" {
			c, err := loadCharge(ctx, tx, rc.CompanyID, txid)
			if err != nil {
				return nil, err
			}
			if c != nil && c.LocID.Valid {
				l, err := loadLoc(ctx, tx, c.CompanyID, c.LocID.Int64)
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
	}
	return out, nil
}

// getRec is GET /rec/{idRec}.
func (s *Service) getRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rc, err := loadRec(ctx, tx, principal(r).CompanyID, mux.Vars(r)["idRec"])
		if err != nil {
			return err
		}
		if rc == nil {
			return notFound("RecNaoEncontrado", "nenhuma recorrência %s", mux.Vars(r)["idRec"])
		}
		out, err = s.recCompleta(ctx, tx, rc)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// patchRec is PATCH /rec/{idRec} (SUMMARY §3.4 rules): cancellation by the
// receiver, or a change of debtor name, location, initial date (CRIADA
// only) or the journey's txid.
func (s *Service) patchRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var req doc
	if err := decode(r, s.Schemas, "pix/rec.patch", "", "RecOperacaoInvalida", &req); err != nil {
		return nil, err
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		rc, err := loadRec(ctx, tx, principal(r).CompanyID, mux.Vars(r)["idRec"])
		if err != nil {
			return err
		}
		if rc == nil {
			return notFound("RecNaoEncontrado", "nenhuma recorrência %s", mux.Vars(r)["idRec"])
		}
		if rc.Status == RecExpirada || rc.Status == RecCancelada || rc.Status == RecRejeitada {
			return invalid("RecOperacaoInvalida", violation{"status", "a recorrência está " + rc.Status + " e não admite alterações", rc.Status})
		}
		if st, ok := req["status"]; ok {
			if st != RecCancelada {
				return invalid("RecOperacaoInvalida", violation{"status", "o status só pode ser alterado para CANCELADA", str(req, "status")})
			}
			if err := s.moveRec(ctx, tx, rc, RecCancelada, func(d doc) {
				d["encerramento"] = doc{"cancelamento": doc{"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": "Cancelada a pedido do usuário recebedor"}}
			}); err != nil {
				return err
			}
			if err := s.cancelOpenCobRs(ctx, tx, rc); err != nil {
				return err
			}
			out = rc.Body
			return nil
		}
		if _, ok := req["loc"]; ok && rc.Status != RecCriada {
			return invalid("RecOperacaoInvalida", violation{"loc", "a location só pode ser alterada enquanto a recorrência está CRIADA", ""})
		}
		if d := str(sub(req, "calendario"), "dataInicial"); d != "" {
			if rc.Status != RecCriada {
				return invalid("RecOperacaoInvalida", violation{"calendario.dataInicial", "a data inicial só pode ser alterada enquanto a recorrência está CRIADA", d})
			}
			sub(rc.Body, "calendario")["dataInicial"] = d
		}
		if nome := str(sub(sub(req, "vinculo"), "devedor"), "nome"); nome != "" {
			sub(sub(rc.Body, "vinculo"), "devedor")["nome"] = nome
		}
		if txid := str(sub(sub(req, "ativacao"), "dadosJornada"), "txid"); txid != "" {
			c, err := loadCharge(ctx, tx, rc.CompanyID, txid)
			if err != nil {
				return err
			}
			if c == nil {
				return invalid("RecOperacaoInvalida", violation{"ativacao.dadosJornada.txid", "nenhuma cob ou cobv com este txid", txid})
			}
			at := sub(rc.Body, "ativacao")
			at["dadosJornada"] = doc{"txid": txid}
		}
		if v, ok := req["loc"]; ok {
			if err := s.linkLocRec(ctx, tx, rc, v); err != nil {
				return err
			}
		}
		if err := s.saveRec(ctx, tx, rc); err != nil {
			return err
		}
		out = rc.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// listRecs is GET /rec.
func (s *Service) listRecs(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	lq := parseList(r, "RecConsultaInvalida", true)
	q := r.URL.Query()
	where := `company_id = ? AND created_at >= ? AND created_at <= ?`
	args := []any{p.CompanyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano()}
	if lq.CPF != "" {
		where += ` AND cpf = ?`
		args = append(args, lq.CPF)
	}
	if lq.CNPJ != "" {
		where += ` AND cnpj = ?`
		args = append(args, lq.CNPJ)
	}
	if st := q.Get("status"); st != "" {
		if _, ok := map[string]bool{RecCriada: true, RecAprovada: true, RecRejeitada: true, RecExpirada: true, RecCancelada: true}[st]; !ok {
			lq.bad("status", "deve ser CRIADA, APROVADA, REJEITADA, EXPIRADA ou CANCELADA", st)
		}
		lq.params["status"] = st
		where += ` AND status = ?`
		args = append(args, st)
	}
	if conv := q.Get("convenio"); conv != "" {
		lq.params["convenio"] = conv
		where += ` AND convenio = ?`
		args = append(args, conv)
	}
	if present := lq.boolParam(r, "locationPresente"); present != nil {
		where += map[bool]string{true: " AND loc_id IS NOT NULL", false: " AND loc_id IS NULL"}[*present]
	}
	if err := lq.err(); err != nil {
		return nil, err
	}
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		params, rows, err := lq.pageRows(ctx, tx, "pix_recs", "body", where, "created_at, id_rec", args)
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
		out = doc{"parametros": params, "recs": list}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// putRecWebhook is PUT /webhookrec and /webhookcobr (and the seed's POST):
// one webhook per receiving user for each.
func (s *Service) putRecWebhook(kind string) httpx.HandlerFunc {
	typ := map[string]string{"rec": "WebhookRecOperacaoInvalida", "cobr": "WebhookCobROperacaoInvalida"}[kind]
	return func(r *http.Request) (*httpx.Reply, error) {
		ctx := r.Context()
		p := principal(r)
		var in struct {
			WebhookURL string `json:"webhookUrl"`
		}
		if err := decode(r, s.Schemas, "pix/webhook"+kind+".request", "", typ, &in); err != nil {
			return nil, err
		}
		if err := s.Auth.Webhooks.Check(in.WebhookURL); err != nil {
			return nil, invalid(typ, violation{"webhookUrl", err.Error(), in.WebhookURL})
		}
		err := s.DB.Tx(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO pix_rec_webhooks (company_id, kind, app_id, url, created_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (company_id, kind) DO UPDATE SET url = excluded.url, app_id = excluded.app_id`, p.CompanyID, kind, p.AppID, in.WebhookURL, s.Clock.Now().UnixNano())
			return err
		})
		if err != nil {
			return nil, err
		}
		return &httpx.Reply{Status: http.StatusOK}, nil
	}
}

func (s *Service) getRecWebhook(kind string) httpx.HandlerFunc {
	return func(r *http.Request) (*httpx.Reply, error) {
		ctx := r.Context()
		var url string
		var at int64
		err := s.DB.Read(ctx, func(tx *store.Tx) error {
			return tx.QueryRowContext(ctx, `SELECT url, created_at FROM pix_rec_webhooks WHERE company_id = ? AND kind = ?`, principal(r).CompanyID, kind).Scan(&url, &at)
		})
		if errors.Is(err, sql.ErrNoRows) {
			return nil, notFound("NaoEncontrado", "nenhum webhook de %s cadastrado", kind)
		}
		if err != nil {
			return nil, err
		}
		return httpx.OK(doc{"webhookUrl": url, "criacao": rfc3339(time.Unix(0, at))}), nil
	}
}

func (s *Service) deleteRecWebhook(kind string) httpx.HandlerFunc {
	return func(r *http.Request) (*httpx.Reply, error) {
		ctx := r.Context()
		var n int64
		err := s.DB.Tx(ctx, func(tx *store.Tx) error {
			res, err := tx.ExecContext(ctx, `DELETE FROM pix_rec_webhooks WHERE company_id = ? AND kind = ?`, principal(r).CompanyID, kind)
			if err == nil {
				n, _ = res.RowsAffected()
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, notFound("NaoEncontrado", "nenhum webhook de %s cadastrado", kind)
		}
		return httpx.NoContent(), nil
	}
}
