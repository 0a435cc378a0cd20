package pix

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/money"
	"homologa/simulator/scenario"
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

// paymentRule checks the payer's CPF or CNPJ.
func paymentRule(in Payment) error {
	if in.Pagador == nil {
		return nil
	}
	if in.Pagador.CPF != "" {
		if err := taxid.CheckCPF(in.Pagador.CPF); err != nil {
			return errs.Invalidf("pagador.cpf", "CPF inválido: %v", err)
		}
	}
	if in.Pagador.CNPJ != "" {
		if err := taxid.CheckCNPJ(in.Pagador.CNPJ); err != nil {
			return errs.Invalidf("pagador.cnpj", "CNPJ inválido: %v", err)
		}
	}
	return nil
}

// pay pays a charge, or credits a key when the payment names no charge.
// A company's token pays only that company's charges and keys; the
// operator's pays any company's.
func (s *Service) pay(ctx context.Context, in Payment) (doc, error) {
	if in.ISPB == "" {
		in.ISPB = PayerISPB
	}
	if err := paymentRule(in); err != nil {
		return nil, err
	}
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		if in.TxID == "" && in.Location == "" {
			return s.credit(ctx, tx, in)
		}
		c, err := s.chargeToPay(ctx, tx, in)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return nil, errs.Invalidf("txid", "nenhuma cobrança com txid %q", in.TxID)
		}
		return s.payLoaded(actingFor(ctx, c.CompanyID), tx, c, in)
	})
}

// mayActOn reports whether the caller may act on a company's resource:
// a company on its own only, the operator on any, a caller of no company
// on none. Another company's resource is answered as one that does not
// exist.
func mayActOn(ctx context.Context, companyID string) bool {
	sc, err := tenant.Of(ctx)
	return err == nil && sc.Includes(companyID)
}

// actingFor is ctx acting for the company that owns what the caller acts
// on: the operator acts for every company, yet what its action sets going
// (a scenario's next step, a job, an event) belongs to the resource's
// company and falls due on its clock.
func actingFor(ctx context.Context, companyID string) context.Context {
	if sc, _ := tenant.Of(ctx); !sc.Every() && sc.Includes(companyID) {
		return ctx
	}
	return tenant.With(ctx, companyID)
}

// chargeToPay is the charge a payment names, by its location or its txid:
// the payer reads a QR code, which names no receiver. nil when the caller
// has no such charge.
func (s *Service) chargeToPay(ctx context.Context, tx *store.Tx, in Payment) (*charge, error) {
	if in.Location != "" {
		return chargeAtLocation(ctx, tx, in.Location)
	}
	sc, err := tenant.Of(ctx)
	if err != nil {
		return nil, err
	}
	if company, one := sc.Company(); one {
		return s.companyChargeToPay(ctx, tx, company, in)
	}
	return chargeByTxid(ctx, tx, in)
}

// chargeAtLocation is the charge a location's URL serves, of the caller's
// company unless the operator pays.
func chargeAtLocation(ctx context.Context, tx *store.Tx, location string) (*charge, error) {
	l, err := findLocByToken(ctx, tx, location[strings.LastIndex(location, "/")+1:])
	if err != nil {
		return nil, err
	}
	if l == nil || !mayActOn(ctx, l.CompanyID) {
		return nil, errs.Invalidf("location", "nenhuma location %q", location)
	}
	if !l.CobID.Valid {
		return nil, errs.Errorf(errs.Unprocessable, "a location %s não serve a nenhuma cobrança (nunca foi vinculada ou foi desvinculada)", location)
	}
	return findChargeByID(ctx, tx, l.CompanyID, l.CobID.Int64)
}

// companyChargeToPay is the caller company's charge with the txid; a
// receiver's CNPJ, when the payment names one, must be the company's.
func (s *Service) companyChargeToPay(ctx context.Context, tx *store.Tx, companyID string, in Payment) (*charge, error) {
	if in.CNPJ != "" {
		co, err := findCompany(ctx, tx, companyID)
		if err != nil || co.CNPJ != in.CNPJ {
			return nil, err
		}
	}
	return findCharge(ctx, tx, companyID, in.TxID)
}

// chargeByTxid is the operator's payment by txid, which is unique per
// receiver only: with the receiver's CNPJ when receivers share it.
func chargeByTxid(ctx context.Context, tx *store.Tx, in Payment) (*charge, error) {
	companies, err := findChargeCompanies(ctx, tx, in.TxID, in.CNPJ)
	if err != nil {
		return nil, err
	}
	switch len(companies) {
	case 0:
		return nil, errs.Invalidf("txid", "nenhuma cobrança com txid %q", in.TxID)
	case 1:
		return findCharge(ctx, tx, companies[0], in.TxID)
	}
	return nil, errs.Invalidf("cnpj", "o txid %s é usado por %d recebedores; informe o CNPJ do recebedor", in.TxID, len(companies))
}

// payLoaded pays a charge as a payer's bank would: it must be ATIVA, not
// expired, and paid the amount it asks unless it lets the payer change it.
// The control API's payer and the scenario steps pay the same way.
func (s *Service) payLoaded(ctx context.Context, tx *store.Tx, c *charge, in Payment) (doc, error) {
	if c.Status != Ativa {
		return nil, errs.Errorf(errs.Unprocessable, "a cobrança %s está %s: não aceita pagamento", c.TxID, c.Status)
	}
	now := s.nowOf(c.CompanyID)
	valor, components, err := owed(c, now)
	if err != nil {
		return nil, errs.Errorf(errs.Unprocessable, "a cobrança %s não pode ser paga: %v", c.TxID, err)
	}
	if in.Valor != "" {
		if valor, components, err = paidAmount(c, in, valor, components); err != nil {
			return nil, err
		}
	}
	p := s.newPix(in, c.CompanyID, c.AppID, str(c.Body, "chave"), c, valor, components, now)
	if err := insertPix(ctx, tx, p, in); err != nil {
		return nil, err
	}
	if _, err := s.move(ctx, tx, c, Concluida, false, "paid"); err != nil {
		return nil, err
	}
	if err := s.notify(ctx, tx, p, "pix.recebido", "Pix Recebido", nil); err != nil {
		return nil, err
	}
	// A composite QR (journeys 3 and 4): paying the charge authorises the
	// recurrence that names it.
	return p.Body, s.approveByPayment(ctx, tx, c, in)
}

// paidAmount is what a payment that names its valor pays: what the charge
// owes, or another amount where the charge lets the payer change it or
// the payer means to pay wrong (valorDivergente).
func paidAmount(c *charge, in Payment, owed money.Cents, components doc) (money.Cents, doc, error) {
	paid, err := money.Parse(in.Valor)
	if err != nil {
		return 0, nil, errs.Invalidf("valor", "%q %s", in.Valor, moneyReason)
	}
	if paid == owed {
		return owed, components, nil
	}
	alterable := sub(c.Body, "valor")["modalidadeAlteracao"] == float64(1)
	if !alterable && !in.ValorDivergente {
		return 0, nil, errs.Errorf(errs.Unprocessable, "a cobrança %s pede %s e não deixa o pagador alterar o valor; envie valorDivergente: true para pagar %s mesmo assim",
			c.TxID, owed, in.Valor)
	}
	return paid, doc{"original": doc{"valor": paid.String()}}, nil
}

// credit receives a Pix on a key without a charge (no txid): the case of a
// payer typing the key by hand. It is listed in GET /pix but, having no
// txid, not notified by the /pix callback.
func (s *Service) credit(ctx context.Context, tx *store.Tx, in Payment) (doc, error) {
	if in.Chave == "" {
		return nil, errs.Invalidf("txid", "diga o que é pago: txid, location, ou chave com valor para um Pix sem cobrança")
	}
	if in.Valor == "" {
		return nil, errs.Invalidf("valor", "um Pix sem cobrança precisa de valor")
	}
	valor, err := money.Parse(in.Valor)
	if err != nil || valor <= 0 {
		return nil, errs.Invalidf("valor", "deve ser um valor positivo, como 10.00")
	}
	appID, companyID, err := keyReceiver(ctx, tx, in.Chave)
	if err != nil {
		return nil, err
	}
	if appID == "" {
		return nil, errs.Invalidf("chave", "nenhum recebedor tem a chave %q neste sandbox", in.Chave)
	}
	p := s.newPix(in, companyID, appID, in.Chave, nil, valor, doc{"original": doc{"valor": valor.String()}}, s.nowOf(companyID))
	if err := insertPix(ctx, tx, p, in); err != nil {
		return nil, err
	}
	return p.Body, s.notify(actingFor(ctx, companyID), tx, p, "pix.recebido", "Pix Recebido", nil)
}

// keyReceiver is the app and company that receive on a key: among the
// caller company's keys (a job's included, which names no namespace), or
// for the operator in the namespace its request names, where a key has one
// owner; both "" when none.
func keyReceiver(ctx context.Context, tx *store.Tx, chave string) (appID, companyID string, err error) {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return "", "", err
	}
	if company, one := sc.Company(); one {
		return findCompanyKeyReceiver(ctx, tx, company, chave)
	}
	return findKeyReceiver(ctx, tx, tenant.Namespace(ctx), chave)
}

// newPix is the Pix a payment makes, paying charge c (nil: none).
func (s *Service) newPix(in Payment, companyID, appID, chave string, c *charge, valor money.Cents, components doc, now time.Time) *pixRecebido {
	p := &pixRecebido{E2EID: NewEndToEndID(s.DB.IDs, in.ISPB, now), CompanyID: companyID, AppID: appID, Chave: chave, Valor: valor, Horario: now}
	p.Body = doc{"endToEndId": p.E2EID, "valor": valor.String(), "chave": chave, "horario": rfc3339(now), "componentesValor": components}
	if c != nil {
		p.TxID, p.CobID = c.TxID, sql.NullInt64{Int64: c.ID, Valid: true}
		p.Body["txid"] = c.TxID
	}
	if in.InfoPagador != "" {
		p.Body["infoPagador"] = in.InfoPagador
	}
	return p
}

// payer is the CPF and CNPJ of who pays, "" when not said.
func (in Payment) payer() (cpf, cnpj string) {
	if in.Pagador == nil {
		return "", ""
	}
	return in.Pagador.CPF, in.Pagador.CNPJ
}

// settleDevolucaoNow decides a refund still processing.
func (s *Service) settleDevolucaoNow(ctx context.Context, e2eid, id, status, motivo string) (doc, error) {
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		return s.settleDevolucao(ctx, tx, e2eid, id, status, motivo)
	})
}

// payerActions are the payer's answers to a recurrence, by the control
// API's verb.
var payerActions = map[string]string{"aprovar": RecAprovada, "rejeitar": RecRejeitada, "cancelar": RecCancelada}

// payerActsOnRec plays the payer on a recurrence, as its scenario would:
// on the caller company's recurrence, or any company's for the operator.
func (s *Service) payerActsOnRec(ctx context.Context, idRec, acao, codigo string) (doc, error) {
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		rc, err := findRecByID(ctx, tx, idRec)
		if err != nil {
			return nil, err
		}
		if rc == nil || !mayActOn(ctx, rc.CompanyID) {
			return nil, errs.Errorf(errs.NotFound, "nenhuma recorrência %s", idRec)
		}
		ctx := actingFor(ctx, rc.CompanyID)
		step := scenario.Step{Verb: "status", Status: payerActions[acao], Reason: codigo}
		if _, err := (runner{do: s.recStep}).Do(ctx, tx, &scenario.Binding{Key: rc.ID, AppID: rc.AppID}, step); err != nil {
			return nil, err
		}
		return s.recCompleta(ctx, tx, rc)
	})
}

// payerActsOnCobR plays the payer's PSP on the open attempt of a recurring
// charge, as its scenario would: the caller company's charge, or for the
// operator whoever's has the txid.
func (s *Service) payerActsOnCobR(ctx context.Context, txid, acao, codigo string) (doc, error) {
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		c, err := cobrToActOn(ctx, tx, txid)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return nil, errs.Errorf(errs.NotFound, "nenhuma cobrança recorrente %s", txid)
		}
		ctx := actingFor(ctx, c.CompanyID)
		step := scenario.Step{Verb: "pay"}
		if acao == "rejeitar" {
			step = scenario.Step{Verb: "refuse", Reason: codigo}
		}
		if _, err := (runner{do: s.cobrStep}).Do(ctx, tx, &scenario.Binding{Key: cobrKey(c)}, step); err != nil {
			return nil, err
		}
		if c, err = findCobR(ctx, tx, c.CompanyID, c.TxID); c == nil {
			return nil, err
		}
		return c.Body, err
	})
}

// cobrToActOn is the recurring charge the payer names by txid: the caller
// company's, or for the operator whoever's has it; nil when none.
func cobrToActOn(ctx context.Context, tx *store.Tx, txid string) (*cobr, error) {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return nil, err
	}
	if company, one := sc.Company(); one {
		return findCobR(ctx, tx, company, txid)
	}
	return findCobRByTxid(ctx, tx, txid)
}
