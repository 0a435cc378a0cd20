package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

// received is a Pix credited to one of the receiver's keys.
type received struct {
	E2EID     string
	CompanyID string
	AppID     string
	Chave     string
	TxID      string
	CobID     sql.NullInt64
	Valor     int64
	Horario   time.Time
	Body      doc
}

func scanReceived(row interface{ Scan(...any) error }) (*received, error) {
	var p received
	var at int64
	var body string
	if err := row.Scan(&p.E2EID, &p.CompanyID, &p.AppID, &p.Chave, &p.TxID, &p.CobID, &p.Valor, &at, &body); err != nil {
		return nil, err
	}
	p.Horario = time.Unix(0, at).UTC()
	return &p, json.Unmarshal([]byte(body), &p.Body)
}

const receivedColumns = `e2eid, company_id, app_id, chave, txid, cob_id, valor, horario, body`

func loadReceived(ctx context.Context, tx *store.Tx, companyID, e2eid string) (*received, error) {
	p, err := scanReceived(tx.QueryRowContext(ctx, `SELECT `+receivedColumns+` FROM pix_received WHERE company_id = ? AND e2eid = ?`, companyID, e2eid))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return p, err
}

// full returns the Pix as the API answers it: with its refunds.
func (p *received) full(ctx context.Context, tx *store.Tx) (doc, error) {
	d := clone(p.Body)
	refunds, err := refundsOf(ctx, tx, p.E2EID)
	if err != nil {
		return nil, err
	}
	if len(refunds) > 0 {
		d["devolucoes"] = refunds
	}
	return d, nil
}

// pixOfCharge returns the Pix that paid a charge, for CobCompleta.pix[].
func pixOfCharge(ctx context.Context, tx *store.Tx, cobID int64) ([]doc, error) {
	// Most charges are read unpaid: a one-row probe is a third of the cost
	// of opening a result set that turns out empty.
	var paid bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pix_received WHERE cob_id = ?)`, cobID).Scan(&paid); err != nil || !paid {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+receivedColumns+` FROM pix_received WHERE cob_id = ? ORDER BY horario, e2eid`, cobID)
	if err != nil {
		return nil, err
	}
	var list []*received
	for rows.Next() {
		p, err := scanReceived(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		list = append(list, p)
	}
	rows.Close()
	var out []doc
	for _, p := range list {
		d, err := p.full(ctx, tx)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// notify tells the partner about a Pix: the official callback POST
// {webhookUrl}/pix with {"pix":[…]} when the key has a webhook and the Pix
// has a txid (the spec notifies only those), and an event on the stream in
// any case. Events of one Pix are delivered in order (payment, refunds).
func (s *Service) notify(ctx context.Context, tx *store.Tx, p *received, typ, name string, extra doc) error {
	full, err := p.full(ctx, tx)
	if err != nil {
		return err
	}
	targets := []events.Target{}
	if p.TxID != "" {
		w, err := loadWebhook(ctx, tx, p.CompanyID, p.Chave)
		if err != nil {
			return err
		}
		if w != nil {
			b, _ := json.Marshal(doc{"pix": []doc{full}})
			targets = append(targets, events.Target{URL: callbackURL(w.URL), Body: b})
		}
	}
	co, err := s.company(ctx, tx, p.CompanyID)
	if err != nil {
		return err
	}
	cnpj := co.CNPJ
	subject := doc{"endToEndId": p.E2EID, "chave": p.Chave}
	if p.TxID != "" {
		subject["txid"] = p.TxID
	}
	data := doc{"pix": full}
	for k, v := range extra {
		data[k] = v
	}
	_, err = s.Bus.Emit(ctx, tx, events.Event{
		AppID: p.AppID, CNPJ: cnpj, Type: typ, Name: name, Subject: subject, SubjectKey: "pix:" + p.E2EID, Data: data, Targets: targets,
	})
	return err
}

// getPix is GET /pix/{e2eid}.
func (s *Service) getPix(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	e2eid := mux.Vars(r)["e2eid"]
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		p, err := loadReceived(ctx, tx, principal(r).CompanyID, e2eid)
		if err != nil {
			return err
		}
		if p == nil {
			return notFound("PixNaoEncontrado", "nenhum Pix com endToEndId %s", e2eid)
		}
		out, err = p.full(ctx, tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// listPix is GET /pix: the Pix received, filtered by txid, presence of a
// txid or of refunds, and the payer's CPF or CNPJ.
func (s *Service) listPix(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	lq := parseList(r, "PixConsultaInvalida", true)
	txid := r.URL.Query().Get("txid")
	if txid != "" {
		if !txidAny.MatchString(txid) {
			lq.bad("txid", "deve ter de 1 a 35 caracteres alfanuméricos", txid)
		}
		lq.params["txid"] = txid
	}
	txPresent := lq.boolParam(r, "txIdPresente")
	refunded := lq.boolParam(r, "devolucaoPresente")
	if err := lq.err(); err != nil {
		return nil, err
	}
	where := []string{"company_id = ?", "horario >= ?", "horario <= ?", "(? = '' OR txid = ?)", "(? = '' OR pagador_cpf = ?)", "(? = '' OR pagador_cnpj = ?)"}
	args := []any{principal(r).CompanyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano(), txid, txid, lq.CPF, lq.CPF, lq.CNPJ, lq.CNPJ}
	if txPresent != nil {
		where = append(where, map[bool]string{true: "txid <> ''", false: "txid = ''"}[*txPresent])
	}
	if refunded != nil {
		where = append(where, map[bool]string{true: "", false: "NOT "}[*refunded]+"EXISTS (SELECT 1 FROM pix_refunds d WHERE d.e2eid = pix_received.e2eid)")
	}
	cond := strings.Join(where, " AND ")
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		params, rows, err := lq.pageRows(ctx, tx, "pix_received", receivedColumns, cond, "horario, e2eid", args)
		if err != nil {
			return err
		}
		var list []*received
		for rows.Next() {
			p, err := scanReceived(rows)
			if err != nil {
				rows.Close()
				return err
			}
			list = append(list, p)
		}
		rows.Close()
		items := []doc{}
		for _, p := range list {
			d, err := p.full(ctx, tx)
			if err != nil {
				return err
			}
			items = append(items, d)
		}
		// The list key is `pix`, as the property and the example say; the
		// schema's `required: [cobs]` is a defect (SUMMARY §12).
		out = doc{"parametros": params, "pix": items}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}
