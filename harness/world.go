package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"homologa/simulator/events"
	"homologa/simulator/redact"
	"homologa/simulator/schema"
)

// Credentials are the app a scenario acts as.
type Credentials struct {
	ID            string
	ClientID      string
	ClientSecret  string
	WebhookSecret string
	CNPJ          string
}

// World is the state of one scenario.
type World struct {
	// BaseURL is the sandbox under test.
	BaseURL string
	Schemas *schema.Registry
	Demo    Credentials
	// Partner is the integration under test (homologation mode).
	Partner *Partner
	// Namespace holds the scenario's company (Begin makes it).
	Namespace string
	// Maker is the credential Begin makes namespaces with: the demo app of
	// the sandbox's own namespace unless told otherwise.
	Maker *Maker
	// ctx, when set, ends the scenario's requests (a run the sandbox
	// makes stops with the sandbox); partnerRT carries requests to the
	// partner.
	ctx       context.Context
	partnerRT http.RoundTripper
	// proc is the partner started for the scenario's app; partnerBase the
	// URL of the one started for the run (the fixed mode).
	proc        *partnerProcess
	partnerBase string
	// run is what the scenarios of one run share (nil outside a run).
	run *runMemory
	// portal is the portal API token the scenario's /portal requests
	// carry: its namespace's demo account's, or the account it logged in
	// as.
	portal string

	partnerAnswer []byte
	// sentPix are the endToEndIds of the Pix the payer sent to the
	// partner's key in this scenario (payerSendsPix).
	sentPix       []string
	partnerStatus int
	// na is why the scenario does not apply here ("" when it does).
	na string

	client *http.Client
	ctl    controlAuth
	// harnessCall marks a control call the harness makes for a step (the
	// clock, receivers): it is the scenario's company's, whatever token
	// the feature holds.
	harnessCall bool
	app         Credentials
	token       string
	vars        map[string]string
	header      http.Header
	resp        *http.Response
	body        []byte
	took        time.Duration // from sending the last request to its whole answer
	receiver    *Receiver
	event       *received
	ws          *websocket.Conn
	wsEvents    chan events.Envelope
	wsClosed    chan error
	cleanup     []func()
}

type received struct {
	Envelope events.Envelope
	Raw      []byte
	Header   http.Header
}

// NewWorld returns the state of a scenario against the sandbox at baseURL.
func NewWorld(baseURL string, schemas *schema.Registry, demo Credentials) *World {
	w := &World{
		BaseURL: strings.TrimSuffix(baseURL, "/"), Schemas: schemas, Demo: demo, app: demo,
		vars: map[string]string{}, header: http.Header{},
	}
	w.ctl.client = &http.Client{Timeout: 30 * time.Second}
	w.client = &http.Client{Timeout: 30 * time.Second, Transport: sandboxTransport{w: w, base: http.DefaultTransport}}
	return w
}

// Close releases what the scenario opened.
func (w *World) Close() {
	for i := len(w.cleanup) - 1; i >= 0; i-- {
		w.cleanup[i]()
	}
}

var varRef = regexp.MustCompile(`\$\{([A-Za-z0-9_.]+)\}`)

// expand replaces ${name} with remembered values and the built-ins baseUrl,
// receiverUrl, app.id, app.clientId, app.clientSecret, app.cnpj, token.
func (w *World) expand(s string) (string, error) {
	var missing []string
	out := varRef.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		switch name {
		case "baseUrl":
			return w.BaseURL
		case "receiverUrl":
			if w.receiver != nil {
				return w.receiver.URL
			}
		case "app.id":
			return w.app.ID
		case "app.clientId":
			return w.app.ClientID
		case "app.cnpj":
			return w.app.CNPJ
		case "app.clientSecret":
			return w.app.ClientSecret
		case "token":
			return w.token
		}
		if v, ok := w.vars[name]; ok {
			return v
		}
		missing = append(missing, name)
		return m
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("nothing remembered as %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// do sends a request to the sandbox and keeps the answer.
func (w *World) do(method, path string, body []byte, contentType string) error {
	path, err := w.expand(path)
	if err != nil {
		return err
	}
	u := path
	if !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://") {
		u = w.BaseURL + path
	}
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if body != nil && contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	// A feature's request carries the token the feature holds, to every
	// API; one that holds none reaches the control API as the scenario's
	// app, with the harness's own token (sandboxTransport), as the
	// harness's own control calls always do (control).
	// The portal takes an account's credential, never an app token: the
	// transport adds the scenario's portal token there.
	if w.token != "" && !w.harnessCall && !strings.HasPrefix(req.URL.Path, "/portal/") {
		req.Header.Set("Authorization", "Bearer "+w.token)
	}
	for k, vs := range w.header {
		if k == "Host" {
			req.Host = vs[0] // net/http sends the request's Host, not a header
			continue
		}
		req.Header[k] = vs
	}
	w.header = http.Header{}
	start := time.Now()
	resp, err := w.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	w.resp = resp
	if w.body, err = io.ReadAll(resp.Body); err != nil {
		return err
	}
	w.took = time.Since(start)
	return w.checkContract(method, req.URL.Path, resp.StatusCode, w.body)
}

func (w *World) mustResponse() error {
	if w.resp == nil {
		return fmt.Errorf("no request has been sent yet")
	}
	return nil
}

// describe is how a failing step shows the last answer.
func (w *World) describe() string {
	if w.resp == nil {
		return "(no response)"
	}
	b := w.body
	if len(b) > 2000 {
		b = append(b[:2000:2000], "…"...)
	}
	target := w.resp.Request.URL.Path
	if q := w.resp.Request.URL.RawQuery; q != "" {
		target += "?" + redact.Query(q) // the values the feature expanded, secrets out
	}
	return fmt.Sprintf("%s %s → %d %s", w.resp.Request.Method, target, w.resp.StatusCode, b)
}

// field returns the value at a dotted path ("errors.0.field") of a JSON
// document.
func field(doc []byte, path string) (any, bool, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false, fmt.Errorf("body is not JSON: %v", err)
	}
	if path == "" || path == "." {
		return v, true, nil
	}
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[p]; !ok {
				return nil, false, nil
			}
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false, nil
			}
			v = x[i]
		default:
			return nil, false, nil
		}
	}
	return v, true, nil
}

// text renders a JSON value the way a feature writes it: strings bare,
// everything else as JSON.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// connect opens the event websocket with the current token.
func (w *World) connect(query string) (*http.Response, error) {
	q, err := w.expand(query)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(strings.Replace(w.BaseURL, "http", "ws", 1) + "/events/ws")
	if err != nil {
		return nil, err
	}
	u.RawQuery = strings.TrimPrefix(q, "?")
	h := http.Header{}
	if w.token != "" {
		h.Set("Authorization", "Bearer "+w.token)
	}
	if w.Namespace != "" {
		h.Set(namespaceHeader, w.Namespace)
	}
	conn, resp, err := websocket.DefaultDialer.Dial(u.String(), h)
	if err != nil {
		return resp, err
	}
	if w.ws != nil {
		w.ws.Close()
	}
	evs, closed := make(chan events.Envelope, 1024), make(chan error, 1)
	w.ws, w.wsEvents, w.wsClosed = conn, evs, closed
	go func() {
		for {
			var e events.Envelope
			if err := conn.ReadJSON(&e); err != nil {
				closed <- err
				close(evs)
				return
			}
			evs <- e
		}
	}()
	w.cleanup = append(w.cleanup, func() { conn.Close() })
	return resp, nil
}

func (w *World) waitStream(typ string, timeout time.Duration) (events.Envelope, error) {
	if w.ws == nil {
		return events.Envelope{}, fmt.Errorf("not subscribed to the event stream")
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	var seen []string
	for {
		select {
		case e, ok := <-w.wsEvents:
			if !ok {
				return events.Envelope{}, fmt.Errorf("the stream closed before a %q event; saw %v", typ, seen)
			}
			if typ == "" || e.Type == typ {
				return e, nil
			}
			seen = append(seen, e.Type)
		case <-t.C:
			return events.Envelope{}, fmt.Errorf("no %q event on the stream within %s; saw %v", typ, timeout, seen)
		}
	}
}
