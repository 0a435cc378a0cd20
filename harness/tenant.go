package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"homologa/simulator/server"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// The sandbox gives every scenario a company of its own: a namespace
// holding a fresh copy of the demo company (its credentials, CNPJ, Pix keys
// and offers; data and a clock of its own). The World sends every request
// of the scenario in that namespace, and authenticates the control calls
// it makes (/sandbox/…) as the scenario's app: the control API belongs to
// the caller's company.

// namespaceHeader names the namespace a request's names are looked up in.
const namespaceHeader = "X-Homologa-Namespace"

// HarnessAgent is the User-Agent of the requests the harness makes for
// itself (control calls, its tokens): homologation checks leave them out
// of what the partner did.
const HarnessAgent = "homologa-harness"

// sandboxTransport scopes the World's requests to the sandbox.
type sandboxTransport struct {
	w    *World
	base http.RoundTripper
}

func (t sandboxTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	w := t.w
	if w.ctx != nil {
		req = req.WithContext(w.ctx)
	}
	if !w.isSandbox(req.URL) {
		return t.base.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	if w.Namespace != "" && req.Header.Get(namespaceHeader) == "" {
		req.Header.Set(namespaceHeader, w.Namespace)
	}
	if strings.HasPrefix(req.URL.Path, "/portal/") {
		if req.Header.Get("Authorization") == "" && w.portal != "" {
			req.Header.Set("Authorization", "Bearer "+w.portal)
		}
		return t.base.RoundTrip(req)
	}
	control := strings.HasPrefix(req.URL.Path, "/sandbox/") && req.Header.Get("Authorization") == ""
	if !control {
		return t.base.RoundTrip(req)
	}
	tok, err := w.controlToken(false)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := t.base.RoundTrip(req)
	replayable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	if err != nil || resp.StatusCode != http.StatusUnauthorized || !replayable {
		return resp, err
	}
	// The token ended (a feature expired the company's tokens, or its
	// hour passed): once more with a new one.
	resp.Body.Close()
	if tok, err = w.controlToken(true); err != nil {
		return nil, err
	}
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		req.Body = body
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return t.base.RoundTrip(req)
}

// isSandbox reports whether u is on the sandbox under test.
func (w *World) isSandbox(u *url.URL) bool {
	base, err := url.Parse(w.BaseURL)
	return err == nil && u.Host == base.Host
}

// controlAuth is the token the harness's own control calls carry, kept
// per app.
type controlAuth struct {
	mu     sync.Mutex
	app    string
	token  string
	client *http.Client
}

// controlToken returns a token of the scenario's app for control calls,
// a new one when renew (or when the app changed).
func (w *World) controlToken(renew bool) (string, error) {
	c := &w.ctl
	c.mu.Lock()
	defer c.mu.Unlock()
	if !renew && c.token != "" && c.app == w.app.ClientID {
		return c.token, nil
	}
	tok, err := w.issueToken(c.client, w.app, "")
	if err != nil {
		return "", fmt.Errorf("a token for the harness's control calls: %w", err)
	}
	c.app, c.token = w.app.ClientID, tok
	return tok, nil
}

// issueToken asks the token endpoint for a token of app, in the scenario's
// namespace.
func (w *World) issueToken(client *http.Client, app Credentials, scope string) (string, error) {
	return w.issueTokenIn(client, w.Namespace, app, scope)
}

// issueTokenIn asks for a token of app in namespace ns ("" the sandbox's
// own).
func (w *World) issueTokenIn(client *http.Client, ns string, app Credentials, scope string) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	if scope != "" {
		form.Set("scope", scope)
	}
	req, _ := http.NewRequest(http.MethodPost, w.BaseURL+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", HarnessAgent)
	if ns != "" {
		req.Header.Set(namespaceHeader, ns)
	}
	req.SetBasicAuth(url.QueryEscape(app.ClientID), url.QueryEscape(app.ClientSecret))
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var t struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &t) != nil || t.AccessToken == "" {
		return "", fmt.Errorf("token request answered %d: %s", resp.StatusCode, b)
	}
	return t.AccessToken, nil
}

// Maker is the credential namespaces are made with: a bearer token (the
// operator's, or a portal API token), or an app's client credentials, for
// which it keeps a token. One Maker serves every scenario of a run.
type Maker struct {
	Token                  string
	ClientID, ClientSecret string

	mu  sync.Mutex
	tok string
}

// DemoMaker makes namespaces as the demo app of the sandbox's own
// namespace, with its documented credentials.
func DemoMaker() *Maker {
	return &Maker{ClientID: server.DemoClientID, ClientSecret: server.DemoClientSecret}
}

// bearer is the maker's token, a new one when renew.
func (m *Maker) bearer(w *World, renew bool) (string, error) {
	if m.Token != "" {
		return m.Token, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tok == "" || renew {
		tok, err := w.issueTokenIn(w.ctl.client, "", Credentials{ClientID: m.ClientID, ClientSecret: m.ClientSecret}, "")
		if err != nil {
			return "", fmt.Errorf("the credential namespaces are made with (%s): %w", m.ClientID, err)
		}
		m.tok = tok
	}
	return m.tok, nil
}

// makeNamespace asks for a namespace with the maker's credential, once
// more with a new token if the first has expired.
func (w *World) makeNamespace() (*http.Response, error) {
	m := w.Maker
	if m == nil {
		m = DemoMaker()
		w.Maker = m
	}
	for renew := false; ; renew = true {
		tok, err := m.bearer(w, renew)
		if err != nil {
			return nil, err
		}
		req, _ := http.NewRequest(http.MethodPost, w.BaseURL+"/sandbox/namespaces", bytes.NewReader(nil))
		req.Header.Set("User-Agent", HarnessAgent)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := w.ctl.client.Do(req)
		if err != nil || resp.StatusCode != http.StatusUnauthorized || renew || m.Token != "" {
			return resp, err
		}
		resp.Body.Close()
	}
}

// Begin gives the scenario its own company: a new namespace holding a
// fresh copy of the demo account and company, whose app the scenario acts
// as, and whose account its portal requests act as.
func (w *World) Begin() error {
	resp, err := w.makeNamespace()
	if err != nil {
		return fmt.Errorf("a namespace for the scenario: %w", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out struct {
		Namespace string `json:"namespace"`
		Demo      struct {
			CompanyID     string `json:"companyId"`
			CNPJ          string `json:"cnpj"`
			ClientID      string `json:"clientId"`
			ClientSecret  string `json:"clientSecret"`
			WebhookSecret string `json:"webhookSecret"`
			PortalToken   string `json:"portalToken"`
		} `json:"demo"`
	}
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &out) != nil || out.Namespace == "" {
		return fmt.Errorf("a namespace for the scenario: POST /sandbox/namespaces answered %d: %s (is the sandbox this version?)", resp.StatusCode, b)
	}
	w.Namespace = out.Namespace
	w.portal = out.Demo.PortalToken
	w.Demo = Credentials{ClientID: out.Demo.ClientID, ClientSecret: out.Demo.ClientSecret, WebhookSecret: out.Demo.WebhookSecret, CNPJ: out.Demo.CNPJ}
	if id, err := w.appID(out.Demo.ClientID); err == nil {
		w.Demo.ID = id
	}
	w.app = w.Demo
	return nil
}

// appID reads an app's id from the portal, in the scenario's namespace.
func (w *World) appID(clientID string) (string, error) {
	resp, err := w.client.Get(w.BaseURL + "/portal/apps/" + url.PathEscape(clientID))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var a struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || a.ID == "" {
		return "", fmt.Errorf("portal answered %d for app %s", resp.StatusCode, clientID)
	}
	return a.ID, nil
}

// End empties the scenario's namespace: a long-running sandbox keeps no
// data of a finished scenario.
func (w *World) End() {
	if w.Namespace == "" {
		return
	}
	req, _ := http.NewRequest(http.MethodDelete, w.BaseURL+"/sandbox/namespaces/"+w.Namespace, nil)
	req.Header.Set("User-Agent", HarnessAgent)
	if resp, err := w.client.Do(req); err == nil {
		resp.Body.Close()
	}
}

// portalLogin logs in to the portal as an account of the scenario's
// namespace: its API token replaces the demo account's.
func (w *World) portalLogin(email, password string) error {
	email, err := w.expand(email)
	if err != nil {
		return err
	}
	req, _ := http.NewRequest(http.MethodPost, w.BaseURL+"/portal/tokens", nil)
	req.SetBasicAuth(email, password)
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var c struct{ Token string }
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &c) != nil || c.Token == "" {
		return fmt.Errorf("log in to the portal as %s: %d %s", email, resp.StatusCode, b)
	}
	w.portal = c.Token
	return nil
}

// BeginFixed readies a scenario of a partner with a fixed app: it acts as
// that app, in the sandbox's own namespace, on its company emptied of
// what the previous scenario left (POST /sandbox/reset keeps the company,
// its apps, keys and grants).
func (w *World) BeginFixed() error {
	a := w.Partner.App
	w.Demo = Credentials{ClientID: a.ClientID, ClientSecret: a.ClientSecret, WebhookSecret: a.WebhookSecret}
	w.app = w.Demo
	// What the reset empties, the checks may still need: the partner's
	// token requests (a token is reused across scenarios).
	if toks, err := w.interactions(http.MethodPost, `/oauth/token`); err == nil {
		w.run.rememberTokens(toks)
	}
	w.harnessCall = true
	err := w.do(http.MethodPost, "/sandbox/reset", nil, "")
	w.harnessCall = false
	if err != nil {
		return fmt.Errorf("reset the partner's company before the scenario: %w", err)
	}
	if w.resp.StatusCode/100 != 2 {
		return fmt.Errorf("reset the partner's company before the scenario (app %s): %s", a.ClientID, w.describe())
	}
	return nil
}
