package insurance

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
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
// A validade in the past (sandbox clock) is a 400 on validade.
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

// preauthorize is POST /sandbox/cartao/preautorizacao: what the credit-card
// widget does on the partner's page. The card number stops here; the
// partner gets Valor.CodigoPreAutorizacao for CARTAO.NUM_PRE_AUTORIZACAO
// (insurance SUMMARY §3.10).
func (s *Service) preauthorize(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in struct {
		CNPJ     string `json:"cnpj"`
		CPF      string `json:"cpf"`
		Valor    any    `json:"valor"`
		Numero   string `json:"numero"`
		Bandeira string `json:"bandeira"`
		Validade string `json:"validade"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/preautorizacao.request", &in); err != nil {
		return nil, err
	}
	if err := taxid.CheckCPF(in.CPF); err != nil {
		return nil, errs.Invalidf("cpf", "CPF inválido: %v", err)
	}
	valor, err := moneyOf(in.Valor)
	if err != nil || valor <= 0 {
		return nil, errs.Invalidf("valor", "valor deve ser um número positivo")
	}
	if !luhn(in.Numero) {
		return nil, errs.Invalidf("numero", "número de cartão inválido (dígito verificador)")
	}
	if err := checkValidade(in.Validade, s.Clock.Now()); err != nil {
		return nil, err
	}
	if reason, ok := declinedCards[in.Numero]; ok {
		return nil, rule("numero", "PRE_AUTORIZACAO_NEGADA", "%s", reason)
	}
	final := in.Numero[len(in.Numero)-4:]
	companyID := principal(r).CompanyID
	var code string
	retry := false
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		if companyID == "" {
			cnpj := in.CNPJ
			if cnpj == "" {
				return errs.Invalidf("cnpj", "informe o CNPJ da empresa (ou chame com o token do app)")
			}
			if err := tx.QueryRowContext(ctx, `SELECT id FROM companies WHERE cnpj = ?`, cnpj).Scan(&companyID); errors.Is(err, sql.ErrNoRows) {
				return errs.Invalidf("cnpj", "nenhuma empresa com CNPJ %s", cnpj)
			} else if err != nil {
				return err
			}
		}
		if _, ok := retryCards[in.Numero]; ok {
			res, err := tx.ExecContext(ctx, `DELETE FROM card_retries WHERE company_id = ? AND final = ?`, companyID, final)
			if err != nil {
				return err
			}
			// The refusal is recorded and committed, so it is answered
			// after the transaction rather than by failing it.
			if n, _ := res.RowsAffected(); n == 0 {
				retry = true
				_, err := tx.ExecContext(ctx, `INSERT INTO card_retries (company_id, final, created_at) VALUES (?, ?, ?)`,
					companyID, final, s.Clock.Now().UnixNano())
				return err
			}
		}
		sum := sha256.Sum256([]byte(s.DB.IDs.UUID()))
		code = "PA" + strings.ToUpper(hex.EncodeToString(sum[:6]))
		_, err := tx.ExecContext(ctx, `INSERT INTO card_preauths (code, company_id, cpf, valor, bandeira, final, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			code, companyID, in.CPF, valor, orDefault(in.Bandeira, brand(in.Numero)), final, s.Clock.Now().UnixNano())
		return err
	})
	if err != nil {
		return nil, err
	}
	if retry {
		return nil, rule("numero", "PRE_AUTORIZACAO_TENTE_NOVAMENTE", "%s", retryCards[in.Numero])
	}
	return created(map[string]any{"CodigoPreAutorizacao": code, "Bandeira": orDefault(in.Bandeira, brand(in.Numero)), "Final": final, "Valor": valor}), nil
}

// checkValidade refuses an expired card when the expiry is given (MM/AA or
// MM/AAAA): a card is valid through the last day of its month, judged by
// the sandbox clock in Brasília, so a sandbox advanced past it refuses it.
func checkValidade(v string, now time.Time) error {
	if v == "" {
		return nil
	}
	mm, yy, ok := strings.Cut(v, "/")
	month, err1 := strconv.Atoi(mm)
	year, err2 := strconv.Atoi(yy)
	if !ok || err1 != nil || err2 != nil || len(mm) != 2 || (len(yy) != 2 && len(yy) != 4) || month < 1 || month > 12 {
		return errs.Invalidf("validade", "validade %q: use MM/AA ou MM/AAAA", v)
	}
	if len(yy) == 2 {
		year += 2000
	}
	local := now.In(brasilia)
	if year*12+month < local.Year()*12+int(local.Month()) {
		return errs.Invalidf("validade", "cartão vencido em %02d/%d", month, year)
	}
	return nil
}

// usePreauth checks a pre-authorisation code for a proposal: issued to the
// company for the proponent's CPF, for at least the first premium, unused.
func usePreauth(ctx context.Context, tx *store.Tx, companyID, cpf, code string, premio float64, numero int64) *errs.Error {
	var owner, forCPF string
	var valor float64
	var used sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT company_id, cpf, valor, used_by FROM card_preauths WHERE code = ?`, code).Scan(&owner, &forCPF, &valor, &used)
	switch {
	case errors.Is(err, sql.ErrNoRows) || err == nil && owner != companyID:
		return rule("PROPOSTA.DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO", "PRE_AUTORIZACAO_INVALIDA", "pré-autorização %s não existe: obtenha-a pelo widget de cartão", code)
	case err != nil:
		return errs.As(err)
	case forCPF != cpf:
		return rule("PROPOSTA.DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO", "PRE_AUTORIZACAO_INVALIDA", "a pré-autorização %s foi feita para outro CPF", code)
	case used.Valid:
		return rule("PROPOSTA.DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO", "PRE_AUTORIZACAO_INVALIDA", "a pré-autorização %s já foi usada pela proposta %d", code, used.Int64)
	case valor+0.005 < premio:
		return rule("PROPOSTA.DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO", "PRE_AUTORIZACAO_INVALIDA", "a pré-autorização de %.2f não cobre o prêmio de %.2f", valor, premio)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE card_preauths SET used_by = ? WHERE code = ?`, numero, code); err != nil {
		return errs.As(err)
	}
	return nil
}

func luhn(n string) bool {
	sum, double := 0, false
	for i := len(n) - 1; i >= 0; i-- {
		d := int(n[i] - '0')
		if d < 0 || d > 9 {
			return false
		}
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return len(n) >= 13 && sum%10 == 0
}

func brand(n string) string {
	switch {
	case strings.HasPrefix(n, "4"):
		return "VISA"
	case n[0] == '5' || strings.HasPrefix(n, "2"):
		return "MASTERCARD"
	case strings.HasPrefix(n, "34") || strings.HasPrefix(n, "37"):
		return "AMEX"
	case strings.HasPrefix(n, "636") || strings.HasPrefix(n, "4011") || strings.HasPrefix(n, "5067"):
		return "ELO"
	}
	return "OUTRA"
}

// looksLikeCardNumber finds a card number where none may be: 13 to 19
// digits passing Luhn.
func looksLikeCardNumber(v any) bool {
	s, ok := v.(string)
	if !ok {
		if f, isNum := v.(float64); isNum {
			s = strconv.FormatFloat(f, 'f', -1, 64)
		} else {
			return false
		}
	}
	s = strings.NewReplacer(" ", "", "-", "", ".", "").Replace(s)
	return len(s) >= 13 && len(s) <= 19 && luhn(s)
}
