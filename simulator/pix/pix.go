package pix

import (
	"context"
	"database/sql"
	"time"

	"homologa/simulator/events"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// pixRecebido is a Pix credited to one of the receiver's keys.
type pixRecebido struct {
	E2EID     string
	CompanyID string
	AppID     string
	Chave     string
	TxID      string
	CobID     sql.NullInt64
	Valor     money.Cents
	Horario   time.Time
	Body      doc
}

var pixAbsent = absent{typ: "PixNaoEncontrado", format: "nenhum Pix com endToEndId %v"}

// pixFilter is what GET /pix filters by, beyond the common parameters.
type pixFilter struct {
	txid                        string
	txPresent, devolucaoPresent *bool
}

// getPix is a received Pix as the API answers it.
func (s *Service) getPix(ctx context.Context, companyID, e2eid string) (doc, error) {
	return view(ctx, s.DB, findPix, companyID, e2eid, pixAbsent, func(tx *store.Tx, p *pixRecebido) (doc, error) {
		return p.full(ctx, tx)
	})
}

// listPix is GET /pix's answer. The list key is `pix`, as the property and
// the example say; the schema's `required: [cobs]` is a defect (SUMMARY
// §12).
func (s *Service) listPix(ctx context.Context, companyID string, lq *listQuery, f pixFilter) (doc, error) {
	return list(ctx, s.DB, lq, pixListing(companyID, lq, f), "pix", scanPix,
		func(ctx context.Context, tx *store.Tx, p *pixRecebido) (any, error) { return p.full(ctx, tx) })
}

// full returns the Pix as the API answers it: with its refunds.
func (p *pixRecebido) full(ctx context.Context, tx *store.Tx) (doc, error) {
	d := clone(p.Body)
	devolucoes, err := findDevolucoes(ctx, tx, p.E2EID)
	if err != nil {
		return nil, err
	}
	if len(devolucoes) > 0 {
		d["devolucoes"] = devolucoes
	}
	return d, nil
}

// pixOfCharge returns the Pix that paid a charge, for CobCompleta.pix[].
func pixOfCharge(ctx context.Context, tx *store.Tx, cobID int64) ([]doc, error) {
	list, err := findPixOfCharge(ctx, tx, cobID)
	if err != nil {
		return nil, err
	}
	var out []doc
	for _, p := range list {
		d, err := p.full(ctx, tx)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// notify tells the partner about a Pix: the official callback POST
// {webhookUrl}/pix with {"pix":[…]} when the key has a webhook and the Pix
// has a txid (the spec notifies only those), and an event on the stream in
// any case. Events of one Pix are delivered in order (payment, refunds).
func (s *Service) notify(ctx context.Context, tx *store.Tx, p *pixRecebido, typ, name string, extra doc) error {
	full, err := p.full(ctx, tx)
	if err != nil {
		return err
	}
	targets := []events.Target{}
	if p.TxID != "" {
		if targets, err = pixTargets(ctx, tx, p.CompanyID, p.Chave, full); err != nil {
			return err
		}
	}
	co, err := findCompany(ctx, tx, p.CompanyID)
	if err != nil {
		return err
	}
	subject := doc{"endToEndId": p.E2EID, "chave": p.Chave}
	if p.TxID != "" {
		subject["txid"] = p.TxID
	}
	data := doc{"pix": full}
	for k, v := range extra {
		data[k] = v
	}
	_, err = s.Bus.Emit(ctx, tx, events.Event{
		AppID: p.AppID, CNPJ: co.CNPJ, Type: typ, Name: name, Subject: subject, SubjectKey: "pix:" + p.E2EID, Data: data, Targets: targets,
	})
	return err
}
