package server_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"software.sslmate.com/src/go-pkcs12"

	"homologa/simulator/server"
)

// TestPortalIssuesP12AsPSPsDo: the portal seals a PKCS#12 download with
// the empty password when the request asks for it ("password": ""), as
// Efí's portal issues its certificates and its SDK opens them; a
// PKCS#12 request with no password at all, or a short one, is refused
// naming the field. The file opens with "" and carries a certificate the
// token endpoint takes over mutual TLS.
func TestPortalIssuesP12AsPSPsDo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, server.Config{MTLS: true, TLSDir: dir})
	defer s.Close(context.Background())
	base, roots := s.URL(), trustDir(t, dir)
	a := onboard(t, base, roots, "p12@exemplo.com.br", "11444777000161")

	issue := func(body string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+"/portal/apps/"+a.id+"/certificates", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testOperator)
		req.Header.Set("Content-Type", "application/json")
		resp, err := partnerClient(roots, nil).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	t.Run("OKEmptyPassword", func(t *testing.T) {
		code, p12 := issue(`{"format": "p12", "password": ""}`)
		if code != 201 {
			t.Fatalf("%d %s", code, p12)
		}
		key, leaf, chain, err := pkcs12.DecodeChain(p12, "")
		if err != nil {
			t.Fatalf("the .p12 does not open with the empty password: %v", err)
		}
		cert := tls.Certificate{Certificate: [][]byte{leaf.Raw, chain[0].Raw}, PrivateKey: key, Leaf: leaf}
		p := &pixSession{t: t, base: base, http: partnerClient(roots, &cert), clientID: a.clientID, pass: a.secret}
		if code, out, err := p.login(); err != nil || code != 200 || out["cnf"] == nil {
			t.Fatalf("token with the empty-password certificate: %d %v %v", code, out, err)
		}
	})
	for name, tc := range map[string]struct{ body, reason string }{
		"ErrNoPassword":    {`{"format": "p12"}`, `"password": ""`},
		"ErrShortPassword": {`{"format": "p12-legacy", "password": "abc"}`, "de 6 a 128"},
	} {
		t.Run(name, func(t *testing.T) {
			code, b := issue(tc.body)
			var p struct {
				Errors []struct{ Field, Reason string }
			}
			json.Unmarshal(b, &p)
			if code != 400 || len(p.Errors) != 1 || p.Errors[0].Field != "password" || !strings.Contains(p.Errors[0].Reason, tc.reason) {
				t.Fatalf("%d %s", code, b)
			}
		})
	}
}
