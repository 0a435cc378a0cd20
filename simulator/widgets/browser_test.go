package widgets_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"homologa/simulator/server"
)

// The widgets are tested the way partners meet them: served by a real
// sandbox on loopback, framed by a host page in headless Chromium, driven
// by keyboard and clicks, talking to the real APIs.

// startSandbox runs a sandbox with the demo app on a loopback port.
func startSandbox(t *testing.T) *server.Server {
	t.Helper()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// chromiumPath finds the browser; .ci/run installs Debian's chromium. A
// missing browser fails the test: the widgets are not tested without one.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("HOMOLOGA_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium found: install it (apt-get install chromium) or set HOMOLOGA_CHROMIUM")
	return ""
}

// newBrowser starts headless Chromium for one test, bounded in time.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelC(); cancelB(); cancelA() })
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// demoToken gets a token for the demo app with the given scopes.
func demoToken(t *testing.T, s *server.Server, scopes string) string {
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
