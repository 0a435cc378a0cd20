package auth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"homologa/simulator/auth"
	"homologa/simulator/httpx"
)

// TestTokenDialects: every way the PSP clients of the API Pix ask for a
// token — a form, a JSON body, the query string (data7-pix's Sicredi
// client: all four parameters there, HTTP Basic too, an empty JSON
// body), and mixtures of them — is answered, scope honoured. What RFC
// 6749 does not allow is a finding of the request on a lenient API and
// an invalid_request under --strict; what contradicts itself is refused
// either way.
func TestTokenDialects(t *testing.T) {
	ctx := context.Background()
	svc := newService(t)
	if _, err := svc.CreateCompany(ctx, "11222333000181", "Co"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateApp(ctx, auth.NewApp{Company: "11222333000181", Name: "a", ClientID: "a", ClientSecret: "a-secret-secret",
		Scopes: []string{"cob.read", "cob.write", "pix.read"}}); err != nil {
		t.Fatal(err)
	}
	lenient, lenientFindings := dialectServer(t, svc, false)
	strict, _ := dialectServer(t, svc, true)
	const form, jsonType = "application/x-www-form-urlencoded", "application/json"
	tests := []struct {
		name, ctype, basic, query, body string
		scope                           string // the token's, "" when refused
		findings                        []string
		strictOK                        bool
	}{
		{"OKQueryOnlyBasicEmptyJSON", jsonType, "a:a-secret-secret", "grant_type=client_credentials&client_id=a&client_secret=a-secret-secret&scope=cob.read+cob.write",
			"", "cob.read cob.write", []string{httpx.FindingTokenInQuery, httpx.FindingTwoClientAuth}, false},
		{"OKQueryWithoutBasic", "", "", "grant_type=client_credentials&client_id=a&client_secret=a-secret-secret", "", "cob.read cob.write pix.read",
			[]string{httpx.FindingTokenInQuery}, false},
		{"OKQueryGrantFormCredentials", form, "", "grant_type=client_credentials", "client_id=a&client_secret=a-secret-secret&scope=pix.read", "pix.read",
			[]string{httpx.FindingTokenInQuery}, false},
		{"OKQueryScopeJSONGrant", jsonType, "a:a-secret-secret", "scope=cob.read", `{"grant_type": "client_credentials"}`, "cob.read",
			[]string{httpx.FindingTokenInQuery}, false},
		{"OKSameInQueryAndBody", form, "a:a-secret-secret", "grant_type=client_credentials", "grant_type=client_credentials", "cob.read cob.write pix.read",
			[]string{httpx.FindingTokenInQuery}, false},
		{"OKBasicAndSameSecretInJSON", jsonType, "a:a-secret-secret", "", `{"grant_type": "client_credentials", "client_id": "a", "client_secret": "a-secret-secret"}`,
			"cob.read cob.write pix.read", []string{httpx.FindingTwoClientAuth}, false},
		{"OKUnrelatedQueryIgnored", form, "a:a-secret-secret", "debug=1", "grant_type=client_credentials", "cob.read cob.write pix.read", nil, true},
		{"OKFormScope", form, "a:a-secret-secret", "", "grant_type=client_credentials&scope=cob.write", "cob.write", nil, true},

		{"ErrQueryAndBodyDisagree", form, "a:a-secret-secret", "scope=cob.read", "grant_type=client_credentials&scope=cob.write", "", nil, false},
		{"ErrBasicAndAnotherSecret", jsonType, "a:a-secret-secret", "", `{"grant_type": "client_credentials", "client_secret": "other"}`, "", nil, false},
		{"ErrQueryRepeated", "", "a:a-secret-secret", "grant_type=client_credentials&grant_type=client_credentials", "", "", nil, false},
		{"ErrQueryScopeNotGranted", jsonType, "a:a-secret-secret", "grant_type=client_credentials&scope=rec.write", "", "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := ask(t, lenient+"?"+tt.query, tt.ctype, tt.basic, tt.body)
			got := lenientFindings()
			if tt.scope == "" {
				if code != 400 || body["error"] == nil {
					t.Fatalf("lenient: %d %v; want a 400", code, body)
				}
			} else if code != 200 || body["scope"] != tt.scope || !slices.Equal(got, tt.findings) {
				t.Fatalf("lenient: %d %v, findings %v; want scope %q, findings %v", code, body, got, tt.scope, tt.findings)
			}
			code, body = ask(t, strict+"?"+tt.query, tt.ctype, tt.basic, tt.body)
			if tt.strictOK != (code == 200) || (code != 200 && body["error"] != "invalid_request" && tt.scope != "") {
				t.Fatalf("strict: %d %v", code, body)
			}
		})
	}
}

// dialectServer is the token endpoint of a sandbox strict or not, and the
// kinds of the findings of its last request.
func dialectServer(t *testing.T, svc *auth.Service, strict bool) (string, func() []string) {
	t.Helper()
	apis := []httpx.API{{Prefix: "/oauth/token", Name: "oauth", Dialect: httpx.OAuth{}, Lenient: true}}
	var mu sync.Mutex
	var last []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpx.HandlerFunc(svc.TokenHandler).ServeHTTP(w, r)
		var kinds []string
		for _, f := range httpx.InfoOf(r.Context()).Findings {
			kinds = append(kinds, f.Kind)
		}
		mu.Lock()
		last = kinds
		mu.Unlock()
	})
	srv := httptest.NewServer(loopbackProxy.Middleware(httpx.Outer(apis, 0, nil, httpx.Strictness(apis, strict, h))))
	t.Cleanup(srv.Close)
	return srv.URL + "/oauth/token", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return last
	}
}

// ask posts a token request and answers its status and body.
func ask(t *testing.T, url, ctype, basic, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if id, secret, ok := strings.Cut(basic, ":"); ok {
		req.SetBasicAuth(id, secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}
