package redact_test

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"homologa/simulator/redact"
)

func TestQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"inicio=2026-01-01&fim=2026-02-01", "inicio=2026-01-01&fim=2026-02-01"},
		{"access_token=tok-1&status=ATIVA", "access_token=[redacted]&status=ATIVA"},
		{"a=1&token=t&client_secret=s&code=c&b=2", "a=1&token=[redacted]&client_secret=[redacted]&code=[redacted]&b=2"},
		{"Access-Token=x&accessToken=y&CLIENT_SECRET=z", "Access-Token=[redacted]&accessToken=[redacted]&CLIENT_SECRET=[redacted]"},
		{"access%5Ftoken=x", "access%5Ftoken=[redacted]"},
		{"password=p&senha=s&api_key=k&webhookSecret=w", "password=[redacted]&senha=[redacted]&api_key=[redacted]&webhookSecret=[redacted]"},
		{"tokenId=abc&codigo=1", "tokenId=abc&codigo=1"},
		{"grant_type=client_credentials&client_id=app&client_secret=s3&scope=cob.read", "grant_type=client_credentials&client_id=app&client_secret=[redacted]&scope=cob.read"},
	}
	for _, tt := range tests {
		if got := redact.Query(tt.in); got != tt.want {
			t.Errorf("Query(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHeaders(t *testing.T) {
	h := http.Header{
		"Authorization":             {"Bearer tok-1"},
		"Proxy-Authorization":       {"Basic dXNlcjpwdw=="},
		"Cookie":                    {"session=abc; csrf=def"},
		"Set-Cookie":                {"session=abc; Path=/; HttpOnly", "theme=dark"},
		"X-Api-Key":                 {"k-1"},
		"X-Homologa-Client-Secret":  {"s-1"},
		"X-Homologa-Webhook-Secret": {"w-1"},
		"X-Csrf-Token":              {"c-1"},
		"Content-Type":              {"application/json"},
		"Idempotency-Key":           {"k1"},
		"Homologa-Signature":        {"t=1,v1=ab"},
	}
	want := map[string]string{
		"Authorization":             "Bearer [redacted]",
		"Proxy-Authorization":       "Basic [redacted]",
		"Cookie":                    "session=[redacted]; csrf=[redacted]",
		"Set-Cookie":                "session=[redacted]; Path=/; HttpOnly, theme=[redacted]",
		"X-Api-Key":                 "[redacted]",
		"X-Homologa-Client-Secret":  "[redacted]",
		"X-Homologa-Webhook-Secret": "[redacted]",
		"X-Csrf-Token":              "[redacted]",
		"Content-Type":              "application/json",
		"Idempotency-Key":           "k1",
		"Homologa-Signature":        "t=1,v1=ab",
	}
	got := redact.Headers(h)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
}

func TestBody(t *testing.T) {
	tests := []struct {
		name, ctype, in, want string
	}{
		{"Form", "application/x-www-form-urlencoded", "grant_type=client_credentials&client_secret=s3&scope=cob.read",
			"grant_type=client_credentials&client_secret=[redacted]&scope=cob.read"},
		{"TokenAnswer", "application/json", `{"access_token":"tok-1","token_type":"Bearer","expires_in":3600}`,
			`{"access_token":"[redacted]","expires_in":3600,"token_type":"Bearer"}`},
		{"AppAnswer", "application/json; charset=utf-8", `{"clientId":"c","clientSecret":"s","webhookSecret":"w","name":"backend"}`,
			`{"clientId":"c","clientSecret":"[redacted]","name":"backend","webhookSecret":"[redacted]"}`},
		{"Nested", "application/problem+json", `{"apps":[{"client_secret":"s","password":"p"}]}`,
			`{"apps":[{"client_secret":"[redacted]","password":"[redacted]"}]}`},
		{"Card", "application/json", `{"CARTAO":{"NUMERO":"4111 1111 1111 1111","CVV":"123","VALIDADE":"12/30"},"valor":12345678901234567890}`,
			`{"CARTAO":{"CVV":"[redacted]","NUMERO":"[redacted card number]","VALIDADE":"12/30"},"valor":12345678901234567890}`},
		{"CardNumberField", "application/json", `{"numeroCartao":4111111111111111,"codigoSeguranca":"999"}`,
			`{"codigoSeguranca":"[redacted]","numeroCartao":"[redacted card number]"}`},
		{"NotACardOutsideACard", "application/json", `{"cnpj":"11222333000181","numero":"4111111111111111"}`,
			`{"cnpj":"11222333000181","numero":"4111111111111111"}`},
		{"SignatureCodeIsEvidence", "application/json", `{"ASSINATURA":{"TIPO":"TOKEN","TOKEN":"123456"}}`,
			`{"ASSINATURA":{"TIPO":"TOKEN","TOKEN":"123456"}}`},
		{"PortalCredentials", "application/json", `{"id":"cred_1","kind":"token","token":"hpat_abc","demo":{"portalToken":"hpat_def"}}`,
			`{"demo":{"portalToken":"[redacted]"},"id":"cred_1","kind":"token","token":"[redacted]"}`},
		{"UntouchedKeepsItsBytes", "application/json", `{ "b": 1, "a": "standard" }`, `{ "b": 1, "a": "standard" }`},
		{"Malformed", "application/json", `{"client_secret": "s`, `{"client_secret": "s`},
		{"Text", "text/plain", "hello", "hello"},
		{"PEMBundle", "application/x-pem-file", "-----BEGIN PRIVATE KEY-----\nMIGH\nAgEA\n-----END PRIVATE KEY-----\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
			"-----BEGIN PRIVATE KEY-----[redacted]-----END PRIVATE KEY-----\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"},
		{"PEMKeyCut", "text/plain", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE", "-----BEGIN EC PRIVATE KEY-----[redacted]-----END EC PRIVATE KEY-----"},
		{"PKCS12", "application/x-pkcs12", "0\x82\x05\x00binary", "[10 bytes of application/x-pkcs12]"},
		{"PrivateKeyField", "application/json", `{"privateKey":"MIGH","certificate":"MIIB"}`, `{"certificate":"MIIB","privateKey":"[redacted]"}`},
		{"TypeInCapitals", "Application/JSON", `{"password":"p"}`, `{"password":"[redacted]"}`},
		{"ParameterMimeRefuses", "application/json; charset", `{"password":"p"}`, `{"password":"[redacted]"}`},
		{"QuotedParameter", `application/x-pkcs12; name="a;b.p12"`, "0\x82", "[2 bytes of application/x-pkcs12]"},
		{"NoType", "", `{"password":"p"}`, `{"password":"p"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := redact.Body(tt.ctype, []byte(tt.in)); got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"request done", "request done"},
		{`Post "http://partner/hook?token=s3&x=1": dial tcp: refused`, `Post "http://partner/hook?token=[redacted]&x=1": dial tcp: refused`},
		{"GET /pix/v2/cob?access_token=tok-1", "GET /pix/v2/cob?access_token=[redacted]"},
		{"client_secret=s3 grant_type=client_credentials", "client_secret=[redacted] grant_type=client_credentials"},
		{"Authorization: Bearer tok-123456", "Authorization: Bearer [redacted]"},
		{"basic dXNlcjpwYXNz", "basic [redacted]"},
		{`body {"clientSecret":"s3","name":"x"}`, `body {"clientSecret":"[redacted]","name":"x"}`},
		{"status=401 method=POST", "status=401 method=POST"},
		{"o token de acesso expirou", "o token de acesso expirou"},
	}
	for _, tt := range tests {
		if got := redact.Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHandler(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(redact.Handler(slog.NewTextHandler(&out, nil))).With("url", "http://x/?access_token=tok-with")
	log.WithGroup("req").Info("sent Bearer tok-msg", "query", "token=tok-str", "err", errors.New("failed: client_secret=tok-err"),
		"n", 3, slog.Group("g", "u", "http://x/?code=tok-group"))
	got := out.String()
	for _, secret := range []string{"tok-with", "tok-msg", "tok-str", "tok-err", "tok-group"} {
		if strings.Contains(got, secret) {
			t.Errorf("%s reached the log: %s", secret, got)
		}
	}
	if !strings.Contains(got, "req.n=3") || strings.Count(got, "[redacted]") != 5 {
		t.Errorf("the line lost what is not secret: %s", got)
	}
}

// A line passes through untouched unless something in it is secret; then
// whatever holds the secret is redacted, wherever it is.
func TestHandlerLineByLine(t *testing.T) {
	cases := []struct {
		name   string
		msg    string
		args   []any
		secret string
	}{
		{"clean", "request", []any{"path", "/pix/v2/cob/abc", "status", 200, "duration", time.Millisecond}, ""},
		{"message", "sent Bearer tok-msg", nil, "tok-msg"},
		{"string", "request", []any{"query", "token=tok-str"}, "tok-str"},
		{"error", "failed", []any{"err", errors.New("client_secret=tok-err")}, "tok-err"},
		{"group", "request", []any{slog.Group("g", "u", "http://x/?code=tok-group")}, "tok-group"},
		{"value", "request", []any{"v", struct{ URL string }{"http://x/?access_token=tok-any"}}, "tok-any"},
		{"uncomparable", "request", []any{"list", []string{"a", "b"}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			slog.New(redact.Handler(slog.NewTextHandler(&out, nil))).Info(c.msg, c.args...)
			got := out.String()
			if c.secret != "" && (strings.Contains(got, c.secret) || !strings.Contains(got, "[redacted]")) {
				t.Fatalf("%s reached the log: %s", c.secret, got)
			}
			if c.secret == "" && strings.Contains(got, "[redacted]") {
				t.Fatalf("a clean line was changed: %s", got)
			}
		})
	}
}
