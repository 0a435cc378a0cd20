package sale

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
	"homologa/simulator/tenant"
)

// Test cards, as a payment gateway's sandbox documents them (README
// "Widgets" has the same table):
//
//	number             answer
//	4111111111111111   approved (VISA; any other Luhn-valid number too)
//	5555555555554444   approved (MASTERCARD)
//	4000000000000002   422 PRE_AUTORIZACAO_NEGADA: CARTAO_RECUSADO
//	4000000000009995   422 PRE_AUTORIZACAO_NEGADA: SALDO_INSUFICIENTE
//	4000000000000119   422 PRE_AUTORIZACAO_TENTE_NOVAMENTE, then approved:
//	                   attempts for one company alternate refusal, approval
//
// A validade in the past (the company's clock) is a 400 on validade.
var declinedCards = map[string]string{
	"4000000000000002": "CARTAO_RECUSADO: transação negada pelo emissor",
	"4000000000009995": "SALDO_INSUFICIENTE: limite insuficiente",
}

// retryCards refuse once with a retryable code and approve the next
// attempt, so a partner can prove its page lets the customer try again.
// The state is a row per company in card_retries, in the database like
// everything else a --db sandbox keeps across restarts.
var retryCards = map[string]string{
	"4000000000000119": "EMISSOR_INDISPONIVEL: o emissor não respondeu a tempo; tente novamente",
}

// preautorizacaoIn is what the credit-card widget sends: the card stops
// here, the partner only ever gets the code.
type preautorizacaoIn struct {
	// CNPJ names the company when the operator calls (in the namespace
	// the call names); an app's call is for its own company.
	CNPJ     string
	CPF      string
	Valor    any
	Numero   string
	Bandeira string
	Validade string
}

// preautorizacao is a card pre-authorisation: an amount held on a card,
// for a proposal of the CPF to use once.
type preautorizacao struct {
	Code, CompanyID, CPF, Bandeira, Final string
	Valor                                 money.Cents
	// UsedBy is the proposal that used it, 0 while unused.
	UsedBy int64
}

// checkCard checks the card and the amount before anything is held: a
// valid CPF, a positive amount, a Luhn-valid number, an unexpired card
// (judged on the company's date), and not a test card the issuer declines.
func checkCard(in preautorizacaoIn, now time.Time) (money.Cents, error) {
	if err := taxid.CheckCPF(in.CPF); err != nil {
		return 0, errs.Invalidf("cpf", "CPF inválido: %v", err)
	}
	valor, err := wire.Money(in.Valor)
	if err != nil || valor <= 0 {
		return 0, errs.Invalidf("valor", "valor deve ser um número positivo")
	}
	if !luhn(in.Numero) {
		return 0, errs.Invalidf("numero", "número de cartão inválido (dígito verificador)")
	}
	if err := checkValidade("validade", in.Validade, now); err != nil {
		return 0, err
	}
	if reason, ok := declinedCards[in.Numero]; ok {
		return 0, wire.Rule("numero", "PRE_AUTORIZACAO_NEGADA", "%s", reason)
	}
	return valor, nil
}

// holdAmount holds the amount on the card and returns the code the
// proposal carries (CARTAO.NUM_PRE_AUTORIZACAO). A retry card's refusal
// is recorded, so the next attempt approves.
func (s *Service) holdAmount(ctx context.Context, in preautorizacaoIn) (*preautorizacao, error) {
	company, err := s.holder(ctx, in.CNPJ)
	if err != nil {
		return nil, err
	}
	// The card's expiry is judged on the company's date: a company that
	// advanced its clock past the card's month sees it expired.
	now := s.NowOf(company)
	valor, err := checkCard(in, now)
	if err != nil {
		return nil, err
	}
	a := &preautorizacao{CompanyID: company, CPF: in.CPF, Valor: valor, Bandeira: wire.OrDefault(in.Bandeira, brand(in.Numero)),
		Final: in.Numero[len(in.Numero)-4:]}
	refused := false
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, ok := retryCards[in.Numero]; ok {
			if refused, err = alternateRetry(ctx, tx, a.CompanyID, a.Final, now); err != nil || refused {
				// The refusal is recorded and committed, so it is
				// answered after the transaction rather than by failing it.
				return err
			}
		}
		sum := sha256.Sum256([]byte(s.DB.IDs.UUID()))
		a.Code = "PA" + strings.ToUpper(hex.EncodeToString(sum[:6]))
		return insertPreautorizacao(ctx, tx, a, now)
	})
	if err != nil {
		return nil, err
	}
	if refused {
		return nil, wire.Rule("numero", "PRE_AUTORIZACAO_TENTE_NOVAMENTE", "%s", retryCards[in.Numero])
	}
	return a, nil
}

// holder is the company a pre-authorisation is for: the calling app's, or
// the one the operator names by CNPJ.
func (s *Service) holder(ctx context.Context, cnpj string) (string, error) {
	sc, err := tenant.Of(ctx)
	if err != nil {
		return "", err
	}
	if company, one := sc.Company(); one {
		return company, nil
	}
	return s.companyByCNPJ(ctx, cnpj)
}

// companyByCNPJ finds the company the operator's call names.
func (s *Service) companyByCNPJ(ctx context.Context, cnpj string) (string, error) {
	if cnpj == "" {
		return "", errs.Invalidf("cnpj", "informe o CNPJ da empresa (ou chame com o token do app)")
	}
	c, err := s.Auth.Company(ctx, cnpj)
	if errs.Is(err, errs.NotFound) {
		return "", errs.Invalidf("cnpj", "nenhuma empresa com CNPJ %s", cnpj)
	}
	return c.ID, err
}

// checkValidade refuses an expired card when the expiry is given, in the
// field named: MM/AA or MM/AAAA as a card shows it, or the last day of its
// month as the 2025 client sends it (YYYY-MM-DD; YYYY-MM too). A card is
// valid through the last day of its month, judged by the company's clock
// in Brasília, so a company advanced past it refuses it.
func checkValidade(field, v string, now time.Time) error {
	if v == "" {
		return nil
	}
	month, year, ok := validadeOf(v)
	if !ok {
		return errs.Invalidf(field, "validade %q: use MM/AA, MM/AAAA ou YYYY-MM-DD", v)
	}
	local := now.In(wire.Brasilia)
	if year*12+month < local.Year()*12+int(local.Month()) {
		return errs.Invalidf(field, "cartão vencido em %02d/%d", month, year)
	}
	return nil
}

// validadeOf reads a card's expiry month and year.
func validadeOf(v string) (month, year int, ok bool) {
	if y, m, iso := strings.Cut(v, "-"); iso && len(y) == 4 {
		m, _, _ = strings.Cut(m, "-")
		year, err1 := strconv.Atoi(y)
		month, err2 := strconv.Atoi(m)
		return month, year, err1 == nil && err2 == nil && len(m) == 2 && month >= 1 && month <= 12 && (len(v) == 7 || len(v) == 10)
	}
	mm, yy, slash := strings.Cut(v, "/")
	month, err1 := strconv.Atoi(mm)
	year, err2 := strconv.Atoi(yy)
	if !slash || err1 != nil || err2 != nil || len(mm) != 2 || (len(yy) != 2 && len(yy) != 4) || month < 1 || month > 12 {
		return 0, 0, false
	}
	if len(yy) == 2 {
		year += 2000
	}
	return month, year, true
}

// checkPreauth accepts a pre-authorisation the payer's company was given
// (a is nil when code names none of its) for the payer's CPF, unused, for
// at least premio (the first charge).
func checkPreauth(a *preautorizacao, payer Payer, code string, premio money.Cents) error {
	const field, typ = "PROPOSTA.DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO", "PRE_AUTORIZACAO_INVALIDA"
	switch {
	case a == nil:
		return wire.Rule(field, typ, "pré-autorização %s não existe: obtenha-a pelo widget de cartão", code)
	case a.CPF != payer.CPF:
		return wire.Rule(field, typ, "a pré-autorização %s foi feita para outro CPF", code)
	case a.UsedBy != 0:
		return wire.Rule(field, typ, "a pré-autorização %s já foi usada pela proposta %d", code, a.UsedBy)
	case a.Valor < premio:
		return wire.Rule(field, typ, "a pré-autorização de %s não cobre o prêmio de %s", a.Valor, premio)
	}
	return nil
}
