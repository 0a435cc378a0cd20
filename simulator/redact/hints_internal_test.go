package redact

import (
	"strings"
	"testing"
)

// The quick look finds every word in any case, anywhere, and lets a body
// without one through.
func TestMayHoldSecrets(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`{"access_token":"x"}`, true},
		{`{"ACCESS_TOKEN":"x"}`, true},
		{`{"clientSecret":"x"}`, true},
		{`{"apiKey":"x"}`, true},
		{`{"API_KEY":"x"}`, true},
		{`{"api-key":"x"}`, true},
		{`{"cvc2":"123"}`, true},
		{`{"security_code":"123"}`, true},
		{`{"codigoDeSeguranca":"123"}`, true},
		{`{"refresh_token":"x"}`, true},
		{`{"Private-Key":"x"}`, true},
		{`{"creditCard":{"number":"4111"}}`, true},
		{`{"Senha":"x"}`, true},
		{`{"cartao":{"numero":"4111"}}`, true},
		{`{"CVV":"123"}`, true},
		{`hpat_0123`, true},
		{`{"privateKey":"x"}`, true},
		{`{"valor":{"original":"1.00"},"chave":"52998224725"}`, false},
		{`{"txid":"abc","status":"ATIVA"}`, false},
		{`tok`, false},
		{``, false},
	} {
		if got := mayHoldSecrets([]byte(tc.body)); got != tc.want {
			t.Errorf("mayHoldSecrets(%s) = %v, want %v", tc.body, got, tc.want)
		}
	}
}

// Every field IsSecretField names, in the cases and separators partners
// write, passes the quick look: a body it let through is logged as sent.
func TestMayHoldSecretsSeesEverySecretField(t *testing.T) {
	for _, fields := range []map[string]bool{secretFields, cardSecretFields} {
		for f := range fields {
			for _, name := range []string{f, strings.ToUpper(f), snake(f)} {
				if !IsSecretField(name) {
					t.Fatalf("%s is not a secret field", name)
				}
				if !mayHoldSecrets([]byte(`{"` + name + `":"x"}`)) {
					t.Errorf("the quick look lets %q through", name)
				}
			}
		}
	}
}

// snake splits a folded field name where partners do: access_token.
func snake(f string) string {
	for _, w := range []string{"token", "secret", "key", "code"} {
		if i := strings.Index(f, w); i > 0 {
			return f[:i] + "_" + f[i:]
		}
	}
	return f
}
