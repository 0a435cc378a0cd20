package sale

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// billingIDs are the formasPagamento ids of each TIPO_COBRANCA. CREDITO
// is a card too: the 2025 client's widget flow sent it (insurance CLIENTS
// §6), and which of the two the insurer expects is not settled.
var billingIDs = map[string]int{"BOLETO": 1, "CARTAO": 2, "CREDITO": 2, "DEBITO": 3, "FOLHA": 4}

// Payer is who pays a proposal or an enrollment: the company selling it
// and the proponent's CPF.
type Payer struct{ CompanyID, CPF string }

// Billing is a DADOS_COBRANCA block to check: for which offer and payer,
// where its fields are (Prefix: PROPOSTA.DADOS_COBRANCA, or "" for an
// enrollment's change of billing method), the premium a card must cover,
// the proposal it is for, and the card the proposal carried (TakeCard).
type Billing struct {
	Offer  *catalog.Offer
	Payer  Payer
	Block  map[string]any
	Prefix string
	Premio money.Cents
	Numero int64
	Card   Card
	Now    time.Time
}

// field names a field of the block.
func (b Billing) field(name string) string {
	if b.Prefix == "" {
		return name
	}
	return b.Prefix + "." + name
}

// CheckBilling checks a DADOS_COBRANCA block for its method (see
// checkBillingBlock). A card is paid by the credit-card widget's
// pre-authorisation, which must be the payer's, cover the premium and be
// unused, or by the card the proposal carried, authorised here as the
// widget would; either is used up for the proposal.
func CheckBilling(ctx context.Context, tx *store.Tx, b Billing) error {
	code, err := checkBillingBlock(b)
	switch {
	case err != nil:
		return err
	case code != "":
		return usePreauth(ctx, tx, b.Payer, code, b.Premio, b.Numero)
	case b.Card.Numero != "":
		return authorizeCard(ctx, tx, b)
	}
	return nil
}

// checkBillingBlock checks one DADOS_COBRANCA block: a method the offer
// accepts, a due day it offers, and the method's own data complete; a
// card as a pre-authorisation code (which it returns; 0 is none, as the
// 2025 client sends it beside the card) or as the card itself.
func checkBillingBlock(b Billing) (preauth string, err error) {
	o, cob, field := b.Offer, b.Block, b.field
	tipo := wire.Str(cob, "TIPO_COBRANCA")
	if !slices.ContainsFunc(o.FormasPagamento, func(d catalog.Dominio) bool { return d.ID == billingIDs[tipo] }) {
		return "", wire.Rule(field("TIPO_COBRANCA"), "FORMA_DE_COBRANCA_INVALIDA", "o modelo %s não aceita cobrança por %s", o.ID, tipo)
	}
	if tipo != "FOLHA" {
		dia, err := wire.Int(cob["DIA_VENCIMENTO"])
		if err != nil || !slices.Contains(o.DiasVencimento, dia) {
			return "", wire.Rule(field("DIA_VENCIMENTO"), "DIA_VENCIMENTO_INVALIDO", "DIA_VENCIMENTO deve ser um dos dias do modelo %s: %v", o.ID, o.DiasVencimento)
		}
	}
	var vs wire.Violations
	need := func(block string, fields ...string) {
		for _, k := range fields {
			if wire.Str(wire.Obj(cob, block), k) == "" {
				vs.Add(field(block)+"."+k, "obrigatório para cobrança por %s", tipo)
			}
		}
	}
	switch tipo {
	case "CARTAO", "CREDITO":
		if preauth = wire.Str(wire.Obj(cob, "CARTAO"), "NUM_PRE_AUTORIZACAO"); preauth == "0" {
			preauth = ""
		}
		if preauth == "" && b.Card.Numero == "" {
			vs.Add(field("CARTAO")+".NUM_PRE_AUTORIZACAO", "obrigatório para cobrança por %s: o código do widget de cartão de crédito, ou o cartão (CARTAO.NUMERO e VALIDADE)", tipo)
		}
	case "DEBITO":
		need("CONTA_CORRENTE", "BANCO", "AGENCIA", "CONTA", "DIGITO_CONTA")
	case "FOLHA":
		need("CONSIGNACAO", "MATRICULA", "ORGAO")
	}
	if err := vs.Err("DADOS_DE_COBRANCA_INCOMPLETOS", "dados de cobrança incompletos"); err != nil {
		return "", err
	}
	return preauth, nil
}

// usePreauth uses up pre-authorisation code for proposal numero.
func usePreauth(ctx context.Context, tx *store.Tx, payer Payer, code string, premio money.Cents, numero int64) error {
	a, err := loadPreauth(ctx, tx, payer.CompanyID, code)
	if err != nil {
		return err
	}
	if err := checkPreauth(a, payer, code, premio); err != nil {
		return err
	}
	return markPreauthUsed(ctx, tx, code, numero)
}

// authorizeCard holds the premium on the card a proposal carried, as the
// credit-card widget would (the same test cards; a retry card is approved
// at once, since the proposal is one attempt), and keeps only its last
// four digits, used up for the proposal.
func authorizeCard(ctx context.Context, tx *store.Tx, b Billing) error {
	c := b.Card
	if !luhn(c.Numero) {
		return errs.Invalidf(b.field("CARTAO.NUMERO"), "número de cartão inválido (dígito verificador)")
	}
	if err := checkValidade(b.field("CARTAO.VALIDADE"), c.Validade, b.Now); err != nil {
		return err
	}
	if reason, declined := declinedCards[c.Numero]; declined {
		return wire.Rule(b.field("CARTAO.NUMERO"), "PRE_AUTORIZACAO_NEGADA", "%s", reason)
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("cartao:%s:%d", b.Payer.CompanyID, b.Numero)))
	a := &preautorizacao{Code: "PA" + strings.ToUpper(hex.EncodeToString(sum[:6])), CompanyID: b.Payer.CompanyID, CPF: b.Payer.CPF,
		Valor: b.Premio, Bandeira: wire.OrDefault(c.Bandeira, brand(c.Numero)), Final: c.Numero[len(c.Numero)-4:]}
	if err := insertPreautorizacao(ctx, tx, a, b.Now); err != nil {
		return err
	}
	return markPreauthUsed(ctx, tx, a.Code, b.Numero)
}
