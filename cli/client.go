package cli

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// The demo app of a sandbox on a developer's machine: what every command
// acts as when no credentials are given (make run prints them).
const (
	DemoClientID     = "homologa-demo"
	DemoClientSecret = "homologa-demo-secret"
)

// callTimeout bounds one call to the sandbox.
const callTimeout = 30 * time.Second

// Client is a sandbox as one app sees it: its base URL, the app's
// credentials, the TLS it is reached over, and the app's current token.
type Client struct {
	Base         string
	ClientID     string
	ClientSecret string
	// TLS is the client side of the connection: the roots that verify a
	// sandbox over --tls, and the app's certificate under --mtls.
	TLS  *tls.Config
	HTTP *http.Client

	mu    sync.Mutex
	token string
}

// connFlags are the flags every command shares: which sandbox, as which
// app, over which TLS.
type connFlags struct {
	sandbox, clientID, clientSecret, cacert, cert, key string
}

// register declares the shared flags on fs, their defaults from the
// environment, else the demo app of a local sandbox.
func (f *connFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	fs.StringVar(&f.sandbox, "sandbox", env("HOMOLOGA_SANDBOX", "http://127.0.0.1:8080"), "the sandbox's base URL (HOMOLOGA_SANDBOX)")
	fs.StringVar(&f.clientID, "client-id", env("HOMOLOGA_CLIENT_ID", DemoClientID), "the app's client id (HOMOLOGA_CLIENT_ID; default: the demo app)")
	fs.StringVar(&f.clientSecret, "client-secret", env("HOMOLOGA_CLIENT_SECRET", ""), "the app's client secret (HOMOLOGA_CLIENT_SECRET; default: the demo app's)")
	fs.StringVar(&f.cacert, "cacert", env("HOMOLOGA_CACERT", ""), "PEM file of the CA that signed the sandbox's certificate (its ca.pem), for a sandbox over --tls")
	fs.StringVar(&f.cert, "cert", env("HOMOLOGA_CERT", ""), "the app's client certificate for mutual TLS: the portal's PEM download (key, certificate and CA in one file)")
	fs.StringVar(&f.key, "key", env("HOMOLOGA_KEY", ""), "the certificate's private key, when it is not in the --cert file")
}

// client makes the Client the flags describe.
func (f *connFlags) client() (*Client, error) {
	u, err := url.Parse(f.sandbox)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--sandbox %q: give the sandbox's base URL, as http://127.0.0.1:8080", f.sandbox)
	}
	secret := f.clientSecret
	if secret == "" && f.clientID == DemoClientID {
		secret = DemoClientSecret
	}
	if secret == "" {
		return nil, fmt.Errorf("--client-secret is required for the app %s (or HOMOLOGA_CLIENT_SECRET)", f.clientID)
	}
	cfg, err := TLSConfig(f.cacert, f.cert, f.key)
	if err != nil {
		return nil, err
	}
	return NewClient(u.String(), f.clientID, secret, cfg)
}

// NewClient is a client of the sandbox at base as the app with these
// credentials, over cfg's TLS (nil: the system's roots, no certificate).
func NewClient(base, clientID, clientSecret string, cfg *tls.Config) (*Client, error) {
	if cfg == nil {
		cfg = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	c := &Client{Base: strings.TrimSuffix(base, "/"), ClientID: clientID, ClientSecret: clientSecret, TLS: cfg}
	c.HTTP = &http.Client{Timeout: callTimeout, Transport: &http.Transport{TLSClientConfig: cfg, Proxy: http.ProxyFromEnvironment}}
	return c, nil
}

// TLSConfig reads the CA to trust and the client certificate: the
// portal's PEM bundle holds the key, the certificate and the CA, and
// X509KeyPair takes the certificates and the key out of the same bytes.
func TLSConfig(cacert, cert, key string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if cacert != "" {
		pem, err := os.ReadFile(cacert)
		if err != nil {
			return nil, fmt.Errorf("--cacert: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--cacert %s: no PEM certificate in it", cacert)
		}
		cfg.RootCAs = pool
	}
	if cert == "" {
		if key != "" {
			return nil, errors.New("--key needs --cert")
		}
		return cfg, nil
	}
	certPEM, err := os.ReadFile(cert)
	if err != nil {
		return nil, fmt.Errorf("--cert: %w", err)
	}
	keyPEM := certPEM
	if key != "" {
		if keyPEM, err = os.ReadFile(key); err != nil {
			return nil, fmt.Errorf("--key: %w", err)
		}
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("--cert %s: %w", cert, err)
	}
	cfg.Certificates = []tls.Certificate{pair}
	return cfg, nil
}

// Problem is an error answer of the sandbox, in whichever dialect: what
// a person needs to read of it.
type Problem struct {
	Status int
	Body   []byte
}

func (p *Problem) Error() string {
	var m map[string]any
	if json.Unmarshal(p.Body, &m) == nil {
		for _, k := range []string{"detail", "error_description", "title", "error"} {
			if s, ok := m[k].(string); ok && s != "" {
				return fmt.Sprintf("%d: %s", p.Status, s)
			}
		}
	}
	return fmt.Sprintf("%d: %s", p.Status, strings.TrimSpace(string(excerpt(p.Body, 300))))
}

func excerpt(b []byte, n int) []byte {
	if len(b) > n {
		return append(b[:n:n], "…"...)
	}
	return b
}

// Close ends the client's idle connections: a command that is done
// leaves none open on the sandbox (a server shutting down waits for a
// connection that never sent a request).
func (c *Client) Close() { c.HTTP.CloseIdleConnections() }

// Token is the app's access token, asked for once and again after
// Renew: the client-credentials grant with HTTP Basic.
func (c *Client) Token(ctx context.Context) (string, error) {
	c.mu.Lock()
	tok := c.token
	c.mu.Unlock()
	if tok != "" {
		return tok, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Base+"/oauth/token", strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(c.ClientID), url.QueryEscape(c.ClientSecret))
	status, body, _, err := c.send(req)
	if err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	if status != http.StatusOK {
		return "", fmt.Errorf("token for %s: %w", c.ClientID, &Problem{Status: status, Body: body})
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.AccessToken == "" {
		return "", fmt.Errorf("token for %s: no access_token in %s", c.ClientID, excerpt(body, 200))
	}
	c.mu.Lock()
	c.token = out.AccessToken
	c.mu.Unlock()
	return out.AccessToken, nil
}

// Renew forgets the token, so the next call asks for another (tokens
// live on the wall clock, and the control API can end them).
func (c *Client) Renew() {
	c.mu.Lock()
	c.token = ""
	c.mu.Unlock()
}

func (c *Client) send(req *http.Request) (int, []byte, http.Header, error) {
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, body, resp.Header, err
}

// Request is one call to the sandbox as the app.
type Request struct {
	Method, Path string
	// Body is sent as JSON: bytes as they are, anything else encoded.
	Body   any
	Header map[string]string
}

// Answer is what a call got.
type Answer struct {
	Status int
	Body   []byte
	Header http.Header
}

// Decode reads the answer's JSON into v.
func (a Answer) Decode(v any) error {
	if err := json.Unmarshal(a.Body, v); err != nil {
		return fmt.Errorf("answer %d is not the JSON expected: %w (%s)", a.Status, err, excerpt(a.Body, 200))
	}
	return nil
}

// Do makes one call with the app's token, and once more with a new
// token when the sandbox refuses the one it had.
func (c *Client) Do(ctx context.Context, r Request) (Answer, error) {
	var body []byte
	switch b := r.Body.(type) {
	case nil:
	case []byte:
		body = b
	case string:
		body = []byte(b)
	default:
		var err error
		if body, err = json.Marshal(b); err != nil {
			return Answer{}, err
		}
	}
	for attempt := 0; ; attempt++ {
		tok, err := c.Token(ctx)
		if err != nil {
			return Answer{}, err
		}
		req, err := http.NewRequestWithContext(ctx, r.Method, c.Base+r.Path, bytes.NewReader(body))
		if err != nil {
			return Answer{}, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range r.Header {
			req.Header.Set(k, v)
		}
		status, b, h, err := c.send(req)
		if err != nil {
			return Answer{}, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
		}
		if status == http.StatusUnauthorized && attempt == 0 {
			c.Renew()
			continue
		}
		return Answer{Status: status, Body: b, Header: h}, nil
	}
}

// Call is Do expecting a 2xx, whose JSON goes into out (when not nil).
func (c *Client) Call(ctx context.Context, method, path string, body, out any) error {
	a, err := c.Do(ctx, Request{Method: method, Path: path, Body: body})
	if err != nil {
		return err
	}
	if a.Status < 200 || a.Status > 299 {
		return fmt.Errorf("%s %s: %w", method, path, &Problem{Status: a.Status, Body: a.Body})
	}
	if out == nil || len(a.Body) == 0 {
		return nil
	}
	return a.Decode(out)
}

// AppInfo is the app of the credentials, as GET /sandbox/app shows it.
type AppInfo struct {
	ID         string `json:"id"`
	ClientID   string `json:"clientId"`
	Name       string `json:"name"`
	CompanyID  string `json:"companyId"`
	CNPJ       string `json:"cnpj"`
	WebhookURL string `json:"webhookUrl"`
}

// App reads the app of the credentials and its company.
func (c *Client) App(ctx context.Context) (AppInfo, error) {
	var a AppInfo
	err := c.Call(ctx, http.MethodGet, "/sandbox/app", nil, &a)
	return a, err
}
