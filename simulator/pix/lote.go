package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/jobs"
	"homologa/simulator/store"
)

// The batch item statuses.
const (
	itemProcessing = "EM_PROCESSAMENTO"
	itemCreated    = "CRIADA"
	itemDenied     = "NEGADA"
)

// JobProcessLote creates the cobv of a batch, item by item.
const JobProcessLote = "pix.lote.process"

var loteIDRE = regexp.MustCompile(`^[0-9]{1,18}$`)

type lotePayload struct {
	CompanyID string `json:"companyId"`
	ID        int64  `json:"id"`
}

func loteID(r *http.Request) (int64, error) {
	v := mux.Vars(r)["id"]
	if !loteIDRE.MatchString(v) {
		return 0, invalid("LoteCobVOperacaoInvalida", violation{"id", "o id do lote é um inteiro (int64) escolhido pelo usuário recebedor", v})
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, invalid("LoteCobVOperacaoInvalida", violation{"id", "o id do lote é um inteiro (int64)", v})
	}
	return id, nil
}

// putLote is PUT /lotecobv/{id}: 202 without a body; the items are created
// in the background (EM_PROCESSAMENTO → CRIADA | NEGADA), as a PSP does. A
// re-sent PUT must name exactly the original set of txids: a batch never
// gains or loses charges.
func (s *Service) putLote(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	id, err := loteID(r)
	if err != nil {
		return nil, err
	}
	var in struct {
		Descricao string `json:"descricao"`
		Cobsv     []doc  `json:"cobsv"`
	}
	if err := decode(r, s.Schemas, "pix/lotecobv.request", "loteCobV", "LoteCobVOperacaoInvalida", &in); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var txids []string
	for i, c := range in.Cobsv {
		txid := str(c, "txid")
		if seen[txid] {
			return nil, invalid("LoteCobVOperacaoInvalida", violation{"loteCobV.cobsv." + strconv.Itoa(i) + ".txid", "txid repetido no lote", txid})
		}
		seen[txid] = true
		txids = append(txids, txid)
	}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		now := s.Clock.Now()
		existing, err := loteTxids(ctx, tx, p.CompanyID, id)
		if err != nil {
			return err
		}
		if existing == nil {
			if _, err := tx.ExecContext(ctx, `INSERT INTO pix_lotes (company_id, id, app_id, descricao, host, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				p.CompanyID, id, p.AppID, in.Descricao, r.Host, now.UnixNano()); err != nil {
				return err
			}
			// Set now, not after commit: a charge racing this batch must
			// look at its items (a rollback leaves a harmless true).
			s.lotes.Store(p.CompanyID, true)
		} else {
			if !sameSet(existing, txids) {
				return invalid("LoteCobVOperacaoInvalida", violation{"loteCobV.cobsv", "um lote não pode ganhar nem perder cobranças: reenvie exatamente os mesmos txid", ""})
			}
			if _, err := tx.ExecContext(ctx, `UPDATE pix_lotes SET descricao = ?, host = ? WHERE company_id = ? AND id = ?`, in.Descricao, r.Host, p.CompanyID, id); err != nil {
				return err
			}
		}
		for i, c := range in.Cobsv {
			txid := str(c, "txid")
			req := clone(c)
			delete(req, "txid")
			if existing == nil {
				// A txid already in use (by a cobv made with PUT /cobv, or in
				// another batch) cannot join this one.
				var inUse int
				if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM pix_cobs WHERE company_id = ? AND txid = ?) + (SELECT COUNT(*) FROM pix_lote_items WHERE company_id = ? AND txid = ?)`,
					p.CompanyID, txid, p.CompanyID, txid).Scan(&inUse); err != nil {
					return err
				}
				if inUse > 0 {
					return invalid("LoteCobVOperacaoInvalida", violation{"loteCobV.cobsv." + strconv.Itoa(i) + ".txid", "o txid já está em uso: uma cobv criada fora do lote, ou em outro lote, não pode entrar neste", txid})
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO pix_lote_items (company_id, lote_id, position, txid, status, request) VALUES (?, ?, ?, ?, ?, ?)`,
					p.CompanyID, id, i, txid, itemProcessing, marshal(req)); err != nil {
					return err
				}
				continue
			}
			// Re-sent: CRIADA items are replaced as new revisions, NEGADA ones
			// are tried again.
			if _, err := tx.ExecContext(ctx, `UPDATE pix_lote_items SET request = ?, status = CASE status WHEN ? THEN ? ELSE status END, problema = '' WHERE company_id = ? AND txid = ?`,
				marshal(req), itemDenied, itemProcessing, p.CompanyID, txid); err != nil {
				return err
			}
			var status string
			if err := tx.QueryRowContext(ctx, `SELECT status FROM pix_lote_items WHERE company_id = ? AND txid = ?`, p.CompanyID, txid).Scan(&status); err != nil {
				return err
			}
			if status == itemCreated {
				ch, err := loadCharge(ctx, tx, p.CompanyID, txid)
				if err != nil {
					return err
				}
				if _, err := s.revise(ctx, tx, r.Host, p, cobvKind, ch, req, true); err != nil {
					return err
				}
			}
		}
		_, err = s.Jobs.Schedule(ctx, tx, JobProcessLote, now, lotePayload{CompanyID: p.CompanyID, ID: id})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &httpx.Reply{Status: http.StatusAccepted}, nil
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]bool{}
	for _, x := range a {
		m[x] = true
	}
	for _, x := range b {
		if !m[x] {
			return false
		}
	}
	return true
}

// loteTxids returns the txids of a batch, or nil when there is no batch.
func loteTxids(ctx context.Context, tx *store.Tx, companyID string, id int64) ([]string, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pix_lotes WHERE company_id = ? AND id = ?`, companyID, id).Scan(&n); err != nil || n == 0 {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT txid FROM pix_lote_items WHERE company_id = ? AND lote_id = ? ORDER BY position`, companyID, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var t string
		rows.Scan(&t)
		out = append(out, t)
	}
	return out, rows.Err()
}

// processLote creates the cobv of every item still processing; an item
// that breaks a rule becomes NEGADA with its problem, the others CRIADA.
func (s *Service) processLote(ctx context.Context, j jobs.Job) error {
	var lp lotePayload
	if err := json.Unmarshal(j.Payload, &lp); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		var appID, host, cnpj string
		err := tx.QueryRowContext(ctx, `SELECT l.app_id, l.host, c.cnpj FROM pix_lotes l JOIN companies c ON c.id = l.company_id WHERE l.company_id = ? AND l.id = ?`,
			lp.CompanyID, lp.ID).Scan(&appID, &host, &cnpj)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		p := auth.Principal{AppID: appID, CompanyID: lp.CompanyID, CNPJ: cnpj}
		rows, err := tx.QueryContext(ctx, `SELECT txid, request FROM pix_lote_items WHERE company_id = ? AND lote_id = ? AND status = ? ORDER BY position`,
			lp.CompanyID, lp.ID, itemProcessing)
		if err != nil {
			return err
		}
		type item struct{ txid, request string }
		var items []item
		for rows.Next() {
			var it item
			rows.Scan(&it.txid, &it.request)
			items = append(items, it)
		}
		rows.Close()
		for _, it := range items {
			var req doc
			jsonUnmarshal(it.request, &req)
			if _, err := tx.ExecContext(ctx, `SAVEPOINT lote_item`); err != nil {
				return err
			}
			_, cerr := s.create(ctx, tx, host, cobvKind, p, it.txid, req, lp.ID, "")
			status, problema := itemCreated, ""
			if cerr != nil {
				var e *errs.Error
				if !errors.As(cerr, &e) {
					return cerr
				}
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO lote_item`); err != nil {
					return err
				}
				_, body := httpx.Pix{}.Render(e, nil, "")
				status, problema = itemDenied, marshal(body)
			}
			if _, err := tx.ExecContext(ctx, `RELEASE lote_item`); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE pix_lote_items SET status = ?, problema = ?, created_at = ? WHERE company_id = ? AND txid = ?`,
				status, problema, s.Clock.Now().UnixNano(), lp.CompanyID, it.txid); err != nil {
				return err
			}
		}
		return nil
	})
}

// loteBody is the answer of GET /lotecobv/{id}.
func loteBody(ctx context.Context, tx *store.Tx, companyID string, id int64) (doc, error) {
	var descricao string
	var created int64
	err := tx.QueryRowContext(ctx, `SELECT descricao, created_at FROM pix_lotes WHERE company_id = ? AND id = ?`, companyID, id).Scan(&descricao, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("LoteCobVNaoEncontrado", "nenhum lote com id %d", id)
	}
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT txid, status, problema, created_at FROM pix_lote_items WHERE company_id = ? AND lote_id = ? ORDER BY position`, companyID, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	items := []doc{}
	for rows.Next() {
		var txid, status, problema string
		var at sql.NullInt64
		if err := rows.Scan(&txid, &status, &problema, &at); err != nil {
			return nil, err
		}
		it := doc{"txid": txid, "status": status}
		if problema != "" {
			var pr doc
			jsonUnmarshal(problema, &pr)
			it["problema"] = pr
		}
		if at.Valid {
			it["criacao"] = rfc3339(time.Unix(0, at.Int64))
		}
		items = append(items, it)
	}
	return doc{"id": id, "descricao": descricao, "criacao": rfc3339(time.Unix(0, created)), "cobsv": items}, rows.Err()
}

// getLote is GET /lotecobv/{id}.
func (s *Service) getLote(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	id, err := loteID(r)
	if err != nil {
		return nil, err
	}
	var out doc
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		out, err = loteBody(ctx, tx, principal(r).CompanyID, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// patchLote is PATCH /lotecobv/{id}: revises some of the batch's charges
// (those already CRIADA); 202 without a body.
func (s *Service) patchLote(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	id, err := loteID(r)
	if err != nil {
		return nil, err
	}
	var in struct {
		Descricao *string `json:"descricao"`
		Cobsv     []doc   `json:"cobsv"`
	}
	if err := decode(r, s.Schemas, "pix/lotecobv.patch", "loteCobV", "LoteCobVOperacaoInvalida", &in); err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		txids, err := loteTxids(ctx, tx, p.CompanyID, id)
		if err != nil {
			return err
		}
		if txids == nil {
			return notFound("LoteCobVNaoEncontrado", "nenhum lote com id %d", id)
		}
		in := in
		if in.Descricao != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE pix_lotes SET descricao = ? WHERE company_id = ? AND id = ?`, *in.Descricao, p.CompanyID, id); err != nil {
				return err
			}
		}
		for i, c := range in.Cobsv {
			txid := str(c, "txid")
			field := "loteCobV.cobsv." + strconv.Itoa(i) + ".txid"
			if !sameSet([]string{txid}, intersect(txids, txid)) {
				return invalid("LoteCobVOperacaoInvalida", violation{field, "o txid não pertence a este lote", txid})
			}
			ch, err := loadCharge(ctx, tx, p.CompanyID, txid)
			if err != nil {
				return err
			}
			if ch == nil {
				return invalid("LoteCobVOperacaoInvalida", violation{field, "a cobrança deste txid não foi criada (EM_PROCESSAMENTO ou NEGADA)", txid})
			}
			req := clone(c)
			delete(req, "txid")
			if _, err := s.revise(ctx, tx, r.Host, p, cobvKind, ch, req, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &httpx.Reply{Status: http.StatusAccepted}, nil
}

func intersect(list []string, x string) []string {
	for _, y := range list {
		if y == x {
			return []string{x}
		}
	}
	return nil
}

// listLotes is GET /lotecobv.
func (s *Service) listLotes(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	lq := parseList(r, "LoteCobVConsultaInvalida", true)
	if err := lq.err(); err != nil {
		return nil, err
	}
	where := `company_id = ? AND created_at >= ? AND created_at <= ?`
	args := []any{p.CompanyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano()}
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		params, rows, err := lq.pageRows(ctx, tx, "pix_lotes", "id", where, "created_at, id", args)
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			ids = append(ids, id)
		}
		rows.Close()
		lotes := []doc{}
		for _, id := range ids {
			b, err := loteBody(ctx, tx, p.CompanyID, id)
			if err != nil {
				return err
			}
			lotes = append(lotes, b)
		}
		out = doc{"parametros": params, "lotes": lotes}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}
