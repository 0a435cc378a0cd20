package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// The charge statuses (CobrancaStatus); the enum's spelling, not the
// description's (SUMMARY §12).
const (
	Ativa            = "ATIVA"
	Concluida        = "CONCLUIDA"
	RemovidaUsuario  = "REMOVIDA_PELO_USUARIO_RECEBEDOR"
	RemovidaPeloPSP  = "REMOVIDA_PELO_PSP"
	defaultExpiracao = 86400
)

// chargeMachine is the life of a cob or cobv record: every status but ATIVA
// is final. Its events go to the stream only; partners hear about Pix
// through the official /pix callback.
func chargeMachine(kind string) *statemachine.Machine {
	ev := func(to string) statemachine.Edge {
		return statemachine.Edge{To: to, Type: "pix." + kind + ".status", Name: "Status de Cobrança"}
	}
	return &statemachine.Machine{
		Resource: kind,
		Table:    "pix_cobs",
		Initial:  Ativa,
		Edges: map[string][]statemachine.Edge{
			Ativa: {ev(Concluida), ev(RemovidaUsuario), ev(RemovidaPeloPSP)},
		},
	}
}

var machines = map[string]*statemachine.Machine{"cob": chargeMachine("cob"), "cobv": chargeMachine("cobv")}

// kindInfo names each kind's entity and error types.
type kindInfo struct {
	kind, opInvalida, naoEncontrado, consultaInvalida string
	request, patch                                    string
}

var (
	cobKind  = kindInfo{"cob", "CobOperacaoInvalida", "CobNaoEncontrado", "CobConsultaInvalida", "pix/cob.request", "pix/cob.patch"}
	cobvKind = kindInfo{"cobv", "CobVOperacaoInvalida", "CobVNaoEncontrada", "CobVConsultaInvalida", "pix/cobv.request", "pix/cobv.patch"}
)

// charge is a stored cob or cobv.
type charge struct {
	ID        int64
	CompanyID string
	AppID     string
	Kind      string
	TxID      string
	Status    string
	Revisao   int
	LocID     sql.NullInt64
	LoteID    sql.NullInt64
	CreatedAt time.Time
	Body      doc
	loc       *loc   // the location, when this request already has it in hand
	raw       string // Body as stored
}

func principal(r *http.Request) auth.Principal {
	p, _ := auth.PrincipalOf(r.Context())
	return p
}

func loadCharge(ctx context.Context, tx *store.Tx, companyID, txid string) (*charge, error) {
	var c charge
	var body string
	var created int64
	err := tx.QueryRowContext(ctx, `SELECT id, company_id, app_id, kind, txid, status, revisao, loc_id, lote_id, created_at, body
		FROM pix_cobs WHERE company_id = ? AND txid = ?`, companyID, txid).
		Scan(&c.ID, &c.CompanyID, &c.AppID, &c.Kind, &c.TxID, &c.Status, &c.Revisao, &c.LocID, &c.LoteID, &created, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.CreatedAt = time.Unix(0, created).UTC()
	c.raw = body
	if err := json.Unmarshal([]byte(body), &c.Body); err != nil {
		return nil, err
	}
	return &c, nil
}

// putCob is PUT /cob/{txid} (and the seed's POST /cob/{txid}): creates the
// charge, or replaces an ATIVA one as a new revision.
func (s *Service) putCob(r *http.Request) (*httpx.Reply, error) {
	return s.putCharge(r, cobKind, mux.Vars(r)["txid"])
}

// postCob is POST /cob: the PSP chooses the txid.
func (s *Service) postCob(r *http.Request) (*httpx.Reply, error) {
	return s.putCharge(r, cobKind, "")
}

func (s *Service) putCharge(r *http.Request, k kindInfo, txid string) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	generated := txid == ""
	if generated {
		txid = NewTxID(s.DB.IDs)
	} else if !txidCreate.MatchString(txid) {
		return nil, invalid(k.opInvalida, violation{k.kind + ".txid", "deve ter de 26 a 35 caracteres alfanuméricos ([a-zA-Z0-9]{26,35})", txid})
	}
	var req doc
	if err := decode(r, s.Schemas, k.request, k.kind, k.opInvalida, &req); err != nil {
		return nil, err
	}
	named := r.Header.Get(scenario.Header)
	if out, ok, err := s.createFast(ctx, r.Host, k, p, txid, req, named); err != nil {
		return nil, err
	} else if ok {
		return httpx.Created(out), nil
	}
	var out doc
	created := false
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		prev, err := loadCharge(ctx, tx, p.CompanyID, txid)
		if err != nil {
			return err
		}
		if prev != nil && generated {
			return fmt.Errorf("generated txid %s collides", txid)
		}
		if prev != nil {
			if prev.Kind != k.kind {
				return invalid(k.opInvalida, violation{k.kind + ".txid", "o txid já identifica uma cobrança do tipo " + prev.Kind, txid})
			}
			out, err = s.revise(ctx, tx, r.Host, p, k, prev, req, true)
			return err
		}
		if has, err := s.hasLotes(ctx, tx, p.CompanyID); err != nil {
			return err
		} else if has {
			var item string
			err = tx.QueryRowContext(ctx, `SELECT status FROM pix_lote_items WHERE company_id = ? AND txid = ?`, p.CompanyID, txid).Scan(&item)
			if err == nil {
				return invalid(k.opInvalida, violation{k.kind + ".txid", "o txid pertence a um lote em que está " + item, txid})
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		created = true
		out, err = s.create(ctx, tx, r.Host, k, p, txid, req, 0, named)
		return err
	})
	if err != nil {
		return nil, err
	}
	if created {
		return httpx.Created(out), nil
	}
	return httpx.OK(out), nil
}

// create stores a new charge from a validated request.
func (s *Service) create(ctx context.Context, tx *store.Tx, host string, k kindInfo, p auth.Principal, txid string, req doc, loteID int64, named string) (doc, error) {
	now := s.Clock.Now()
	d := clone(req)
	if vs := s.rules(ctx, tx, k, p, d, now); len(vs) > 0 {
		return nil, invalid(k.opInvalida, vs...)
	}
	id, err := s.cobIDs.next(ctx, tx, "pix_cobs")
	if err != nil {
		return nil, err
	}
	c := &charge{ID: id, CompanyID: p.CompanyID, AppID: p.AppID, Kind: k.kind, TxID: txid, Status: Ativa, CreatedAt: now}
	if loteID > 0 {
		c.LoteID = sql.NullInt64{Int64: loteID, Valid: true}
	}
	if err := s.attachLoc(ctx, tx, host, k, c, d); err != nil {
		return nil, err
	}
	body, err := s.render(ctx, tx, c, d)
	if err != nil {
		return nil, err
	}
	encoded := marshal(body)
	if inserted, err := insertCharge(ctx, tx, c, body, encoded); err != nil {
		return nil, err
	} else if !inserted { // a batch item whose txid a PUT took meanwhile
		return nil, invalid(k.opInvalida, violation{k.kind + ".txid", "o txid já identifica outra cobrança", txid})
	}
	if err := s.bind(ctx, tx, scenario.Resource{Kind: k.kind, Key: chargeKey(c.CompanyID, txid), Ref: txid, AppID: c.AppID, Named: named, Body: req}); err != nil {
		return nil, err
	}
	return body, s.emitCreated(ctx, tx, p, c, encoded)
}

// errTxidTaken sends createFast's caller to the general path.
var errTxidTaken = errors.New("txid taken")

// createFast creates a charge doing everything but the inserts before the
// write transaction, which then holds the database for three statements and
// no JSON work: at 32 concurrent creators the transaction is the queue. It
// applies when all the rules read is in memory (the app's keys, the
// company, no batches), no location is named, and the txid is new;
// otherwise it reports false and putCharge takes the general path, which
// gives the precise answer (revision, conflict, violation).
func (s *Service) createFast(ctx context.Context, host string, k kindInfo, p auth.Principal, txid string, req doc, named string) (doc, bool, error) {
	_, keys := s.keys.Load(p.AppID)
	_, co := s.companies.Load(p.CompanyID)
	lotes, known := s.lotes.Load(p.CompanyID)
	if !keys || !co || !known || lotes.(bool) || sub(req, "loc") != nil {
		return nil, false, nil
	}
	now := s.Clock.Now()
	d := clone(req)
	if vs := s.rules(ctx, nil, k, p, d, now); len(vs) > 0 {
		return nil, false, nil
	}
	locID, ok1 := s.locIDs.tryNext()
	cobID, ok2 := s.cobIDs.tryNext()
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	l := makeLoc(s.DB.IDs, locID, host, p.CompanyID, p.AppID, k.kind, now, sql.NullInt64{Int64: cobID, Valid: true})
	c := &charge{ID: cobID, CompanyID: p.CompanyID, AppID: p.AppID, Kind: k.kind, TxID: txid, Status: Ativa, CreatedAt: now,
		LocID: sql.NullInt64{Int64: locID, Valid: true}, loc: l}
	d["loc"] = doc{"id": locID}
	body, err := s.render(ctx, nil, c, d)
	if err != nil {
		return nil, false, err
	}
	encoded := marshal(body)
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		if err := insertLoc(ctx, tx, l); err != nil {
			return err
		}
		if inserted, err := insertCharge(ctx, tx, c, body, encoded); err != nil {
			return err
		} else if !inserted {
			return errTxidTaken
		}
		if err := s.bind(ctx, tx, scenario.Resource{Kind: k.kind, Key: chargeKey(c.CompanyID, txid), Ref: txid, AppID: c.AppID, Named: named, Body: req}); err != nil {
			return err
		}
		return s.emitCreated(ctx, tx, p, c, encoded)
	})
	if errors.Is(err, errTxidTaken) {
		return nil, false, nil
	}
	return body, err == nil, err
}

// insertCharge stores a new charge with its first body; it reports false,
// storing nothing, when the company already has the txid.
func insertCharge(ctx context.Context, tx *store.Tx, c *charge, body doc, encoded string) (bool, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO pix_cobs (id, company_id, app_id, kind, txid, status, revisao, loc_id, devedor_cpf, devedor_cnpj, created_at, updated_at, body, lote_id)
		VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (company_id, txid) DO NOTHING`,
		c.ID, c.CompanyID, c.AppID, c.Kind, c.TxID, c.Status, c.LocID, str(body, "devedor", "cpf"), str(body, "devedor", "cnpj"),
		c.CreatedAt.UnixNano(), c.CreatedAt.UnixNano(), encoded, c.LoteID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *Service) emitCreated(ctx context.Context, tx *store.Tx, p auth.Principal, c *charge, encoded string) error {
	_, err := s.Bus.Emit(ctx, tx, events.Event{
		AppID: c.AppID, CNPJ: p.CNPJ, Type: "pix." + c.Kind + ".criada", Name: "Cobrança Criada",
		Subject: doc{"txid": c.TxID}, SubjectKey: "txid:" + c.TxID, Data: json.RawMessage(encoded), Targets: []events.Target{},
	})
	return err
}

// revise applies a PUT (replace) or PATCH (merge) to an ATIVA charge.
// revisao goes up by one unless nothing but loc changed.
func (s *Service) revise(ctx context.Context, tx *store.Tx, host string, p auth.Principal, k kindInfo, c *charge, req doc, replace bool) (doc, error) {
	if c.Status != Ativa {
		return nil, invalid(k.opInvalida, violation{k.kind + ".status", "a cobrança está " + c.Status + " e não pode ser alterada", c.Status})
	}
	old := requestPart(c.Body, k)
	next := clone(old)
	if replace {
		next = clone(req)
	} else {
		merge(next, req)
	}
	if vs := s.rules(ctx, tx, k, p, next, c.CreatedAt); len(vs) > 0 {
		return nil, invalid(k.opInvalida, vs...)
	}
	// The stored part carries the defaults the answer showed; a request
	// that leaves them out asks for the same thing (a partner retrying an
	// identical PUT makes no new revision).
	withDefaults(next, k)
	oldLoc, newLoc := sub(old, "loc"), sub(next, "loc")
	delete(old, "loc")
	withoutLoc := clone(next)
	delete(withoutLoc, "loc")
	oldRevisao := c.Revisao
	if !reflect.DeepEqual(old, withoutLoc) {
		c.Revisao++
	}
	if !reflect.DeepEqual(oldLoc, newLoc) {
		if err := s.attachLoc(ctx, tx, host, k, c, next); err != nil {
			return nil, err
		}
	}
	body, err := s.render(ctx, tx, c, next)
	if err != nil {
		return nil, err
	}
	encoded, err := s.save(ctx, tx, c, body, oldRevisao)
	if err != nil {
		return nil, err
	}
	_, err = s.Bus.Emit(ctx, tx, events.Event{
		AppID: c.AppID, CNPJ: p.CNPJ, Type: "pix." + k.kind + ".revisada", Name: "Cobrança Revisada",
		Subject: doc{"txid": c.TxID}, SubjectKey: "txid:" + c.TxID, Data: encoded, Targets: []events.Target{},
	})
	if err != nil {
		return nil, err
	}
	return body, s.trigger(ctx, tx, c, "revised")
}

// withDefaults fills in the calendario defaults render would show.
func withDefaults(d doc, k kindInfo) {
	cal := sub(d, "calendario")
	if cal == nil {
		cal = doc{}
		d["calendario"] = cal
	}
	if k.kind == "cob" {
		if _, ok := cal["expiracao"]; !ok {
			cal["expiracao"] = float64(defaultExpiracao)
		}
	} else if _, ok := cal["validadeAposVencimento"]; !ok {
		cal["validadeAposVencimento"] = float64(30)
	}
}

// requestPart extracts from a stored answer what the partner controls.
func requestPart(body doc, k kindInfo) doc {
	d := doc{}
	for _, f := range []string{"calendario", "devedor", "valor", "chave", "solicitacaoPagador", "infoAdicionais", "loc", "recebedor"} {
		if v, ok := body[f]; ok {
			d[f] = v
		}
	}
	d = clone(d)
	if cal := sub(d, "calendario"); cal != nil {
		delete(cal, "criacao")
	}
	if loc := sub(d, "loc"); loc != nil {
		d["loc"] = doc{"id": loc["id"]}
	}
	delete(d, "recebedor")
	return d
}

// merge applies a PATCH: objects merge field by field; devedor and
// everything else are replaced whole (a debtor switching from CPF to CNPJ
// must not keep both).
func merge(dst, patch doc) {
	for k, v := range patch {
		pm, pok := v.(map[string]any)
		dm, dok := dst[k].(map[string]any)
		if pok && dok && k != "devedor" && k != "loc" {
			merge(dm, pm)
			continue
		}
		dst[k] = v
	}
}

// save writes the charge's current body and returns it encoded. The body
// of the current revision lives in pix_cobs; when a change starts a new
// revision, the last body of the old one is archived for GET ?revisao=.
func (s *Service) save(ctx context.Context, tx *store.Tx, c *charge, body doc, oldRevisao int) (json.RawMessage, error) {
	b := marshal(body)
	cpf, cnpj := str(body, "devedor", "cpf"), str(body, "devedor", "cnpj")
	_, err := tx.ExecContext(ctx, `UPDATE pix_cobs SET status = ?, revisao = ?, loc_id = ?, devedor_cpf = ?, devedor_cnpj = ?, updated_at = ?, body = ? WHERE id = ?`,
		c.Status, c.Revisao, c.LocID, cpf, cnpj, s.Clock.Now().UnixNano(), b, c.ID)
	if err != nil {
		return nil, err
	}
	if c.Revisao != oldRevisao && c.raw != "" {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO pix_cob_revisions (cob_id, revisao, body) VALUES (?, ?, ?)`, c.ID, oldRevisao, c.raw); err != nil {
			return nil, err
		}
	}
	c.raw = b
	return json.RawMessage(b), nil
}

// render builds the answer (CobGerada / CobVGerada) from the request part.
func (s *Service) render(ctx context.Context, tx *store.Tx, c *charge, d doc) (doc, error) {
	body := clone(d)
	cal := sub(body, "calendario")
	if cal == nil {
		cal = doc{}
	}
	cal["criacao"] = rfc3339(c.CreatedAt)
	if c.Kind == "cob" {
		if _, ok := cal["expiracao"]; !ok {
			cal["expiracao"] = defaultExpiracao
		}
	} else if _, ok := cal["validadeAposVencimento"]; !ok {
		cal["validadeAposVencimento"] = 30
	}
	body["calendario"] = cal
	body["txid"] = c.TxID
	body["revisao"] = c.Revisao
	body["status"] = c.Status
	delete(body, "loc")
	delete(body, "location")
	delete(body, "pixCopiaECola")
	if c.LocID.Valid {
		l := c.loc
		if l == nil || l.ID != c.LocID.Int64 {
			var err error
			if l, err = loadLoc(ctx, tx, c.CompanyID, c.LocID.Int64); err != nil {
				return nil, err
			}
		}
		body["loc"] = doc{"id": l.ID, "txid": c.TxID, "location": l.Location, "tipoCob": l.TipoCob, "criacao": rfc3339(l.CreatedAt)}
		body["location"] = l.Location
		code, err := s.brCode(ctx, tx, c, body, l.Location)
		if err != nil {
			return nil, err
		}
		body["pixCopiaECola"] = code
	}
	if c.Kind == "cobv" {
		rec, err := s.recebedor(ctx, tx, c.CompanyID)
		if err != nil {
			return nil, err
		}
		body["recebedor"] = rec
	}
	return body, nil
}

// rules checks what the schema cannot: the business rules of
// CobOperacaoInvalida / CobVOperacaoInvalida (SUMMARY §6, §7).
func (s *Service) rules(ctx context.Context, tx *store.Tx, k kindInfo, p auth.Principal, d doc, created time.Time) []violation {
	var vs []violation
	e := k.kind
	if k.kind == "cob" {
		if exp, ok := sub(d, "calendario")["expiracao"].(float64); ok && exp <= 0 {
			vs = append(vs, violation{e + ".calendario.expiracao", "deve ser maior que zero", strconv.FormatFloat(exp, 'f', -1, 64)})
		}
	}
	valor := sub(d, "valor")
	original, _ := parseCents(str(valor, "original"))
	ret := sub(valor, "retirada")
	saque, troco := sub(ret, "saque"), sub(ret, "troco")
	switch {
	case saque != nil && original != 0:
		vs = append(vs, violation{e + ".valor.original", "deve ser 0.00 em um Pix Saque", str(valor, "original")})
	case saque == nil && original == 0:
		vs = append(vs, violation{e + ".valor.original", "deve ser maior que zero", str(valor, "original")})
	}
	if troco != nil && str(troco, "modalidadeAgente") == "AGPSS" {
		vs = append(vs, violation{e + ".valor.retirada.troco.modalidadeAgente", "um Pix Troco admite apenas AGTEC ou AGTOT", "AGPSS"})
	}
	if ret != nil {
		if m, ok := valor["modalidadeAlteracao"].(float64); ok && m != 0 {
			vs = append(vs, violation{e + ".valor.modalidadeAlteracao", "deve ser 0 quando há saque ou troco", "1"})
		}
	}
	if dev := sub(d, "devedor"); dev != nil {
		if cpf := str(dev, "cpf"); cpf != "" {
			if err := taxid.CheckCPF(cpf); err != nil {
				vs = append(vs, violation{e + ".devedor.cpf", "CPF inválido: " + err.Error(), cpf})
			}
		}
		if cnpj := str(dev, "cnpj"); cnpj != "" {
			if err := taxid.CheckCNPJ(cnpj); err != nil {
				vs = append(vs, violation{e + ".devedor.cnpj", "CNPJ inválido: " + err.Error(), cnpj})
			}
		}
	}
	chave := str(d, "chave")
	if ok, err := s.ownsKey(ctx, tx, p.AppID, chave); err != nil || !ok {
		vs = append(vs, violation{e + ".chave", "a chave não pertence ao usuário recebedor (cadastre-a no portal)", chave})
	}
	if k.kind == "cobv" {
		vs = append(vs, s.cobvRules(d, created)...)
	}
	return vs
}

// getCob is GET /cob/{txid}[?revisao=n]: CobCompleta, with pix[].
func (s *Service) getCob(r *http.Request) (*httpx.Reply, error) {
	return s.getCharge(r, cobKind)
}

func (s *Service) getCharge(r *http.Request, k kindInfo) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	txid := mux.Vars(r)["txid"]
	var body string
	var pix []doc
	// Only the reads happen inside; decoding and encoding JSON happen
	// after, so the database is held as briefly as possible.
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var id int64
		var kind string
		var revisao int
		err := tx.QueryRowContext(ctx, `SELECT id, kind, revisao, body FROM pix_cobs WHERE company_id = ? AND txid = ?`, p.CompanyID, txid).
			Scan(&id, &kind, &revisao, &body)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && kind != k.kind) {
			return notFound(k.naoEncontrado, "nenhuma %s com txid %s", k.kind, txid)
		}
		if err != nil {
			return err
		}
		if v := r.URL.Query().Get("revisao"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > revisao {
				return invalid(k.consultaInvalida, violation{"revisao", fmt.Sprintf("a revisão deve ser um inteiro de 0 a %d", revisao), v})
			}
			if n < revisao {
				if err := tx.QueryRowContext(ctx, `SELECT body FROM pix_cob_revisions WHERE cob_id = ? AND revisao = ?`, id, n).Scan(&body); err != nil {
					return err
				}
			}
		}
		pix, err = pixOfCharge(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(pix) == 0 {
		return httpx.OK(json.RawMessage(body)), nil
	}
	var out doc
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		return nil, err
	}
	out["pix"] = pix
	return httpx.OK(out), nil
}

// patchCob is PATCH /cob/{txid}.
func (s *Service) patchCob(r *http.Request) (*httpx.Reply, error) {
	return s.patchCharge(r, cobKind)
}

func (s *Service) patchCharge(r *http.Request, k kindInfo) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	txid := mux.Vars(r)["txid"]
	var req doc
	if err := decode(r, s.Schemas, k.patch, k.kind, k.opInvalida, &req); err != nil {
		return nil, err
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		c, err := loadCharge(ctx, tx, p.CompanyID, txid)
		if err != nil {
			return err
		}
		if c == nil || c.Kind != k.kind {
			return notFound(k.naoEncontrado, "nenhuma %s com txid %s", k.kind, txid)
		}
		if status, ok := req["status"].(string); ok {
			if len(req) > 1 {
				return invalid(k.opInvalida, violation{k.kind + ".status", "a remoção deve ser o único campo da revisão", status})
			}
			if c.Status != Ativa {
				return invalid(k.opInvalida, violation{k.kind + ".status", "a cobrança está " + c.Status + " e não pode ser alterada", c.Status})
			}
			if out, err = s.move(ctx, tx, c, status, true); err != nil {
				return err
			}
			return s.trigger(ctx, tx, c, "removed")
		}
		out, err = s.revise(ctx, tx, r.Host, p, k, c, req, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// move changes a charge's status through its machine; byUser marks a
// change the receiver asked for, which is a new revision.
func (s *Service) move(ctx context.Context, tx *store.Tx, c *charge, to string, byUser bool) (doc, error) {
	from := c.Status
	body := clone(c.Body)
	co, err := s.company(ctx, tx, c.CompanyID)
	if err != nil {
		return nil, err
	}
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: machines[c.Kind], From: from, To: to, AppID: c.AppID, CNPJ: co.CNPJ,
		Subject: doc{"txid": c.TxID}, SubjectKey: "txid:" + c.TxID,
		Data:    doc{"statusAnterior": from, "statusAtual": to},
		Targets: []events.Target{},
		Store: func(ctx context.Context, tx *store.Tx) error {
			old := c.Revisao
			c.Status = to
			if byUser {
				c.Revisao++
			}
			body["status"], body["revisao"] = to, c.Revisao
			_, err := s.save(ctx, tx, c, body, old)
			return err
		},
	})
	if err != nil {
		return nil, err
	}
	c.Body = body
	return body, nil
}

// listCobs is GET /cob.
func (s *Service) listCobs(r *http.Request) (*httpx.Reply, error) {
	return s.listCharges(r, cobKind)
}

func (s *Service) listCharges(r *http.Request, k kindInfo) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	lq := parseList(r, k.consultaInvalida, true)
	loc := lq.boolParam(r, "locationPresente")
	status := r.URL.Query().Get("status")
	if status != "" {
		switch status {
		case Ativa, Concluida, RemovidaUsuario, RemovidaPeloPSP:
			lq.params["status"] = status
		default:
			lq.bad("status", "deve ser ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR ou REMOVIDA_PELO_PSP", status)
		}
	}
	var lote int64 = -1
	if k.kind == "cobv" {
		if v := r.URL.Query().Get("loteCobVId"); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				lq.bad("loteCobVId", "deve ser um inteiro", v)
			} else {
				lote = n
				lq.params["loteCobVId"] = n
			}
		}
	}
	if err := lq.err(); err != nil {
		return nil, err
	}
	where := `company_id = ? AND kind = ? AND created_at >= ? AND created_at <= ? AND (? = '' OR devedor_cpf = ?) AND (? = '' OR devedor_cnpj = ?)
		AND (? = '' OR status = ?) AND (? < 0 OR lote_id = ?)`
	args := []any{p.CompanyID, k.kind, lq.Inicio.UnixNano(), lq.Fim.UnixNano(), lq.CPF, lq.CPF, lq.CNPJ, lq.CNPJ, status, status, lote, lote}
	if loc != nil {
		if *loc {
			where += " AND loc_id IS NOT NULL"
		} else {
			where += " AND loc_id IS NULL"
		}
	}
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		params, rows, err := lq.pageRows(ctx, tx, "pix_cobs", "id, body", where, "created_at, id", args)
		if err != nil {
			return err
		}
		cobs := []doc{}
		var ids []int64
		for rows.Next() {
			var id int64
			var b string
			if err := rows.Scan(&id, &b); err != nil {
				rows.Close()
				return err
			}
			var d doc
			json.Unmarshal([]byte(b), &d)
			cobs = append(cobs, d)
			ids = append(ids, id)
		}
		rows.Close()
		for i, id := range ids {
			pix, err := pixOfCharge(ctx, tx, id)
			if err != nil {
				return err
			}
			if len(pix) > 0 {
				cobs[i]["pix"] = pix
			}
		}
		out = doc{"parametros": params, "cobs": cobs}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// parseCents reads a money string "123.45" into cents.
func parseCents(s string) (int64, error) {
	whole, frac, ok := strings.Cut(s, ".")
	if !ok || len(frac) != 2 || whole == "" {
		return 0, fmt.Errorf("money %q: want digits, a point and two decimals", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, err
	}
	return w*100 + f, nil
}

// formatCents writes cents as the spec's money string.
func formatCents(c int64) string {
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}
