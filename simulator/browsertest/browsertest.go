package browsertest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"homologa/simulator/server"
)

// OperatorToken is the operator's credential of the sandboxes of the
// browser tests.
const OperatorToken = "op_browser_test_operator"

// Sandbox runs a sandbox with the demo app on a loopback port; clock is
// the --clock value ("" is real time).
func Sandbox(t testing.TB, clock string) *server.Server {
	t.Helper()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: clock, Log: io.Discard, OperatorToken: OperatorToken})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// Chromium finds the browser. CI (.ci/run installs Debian's chromium and
// sets HOMOLOGA_REQUIRE_BROWSER) must run the browser tests; a developer's
// machine without a browser is told loudly that they did not run, rather
// than failing every other package's run.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("HOMOLOGA_CHROMIUM"); p != "" {
		return p
	}
	// The headless shell first: the same Blink without the browser's own
	// UI, whose every new window started a renderer for its tab strip (the
	// widgets' tests: 78 → 33 s of CPU, 39 → 18 s).
	for _, name := range []string{"chromium-headless-shell", "headless-shell", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "BROWSER TESTS DID NOT RUN: no Chromium found; install it (apt-get install chromium-headless-shell) or set HOMOLOGA_CHROMIUM"
	if os.Getenv("CI") != "" || os.Getenv("HOMOLOGA_REQUIRE_BROWSER") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Browser gives one test a tab of headless Chromium, bounded by timeout,
// in a browser context of its own (cookies, storage and cache apart, as
// a new incognito window). The tabs share one Chromium per test binary:
// starting one is much of a short browser test. With
// extra options (a flag), the test gets a Chromium of its own.
func Browser(t testing.TB, timeout time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	var parent context.Context
	var opts []chromedp.ContextOption
	var group func(context.Context)
	if len(extra) > 0 {
		actx, g, cancel := newAllocator(t, extra)
		t.Cleanup(cancel)
		parent, group = actx, g
	} else {
		parent = sharedBrowser(t)
		opts = append(opts, chromedp.WithTargetID(newWindow(t, parent)))
	}
	ctx, cancelTab := chromedp.NewContext(parent, opts...)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelTimeout(); cancelTab() })
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	if group != nil {
		group(ctx)
	}
	return ctx
}

func allocatorOptions(t testing.TB, extra []chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium(t)),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1400, 1000),
	)
	return append(opts, extra...)
}

// newAllocator starts Chromium in a process group of its own, and its
// cancel ends the whole group once the browser's process is known (group
// is given the context the browser was allocated in): chromedp kills the
// process it started, and the headless shell's browser process outlived
// it with its renderers, two per run of the dashboard's tests.
func newAllocator(t testing.TB, extra []chromedp.ExecAllocatorOption) (actx context.Context, group func(context.Context), cancel func()) {
	opts := append(allocatorOptions(t, extra), chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		cmd.SysProcAttr.Setpgid = true
	}))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	var mu sync.Mutex
	pid := 0
	group = func(ctx context.Context) {
		if c := chromedp.FromContext(ctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
			mu.Lock()
			pid = c.Browser.Process().Pid
			mu.Unlock()
		}
	}
	return actx, group, func() {
		cancelA()
		mu.Lock()
		defer mu.Unlock()
		if pid > 0 {
			syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
}

// shared is the Chromium the tabs of a test binary share; Close ends it.
var shared struct {
	sync.Mutex
	browser context.Context
	cancel  func()
}

func sharedBrowser(t testing.TB) context.Context {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if shared.browser != nil && shared.browser.Err() == nil {
		return shared.browser
	}
	if shared.cancel != nil { // the last one ended: end its processes too
		shared.cancel()
	}
	actx, group, cancelA := newAllocator(t, nil)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Run(bctx); err != nil {
		cancelB()
		cancelA()
		t.Fatalf("start Chromium: %v", err)
	}
	group(bctx)
	shared.browser, shared.cancel = bctx, func() { cancelB(); cancelA() }
	return bctx
}

// newWindow opens a window in a new browser context of the browser,
// disposed of with the test. (chromedp's WithNewBrowserContext opens a
// tab, which Chromium refuses in a context without a window.)
func newWindow(t testing.TB, browser context.Context) target.ID {
	t.Helper()
	exec := cdp.WithExecutor(browser, chromedp.FromContext(browser).Browser)
	bc, err := target.CreateBrowserContext().Do(exec)
	if err != nil {
		t.Fatalf("new browser context: %v", err)
	}
	t.Cleanup(func() { target.DisposeBrowserContext(bc).Do(exec) })
	id, err := target.CreateTarget("about:blank").WithBrowserContextID(bc).WithNewWindow(true).Do(exec)
	if err != nil {
		t.Fatalf("new window: %v", err)
	}
	return id
}

// Close ends the shared Chromium; a TestMain calls it after the tests.
func Close() {
	shared.Lock()
	defer shared.Unlock()
	if shared.cancel != nil {
		shared.cancel()
		shared.browser, shared.cancel = nil, nil
	}
}

// DemoToken gets a token for the demo app with the given scopes.
func DemoToken(t testing.TB, s *server.Server, scopes string) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {scopes}}
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(server.DemoClientID, server.DemoClientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
		t.Fatalf("token: %d %v", resp.StatusCode, err)
	}
	return out.AccessToken
}

// OperatorTransport makes a test's plain HTTP calls to the control API the
// operator's, unless the test authenticates them itself.
type OperatorTransport struct{ Base http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t OperatorTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.URL.Path, "/sandbox/") && req.Header.Get("Authorization") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+OperatorToken)
	}
	return t.Base.RoundTrip(req)
}
