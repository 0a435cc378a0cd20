package cli

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"homologa/simulator/events"
)

// forwardTimeout bounds the local answer, as a delivery's attempt is
// bounded.
const forwardTimeout = 10 * time.Second

// readWait is how long a stream may stay silent before the connection is
// taken for dead: the sandbox pings every 30 s.
const readWait = 75 * time.Second

// listener forwards one company's events to a local URL, one at a time,
// in the order of their sequence, resuming after the last one it handled
// whenever the connection comes back.
type listener struct {
	c         *Client
	forwardTo string
	types     string
	secret    string
	out       io.Writer
	fwd       *http.Client
	// last is the sequence of the last event handled: the stream is
	// resumed after it.
	last      int64
	forwarded int
}

func listenCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("listen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf connFlags
	cf.register(fs, getenv)
	forwardTo := fs.String("forward-to", "", "the local URL each event is POSTed to (required), e.g. http://localhost:3000/webhook")
	types := fs.String("events", "", "only these event types, comma-separated, * for any run of characters: 'pix.*,proposta.*'")
	secret := fs.String("secret", "", "the secret events are signed with (default: one derived from the app's credentials, the same at every start)")
	since := fs.Int64("since", -1, "forward the company's events after this sequence first (default: only events from now on)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *forwardTo == "" {
		fmt.Fprintln(stderr, "homologa listen: --forward-to URL is required")
		return 2
	}
	if u, err := url.Parse(*forwardTo); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		fmt.Fprintf(stderr, "homologa listen: --forward-to %q: give an http(s) URL, as http://localhost:3000/webhook\n", *forwardTo)
		return 2
	}
	c, err := cf.client()
	if err != nil {
		fmt.Fprintln(stderr, "homologa listen:", err)
		return 2
	}
	defer c.Close()
	l := &listener{c: c, forwardTo: *forwardTo, types: *types, secret: *secret, out: stdout, last: *since,
		fwd: &http.Client{Timeout: forwardTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	if l.secret == "" {
		l.secret = ListenSecret(c.ClientID, c.ClientSecret)
	}
	if err := l.run(ctx); err != nil {
		fmt.Fprintln(stderr, "homologa listen:", err)
		return 1
	}
	return 0
}

// ListenSecret is the secret homologa listen signs with unless told
// another: derived from the app's credentials, so a local integration
// configured with it keeps working across restarts of listen.
func ListenSecret(clientID, clientSecret string) string {
	m := hmac.New(sha256.New, []byte(clientSecret))
	m.Write([]byte("homologa listen\x00" + clientID))
	return "whsec_" + hex.EncodeToString(m.Sum(nil))[:40]
}

// run announces itself and keeps a connection to the stream until ctx
// ends, reconnecting after each loss with a growing pause.
func (l *listener) run(ctx context.Context) error {
	app, err := l.c.App(ctx)
	if err != nil {
		return err
	}
	if l.last < 0 {
		if l.last, err = newestSequence(ctx, l.c); err != nil {
			return err
		}
	}
	fmt.Fprintf(l.out, "Listening to the events of company %s (app %s) at %s\n", app.CNPJ, app.ClientID, l.c.Base)
	fmt.Fprintf(l.out, "Forwarding to %s\n", l.forwardTo)
	fmt.Fprintf(l.out, "Your webhook signing secret is %s (Homologa-Signature, as webhooks are signed: docs/reference/platform.md)\n", l.secret)
	pause := 200 * time.Millisecond
	for first := true; ; first = false {
		got, err := l.session(ctx, first)
		if ctx.Err() != nil {
			fmt.Fprintf(l.out, "Stopped after %d events (last sequence %d: resume with --since %d)\n", l.forwarded, l.last, l.last)
			return nil
		}
		var fatal *fatalError
		if errors.As(err, &fatal) {
			return fatal.err
		}
		if got {
			pause = 200 * time.Millisecond
		}
		fmt.Fprintf(l.out, "Connection lost (%v); reconnecting in %s\n", err, pause)
		select {
		case <-ctx.Done():
			continue
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// fatalError is a failure no reconnection fixes (refused credentials).
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }

// newestSequence is the sequence of the company's newest event (0 when
// it has none): the stream resumes after it, so nothing emitted while
// listen connects is lost.
func newestSequence(ctx context.Context, c *Client) (int64, error) {
	var last int64
	for {
		var page struct {
			Events []struct {
				Sequence int64 `json:"sequence"`
			} `json:"events"`
		}
		if err := c.Call(ctx, http.MethodGet, "/sandbox/events?limit=1000&since="+strconv.FormatInt(last, 10), nil, &page); err != nil {
			return 0, err
		}
		for _, e := range page.Events {
			last = max(last, e.Sequence)
		}
		if len(page.Events) < 1000 {
			return last, nil
		}
	}
}

// streamURL is the websocket of the company's events after l.last.
func (l *listener) streamURL() string {
	u := l.c.Base + "/events/ws?since=" + strconv.FormatInt(l.last, 10)
	if l.types != "" {
		u += "&types=" + url.QueryEscape(l.types)
	}
	if rest, ok := strings.CutPrefix(u, "https://"); ok {
		return "wss://" + rest
	}
	return "ws://" + strings.TrimPrefix(u, "http://")
}

// dial opens the stream with the app's token, renewing it once when the
// sandbox refuses it.
func (l *listener) dial(ctx context.Context) (*websocket.Conn, error) {
	d := websocket.Dialer{TLSClientConfig: l.c.TLS, HandshakeTimeout: 10 * time.Second, Proxy: http.ProxyFromEnvironment}
	for attempt := 0; ; attempt++ {
		tok, err := l.c.Token(ctx)
		var p *Problem
		if errors.As(err, &p) && p.Status >= 400 && p.Status < 500 && p.Status != http.StatusTooManyRequests {
			return nil, &fatalError{err}
		}
		if err != nil {
			return nil, err
		}
		conn, resp, err := d.DialContext(ctx, l.streamURL(), http.Header{"Authorization": {"Bearer " + tok}})
		if err == nil {
			return conn, nil
		}
		if resp == nil {
			return nil, err
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized && attempt == 0 {
			l.c.Renew()
			continue
		}
		p = &Problem{Status: resp.StatusCode, Body: body}
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			return nil, &fatalError{fmt.Errorf("event stream: %w", p)}
		}
		return nil, fmt.Errorf("event stream: %w", p)
	}
}

// session is one connection: it forwards what the stream sends until the
// connection ends. got says whether it connected at all.
func (l *listener) session(ctx context.Context, first bool) (got bool, err error) {
	conn, err := l.dial(ctx)
	if err != nil {
		return false, err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			// A close frame, so the sandbox sees a goodbye, not a drop.
			conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "bye"), time.Now().Add(time.Second))
			conn.Close()
		case <-done:
			conn.Close()
		}
	}()
	if first {
		fmt.Fprintf(l.out, "Ready: forwarding the events after sequence %d. Ctrl-C to stop.\n", l.last)
	} else {
		fmt.Fprintf(l.out, "Reconnected: resuming after sequence %d\n", l.last)
	}
	conn.SetReadDeadline(time.Now().Add(readWait))
	conn.SetPingHandler(func(data string) error {
		conn.SetReadDeadline(time.Now().Add(readWait))
		return conn.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(5*time.Second))
	})
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			return true, err
		}
		conn.SetReadDeadline(time.Now().Add(readWait))
		var env struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Sequence int64  `json:"sequence"`
		}
		if json.Unmarshal(msg, &env) != nil || env.Sequence <= l.last {
			continue // not an event, or one already handled
		}
		l.forward(ctx, msg, env.ID, env.Type)
		if ctx.Err() != nil {
			return true, ctx.Err() // cut short by Ctrl-C: not handled
		}
		l.last = env.Sequence
		l.forwarded++
	}
}

// forward POSTs one event to the local URL, signed, and prints one line:
// when, its type and id, and what the local URL answered in how long.
func (l *listener) forward(ctx context.Context, body []byte, id, typ string) {
	start := time.Now()
	answer := l.post(ctx, body, id, typ)
	fmt.Fprintf(l.out, "%s  %-36s %s  → %s (%d ms)\n", start.Format("2006-01-02 15:04:05"), typ, id, answer, time.Since(start).Milliseconds())
}

func (l *listener) post(ctx context.Context, body []byte, id, typ string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.forwardTo, bytes.NewReader(body))
	if err != nil {
		return "[error] " + err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "homologa-listen")
	req.Header.Set(events.SignatureHeader, events.Sign(l.secret, time.Now(), body))
	req.Header.Set("Homologa-Event-Id", id)
	req.Header.Set("Homologa-Event-Type", typ)
	req.Header.Set("Homologa-Attempt", "1")
	resp, err := l.fwd.Do(req)
	if err != nil {
		return "[error] " + err.Error()
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return fmt.Sprintf("[%d] %s", resp.StatusCode, http.StatusText(resp.StatusCode))
}
