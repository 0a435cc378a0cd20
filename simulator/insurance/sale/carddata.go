package sale

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
)

// cardFields are the card data a body may not carry in clear: the
// security code never, and the card's number only where a client sends it
// (a proposal's DADOS_COBRANCA.CARTAO.NUMERO, which TakeCard takes out and
// masks before anything else reads the body).
var cardFields = []string{"NUMERO", "CVV", "CODIGO_SEGURANCA"}

// Card is the card a proposal carried in DADOS_COBRANCA.CARTAO, as the
// 2025 client sends it (insurance CLIENTS §6): taken out of the body as
// soon as it is read, so that the body, and whatever stores it, keeps only
// its last four digits.
type Card struct {
	Numero, Validade, Bandeira string
}

// TakeCard takes the card number out of a PROPOSTA's
// DADOS_COBRANCA.CARTAO and leaves it masked (************1111); the zero
// Card when there is none (an empty NUMERO, as a widget's proposal sends).
func TakeCard(body map[string]any) Card {
	cob, _ := wire.Obj(body, "PROPOSTA")["DADOS_COBRANCA"].(map[string]any)
	cartao, _ := cob["CARTAO"].(map[string]any)
	n := wire.Digits(wire.Str(cartao, "NUMERO"))
	if n == "" {
		return Card{}
	}
	cartao["NUMERO"] = MaskCard(n)
	return Card{Numero: n, Validade: wire.Str(cartao, "VALIDADE"), Bandeira: wire.Str(cartao, "BANDEIRA")}
}

// MaskCard keeps a card number's last four digits.
func MaskCard(n string) string {
	if len(n) <= 4 {
		return strings.Repeat("*", len(n))
	}
	return strings.Repeat("*", len(n)-4) + n[len(n)-4:]
}

// masked reports a value a mask already hides.
func masked(v any) bool {
	s, ok := v.(string)
	return ok && strings.Contains(s, "*")
}

// RefuseCardData finds card data in a body (a PROPOSTA once TakeCard has
// masked its card, an enrollment's DADOS_COBRANCA) before anything else
// reads it: a schema error would echo the value. The message says what to
// send instead. Inside a CARTAO object a security code, a NUMERO not
// masked and any card-like number are refused; anywhere, a key that names
// a card (NUMERO_CARTAO, CARD_NUMBER) holding a card-like number is
// refused too.
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
			if inCard && slices.Contains(cardFields, k) && val != "" && val != nil && !(k == "NUMERO" && masked(val)) || card && looksLikeCardNumber(val) {
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
		"dados de cartão não vão aqui: o código de segurança nunca; o cartão, só em DADOS_COBRANCA.CARTAO da proposta (NUMERO, VALIDADE) ou, melhor, pelo widget de cartão de crédito, com DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO").
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
