package redact

import "testing"

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
