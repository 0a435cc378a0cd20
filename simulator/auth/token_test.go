package auth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"homologa/simulator/auth"
)

// TestTokenRequestShapes: the token endpoint takes what OAuth2 clients
// and the PSP SDKs of the API Pix send — a form or a JSON object, the
// client authenticated by HTTP Basic or in the body — and answers RFC
// 6749 errors whichever the request was.
func TestTokenRequestShapes(t *testing.T) {
	ctx := context.Background()
	svc := newService(t)
	if _, err := svc.CreateCompany(ctx, "11222333000181", "Co"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateApp(ctx, auth.NewApp{Company: "11222333000181", Name: "a", ClientID: "a", ClientSecret: "a-secret-secret",
		Scopes: []string{"cob.read", "cob.write"}}); err != nil {
		t.Fatal(err)
	}
	endpoint := tokenServer(t, svc)
	const form, jsonType = "application/x-www-form-urlencoded", "application/json"
	tests := []struct {
		name        string
		ctype       string
		basic       string // "id:secret", or "" for none
		body        string
		status      int
		oauthErr    string
		scope       string
		wwwAuthBase bool
	}{
		{"OKFormBasic", form, "a:a-secret-secret", "grant_type=client_credentials", 200, "", "cob.read cob.write", false},
		{"OKFormBody", form, "", "grant_type=client_credentials&client_id=a&client_secret=a-secret-secret&scope=cob.read", 200, "", "cob.read", false},
		{"OKJSONBasic", jsonType, "a:a-secret-secret", `{"grant_type": "client_credentials"}`, 200, "", "cob.read cob.write", false},
		{"OKJSONBasicCharset", "application/json; charset=utf-8", "a:a-secret-secret", `{"grant_type":"client_credentials","scope":"cob.write"}`, 200, "", "cob.write", false},
		{"OKJSONBody", jsonType, "", `{"grant_type": "client_credentials", "client_id": "a", "client_secret": "a-secret-secret"}`, 200, "", "cob.read cob.write", false},
		{"OKJSONBasicAndSameClientID", jsonType, "a:a-secret-secret", `{"grant_type": "client_credentials", "client_id": "a"}`, 200, "", "cob.read cob.write", false},
		{"OKJSONScopeList", jsonType, "a:a-secret-secret", `{"grant_type": "client_credentials", "scope": ["cob.read"]}`, 200, "", "cob.read", false},
		{"OKJSONWithoutContentType", "", "a:a-secret-secret", `{"grant_type": "client_credentials"}`, 200, "", "cob.read cob.write", false},
		{"OKFormWithoutContentType", "", "a:a-secret-secret", `grant_type=client_credentials`, 200, "", "cob.read cob.write", false},

		{"ErrJSONWrongSecretBasic", jsonType, "a:guess", `{"grant_type": "client_credentials"}`, 401, "invalid_client", "", true},
		{"ErrJSONWrongSecretBody", jsonType, "", `{"grant_type": "client_credentials", "client_id": "a", "client_secret": "guess"}`, 401, "invalid_client", "", true},
		{"ErrJSONNoClient", jsonType, "", `{"grant_type": "client_credentials"}`, 401, "invalid_client", "", true},
		{"ErrJSONUnknownClient", jsonType, "nobody:x", `{"grant_type": "client_credentials"}`, 401, "invalid_client", "", true},
		{"ErrJSONMalformed", jsonType, "a:a-secret-secret", `{"grant_type": `, 400, "invalid_request", "", false},
		{"ErrJSONNotAnObject", jsonType, "a:a-secret-secret", `["client_credentials"]`, 400, "invalid_request", "", false},
		{"ErrJSONNotAString", jsonType, "a:a-secret-secret", `{"grant_type": 1}`, 400, "invalid_request", "", false},
		{"ErrJSONEmpty", jsonType, "a:a-secret-secret", ``, 400, "invalid_request", "", false},
		{"ErrJSONGrant", jsonType, "a:a-secret-secret", `{"grant_type": "password"}`, 400, "unsupported_grant_type", "", false},
		{"ErrJSONScope", jsonType, "a:a-secret-secret", `{"grant_type": "client_credentials", "scope": "rec.write"}`, 400, "invalid_scope", "", false},
		{"ErrJSONTwoMethods", jsonType, "a:a-secret-secret", `{"grant_type": "client_credentials", "client_secret": "a-secret-secret"}`, 400, "invalid_request", "", false},
		{"ErrJSONOtherClientID", jsonType, "a:a-secret-secret", `{"grant_type": "client_credentials", "client_id": "b"}`, 400, "invalid_request", "", false},
		{"ErrFormRepeated", form, "a:a-secret-secret", `grant_type=client_credentials&grant_type=client_credentials`, 400, "invalid_request", "", false},
		{"ErrTextPlain", "text/plain", "a:a-secret-secret", `grant_type=client_credentials`, 400, "invalid_request", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(tt.body))
			if tt.ctype != "" {
				req.Header.Set("Content-Type", tt.ctype)
			}
			if id, secret, ok := strings.Cut(tt.basic, ":"); ok {
				req.SetBasicAuth(id, secret)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var body map[string]any
			json.Unmarshal(b, &body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, b)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if tt.status == 200 {
				if body["access_token"] == "" || body["token_type"] != "Bearer" || body["scope"] != tt.scope || resp.Header.Get("Cache-Control") != "no-store" {
					t.Fatalf("answer %s (Cache-Control %q), want scope %q", b, resp.Header.Get("Cache-Control"), tt.scope)
				}
				return
			}
			if body["error"] != tt.oauthErr || body["error_description"] == "" {
				t.Fatalf("error %s, want %q with a description", b, tt.oauthErr)
			}
			if got := resp.Header.Get("WWW-Authenticate"); tt.wwwAuthBase != strings.HasPrefix(got, "Basic") {
				t.Fatalf("WWW-Authenticate %q", got)
			}
		})
	}
}
