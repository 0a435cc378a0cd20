package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"homologa/simulator/browsertest"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"homologa/cli"
	"homologa/simulator/events"
	"homologa/simulator/server"
)

// startSandbox starts a sandbox on loopback (cfg.Addr, or a free port)
// and closes it when the test ends unless the test closed it first.
func startSandbox(t *testing.T, cfg server.Config) *server.Server {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
		if os.Getenv("HOMOLOGA_TEST_LOG") != "" {
			cfg.Log = os.Stderr
		}
	}
	ctx := context.Background()
	s, err := server.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		s.Close(ctx)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Shutdown grants a connection that never sent a request 5 s;
		// the harness's clients leave such ones behind.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		s.Close(ctx)
	})
	return s
}

// output collects a command's output line by line, for the test to wait
// on.
type output struct {
	mu    sync.Mutex
	lines []string
	part  string
	w     chan struct{}
}

func newOutput() *output { return &output{w: make(chan struct{}, 1)} }

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	o.part += string(p)
	for {
		i := strings.IndexByte(o.part, '\n')
		if i < 0 {
			break
		}
		o.lines = append(o.lines, o.part[:i])
		o.part = o.part[i+1:]
	}
	o.mu.Unlock()
	select {
	case o.w <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.lines, "\n") + o.part
}

// waitFor waits for a line matching re after the first `from` lines and
// returns its submatches and its index.
func (o *output) waitFor(t *testing.T, re string, from int, within time.Duration) ([]string, int) {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.After(within)
	for {
		o.mu.Lock()
		for i := from; i < len(o.lines); i++ {
			if m := rx.FindStringSubmatch(o.lines[i]); m != nil {
				o.mu.Unlock()
				return m, i
			}
		}
		o.mu.Unlock()
		select {
		case <-o.w:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no line matching %q within %s; output:\n%s", re, within, o.String())
		}
	}
}

// command is one run of a cli command in the background.
type command struct {
	out, errOut *output
	cancel      context.CancelFunc
	code        chan int
}

func runCommand(t *testing.T, args ...string) *command {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := &command{out: newOutput(), errOut: newOutput(), cancel: cancel, code: make(chan int, 1)}
	go func() { c.code <- cli.MainEnv(ctx, args, func(string) string { return "" }, c.out, c.errOut) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-c.code:
		case <-time.After(10 * time.Second):
			t.Errorf("%s did not stop within 10 s of its context ending", args[0])
		}
	})
	return c
}

// stop ends the command as Ctrl-C does and returns its exit code.
func (c *command) stop(t *testing.T) int {
	t.Helper()
	c.cancel()
	select {
	case code := <-c.code:
		c.code <- code
		return code
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not stop within 10 s of Ctrl-C")
		return -1
	}
}

// received is one request a receiver got.
type received struct {
	Header http.Header
	Body   []byte
	Env    events.Envelope
	Valid  error
}

// receiver is a webhook receiver on loopback that checks each request's
// signature with its secret, as a careful partner does, and answers 200
// to a valid one and 401 otherwise.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	secret string
	got    []received
	w      chan struct{}
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{w: make(chan struct{}, 1)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		rec := received{Header: req.Header.Clone(), Body: body}
		rec.Valid = events.Verify(req.Header.Get(events.SignatureHeader), r.secret, body, time.Now(), 5*time.Minute)
		json.Unmarshal(body, &rec.Env)
		r.got = append(r.got, rec)
		r.mu.Unlock()
		select {
		case r.w <- struct{}{}:
		default:
		}
		if rec.Valid != nil {
			http.Error(w, rec.Valid.Error(), http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) setSecret(s string) {
	r.mu.Lock()
	r.secret = s
	r.mu.Unlock()
}

func (r *receiver) all() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// waitUntil waits until ok holds of what the receiver got.
func (r *receiver) waitUntil(t *testing.T, what string, within time.Duration, ok func([]received) bool) []received {
	t.Helper()
	deadline := time.After(within)
	for {
		got := r.all()
		if ok(got) {
			return got
		}
		select {
		case <-r.w:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			var types []string
			for _, g := range got {
				types = append(types, fmt.Sprintf("%s#%d", g.Env.Type, g.Env.Sequence))
			}
			t.Fatalf("the receiver did not get %s within %s; it got %v", what, within, types)
		}
	}
}

// hasTypes says whether every type is among what was received.
func hasTypes(types ...string) func([]received) bool {
	return func(got []received) bool {
		for _, typ := range types {
			found := false
			for _, g := range got {
				found = found || g.Env.Type == typ
			}
			if !found {
				return false
			}
		}
		return true
	}
}

// demo is a client of the sandbox at base as its demo app.
func demo(t *testing.T, base string) *cli.Client {
	t.Helper()
	c, err := cli.NewClient(base, cli.DemoClientID, cli.DemoClientSecret, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// readBody reads an answer that must have the status.
func readBody(t *testing.T, resp *http.Response, want int) []byte {
	t.Helper()
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d %s, want %d", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, b, want)
	}
	return b
}

// decodeBody reads a 2xx JSON answer into v.
func decodeBody(t *testing.T, resp *http.Response, v any) {
	t.Helper()
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func TestMain(m *testing.M) {
	// Every name these tests use is an address: a real DNS query would be
	// a packet beyond loopback, so it is refused before it is sent, and
	// fails the run.
	var dns atomic.Int32
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(_ context.Context, _, address string) (net.Conn, error) {
		dns.Add(1)
		fmt.Fprintf(os.Stderr, "a test tried real DNS, to %s (refused)\n", address)
		return nil, fmt.Errorf("cli tests: DNS to %s refused", address)
	}}
	code := m.Run()
	browsertest.Close() // the export test's Chromium, with its renderers
	if dns.Load() > 0 {
		code = 1
	}
	os.Exit(code)
}
