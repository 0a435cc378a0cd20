package insurance

import (
	"testing"
	"time"
)

func TestParseDateReadsWhatClientsSend(t *testing.T) {
	want := time.Date(1986, 3, 15, 0, 0, 0, 0, time.UTC)
	for _, in := range []string{"1986-03-15", "1986-03-15T00:00:00", "1986-03-15T10:20:30Z", "15-03-1986", " 1986-03-15 "} {
		got, err := parseDate(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseDate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ontem", "1986-13-01", "32-01-1986", "15/03/1986"} {
		if _, err := parseDate(in); err == nil {
			t.Errorf("parseDate(%q) accepted", in)
		}
	}
}

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
		{"CVV", card(map[string]any{"CVV": "123"}), true},
		{"a card number under another name", card(map[string]any{"PAN": "5555555555554444"}), true},
		{"no card", map[string]any{"PROPOSTA": map[string]any{}}, false},
		{"a card number beside CARTAO", map[string]any{"PROPOSTA": map[string]any{"DADOS_COBRANCA": map[string]any{"NUMERO_CARTAO": "4111111111111111"}}}, true},
		{"a long number elsewhere", map[string]any{"PROPOSTA": map[string]any{"NUMERO": "4111111111111111"}}, false},
	}
	for _, tt := range tests {
		if err := refuseCardNumber(tt.body); (err != nil) != tt.bad {
			t.Errorf("%s: refuseCardNumber = %v, want refused %v", tt.name, err, tt.bad)
		}
	}
}

func TestOneTimeCode(t *testing.T) {
	a, b := oneTimeCode("id-1", 6), oneTimeCode("id-1", 6)
	if a != b || len(a) != 6 {
		t.Fatalf("codes %q %q: want the same 6 digits for one id", a, b)
	}
	if oneTimeCode("id-2", 6) == a {
		t.Fatalf("two ids gave the same code %q", a)
	}
	if c := oneTimeCode("id-1", 8); len(c) != 8 {
		t.Fatalf("size 8 gave %q", c)
	}
}

func TestIntField(t *testing.T) {
	tests := []struct {
		v       any
		want    int
		wantErr bool
	}{
		{nil, 5, false}, {"10", 10, false}, {float64(7), 7, false}, {"x", 0, true}, {"999", 0, true}, {true, 0, true},
	}
	for _, tt := range tests {
		got, err := intField(tt.v, 5, 1, 60)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("intField(%v) = %d, %v", tt.v, got, err)
		}
	}
}

func TestProposalMachineIsWellFormed(t *testing.T) {
	for _, m := range []interface{ Validate() error }{propostaMachine, pendenciaMachine} {
		if err := m.Validate(); err != nil {
			t.Error(err)
		}
	}
	if _, err := propostaMachine.Check(Recusada, Implantada); err == nil {
		t.Error("a refused proposal can be implanted")
	}
	if _, err := propostaMachine.Check(EmAnalise, Implantada); err == nil {
		t.Error("implanted without approval")
	}
}
