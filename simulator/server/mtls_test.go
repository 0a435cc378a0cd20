package server_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"software.sslmate.com/src/go-pkcs12"

	"homologa/simulator/certs"
	"homologa/simulator/server"
)

// partnerClient is the HTTP client a partner's production code has for a
// Pix API: the PSP's CA trusted, the app's client certificate presented.
// It knows nothing of the sandbox.
func partnerClient(roots *x509.CertPool, cert *tls.Certificate) *http.Client {
	cfg := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}}
}

// pixSession is a partner's production Pix client: a base URL, its HTTP
// client, its credentials and the token it got.
type pixSession struct {
	t              *testing.T
	base           string
	http           *http.Client
	clientID, pass string
	token          string
}

// login asks for a token as PSP SDKs do: a JSON body with the client's
// credentials. It answers the status and the OAuth answer.
func (p *pixSession) login() (int, map[string]any, error) {
	body := fmt.Sprintf(`{"grant_type": "client_credentials", "client_id": %q, "client_secret": %q}`, p.clientID, p.pass)
	req, _ := http.NewRequest(http.MethodPost, p.base+"/oauth/token", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	code, out, err := p.send(req)
	if code == 200 {
		p.token, _ = out["access_token"].(string)
	}
	return code, out, err
}

func (p *pixSession) send(req *http.Request) (int, map[string]any, error) {
	resp, err := p.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(b, &out)
	if ct := resp.Header.Get("Content-Type"); len(b) > 0 && !strings.HasSuffix(ct, "charset=utf-8") {
		p.t.Errorf("%s %s: Content-Type %q", req.Method, req.URL.Path, ct)
	}
	return resp.StatusCode, out, nil
}

// call is one request to the Pix API with the session's token.
func (p *pixSession) call(method, path, body string) (int, map[string]any, error) {
	req, _ := http.NewRequest(method, p.base+"/pix/v2"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+p.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return p.send(req)
}

// must is call that fails the test on another status.
func (p *pixSession) must(want int, method, path, body string) map[string]any {
	p.t.Helper()
	code, out, err := p.call(method, path, body)
	if err != nil || code != want {
		p.t.Fatalf("%s %s: %d %v %v, want %d", method, path, code, out, err, want)
	}
	return out
}

// portalApp is what the portal gave a partner: an app, its secret and
// its client certificate, downloaded as PEM and as PKCS#12.
type portalApp struct {
	id, clientID, secret string
	pem, p12             []byte
}

// onboard is a partner's portal session over TLS, without a client
// certificate, as a browser's: register, an app, a Pix key, the app's
// certificate in both formats.
func onboard(t *testing.T, base string, roots *x509.CertPool, email, cnpj string) portalApp {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := partnerClient(roots, nil)
	c.Jar = jar
	do := func(method, path, body string, want int) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", base)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return resp, b
	}
	do("POST", "/portal/accounts", fmt.Sprintf(`{"email": %q, "password": "senha-longa-do-exemplo", "company": {"cnpj": %q, "name": "Corretora %s"}}`, email, cnpj, cnpj), 201)
	_, b := do("POST", "/portal/apps", `{"name": "backend", "webhookUrl": ""}`, 201)
	var app struct{ ID, ClientID, ClientSecret string }
	json.Unmarshal(b, &app)
	do("POST", "/portal/apps/"+app.ID+"/pix-keys", `{"chave": "`+cnpj+`"}`, 201)
	resp, pemBundle := do("POST", "/portal/apps/"+app.ID+"/certificates", `{"format": "pem"}`, 201)
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-pem-file" || !strings.Contains(resp.Header.Get("Content-Disposition"), app.ClientID+".pem") {
		t.Fatalf("PEM download: %s, %v", ct, resp.Header)
	}
	_, p12 := do("POST", "/portal/apps/"+app.ID+"/certificates", `{"format": "p12", "password": "senha-do-p12"}`, 201)
	_, list := do("GET", "/portal/apps/"+app.ID+"/certificates", "", 200)
	if n := strings.Count(string(list), `"thumbprint"`); n != 2 {
		t.Fatalf("the app lists %d certificates: %s", n, list)
	}
	return portalApp{id: app.ID, clientID: app.ClientID, secret: app.ClientSecret, pem: pemBundle, p12: p12}
}

// TestPartnerProductionClientOverMutualTLS is issue 18's done-when: a
// client written as a partner's production code (net/http, a tls.Config
// holding the app's certificate from the portal's download, its token by
// a JSON body) creates, reads, revises and lists charges, sets its
// webhook and creates a recurrence against serve --tls --mtls; without a
// certificate, or with another app's, it is refused at the handshake or
// with a 401.
func TestPartnerProductionClientOverMutualTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, server.Config{MTLS: true, TLSDir: dir})
	defer s.Close(context.Background())
	base := s.URL()
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("URL %s", base)
	}
	// The partner trusts the CA the sandbox printed.
	caPEM, err := os.ReadFile(filepath.Join(dir, server.CAFile))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("ca.pem holds no certificate")
	}

	a := onboard(t, base, roots, "a@exemplo.com.br", "11444777000161")
	b := onboard(t, base, roots, "b@exemplo.com.br", "04252011000110")
	// Production code loads the PKCS#12 file it was given, or the PEM.
	keyA, leafA, chainA, err := pkcs12.DecodeChain(a.p12, "senha-do-p12")
	if err != nil {
		t.Fatal(err)
	}
	certA := tls.Certificate{Certificate: [][]byte{leafA.Raw, chainA[0].Raw}, PrivateKey: keyA, Leaf: leafA}
	certB, err := tls.X509KeyPair(b.pem, b.pem)
	if err != nil {
		t.Fatal(err)
	}

	p := &pixSession{t: t, base: base, http: partnerClient(roots, &certA), clientID: a.clientID, pass: a.secret}
	code, tok, err := p.login()
	if err != nil || code != 200 {
		t.Fatalf("token over mTLS: %d %v %v", code, tok, err)
	}
	if cnf, _ := tok["cnf"].(map[string]any); cnf["x5t#S256"] == "" || cnf["x5t#S256"] == nil {
		t.Fatalf("the token is not bound to the certificate: %v", tok)
	}

	t.Run("OKChargesWebhooksRecurrences", func(t *testing.T) {
		p.t = t
		txid := "partnerprodpartnerprod00001"
		cob := `{"calendario": {"expiracao": 3600}, "valor": {"original": "37.90"}, "chave": "11444777000161", "solicitacaoPagador": "Mensalidade"}`
		if out := p.must(201, "PUT", "/cob/"+txid, cob); out["status"] != "ATIVA" || out["pixCopiaECola"] == "" {
			t.Fatalf("created: %v", out)
		}
		p.must(201, "POST", "/cob", cob)
		if out := p.must(200, "GET", "/cob/"+txid, ""); out["txid"] != txid {
			t.Fatalf("read: %v", out)
		}
		if out := p.must(200, "PATCH", "/cob/"+txid, `{"valor": {"original": "39.90"}}`); out["revisao"] != 1.0 {
			t.Fatalf("revised: %v", out)
		}
		now := time.Now().UTC()
		list := p.must(200, "GET", "/cob?inicio="+now.Add(-time.Hour).Format(time.RFC3339)+"&fim="+now.Add(time.Hour).Format(time.RFC3339), "")
		if cobs, _ := list["cobs"].([]any); len(cobs) != 2 {
			t.Fatalf("listed: %v", list)
		}
		p.must(200, "PUT", "/webhook/11444777000161", `{"webhookUrl": "`+base+`/sandbox/inbox/parceiro"}`)
		if out := p.must(200, "GET", "/webhook/11444777000161", ""); out["webhookUrl"] != base+"/sandbox/inbox/parceiro" {
			t.Fatalf("webhook: %v", out)
		}
		p.must(200, "PUT", "/webhookrec", `{"webhookUrl": "`+base+`/sandbox/inbox/parceiro"}`)
		rec := `{"vinculo": {"contrato": "CTR-9", "devedor": {"cpf": "11144477735", "nome": "Maria Souza"}},
			"calendario": {"dataInicial": "` + now.AddDate(0, 1, 0).Format(time.DateOnly) + `", "periodicidade": "MENSAL"},
			"valor": {"valorRec": "39.90"}, "politicaRetentativa": "NAO_PERMITE"}`
		if out := p.must(201, "POST", "/rec", rec); out["status"] != "CRIADA" {
			t.Fatalf("recurrence: %v", out)
		}
	})
	p.t = t

	t.Run("ErrWithoutACertificate", func(t *testing.T) {
		bare := &pixSession{t: t, base: base, http: partnerClient(roots, nil), clientID: a.clientID, pass: a.secret, token: p.token}
		// The certificate is optional at the TLS layer (the browser's
		// pages need none): the routes of mutual TLS refuse with a 401.
		if code, out, err := bare.login(); err != nil || code != 401 || out["error"] != "invalid_client" {
			t.Fatalf("token without a certificate: %d %v %v", code, out, err)
		}
		if code, out, err := bare.call("GET", "/cob/partnerprodpartnerprod00001", ""); err != nil || code != 401 ||
			out["type"] != "about:blank" {
			t.Fatalf("A's token without a certificate: %d %v %v", code, out, err)
		}
	})
	t.Run("ErrAnotherAppsCertificate", func(t *testing.T) {
		stolen := &pixSession{t: t, base: base, http: partnerClient(roots, &certB), clientID: a.clientID, pass: a.secret, token: p.token}
		if code, out, err := stolen.call("GET", "/cob/partnerprodpartnerprod00001", ""); err != nil || code != 401 ||
			out["type"] != "about:blank" {
			t.Fatalf("A's token with B's certificate: %d %v %v", code, out, err)
		}
		if code, out, err := stolen.login(); err != nil || code != 401 || out["error"] != "invalid_client" {
			t.Fatalf("A's credentials with B's certificate: %d %v %v", code, out, err)
		}
		// B with its own certificate is B, and sees none of A's.
		own := &pixSession{t: t, base: base, http: partnerClient(roots, &certB), clientID: b.clientID, pass: b.secret}
		if code, _, err := own.login(); err != nil || code != 200 {
			t.Fatalf("B's token: %d %v", code, err)
		}
		if code, _, _ := own.call("GET", "/cob/partnerprodpartnerprod00001", ""); code != 404 {
			t.Fatalf("B reads A's charge: %d", code)
		}
	})
	t.Run("ErrACertificateOfAnotherCA", func(t *testing.T) {
		forged := selfSigned(t, a.clientID)
		// A TLS stack that sends only what the server's CA list admits
		// (Go's does) sends nothing: a 401.
		c := &pixSession{t: t, base: base, http: partnerClient(roots, &forged), clientID: a.clientID, pass: a.secret}
		if code, out, err := c.login(); err == nil && code != 401 {
			t.Fatalf("a certificate of another CA: %d %v", code, out)
		}
		// One that sends it anyway is refused at the handshake.
		insist := partnerClient(roots, nil)
		insist.Transport.(*http.Transport).TLSClientConfig.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			return &forged, nil
		}
		c.http = insist
		if code, out, err := c.login(); err == nil {
			t.Fatalf("a certificate the sandbox CA did not sign passed the handshake: %d %v", code, out)
		}
	})
	t.Run("OKBrowserPartsWithoutACertificate", func(t *testing.T) {
		browser := partnerClient(roots, nil)
		for _, path := range []string{"/dashboard/", "/widgets/", "/portal/ca.pem"} {
			resp, err := browser.Get(base + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("%s: %d", path, resp.StatusCode)
			}
		}
		d := websocket.Dialer{TLSClientConfig: &tls.Config{RootCAs: roots}}
		ws, _, err := d.Dial("wss"+strings.TrimPrefix(base, "https")+"/events/ws?access_token="+p.token, nil)
		if err != nil {
			t.Fatalf("event stream over TLS: %v", err)
		}
		ws.Close()
	})
	t.Run("OKTheKeyNeverReachesTheLog", func(t *testing.T) {
		code, list := operatorCall(t, roots, http.MethodGet, base+"/sandbox/interactions?limit=1000")
		if code != 200 || !strings.Contains(list, "PRIVATE KEY-----[redacted]") || !strings.Contains(list, "bytes of application/x-pkcs12") {
			t.Fatalf("the downloads are not in the log as redacted: %d %.2000s", code, list)
		}
		if strings.Contains(list, "PRIVATE KEY-----\\nMI") {
			t.Fatal("a private key is in the interaction log")
		}
	})
	t.Run("ErrRevokedCertificate", func(t *testing.T) {
		var certs struct {
			Certificates []struct{ ID, Thumbprint string }
		}
		_, body := operatorCall(t, roots, http.MethodGet, base+"/portal/apps/"+a.id+"/certificates")
		json.Unmarshal([]byte(body), &certs)
		for _, c := range certs.Certificates {
			if code, out := operatorCall(t, roots, http.MethodDelete, base+"/portal/apps/"+a.id+"/certificates/"+c.ID); code != 200 {
				t.Fatalf("revoke: %d %s", code, out)
			}
		}
		if code, out, err := p.call("GET", "/cob/partnerprodpartnerprod00001", ""); err != nil || code != 401 {
			t.Fatalf("a token of a revoked certificate: %d %v %v", code, out, err)
		}
		if code, out, err := p.login(); err != nil || code != 401 {
			t.Fatalf("a token with a revoked certificate: %d %v %v", code, out, err)
		}
	})
}

// selfSigned is a client certificate no CA of the sandbox signed.
func selfSigned(t *testing.T, cn string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// operatorCall is a call of the sandbox's operator over its TLS.
func operatorCall(t *testing.T, roots *x509.CertPool, method, url string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	req.Header.Set("Authorization", "Bearer "+testOperator)
	resp, err := partnerClient(roots, nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// trustDir is a pool of the ca.pem a sandbox wrote to dir.
func trustDir(t *testing.T, dir string) *x509.CertPool {
	t.Helper()
	caPEM, err := os.ReadFile(filepath.Join(dir, server.CAFile))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("ca.pem holds no certificate")
	}
	return roots
}

// TestServeTLS: serve --tls serves every API over HTTPS with a
// certificate made at start, printing where ca.pem and server.pem are and
// the server's fingerprint; the printed demo credentials work with the
// printed CA. Plain HTTP is left for nothing: an http:// request to it is
// no answer.
func TestServeTLS(t *testing.T) {
	t.Parallel()
	addr, dir := freeAddr(t), t.TempDir()
	out, stop := runMain(t, []string{"--tls", "--tls-dir", dir}, map[string]string{"HOMOLOGA_ADDR": addr})
	banner := out.String()
	serverPEM, err := os.ReadFile(filepath.Join(dir, server.ServerFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"https://" + addr + "/pix/v2", "https://" + addr + "/oauth/token", "wss://" + addr + "/events/ws",
		filepath.Join(dir, server.CAFile), filepath.Join(dir, server.ServerFile), "SHA-256", "--cacert " + filepath.Join(dir, server.CAFile)} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner lacks %q:\n%s", want, banner)
		}
	}
	c := partnerClient(trustDir(t, dir), nil)
	req, _ := http.NewRequest("POST", "https://"+addr+"/oauth/token", strings.NewReader("grant_type=client_credentials"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(server.DemoClientID, server.DemoClientSecret)
	resp, err := c.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("token over TLS: %v %v", resp, err)
	}
	// The certificate served is the one written, whose fingerprint the
	// banner printed.
	leaf := resp.TLS.PeerCertificates[0]
	resp.Body.Close()
	if block, _ := pem.Decode(serverPEM); block == nil || !bytes.Equal(block.Bytes, leaf.Raw) {
		t.Error("server.pem is not the certificate served")
	}
	if !strings.Contains(banner, certs.Fingerprint(leaf.Raw)) {
		t.Errorf("the banner lacks the served certificate's fingerprint %s", certs.Fingerprint(leaf.Raw))
	}
	if resp, err := http.Get("http://" + addr + "/pix/v2/cob"); err == nil {
		if resp.StatusCode < 400 {
			t.Errorf("plain HTTP answered %d", resp.StatusCode)
		}
		resp.Body.Close()
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestServeTLSWithAGivenCertificate: --tls-cert and --tls-key serve that
// certificate; the sandbox CA still signs the apps' certificates.
func TestServeTLSWithAGivenCertificate(t *testing.T) {
	t.Parallel()
	addr, dir := freeAddr(t), t.TempDir()
	given := selfSignedServer(t, dir)
	out, stop := runMain(t, []string{"--tls-cert", filepath.Join(dir, "given.pem"), "--tls-key", filepath.Join(dir, "given-key.pem"), "--tls-dir", dir},
		map[string]string{"HOMOLOGA_ADDR": addr})
	defer stop()
	if !strings.Contains(out.String(), "given by --tls-cert") || !strings.Contains(out.String(), certs.Fingerprint(given.Raw)) {
		t.Errorf("banner:\n%s", out.String())
	}
	roots := x509.NewCertPool()
	roots.AddCert(given)
	resp, err := partnerClient(roots, nil).Get("https://" + addr + "/portal/ca.pem")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), "BEGIN CERTIFICATE") || !resp.TLS.PeerCertificates[0].Equal(given) {
		t.Fatalf("served %d %s", resp.StatusCode, b)
	}
	if code := server.Main(context.Background(), []string{"--addr", freeAddr(t), "--tls-cert", filepath.Join(dir, "given.pem")},
		func(string) string { return "" }, io.Discard, io.Discard); code == 0 {
		t.Error("--tls-cert without --tls-key started")
	}
}

// selfSignedServer writes given.pem and given-key.pem to dir: a server
// certificate for 127.0.0.1 of no CA of the sandbox's.
func selfSignedServer(t *testing.T, dir string) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(9), Subject: pkix.Name{CommonName: "homologa.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(key)
	os.WriteFile(filepath.Join(dir, "given.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(filepath.Join(dir, "given-key.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	return cert
}

// TestClientCertificatesSurviveARestart: with --db the CA is kept, so a
// certificate issued before a restart still obtains tokens under --mtls.
func TestClientCertificatesSurviveARestart(t *testing.T) {
	t.Parallel()
	db, dir := filepath.Join(t.TempDir(), "h.db"), t.TempDir()
	s := startServer(t, server.Config{DBPath: db, MTLS: true, TLSDir: dir})
	_, cl, err := s.Auth.IssueCertificate(context.Background(), s.Demo.ID)
	if err != nil {
		t.Fatal(err)
	}
	bundle, err := s.CA.PEMBundle(cl)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := tls.X509KeyPair(bundle, bundle)
	if err != nil {
		t.Fatal(err)
	}
	s.Close(context.Background())

	s = startServer(t, server.Config{DBPath: db, MTLS: true, TLSDir: dir})
	defer s.Close(context.Background())
	p := &pixSession{t: t, base: s.URL(), http: partnerClient(trustDir(t, dir), &cert), clientID: server.DemoClientID, pass: server.DemoClientSecret}
	if code, out, err := p.login(); err != nil || code != 200 {
		t.Fatalf("token with a certificate of the last start: %d %v %v", code, out, err)
	}
	p.must(201, "PUT", "/cob/restartrestartrestartrestart01", cobBody("5.00"))
}

// TestOptionalMutualTLS: under --tls alone a client certificate is
// optional; a token asked for with one is bound to it all the same.
func TestOptionalMutualTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, server.Config{TLS: true, TLSDir: dir})
	defer s.Close(context.Background())
	roots := trustDir(t, dir)
	plain := &pixSession{t: t, base: s.URL(), http: partnerClient(roots, nil), clientID: server.DemoClientID, pass: server.DemoClientSecret}
	if code, out, _ := plain.login(); code != 200 || out["cnf"] != nil {
		t.Fatalf("a token without a certificate: %d %v", code, out)
	}
	plain.must(201, "PUT", "/cob/optionaloptionaloptional001", cobBody("5.00"))

	_, cl, err := s.Auth.IssueCertificate(context.Background(), s.Demo.ID)
	if err != nil {
		t.Fatal(err)
	}
	bundle, _ := s.CA.PEMBundle(cl)
	cert, _ := tls.X509KeyPair(bundle, bundle)
	bound := &pixSession{t: t, base: s.URL(), http: partnerClient(roots, &cert), clientID: server.DemoClientID, pass: server.DemoClientSecret}
	if code, out, _ := bound.login(); code != 200 || out["cnf"] == nil {
		t.Fatalf("a token with a certificate: %d %v", code, out)
	}
	bound.must(200, "GET", "/cob/optionaloptionaloptional001", "")
	plain.token = bound.token
	if code, _, _ := plain.call("GET", "/cob/optionaloptionaloptional001", ""); code != 401 {
		t.Fatalf("a bound token without its certificate: %d", code)
	}

	// The demo app's webhook is the built-in inbox over the sandbox's own
	// TLS: deliveries trust the sandbox CA.
	if !strings.HasPrefix(s.Demo.WebhookURL, "https://127.0.0.1:") {
		t.Fatalf("the demo webhook %s", s.Demo.WebhookURL)
	}
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/sandbox/events/ping", strings.NewReader(`{"clientId": "`+server.DemoClientID+`"}`))
	req.Header.Set("Authorization", "Bearer "+testOperator)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := partnerClient(roots, nil).Do(req); err != nil || resp.StatusCode != 202 {
		t.Fatalf("ping: %v %v", resp, err)
	}
	waitFor(t, func() bool {
		_, list := operatorCall(t, roots, http.MethodGet, s.URL()+"/sandbox/deliveries?app="+server.DemoClientID)
		return strings.Contains(list, `"status":"delivered"`)
	})
}
