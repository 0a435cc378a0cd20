package sale

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"homologa/simulator/errs"
)

// cardFields are the card data a body may never carry: the card is
// captured by the credit-card widget, and the proposal gets only its
// pre-authorisation code (CARTAO.NUM_PRE_AUTORIZACAO).
var cardFields = []string{"NUMERO", "CVV", "CODIGO_SEGURANCA"}

// RefuseCardData finds card data in a body (a PROPOSTA, an enrollment's
// DADOS_COBRANCA) before anything else reads it: a schema error would echo
// the value. The message says what to send instead. Inside a CARTAO object
// the card fields and any card-like number are refused; anywhere, a key
// that names a card (NUMERO_CARTAO, CARD_NUMBER) holding a card-like
// number is refused too.
func RefuseCardData(body map[string]any) error {
	return findCardData(body, "", false)
}

func findCardData(v any, path string, inCard bool) error {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			field := strings.TrimPrefix(path+"."+k, ".")
			up := strings.ToUpper(k)
			card := inCard || strings.Contains(up, "CARTAO") || strings.Contains(up, "CARD")
			if k == "NUM_PRE_AUTORIZACAO" {
				continue
			}
			if inCard && slices.Contains(cardFields, k) && val != "" && val != nil || card && looksLikeCardNumber(val) {
				return cardDataRefused(field)
			}
			if err := findCardData(val, field, up == "CARTAO" || inCard); err != nil {
				return err
			}
		}
	case []any:
		for i, val := range x {
			field := fmt.Sprintf("%s.%d", path, i)
			if inCard && looksLikeCardNumber(val) {
				return cardDataRefused(field)
			}
			if err := findCardData(val, field, inCard); err != nil {
				return err
			}
		}
	}
	return nil
}

func cardDataRefused(field string) error {
	return errs.Invalidf(field,
		"dados de cartão nunca vão na proposta: capture o cartão no widget de cartão de crédito e envie só DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO").
		WithType("DADOS_DE_CARTAO_PROIBIDOS")
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
