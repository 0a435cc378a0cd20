package dashboard_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"homologa/simulator/browsertest"
	"homologa/simulator/server"
)

// cutter is a TCP proxy on loopback in front of the sandbox whose
// connections a test cuts, and refuses for a while: what a page sees when
// the network drops or the sandbox restarts.
type cutter struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  map[net.Conn]bool
	refuse bool
}

func newCutter(t *testing.T, s *server.Server) *cutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cutter{ln: ln, target: strings.TrimPrefix(s.URL(), "http://"), conns: map[net.Conn]bool{}}
	t.Cleanup(func() { ln.Close(); c.cut(true) })
	go c.serve()
	return c
}

func (c *cutter) URL() string { return "http://" + c.ln.Addr().String() }

func (c *cutter) serve() {
	for {
		in, err := c.ln.Accept()
		if err != nil {
			return
		}
		c.mu.Lock()
		refuse := c.refuse
		c.mu.Unlock()
		if refuse {
			in.Close()
			continue
		}
		out, err := net.Dial("tcp", c.target)
		if err != nil {
			in.Close()
			continue
		}
		c.mu.Lock()
		c.conns[in], c.conns[out] = true, true
		c.mu.Unlock()
		go func() { io.Copy(out, in); out.Close() }()
		go func() { io.Copy(in, out); in.Close() }()
	}
}

// cut closes every connection, and with refuse closes the next ones as
// they come, until resume.
func (c *cutter) cut(refuse bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refuse = refuse
	for conn := range c.conns {
		conn.Close()
	}
	clear(c.conns)
}

func (c *cutter) resume() {
	c.mu.Lock()
	c.refuse = false
	c.mu.Unlock()
}

// TestDashboardEventStreamState: before sign-in there is no stream to
// lose, so the page says to sign in, never that a stream was lost; once a
// stream that was open drops, it says so and that it is reconnecting, and
// it says connected again when the stream is back.
func TestDashboardEventStreamState(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	p := newCutter(t, s)
	ctx := newBrowser(t)
	const lost = `(() => { const c = document.querySelector('#conn'); return c.classList.contains('down') || /lost/i.test(c.textContent); })()`
	run(t, ctx, "open the dashboard without a credential", chromedp.Navigate(p.URL()+"/"), chromedp.WaitVisible(`#signin`, chromedp.ByQuery))
	// The old page said "Event stream lost" within a few milliseconds of
	// the refusal, and again at each retry: two seconds would see it.
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		var gone bool
		var text string
		run(t, ctx, "read the stream's state", chromedp.Evaluate(lost, &gone), chromedp.Text(`#conn`, &text, chromedp.ByQuery))
		if gone {
			t.Fatalf("before sign-in the page says %q", text)
		}
	}
	waitJS(t, ctx, "the invitation to sign in", `document.querySelector('#conn').textContent.includes('Sign in to see live events')`)

	run(t, ctx, "sign in as the operator", chromedp.SendKeys(`#signin-token`, browsertest.OperatorToken, chromedp.ByQuery),
		chromedp.Click(`#signin button[type=submit]`, chromedp.ByQuery))
	const connected = `(() => { const c = document.querySelector('#conn'); return c.classList.contains('up') && c.textContent.includes('connected') && !/lost/i.test(c.textContent); })()`
	waitJS(t, ctx, "the stream connected", connected)

	p.cut(true)
	waitJS(t, ctx, "the stream lost, reconnecting", `(() => { const c = document.querySelector('#conn');
		return c.classList.contains('down') && /lost/i.test(c.textContent) && /reconnecting/i.test(c.textContent); })()`)
	var role string
	var ok bool
	run(t, ctx, "read the role", chromedp.AttributeValue(`#conn`, "role", &role, &ok, chromedp.ByQuery))
	if role != "status" {
		t.Errorf("the stream's state is not a live region: role %q", role)
	}
	p.resume()
	waitJS(t, ctx, "the stream back", connected)
	// Back, and live: an event reaches the page without a reload.
	if code, body := call(t, http.MethodPost, s.URL()+"/sandbox/events/ping", "", `{"clientId": "homologa-demo"}`); code != http.StatusAccepted {
		t.Fatalf("ping: %d %s", code, body)
	}
	waitJS(t, ctx, "the ping in the live events", `!!document.querySelector('#event-list li[data-type="sandbox.ping"]')`)
}

// TestDashboardStreamOpensWhenTheSandboxAnswers: a page whose sandbox did
// not answer at first (its APIs blocked in the browser) opens the stream
// once the sandbox answers, without a reload, and says nothing was lost.
func TestDashboardStreamOpensWhenTheSandboxAnswers(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	ctx := newBrowser(t)
	run(t, ctx, "block the APIs", network.Enable(), network.SetBlockedURLs([]string{"*/portal/*", "*/sandbox/*"}))
	run(t, ctx, "open the dashboard", chromedp.Navigate(s.URL()+"/#operator="+browsertest.OperatorToken))
	waitJS(t, ctx, "the sandbox said silent", `!document.querySelector('#offline').hidden`)
	var conn string
	run(t, ctx, "read the stream's state", chromedp.Text(`#conn`, &conn, chromedp.ByQuery))
	if strings.Contains(conn, "lost") {
		t.Errorf("before any stream was open the page says %q", conn)
	}
	run(t, ctx, "unblock the APIs", network.SetBlockedURLs([]string{}))
	waitJS(t, ctx, "the stream connected", `document.querySelector('#conn').classList.contains('up') && document.querySelector('#offline').hidden`)
}
