package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/jobs"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The batch item statuses.
const (
	LoteEmProcessamento = "EM_PROCESSAMENTO"
	LoteCriada          = "CRIADA"
	LoteNegada          = "NEGADA"
)

// loteItemMachine is the life of a batch item: the job creates its cobv
// (CRIADA) or says why it cannot (NEGADA), and a re-sent batch tries a
// NEGADA item again. Its moves emit nothing: the partner reads the batch.
var loteItemMachine = &statemachine.Machine{Resource: "lotecobv.cobsv", Table: "pix_lote_items", Initial: LoteEmProcessamento, Edges: map[string][]statemachine.Edge{
	LoteEmProcessamento: edges("", "", LoteCriada, LoteNegada),
	LoteNegada:          edges("", "", LoteEmProcessamento),
}}

// JobProcessLote creates the cobv of a batch, item by item.
const JobProcessLote = "pix.lote.process"

var loteIDRE = regexp.MustCompile(`^[0-9]{1,18}$`)

var loteAbsent = absent{typ: "LoteCobVNaoEncontrado", format: "nenhum lote com id %v"}

// loteRequest is PUT /lotecobv/{id}.
type loteRequest struct {
	Descricao string `json:"descricao"`
	Cobsv     []doc  `json:"cobsv"`
}

// lotePatch is PATCH /lotecobv/{id}.
type lotePatch struct {
	Descricao *string `json:"descricao"`
	Cobsv     []doc   `json:"cobsv"`
}

// lote is a stored batch, with its company's CNPJ.
type lote struct {
	CompanyID, AppID, Host, Descricao, CNPJ string
	ID                                      int64
	CreatedAt                               time.Time
}

// loteItem is a stored batch item.
type loteItem struct {
	TxID, Status, Request string
}

type lotePayload struct {
	CompanyID string `json:"companyId"`
	ID        int64  `json:"id"`
}

// loteTxids are the txids a batch request names, which must differ.
func loteTxids(cobsv []doc) ([]string, *violation) {
	var txids []string
	for i, c := range cobsv {
		txid := str(c, "txid")
		if slices.Contains(txids, txid) {
			return nil, &violation{"loteCobV.cobsv." + strconv.Itoa(i) + ".txid", "txid repetido no lote", txid}
		}
		txids = append(txids, txid)
	}
	return txids, nil
}

// sameSet reports whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// itemRequest is a batch item's charge request: the item without txid.
func itemRequest(c doc) doc {
	req := clone(c)
	delete(req, "txid")
	return req
}

// putLote stores a batch for the job to create its charges. A re-sent
// batch must name exactly the original set of txids: a batch never gains
// or loses charges.
func (s *Service) putLote(ctx context.Context, p auth.Principal, host string, id int64, in loteRequest) error {
	txids, v := loteTxids(in.Cobsv)
	if v != nil {
		return invalid("LoteCobVOperacaoInvalida", *v)
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		existing, err := findLoteTxids(ctx, tx, p.CompanyID, id)
		if err != nil {
			return err
		}
		if existing == nil {
			err = s.createLote(ctx, tx, p, host, id, in)
		} else {
			err = s.resendLote(ctx, tx, p, host, id, in, existing, txids)
		}
		if err != nil {
			return err
		}
		_, err = s.Jobs.Schedule(ctx, tx, JobProcessLote, s.nowOf(p.CompanyID), lotePayload{CompanyID: p.CompanyID, ID: id})
		return err
	})
}

// createLote stores a new batch and its items, EM_PROCESSAMENTO.
func (s *Service) createLote(ctx context.Context, tx *store.Tx, p auth.Principal, host string, id int64, in loteRequest) error {
	l := &lote{CompanyID: p.CompanyID, AppID: p.AppID, Host: host, Descricao: in.Descricao, ID: id, CreatedAt: s.nowOf(p.CompanyID)}
	if err := insertLote(ctx, tx, l); err != nil {
		return err
	}
	for i, c := range in.Cobsv {
		txid := str(c, "txid")
		// A txid already in use (by a cobv made with PUT /cobv, or in
		// another batch) cannot join this one.
		inUse, err := txidInUse(ctx, tx, p.CompanyID, txid)
		if err != nil {
			return err
		}
		if inUse {
			return invalid("LoteCobVOperacaoInvalida", violation{"loteCobV.cobsv." + strconv.Itoa(i) + ".txid",
				"o txid já está em uso: uma cobv criada fora do lote, ou em outro lote, não pode entrar neste", txid})
		}
		if err := insertLoteItem(ctx, tx, p.CompanyID, id, i, txid, marshal(itemRequest(c))); err != nil {
			return err
		}
	}
	return nil
}

// resendLote takes a batch sent again: CRIADA items are replaced as new
// revisions, NEGADA ones are tried again.
func (s *Service) resendLote(ctx context.Context, tx *store.Tx, p auth.Principal, host string, id int64, in loteRequest, existing, txids []string) error {
	if !sameSet(existing, txids) {
		return invalid("LoteCobVOperacaoInvalida", violation{"loteCobV.cobsv", "um lote não pode ganhar nem perder cobranças: reenvie exatamente os mesmos txid", ""})
	}
	if err := updateLote(ctx, tx, p.CompanyID, id, in.Descricao, host); err != nil {
		return err
	}
	for _, c := range in.Cobsv {
		txid, req := str(c, "txid"), itemRequest(c)
		item, err := resendLoteItem(ctx, tx, p.CompanyID, txid, marshal(req))
		if err != nil {
			return err
		}
		switch item.Status {
		case LoteNegada:
			err = s.moveLoteItem(ctx, tx, p.CompanyID, item, LoteEmProcessamento, "")
		case LoteCriada:
			var ch *charge
			if ch, err = findCharge(ctx, tx, p.CompanyID, txid); err == nil {
				_, err = s.revise(ctx, tx, host, p, cobvKind, ch, req, true)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// moveLoteItem changes a batch item's status through its machine.
func (s *Service) moveLoteItem(ctx context.Context, tx *store.Tx, companyID string, item *loteItem, to, problema string) error {
	now := s.nowOf(companyID)
	_, err := s.Machines.Apply(ctx, tx, statemachine.Move{Machine: loteItemMachine, From: item.Status, To: to,
		Store: func(ctx context.Context, tx *store.Tx) error {
			if to == LoteEmProcessamento {
				return updateLoteItemStatus(ctx, tx, companyID, item.TxID, to)
			}
			return updateLoteItemOutcome(ctx, tx, companyID, item.TxID, to, problema, now)
		}})
	return err
}

// processLote creates the cobv of every item still processing; an item
// that breaks a rule becomes NEGADA with its problem, the others CRIADA.
func (s *Service) processLote(ctx context.Context, j jobs.Job) error {
	var lp lotePayload
	if err := json.Unmarshal(j.Payload, &lp); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		l, err := findLote(ctx, tx, lp.CompanyID, lp.ID)
		if err != nil || l == nil {
			return err
		}
		items, err := findLoteItems(ctx, tx, lp.CompanyID, lp.ID, LoteEmProcessamento)
		if err != nil {
			return err
		}
		p := auth.Principal{AppID: l.AppID, CompanyID: lp.CompanyID, CNPJ: l.CNPJ}
		for _, it := range items {
			if err := s.processLoteItem(ctx, tx, p, l, it); err != nil {
				return err
			}
		}
		return nil
	})
}

// processLoteItem creates the cobv of one item, undoing what a refused
// creation wrote.
func (s *Service) processLoteItem(ctx context.Context, tx *store.Tx, p auth.Principal, l *lote, it *loteItem) error {
	if err := savepoint(ctx, tx, "SAVEPOINT lote_item"); err != nil {
		return err
	}
	in := chargeRequest{k: cobvKind, p: p, host: l.Host, txid: it.TxID, req: unmarshal(it.Request), loteID: l.ID}
	cerr := s.createLoteCharge(ctx, tx, in)
	status, problema := LoteCriada, ""
	if cerr != nil {
		var e *errs.Error
		if !errors.As(cerr, &e) {
			return cerr
		}
		if err := savepoint(ctx, tx, "ROLLBACK TO lote_item"); err != nil {
			return err
		}
		_, body := httpx.Pix{}.Render(e, nil, "")
		status, problema = LoteNegada, marshal(body)
	}
	if err := savepoint(ctx, tx, "RELEASE lote_item"); err != nil {
		return err
	}
	return s.moveLoteItem(ctx, tx, p.CompanyID, it, status, problema)
}

// createLoteCharge creates the cobv of a batch item, unless a charge has
// its txid.
func (s *Service) createLoteCharge(ctx context.Context, tx *store.Tx, in chargeRequest) error {
	f, err := findChargeFacts(ctx, tx, in.p, in.txid, str(in.req, "chave"))
	if err != nil {
		return err
	}
	if f.taken {
		return invalid(in.k.opInvalida, violation{in.k.kind + ".txid", "o txid já identifica outra cobrança", in.txid})
	}
	_, err = s.createCharge(ctx, tx, in, f)
	return err
}

// patchLote revises charges of a batch already CRIADA.
func (s *Service) patchLote(ctx context.Context, p auth.Principal, host string, id int64, in lotePatch) error {
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		txids, err := findLoteTxids(ctx, tx, p.CompanyID, id)
		if err != nil {
			return err
		}
		if txids == nil {
			return loteAbsent.err(id)
		}
		if in.Descricao != nil {
			if err := updateLoteDescricao(ctx, tx, p.CompanyID, id, *in.Descricao); err != nil {
				return err
			}
		}
		for i, c := range in.Cobsv {
			if err := s.patchLoteItem(ctx, tx, p, host, txids, i, c); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *Service) patchLoteItem(ctx context.Context, tx *store.Tx, p auth.Principal, host string, txids []string, i int, c doc) error {
	txid := str(c, "txid")
	field := "loteCobV.cobsv." + strconv.Itoa(i) + ".txid"
	if !slices.Contains(txids, txid) {
		return invalid("LoteCobVOperacaoInvalida", violation{field, "o txid não pertence a este lote", txid})
	}
	ch, err := findCharge(ctx, tx, p.CompanyID, txid)
	if err != nil {
		return err
	}
	if ch == nil {
		return invalid("LoteCobVOperacaoInvalida", violation{field, "a cobrança deste txid não foi criada (EM_PROCESSAMENTO ou NEGADA)", txid})
	}
	_, err = s.revise(ctx, tx, host, p, cobvKind, ch, itemRequest(c), false)
	return err
}

// getLote is GET /lotecobv/{id}'s answer.
func (s *Service) getLote(ctx context.Context, companyID string, id int64) (doc, error) {
	return read(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		return loteBody(ctx, tx, companyID, id)
	})
}

// listLotes is GET /lotecobv's answer.
func (s *Service) listLotes(ctx context.Context, companyID string, lq *listQuery) (doc, error) {
	return list(ctx, s.DB, lq, loteListing(companyID, lq), "lotes", scanLoteID,
		func(ctx context.Context, tx *store.Tx, id int64) (any, error) {
			return loteBody(ctx, tx, companyID, id)
		})
}

// loteBody is the answer of GET /lotecobv/{id}.
func loteBody(ctx context.Context, tx *store.Tx, companyID string, id int64) (doc, error) {
	l, err := load(ctx, tx, findLote, companyID, id, loteAbsent)
	if err != nil {
		return nil, err
	}
	items, err := findLoteItemBodies(ctx, tx, companyID, id)
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []doc{}
	}
	return doc{"id": id, "descricao": l.Descricao, "criacao": rfc3339(l.CreatedAt), "cobsv": items}, nil
}

// loteItemBody is a batch item as GET /lotecobv/{id} shows it.
func loteItemBody(txid, status, problema string, created sql.NullInt64) doc {
	it := doc{"txid": txid, "status": status}
	if problema != "" {
		it["problema"] = unmarshal(problema)
	}
	if created.Valid {
		it["criacao"] = rfc3339(fromNanos(created.Int64))
	}
	return it
}
