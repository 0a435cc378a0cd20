package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/events"
	"homologa/simulator/money"
	"homologa/simulator/pix/brcode"
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
	return &statemachine.Machine{Resource: kind, Table: "pix_cobs", Initial: Ativa, Edges: map[string][]statemachine.Edge{
		Ativa: edges("pix."+kind+".status", "Status de Cobrança", Concluida, RemovidaUsuario, RemovidaPeloPSP),
	}}
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
	loc       *loc     // the location, when this request already has it in hand
	receiver  *company // the receiver, when this request already has it in hand
	raw       string   // Body as stored
}

// chargeRequest is a PUT or POST of a charge, as its handler read it.
type chargeRequest struct {
	k         kindInfo
	p         auth.Principal
	host      string
	txid      string
	generated bool // the PSP chose the txid (POST /cob)
	req       doc
	named     string // the scenario the partner named
	loteID    int64  // the batch that creates the charge, 0 for none
}

// chargeDraft is a new charge validated and rendered, ready to store.
type chargeDraft struct {
	c       *charge
	fresh   bool // c.loc is new and is stored with the charge
	body    doc
	encoded string
}

// chargeFilter is what GET /cob and GET /cobv filter by, beyond the common
// parameters.
type chargeFilter struct {
	status string
	lote   int64 // loteCobVId, -1 for any
	loc    *bool
}

// putCharge creates a charge, or replaces an ATIVA one as a new revision,
// in one write transaction. A new charge is answered with the bytes
// stored and sent in its event, encoded once.
func (s *Service) putCharge(ctx context.Context, in chargeRequest) (out any, err error) {
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		f, err := findChargeFacts(ctx, tx, in.p, in.txid, str(in.req, "chave"))
		switch {
		case err != nil:
			return err
		case f.taken:
			out, err = s.replaceCharge(ctx, tx, in)
			return err
		case f.loteItem != "":
			return invalid(in.k.opInvalida, violation{in.k.kind + ".txid", "o txid pertence a um lote em que está " + f.loteItem, in.txid})
		}
		out, err = s.createCharge(ctx, tx, in, f)
		return err
	})
	return out, err
}

// replaceCharge is a PUT of a txid the company has: a new revision of
// its ATIVA charge of the same kind.
func (s *Service) replaceCharge(ctx context.Context, tx *store.Tx, in chargeRequest) (doc, error) {
	prev, err := findCharge(ctx, tx, in.p.CompanyID, in.txid)
	switch {
	case err != nil:
		return nil, err
	case prev == nil:
		return nil, fmt.Errorf("charge %s vanished inside its transaction", in.txid)
	case in.generated:
		return nil, fmt.Errorf("generated txid %s collides", in.txid)
	case prev.Kind != in.k.kind:
		return nil, invalid(in.k.opInvalida, violation{in.k.kind + ".txid", "o txid já identifica uma cobrança do tipo " + prev.Kind, in.txid})
	}
	return s.revise(ctx, tx, in.host, in.p, in.k, prev, in.req, true)
}

// createCharge stores a new charge from a validated request, whose txid
// f says is free.
func (s *Service) createCharge(ctx context.Context, tx *store.Tx, in chargeRequest, f chargeFacts) (json.RawMessage, error) {
	d, err := s.draftCharge(ctx, tx, in, f)
	if err != nil {
		return nil, err
	}
	if err := s.insertDraft(ctx, tx, in, d); err != nil {
		return nil, err
	}
	return json.RawMessage(d.encoded), nil
}

// draftCharge validates a new charge, chooses its location and renders
// its first body. The request is read, not changed (render works on its
// own copy): the scenario binding keeps it as the partner sent it.
func (s *Service) draftCharge(ctx context.Context, tx *store.Tx, in chargeRequest, f chargeFacts) (*chargeDraft, error) {
	now := s.nowOf(in.p.CompanyID)
	d := in.req
	terms, vs := validateCharge(in.k.kind, d, now, f.keyOwned)
	if len(vs) > 0 {
		return nil, invalid(in.k.opInvalida, vs...)
	}
	c := &charge{ID: f.cobID, CompanyID: in.p.CompanyID, AppID: in.p.AppID, Kind: in.k.kind, TxID: in.txid, Status: Ativa, CreatedAt: now, receiver: &f.receiver}
	if in.loteID > 0 {
		c.LoteID = sql.NullInt64{Int64: in.loteID, Valid: true}
	}
	l, fresh, err := s.locFor(ctx, tx, in.host, in.k, c, d, now, f.locID)
	if err != nil {
		return nil, err
	}
	c.LocID, c.loc = sql.NullInt64{Int64: l.ID, Valid: true}, l
	body, err := s.render(ctx, tx, c, d, terms)
	if err != nil {
		return nil, err
	}
	return &chargeDraft{c: c, fresh: fresh, body: body, encoded: marshal(body)}, nil
}

// insertDraft stores a drafted charge with its location, starts its
// scenario and tells the stream.
func (s *Service) insertDraft(ctx context.Context, tx *store.Tx, in chargeRequest, d *chargeDraft) error {
	if err := attachLoc(ctx, tx, d.c, d.c.loc, d.fresh); err != nil {
		return err
	}
	if err := insertCharge(ctx, tx, d.c, d.body, d.encoded); err != nil {
		return err
	}
	if err := s.bind(ctx, tx, scenario.Resource{Kind: in.k.kind, Key: chargeKey(in.p.CompanyID, in.txid), Ref: in.txid, AppID: in.p.AppID,
		Named: in.named, Body: in.req}); err != nil {
		return err
	}
	return s.chargeEvent(ctx, tx, in.p.CNPJ, d.c, "criada", "Cobrança Criada", events.Encoded(d.encoded))
}

// chargeEvent tells the stream that a charge was created or revised.
func (s *Service) chargeEvent(ctx context.Context, tx *store.Tx, cnpj string, c *charge, what, name string, data events.Encoded) error {
	_, err := s.Bus.Emit(ctx, tx, events.Event{
		AppID: c.AppID, CNPJ: cnpj, Type: "pix." + c.Kind + "." + what, Name: name,
		Subject: doc{"txid": c.TxID}, SubjectKey: "txid:" + c.TxID, Data: data, Targets: []events.Target{},
	})
	return err
}

// locFor is the location a charge gets: the one its request names, checked
// by locRule; a new one with id newID (0: the table's next), not stored
// yet (fresh), when it names none and has none; nil when it keeps the one
// it has.
func (s *Service) locFor(ctx context.Context, tx *store.Tx, host string, k kindInfo, c *charge, d doc, now time.Time, newID int64) (*loc, bool, error) {
	if ld := sub(d, "loc"); ld != nil {
		l, err := namedLoc(ctx, tx, k, c, ld)
		return l, false, err
	}
	if c.LocID.Valid {
		return nil, false, nil
	}
	if newID == 0 {
		var err error
		if newID, err = nextID(ctx, tx, "pix_locs"); err != nil {
			return nil, false, err
		}
	}
	return makeLoc(s.DB.IDs, newID, host, c.CompanyID, c.AppID, k.kind, now, sql.NullInt64{Int64: c.ID, Valid: true}), true, nil
}

// revise applies a PUT (replace) or PATCH (merge) to an ATIVA charge.
// revisao goes up by one unless nothing but loc changed.
func (s *Service) revise(ctx context.Context, tx *store.Tx, host string, p auth.Principal, k kindInfo, c *charge, req doc, replace bool) (doc, error) {
	if c.Status != Ativa {
		return nil, invalid(k.opInvalida, violation{k.kind + ".status", "a cobrança está " + c.Status + " e não pode ser alterada", c.Status})
	}
	old := requestPart(c.Body)
	next := revised(old, req, replace)
	owned, err := ownsKey(ctx, tx, p.AppID, str(next, "chave"))
	if err != nil {
		return nil, err
	}
	terms, vs := validateCharge(k.kind, next, c.CreatedAt, owned)
	if len(vs) > 0 {
		return nil, invalid(k.opInvalida, vs...)
	}
	// The stored part carries the defaults the answer showed; a request
	// that leaves them out asks for the same thing (a partner retrying an
	// identical PUT makes no new revision).
	withDefaults(next, k.kind)
	oldRevisao := c.Revisao
	if revisionChanged(old, next) {
		c.Revisao++
	}
	if !reflect.DeepEqual(sub(old, "loc"), sub(next, "loc")) {
		if err := s.moveLoc(ctx, tx, host, k, c, next); err != nil {
			return nil, err
		}
	}
	body, err := s.render(ctx, tx, c, next, terms)
	if err != nil {
		return nil, err
	}
	encoded, err := s.save(ctx, tx, c, body, oldRevisao)
	if err != nil {
		return nil, err
	}
	if err := s.chargeEvent(ctx, tx, p.CNPJ, c, "revisada", "Cobrança Revisada", events.Encoded(encoded)); err != nil {
		return nil, err
	}
	return body, s.trigger(ctx, tx, c, "revised")
}

// moveLoc gives a revised charge the location its request asks for.
func (s *Service) moveLoc(ctx context.Context, tx *store.Tx, host string, k kindInfo, c *charge, next doc) error {
	l, fresh, err := s.locFor(ctx, tx, host, k, c, next, s.nowOf(c.CompanyID), 0)
	if err != nil || l == nil {
		return err
	}
	if err := attachLoc(ctx, tx, c, l, fresh); err != nil {
		return err
	}
	next["loc"] = doc{"id": l.ID}
	return nil
}

// revised is the request part a PUT (replace) or PATCH (merge) makes of
// the current one.
func revised(old, req doc, replace bool) doc {
	if replace {
		return clone(req)
	}
	next := clone(old)
	merge(next, req)
	return next
}

// revisionChanged reports whether a revision changes more than the loc.
func revisionChanged(old, next doc) bool {
	a, b := clone(old), clone(next)
	delete(a, "loc")
	delete(b, "loc")
	return !reflect.DeepEqual(a, b)
}

// withDefaults fills in the calendario defaults an answer shows.
func withDefaults(d doc, kind string) {
	cal := sub(d, "calendario")
	if cal == nil {
		cal = doc{}
		d["calendario"] = cal
	}
	if kind == "cob" {
		if _, ok := cal["expiracao"]; !ok {
			cal["expiracao"] = float64(defaultExpiracao)
		}
	} else if _, ok := cal["validadeAposVencimento"]; !ok {
		cal["validadeAposVencimento"] = float64(30)
	}
}

// requestPart extracts from a stored answer what the partner controls.
func requestPart(body doc) doc {
	d := clone(copyFields(doc{}, body, "calendario", "devedor", "valor", "chave", "solicitacaoPagador", "infoAdicionais", "loc"))
	if cal := sub(d, "calendario"); cal != nil {
		delete(cal, "criacao")
	}
	if loc := sub(d, "loc"); loc != nil {
		d["loc"] = doc{"id": loc["id"]}
	}
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
	if err := updateCharge(ctx, tx, c, body, b, s.nowOf(c.CompanyID)); err != nil {
		return nil, err
	}
	if c.Revisao != oldRevisao && c.raw != "" {
		if err := archiveRevision(ctx, tx, c.ID, oldRevisao, c.raw); err != nil {
			return nil, err
		}
	}
	c.raw = b
	return json.RawMessage(b), nil
}

// render builds the answer (CobGerada / CobVGerada) from the request part
// and its terms, as validateCharge read them.
func (s *Service) render(ctx context.Context, tx *store.Tx, c *charge, d doc, t chargeTerms) (doc, error) {
	body := clone(d)
	withDefaults(body, c.Kind)
	sub(body, "calendario")["criacao"] = rfc3339(c.CreatedAt)
	body["txid"] = c.TxID
	body["revisao"] = c.Revisao
	body["status"] = c.Status
	withoutLoc(body)
	if !c.LocID.Valid && c.Kind != "cobv" {
		return body, nil
	}
	co, err := receiverOf(ctx, tx, c)
	if err != nil {
		return nil, err
	}
	if c.LocID.Valid {
		l := c.loc
		if l == nil || l.ID != c.LocID.Int64 {
			if l, err = findLoc(ctx, tx, c.CompanyID, c.LocID.Int64); err != nil {
				return nil, err
			}
		}
		body["loc"] = doc{"id": l.ID, "txid": c.TxID, "location": l.Location, "tipoCob": l.TipoCob, "criacao": rfc3339(l.CreatedAt)}
		body["location"] = l.Location
		code, err := brCode(c, co, body, t, l.Location)
		if err != nil {
			return nil, err
		}
		body["pixCopiaECola"] = code
	}
	if c.Kind == "cobv" {
		body["recebedor"] = recebedor(co)
	}
	return body, nil
}

// receiverOf is the company that receives a charge's payments.
func receiverOf(ctx context.Context, tx *store.Tx, c *charge) (company, error) {
	if c.receiver != nil {
		return *c.receiver, nil
	}
	co, err := findCompany(ctx, tx, c.CompanyID)
	if err != nil {
		return company{}, err
	}
	c.receiver = &co
	return co, nil
}

// brCode renders the charge's pixCopiaECola. An immediate charge carries its
// amount unless the payer may change it; a due-date charge's amount depends
// on the payment date, so the payer's app reads it from the location.
func brCode(c *charge, co company, body doc, t chargeTerms, location string) (string, error) {
	p := brcode.Payload{URL: location, MerchantName: co.Name, MerchantCity: str(sandboxAddress, "cidade"), PostalCode: str(sandboxAddress, "cep")}
	if c.Kind == "cob" && t.alteracao != 1 && t.saque == nil && t.troco == nil {
		p.Amount = str(body, "valor", "original")
	}
	return brcode.Encode(p)
}

// chargeTerms are the values of a charge's document that the rules of
// this file read, typed. The document stays the partner's, which the
// answer echoes as sent; the terms are read out of it once, where it was
// decoded once (record 0021), and a value that does not read as its type
// is a violation naming its field, never a zero taken in its place.
type chargeTerms struct {
	expiracao    int64 // calendario.expiracao, in seconds; defaultExpiracao when absent
	original     money.Cents
	alteracao    int64 // valor.modalidadeAlteracao: 1, the payer may change the amount
	saque, troco *retirada
}

// retirada is the withdrawal of a Pix Saque or Troco.
type retirada struct {
	valor  money.Cents
	agente string // modalidadeAgente
}

// termsOf reads the terms of a charge document of kind (a request, or a
// stored body).
func termsOf(kind string, d doc) (chargeTerms, []violation) {
	t := chargeTerms{expiracao: defaultExpiracao}
	var vs []violation
	var err error
	if v, ok := sub(d, "calendario")["expiracao"]; ok {
		if t.expiracao, ok = wholeNumber(v); !ok {
			vs = append(vs, violation{kind + ".calendario.expiracao", "deve ser um número inteiro de segundos", numberText(v)})
		}
	}
	valor := sub(d, "valor")
	if t.original, err = money.Parse(str(valor, "original")); err != nil {
		vs = append(vs, violation{kind + ".valor.original", moneyReason, str(valor, "original")})
	}
	if v, ok := valor["modalidadeAlteracao"]; ok {
		if t.alteracao, ok = wholeNumber(v); !ok {
			vs = append(vs, violation{kind + ".valor.modalidadeAlteracao", "deve ser 0 ou 1", numberText(v)})
		}
	}
	ret := sub(valor, "retirada")
	t.saque, vs = retiradaOf(kind+".valor.retirada.saque", sub(ret, "saque"), vs)
	t.troco, vs = retiradaOf(kind+".valor.retirada.troco", sub(ret, "troco"), vs)
	return t, vs
}

// retiradaOf reads a saque or troco at field, nil when there is none.
func retiradaOf(field string, r doc, vs []violation) (*retirada, []violation) {
	if r == nil {
		return nil, vs
	}
	v, err := money.Parse(str(r, "valor"))
	if err != nil {
		vs = append(vs, violation{field + ".valor", moneyReason, str(r, "valor")})
	}
	return &retirada{valor: v, agente: str(r, "modalidadeAgente")}, vs
}

// wholeNumber reads a JSON number that must be whole: a float64 as a
// decoded document holds it, or a json.Number.
func wholeNumber(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		if x != math.Trunc(x) || math.Abs(x) >= 1<<63 {
			return 0, false
		}
		return int64(x), true
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	}
	return 0, false
}

// numberText writes a value a violation names, as the partner sent it.
func numberText(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// validateCharge checks what the schema cannot: the business rules of
// CobOperacaoInvalida / CobVOperacaoInvalida (SUMMARY §6, §7), on the
// terms it reads of the document, which it returns. keyOwned says whether
// the receiver owns the request's chave.
func validateCharge(kind string, d doc, created time.Time, keyOwned bool) (chargeTerms, []violation) {
	t, vs := termsOf(kind, d)
	if len(vs) > 0 {
		return t, vs
	}
	if kind == "cob" && t.expiracao <= 0 {
		vs = append(vs, violation{kind + ".calendario.expiracao", "deve ser maior que zero", strconv.FormatInt(t.expiracao, 10)})
	}
	vs = append(vs, valorRules(kind, t, str(d, "valor", "original"))...)
	vs = append(vs, devedorRules(kind+".devedor", sub(d, "devedor"))...)
	if !keyOwned {
		vs = append(vs, violation{kind + ".chave", "a chave não pertence ao usuário recebedor (cadastre-a no portal)", str(d, "chave")})
	}
	if kind == "cobv" {
		vs = append(vs, validateCobV(d, created)...)
	}
	return t, vs
}

// valorRules are the rules of a charge's valor: a positive original (as
// sent: original) but for a Pix Saque (zero), no AGPSS troco, no
// modalidadeAlteracao with a saque or troco.
func valorRules(kind string, t chargeTerms, original string) []violation {
	var vs []violation
	switch {
	case t.saque != nil && t.original != 0:
		vs = append(vs, violation{kind + ".valor.original", "deve ser 0.00 em um Pix Saque", original})
	case t.saque == nil && t.original == 0:
		vs = append(vs, violation{kind + ".valor.original", "deve ser maior que zero", original})
	}
	if t.troco != nil && t.troco.agente == "AGPSS" {
		vs = append(vs, violation{kind + ".valor.retirada.troco.modalidadeAgente", "um Pix Troco admite apenas AGTEC ou AGTOT", "AGPSS"})
	}
	if (t.saque != nil || t.troco != nil) && t.alteracao != 0 {
		vs = append(vs, violation{kind + ".valor.modalidadeAlteracao", "deve ser 0 quando há saque ou troco", strconv.FormatInt(t.alteracao, 10)})
	}
	return vs
}

// devedorRules check the CPF or CNPJ of a debtor at field.
func devedorRules(field string, dev doc) []violation {
	var vs []violation
	if cpf := str(dev, "cpf"); cpf != "" {
		if err := taxid.CheckCPF(cpf); err != nil {
			vs = append(vs, violation{field + ".cpf", "CPF inválido: " + err.Error(), cpf})
		}
	}
	if cnpj := str(dev, "cnpj"); cnpj != "" {
		if err := taxid.CheckCNPJ(cnpj); err != nil {
			vs = append(vs, violation{field + ".cnpj", "CNPJ inválido: " + err.Error(), cnpj})
		}
	}
	return vs
}

// loadCharge finds a company's charge of a kind, or answers its
// NaoEncontrado.
func loadCharge(ctx context.Context, tx *store.Tx, k kindInfo, companyID, txid string) (*charge, error) {
	c, err := findCharge(ctx, tx, companyID, txid)
	if err != nil {
		return nil, err
	}
	if c == nil || c.Kind != k.kind {
		return nil, notFound(k.naoEncontrado, "nenhuma %s com txid %s", k.kind, txid)
	}
	return c, nil
}

// getCharge is a charge as GET answers it (CobCompleta, CobVCompleta): its
// current body, or an earlier revision's, with the Pix that paid it.
func (s *Service) getCharge(ctx context.Context, companyID string, k kindInfo, txid, revisao string) (any, error) {
	var body string
	var pix []doc
	// Only the reads happen inside; decoding and encoding JSON happen
	// after, so the database is held as briefly as possible.
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		c, err := findStoredCharge(ctx, tx, companyID, txid)
		if err != nil {
			return err
		}
		if c == nil || c.kind != k.kind {
			return notFound(k.naoEncontrado, "nenhuma %s com txid %s", k.kind, txid)
		}
		body = c.body
		if revisao != "" {
			n, err := strconv.Atoi(revisao)
			if err != nil || n < 0 || n > c.revisao {
				return invalid(k.consultaInvalida, violation{"revisao", fmt.Sprintf("a revisão deve ser um inteiro de 0 a %d", c.revisao), revisao})
			}
			if n < c.revisao {
				if body, err = findRevision(ctx, tx, c.id, n); err != nil {
					return err
				}
			}
		}
		if c.paid {
			pix, err = pixOfCharge(ctx, tx, c.id)
		}
		return err
	})
	if err != nil || len(pix) == 0 {
		return json.RawMessage(body), err
	}
	out := unmarshal(body)
	out["pix"] = pix
	return out, nil
}

// patchCharge revises a charge, or removes it when the PATCH says status.
func (s *Service) patchCharge(ctx context.Context, host string, p auth.Principal, k kindInfo, txid string, req doc) (doc, error) {
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		c, err := loadCharge(ctx, tx, k, p.CompanyID, txid)
		if err != nil {
			return nil, err
		}
		status, ok := req["status"].(string)
		if !ok {
			return s.revise(ctx, tx, host, p, k, c, req, false)
		}
		if v := removalRule(k.kind, c.Status, req); v != nil {
			return nil, invalid(k.opInvalida, *v)
		}
		return s.move(ctx, tx, c, status, true, "removed")
	})
}

// removalRule: a PATCH that removes a charge says nothing else, and only
// an ATIVA charge can be removed.
func removalRule(kind, current string, req doc) *violation {
	if len(req) > 1 {
		return &violation{kind + ".status", "a remoção deve ser o único campo da revisão", str(req, "status")}
	}
	if current != Ativa {
		return &violation{kind + ".status", "a cobrança está " + current + " e não pode ser alterada", current}
	}
	return nil
}

// move changes a charge's status through its machine; byUser marks a
// change the receiver asked for, which is a new revision.
func (s *Service) move(ctx context.Context, tx *store.Tx, c *charge, to string, byUser bool, trigger string) (doc, error) {
	from := c.Status
	body := clone(c.Body)
	co, err := findCompany(ctx, tx, c.CompanyID)
	if err != nil {
		return nil, err
	}
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: machines[c.Kind], From: from, To: to, AppID: c.AppID, CNPJ: co.CNPJ,
		Subject: doc{"txid": c.TxID}, SubjectKey: "txid:" + c.TxID,
		Data:     doc{"statusAnterior": from, "statusAtual": to},
		Targets:  []events.Target{},
		Scenario: statemachine.Tell{Kind: c.Kind, Key: chargeKey(c.CompanyID, c.TxID), Trigger: trigger},
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

// listCharges is GET /cob's and GET /cobv's answer: each charge with the
// Pix that paid it.
func (s *Service) listCharges(ctx context.Context, companyID string, k kindInfo, lq *listQuery, f chargeFilter) (doc, error) {
	return list(ctx, s.DB, lq, chargeListing(companyID, k.kind, lq, f), "cobs", scanListedCharge,
		func(ctx context.Context, tx *store.Tx, c listedCharge) (any, error) {
			pix, err := pixOfCharge(ctx, tx, c.id)
			if len(pix) > 0 {
				c.body["pix"] = pix
			}
			return c.body, err
		})
}

// expiry is when an immediate charge stops accepting payment: criacao
// plus calendario.expiracao.
func expiry(c *charge) (time.Time, error) {
	t, err := storedTerms(c)
	return c.CreatedAt.Add(time.Duration(t.expiracao) * time.Second), err
}

// storedTerms are the terms of a stored charge, which were valid when
// stored: one that no longer reads is the sandbox's fault, said as such.
func storedTerms(c *charge) (chargeTerms, error) {
	t, vs := termsOf(c.Kind, c.Body)
	if len(vs) > 0 {
		return t, fmt.Errorf("pix: stored %s %s: %s %q %s", c.Kind, c.TxID, vs[0].field, vs[0].value, vs[0].reason)
	}
	return t, nil
}

// owed is what a charge asks on a payment at now, with the Pix's
// componentesValor; an error says why it cannot be paid.
func owed(c *charge, now time.Time) (money.Cents, doc, error) {
	if c.Kind == "cob" {
		return owedCob(c, now)
	}
	return owedCobV(c, now)
}

// owedCob is what an immediate charge asks: its original value (plus a
// saque or troco), refused once calendario.expiracao has passed.
func owedCob(c *charge, now time.Time) (money.Cents, doc, error) {
	t, err := storedTerms(c)
	if err != nil {
		return 0, nil, err
	}
	if deadline := c.CreatedAt.Add(time.Duration(t.expiracao) * time.Second); now.After(deadline) {
		return 0, nil, fmt.Errorf("expirou em %s (calendario.expiracao %d s)", rfc3339(deadline), t.expiracao)
	}
	components := doc{"original": doc{"valor": t.original.String()}}
	total := t.original
	ret := sub(sub(c.Body, "valor"), "retirada")
	for _, w := range [...]struct {
		kind string
		r    *retirada
	}{{"saque", t.saque}, {"troco", t.troco}} {
		if w.r != nil {
			total += w.r.valor
			components[w.kind] = doc{"valor": w.r.valor.String(), "modalidadeAgente": w.r.agente, "prestadorDoServicoDeSaque": sub(ret, w.kind)["prestadorDoServicoDeSaque"]}
		}
	}
	return total, components, nil
}
