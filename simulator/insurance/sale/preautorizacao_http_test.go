package sale_test

import (
	"net/http"
	"regexp"
	"testing"

	"homologa/simulator/server"
	"homologa/simulator/store"
)

// The test cards of the credit-card widget's endpoint, in the order a
// partner might try them: the retry card's state carries from one
// attempt to the next (frozen clock: 2026-01-05).
func TestPreauthorizeTestCards(t *testing.T) {
	sb := startSandbox(t)
	tok := sb.token(server.DemoClientID, server.DemoClientSecret, "cartaocredito")
	code := regexp.MustCompile(`^PA[0-9A-F]{12}$`)
	tests := []struct {
		name, numero, validade string
		status                 int
		want                   string // the problem type, or the card's Final on approval
		field                  string
	}{
		{"OKVisa", "4111111111111111", "12/30", 201, "1111", ""},
		{"OKMastercard", "5555555555554444", "", 201, "4444", ""},
		{"OKExpiresThisMonth", "4111111111111111", "01/26", 201, "1111", ""},
		{"ErrDeclined", "4000000000000002", "12/30", 422, "PRE_AUTORIZACAO_NEGADA", "numero"},
		{"ErrInsufficientFunds", "4000000000009995", "12/30", 422, "PRE_AUTORIZACAO_NEGADA", "numero"},
		{"ErrRetryFirst", "4000000000000119", "12/30", 422, "PRE_AUTORIZACAO_TENTE_NOVAMENTE", "numero"},
		{"OKRetrySecond", "4000000000000119", "12/30", 201, "0119", ""},
		{"ErrRetryThird", "4000000000000119", "12/2030", 422, "PRE_AUTORIZACAO_TENTE_NOVAMENTE", "numero"},
		{"ErrExpired", "4111111111111111", "12/25", 400, "invalid", "validade"},
		{"ErrExpiryFormat", "4111111111111111", "12-2030", 400, "invalid", "validade"},
		{"ErrLuhn", "4111111111111112", "12/30", 400, "invalid", "numero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"cpf": "11144477735", "valor": 100, "numero": "` + tt.numero + `"` +
				map[bool]string{true: `, "validade": "` + tt.validade + `"`, false: ""}[tt.validade != ""] + `}`
			status, m, raw := sb.call(http.MethodPost, "/sandbox/cartao/preautorizacao", tok, body)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, raw)
			}
			if status == 201 {
				if c, _ := field(m, "Valor.CodigoPreAutorizacao").(string); !code.MatchString(c) || field(m, "Valor.Final") != tt.want {
					t.Fatalf("%s", raw)
				}
				sb.valid("insurance/preautorizacao", raw)
				return
			}
			if field(m, "type") != "urn:homologa:problem:"+tt.want || field(m, "errors.0.field") != tt.field {
				t.Fatalf("%s", raw)
			}
			if regexp.MustCompile(tt.numero).Match(raw) {
				t.Errorf("the refusal echoes the card number: %s", raw)
			}
		})
	}
	var n int
	err := sb.s.DB.Read(t.Context(), func(tx *store.Tx) error {
		return tx.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM card_preauths WHERE length(final) = 4`).Scan(&n)
	})
	if err != nil || n != 4 {
		t.Errorf("%d pre-authorisations keeping four digits (%v), want the 4 approvals", n, err)
	}
}
