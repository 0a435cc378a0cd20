package sale

import (
	"context"
	"slices"

	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
)

// billingIDs are the formasPagamento ids of each TIPO_COBRANCA.
var billingIDs = map[string]int{"BOLETO": 1, "CARTAO": 2, "DEBITO": 3, "FOLHA": 4}

// Payer is who pays a proposal or an enrollment: the company selling it
// and the proponent's CPF.
type Payer struct{ CompanyID, CPF string }

// CheckBilling checks a DADOS_COBRANCA block for its method (see
// checkBillingBlock); a card's pre-authorisation must be the payer's, cover
// premio and be unused, and is used up for proposal numero. prefix names
// the block's fields: PROPOSTA.DADOS_COBRANCA, or "" for an enrollment's
// change of billing method.
func CheckBilling(ctx context.Context, tx *store.Tx, o *catalog.Offer, payer Payer, cob map[string]any, prefix string, premio money.Cents, numero int64) error {
	code, err := checkBillingBlock(o, cob, prefix)
	if err != nil || code == "" {
		return err
	}
	return usePreauth(ctx, tx, payer, code, premio, numero)
}

// checkBillingBlock checks one DADOS_COBRANCA block: a method the offer
// accepts, a due day it offers, and the method's own data complete; a
// card only as a pre-authorisation code, which it returns.
func checkBillingBlock(o *catalog.Offer, cob map[string]any, prefix string) (preauth string, err error) {
	tipo := wire.Str(cob, "TIPO_COBRANCA")
	field := func(name string) string {
		if prefix == "" {
			return name
		}
		return prefix + "." + name
	}
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
	case "CARTAO":
		need("CARTAO", "NUM_PRE_AUTORIZACAO")
		preauth = wire.Str(wire.Obj(cob, "CARTAO"), "NUM_PRE_AUTORIZACAO")
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
