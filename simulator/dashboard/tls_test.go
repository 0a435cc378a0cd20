package dashboard_test

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"homologa/simulator/browsertest"
	"homologa/simulator/server"
)

// TestDashboardOverMutualTLS: under serve --tls --mtls the browser's
// pages take no client certificate (the TLS layer asks for one but does
// not require it): the dashboard signs in with a portal account and its
// live events arrive over wss.
func TestDashboardOverMutualTLS(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: "frozen", Log: io.Discard, OperatorToken: browsertest.OperatorToken,
		MTLS: true, TLSDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	if !strings.HasPrefix(s.URL(), "https://") {
		t.Fatalf("URL %s", s.URL())
	}
	// The browser does not know the sandbox CA; it has no client
	// certificate either.
	b := browsertest.Browser(t, 60*time.Second, chromedp.Flag("ignore-certificate-errors", true))
	run(t, b, "open the dashboard over https", chromedp.Navigate(s.URL()+"/"), chromedp.WaitVisible(`#signin`, chromedp.ByQuery))
	run(t, b, "sign in", chromedp.SendKeys(`#signin-email`, server.DemoEmail, chromedp.ByQuery),
		chromedp.SendKeys(`#signin-password`, server.DemoPassword, chromedp.ByQuery), chromedp.Click(`#signin button[type=submit]`, chromedp.ByQuery))
	run(t, b, "the demo app", chromedp.WaitVisible(`#apps-table tr[data-client-id="homologa-demo"]`, chromedp.ByQuery))

	op := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: s.CA.Pool()}}}
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/sandbox/events/ping", strings.NewReader(`{"clientId": "`+server.DemoClientID+`"}`))
	req.Header.Set("Authorization", "Bearer "+browsertest.OperatorToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := op.Do(req)
	if err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("ping: %v %v", resp, err)
	}
	resp.Body.Close()
	waitJS(t, b, "the ping in the live events, over wss", `document.querySelector('#events').innerText.includes('sandbox.ping')`)
	screenshot(t, b, "tls")
}
