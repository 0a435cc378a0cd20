package pix

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
	"homologa/simulator/tenant"
)

// Payment is what the simulated payer is told to do (POST
// /sandbox/pix/payments): pay a charge found by txid or location, or credit
// a key without a charge.
type Payment struct {
	TxID     string `json:"txid"`
	CNPJ     string `json:"cnpj"` // the receiver's, when a txid is not enough
	Location string `json:"location"`
	Chave    string `json:"chave"`
	Valor    string `json:"valor"`
	Pagador  *struct {
		CPF  string `json:"cpf"`
		CNPJ string `json:"cnpj"`
		Nome string `json:"nome"`
	} `json:"pagador"`
	InfoPagador string `json:"infoPagador"`
	// ValorDivergente pays Valor even where the charge does not let the
	// payer change the amount: a wrong payment the partner must reconcile.
	ValorDivergente bool   `json:"valorDivergente"`
	ISPB            string `json:"ispb"`
}

// pay is POST /sandbox/pix/payments.
func (s *Service) pay(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in Payment
	if err := httpx.DecodeJSON(r, s.Schemas, "platform/pix.payment", &in); err != nil {
		return nil, err
	}
	if in.ISPB == "" {
		in.ISPB = PayerISPB
	}
	if in.Pagador != nil {
		if in.Pagador.CPF != "" {
			if err := taxid.CheckCPF(in.Pagador.CPF); err != nil {
				return nil, errs.Invalidf("pagador.cpf", "%v", err)
			}
		}
		if in.Pagador.CNPJ != "" {
			if err := taxid.CheckCNPJ(in.Pagador.CNPJ); err != nil {
				return nil, errs.Invalidf("pagador.cnpj", "%v", err)
			}
		}
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		var err error
		if in.TxID == "" && in.Location == "" {
			out, err = s.credit(ctx, tx, in)
		} else {
			out, err = s.payCharge(ctx, tx, in)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(out), nil
}

func (s *Service) findCharge(ctx context.Context, tx *store.Tx, in Payment) (*charge, error) {
	if in.Location != "" {
		token := in.Location[strings.LastIndex(in.Location, "/")+1:]
		var companyID string
		var cobID sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT company_id, cob_id FROM pix_locs WHERE token = ?`, token).Scan(&companyID, &cobID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errs.Invalidf("location", "no location %q", in.Location)
		}
		if err != nil {
			return nil, err
		}
		if !cobID.Valid {
			return nil, errs.Errorf(errs.Unprocessable, "location %s serves no charge (it was never linked or was unlinked)", in.Location)
		}
		var txid string
		if err := tx.QueryRowContext(ctx, `SELECT txid FROM pix_cobs WHERE id = ?`, cobID.Int64).Scan(&txid); err != nil {
			return nil, err
		}
		return loadCharge(ctx, tx, companyID, txid)
	}
	rows, err := tx.QueryContext(ctx, `SELECT p.company_id FROM pix_cobs p JOIN companies c ON c.id = p.company_id WHERE p.txid = ? AND (? = '' OR c.cnpj = ?)`,
		in.TxID, in.CNPJ, in.CNPJ)
	if err != nil {
		return nil, err
	}
	var companies []string
	for rows.Next() {
		var id string
		rows.Scan(&id)
		companies = append(companies, id)
	}
	rows.Close()
	switch len(companies) {
	case 0:
		return nil, errs.Invalidf("txid", "no charge with txid %q", in.TxID)
	case 1:
		return loadCharge(ctx, tx, companies[0], in.TxID)
	}
	return nil, errs.Invalidf("cnpj", "txid %s is used by %d receivers; name the receiver's CNPJ", in.TxID, len(companies))
}

// payCharge pays a charge as a payer's bank would: it must be ATIVA, not
// expired, and paid the amount it asks unless it lets the payer change it.
func (s *Service) payCharge(ctx context.Context, tx *store.Tx, in Payment) (doc, error) {
	c, err := s.findCharge(ctx, tx, in)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, errs.Invalidf("txid", "no charge with txid %q", in.TxID)
	}
	return s.payLoaded(ctx, tx, c, in)
}

// payLoaded pays a charge already found: the control API's payer and the
// scenario steps pay the same way.
func (s *Service) payLoaded(ctx context.Context, tx *store.Tx, c *charge, in Payment) (doc, error) {
	if c.Status != Ativa {
		return nil, errs.Errorf(errs.Unprocessable, "charge %s is %s: it accepts no payment", c.TxID, c.Status)
	}
	now := s.Clock.Now()
	owed, components, err := s.owed(c, now)
	if err != nil {
		return nil, errs.Errorf(errs.Unprocessable, "charge %s cannot be paid: %v", c.TxID, err)
	}
	valor := owed
	if in.Valor != "" {
		paid, err := parseCents(in.Valor)
		if err != nil {
			return nil, errs.Invalidf("valor", "%v", err)
		}
		alterable := sub(c.Body, "valor")["modalidadeAlteracao"] == float64(1)
		if paid != owed && !alterable && !in.ValorDivergente {
			return nil, errs.Errorf(errs.Unprocessable, "charge %s asks %s and does not let the payer change it; send valorDivergente: true to pay %s anyway",
				c.TxID, formatCents(owed), in.Valor)
		}
		if paid != owed {
			valor = paid
			components = doc{"original": doc{"valor": formatCents(paid)}}
		}
	}
	chave := str(c.Body, "chave")
	p, err := s.insertReceived(ctx, tx, in, c.CompanyID, c.AppID, chave, c, valor, components, now)
	if err != nil {
		return nil, err
	}
	if _, err := s.move(ctx, tx, c, Concluida, false); err != nil {
		return nil, err
	}
	if err := s.notify(ctx, tx, p, "pix.recebido", "Pix Recebido", nil); err != nil {
		return nil, err
	}
	if err := s.trigger(ctx, tx, c, "paid"); err != nil {
		return nil, err
	}
	// A composite QR (journeys 3 and 4): paying the charge authorises the
	// recurrence that names it.
	if err := s.approveByPayment(ctx, tx, c, in); err != nil {
		return nil, err
	}
	return p.Body, nil
}

// credit receives a Pix on a key without a charge (no txid): the case of a
// payer typing the key by hand. It is listed in GET /pix but, having no
// txid, not notified by the /pix callback.
func (s *Service) credit(ctx context.Context, tx *store.Tx, in Payment) (doc, error) {
	if in.Chave == "" {
		return nil, errs.Invalidf("txid", "name what is paid: txid, location, or chave with valor for a Pix without a charge")
	}
	if in.Valor == "" {
		return nil, errs.Invalidf("valor", "a Pix without a charge needs a valor")
	}
	valor, err := parseCents(in.Valor)
	if err != nil || valor <= 0 {
		return nil, errs.Invalidf("valor", "want a positive amount such as 10.00")
	}
	var appID, companyID string
	err = tx.QueryRowContext(ctx, `SELECT app_id, company_id FROM pix_keys WHERE namespace = ? AND chave = ?`, tenant.Namespace(ctx), in.Chave).Scan(&appID, &companyID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.Invalidf("chave", "no receiver has the key %q in this sandbox", in.Chave)
	}
	if err != nil {
		return nil, err
	}
	p, err := s.insertReceived(ctx, tx, in, companyID, appID, in.Chave, nil, valor, doc{"original": doc{"valor": formatCents(valor)}}, s.Clock.Now())
	if err != nil {
		return nil, err
	}
	if err := s.notify(ctx, tx, p, "pix.recebido", "Pix Recebido", nil); err != nil {
		return nil, err
	}
	return p.Body, nil
}

func (s *Service) insertReceived(ctx context.Context, tx *store.Tx, in Payment, companyID, appID, chave string, c *charge, valor int64, components doc, now time.Time) (*received, error) {
	p := &received{E2EID: NewEndToEndID(s.DB.IDs, in.ISPB, now), CompanyID: companyID, AppID: appID, Chave: chave, Valor: valor, Horario: now}
	p.Body = doc{"endToEndId": p.E2EID, "valor": formatCents(valor), "chave": chave, "horario": rfc3339(now), "componentesValor": components}
	if c != nil {
		p.TxID, p.CobID = c.TxID, sql.NullInt64{Int64: c.ID, Valid: true}
		p.Body["txid"] = c.TxID
	}
	if in.InfoPagador != "" {
		p.Body["infoPagador"] = in.InfoPagador
	}
	var cpf, cnpj string
	if in.Pagador != nil {
		cpf, cnpj = in.Pagador.CPF, in.Pagador.CNPJ
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO pix_received (e2eid, company_id, app_id, chave, txid, cob_id, valor, pagador_cpf, pagador_cnpj, horario, body)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.E2EID, companyID, appID, chave, p.TxID, p.CobID, valor, cpf, cnpj, now.UnixNano(), marshal(p.Body))
	if err != nil {
		return nil, fmt.Errorf("store the Pix: %w", err)
	}
	return p, nil
}

// owedCob is what an immediate charge asks: its original value (plus a
// saque or troco), refused once calendario.expiracao has passed.
func owedCob(c *charge, now time.Time) (int64, doc, error) {
	exp, ok := sub(c.Body, "calendario")["expiracao"].(float64)
	if !ok {
		exp = defaultExpiracao
	}
	if deadline := c.CreatedAt.Add(time.Duration(exp) * time.Second); now.After(deadline) {
		return 0, nil, fmt.Errorf("it expired at %s (calendario.expiracao %d s)", rfc3339(deadline), int64(exp))
	}
	valor := sub(c.Body, "valor")
	original, _ := parseCents(str(valor, "original"))
	components := doc{"original": doc{"valor": formatCents(original)}}
	total := original
	if ret := sub(valor, "retirada"); ret != nil {
		for _, kind := range []string{"saque", "troco"} {
			if r := sub(ret, kind); r != nil {
				v, _ := parseCents(str(r, "valor"))
				total += v
				components[kind] = doc{"valor": formatCents(v), "modalidadeAgente": r["modalidadeAgente"], "prestadorDoServicoDeSaque": r["prestadorDoServicoDeSaque"]}
			}
		}
	}
	return total, components, nil
}
