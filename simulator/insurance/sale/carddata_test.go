package sale

import (
	"testing"
)

func TestCardNumbers(t *testing.T) {
	tests := []struct {
		v    any
		want bool
	}{
		{"4111111111111111", true},
		{"4111 1111 1111 1111", true},
		{"5555-5555-5555-4444", true},
		{float64(4111111111111111), true},
		{"4111111111111112", false}, // Luhn fails
		{"411111111111", false},     // too short
		{"11222333000181", false},   // a CNPJ, Luhn fails
		{"PA1234", false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := looksLikeCardNumber(tt.v); got != tt.want {
			t.Errorf("looksLikeCardNumber(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

func TestRefuseCardNumber(t *testing.T) {
	card := func(c map[string]any) map[string]any {
		return map[string]any{"PROPOSTA": map[string]any{"DADOS_COBRANCA": map[string]any{"CARTAO": c}}}
	}
	tests := []struct {
		name string
		body map[string]any
		bad  bool
	}{
		{"pre-authorisation only", card(map[string]any{"NUM_PRE_AUTORIZACAO": "PA0011", "BANDEIRA": "VISA"}), false},
		{"card number", card(map[string]any{"NUMERO": "4111111111111111"}), true},
		{"any NUMERO at all", card(map[string]any{"NUMERO": "1234"}), true},
		{"a masked NUMERO", card(map[string]any{"NUMERO": "************1111", "VALIDADE": "2030-12-31"}), false},
		{"a masked CVV", card(map[string]any{"NUMERO": "************1111", "CVV": "***"}), true},
		{"CVV", card(map[string]any{"CVV": "123"}), true},
		{"a card number under another name", card(map[string]any{"PAN": "5555555555554444"}), true},
		{"no card", map[string]any{"PROPOSTA": map[string]any{}}, false},
		{"a card number beside CARTAO", map[string]any{"PROPOSTA": map[string]any{"DADOS_COBRANCA": map[string]any{"NUMERO_CARTAO": "4111111111111111"}}}, true},
		{"a long number elsewhere", map[string]any{"PROPOSTA": map[string]any{"NUMERO": "4111111111111111"}}, false},
	}
	for _, tt := range tests {
		if err := RefuseCardData(tt.body); (err != nil) != tt.bad {
			t.Errorf("%s: RefuseCardData = %v, want refused %v", tt.name, err, tt.bad)
		}
	}
}

func TestTakeCard(t *testing.T) {
	body := map[string]any{"PROPOSTA": map[string]any{"DADOS_COBRANCA": map[string]any{"TIPO_COBRANCA": "CARTAO",
		"CARTAO": map[string]any{"NUMERO": "4111 1111 1111 1111", "VALIDADE": "2030-12-31", "BANDEIRA": "VISA", "NUM_PRE_AUTORIZACAO": 0.0}}}}
	c := TakeCard(body)
	if c != (Card{Numero: "4111111111111111", Validade: "2030-12-31", Bandeira: "VISA"}) {
		t.Errorf("TakeCard = %+v", c)
	}
	got := body["PROPOSTA"].(map[string]any)["DADOS_COBRANCA"].(map[string]any)["CARTAO"].(map[string]any)["NUMERO"]
	if got != "************1111" {
		t.Errorf("NUMERO left %v, want masked", got)
	}
	if err := RefuseCardData(body); err != nil {
		t.Errorf("a masked card refused: %v", err)
	}
	for _, b := range []map[string]any{
		{"PROPOSTA": map[string]any{"DADOS_COBRANCA": map[string]any{"CARTAO": map[string]any{"NUMERO": "", "NUM_PRE_AUTORIZACAO": "PA1"}}}},
		{"PROPOSTA": map[string]any{"DADOS_COBRANCA": map[string]any{"TIPO_COBRANCA": "BOLETO"}}},
		{},
	} {
		if c := TakeCard(b); c != (Card{}) {
			t.Errorf("TakeCard(%v) = %+v, want none", b, c)
		}
	}
}
