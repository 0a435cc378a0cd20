package cli_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"homologa/cli"
	"homologa/simulator/browsertest"
	"homologa/simulator/server"
)

// exportSandbox is a sandbox with the recorder behind the dashboard's
// export (cmd/homologa gives it cli.Export) and a charge paid in it.
func exportSandbox(t *testing.T) (*server.Server, time.Time) {
	t.Helper()
	s := startSandbox(t, server.Config{Export: cli.Export, OperatorToken: browsertest.OperatorToken})
	// A second early: the sandbox's clock and this one need not agree to
	// the millisecond, and the sandbox is fresh (nothing came before).
	start := time.Now().Add(-time.Second)
	pingAndPay(t, demo(t, s.URL()), "exportadoexportadoexportado0001")
	time.Sleep(200 * time.Millisecond)
	return s, start
}

// TestExportRoute: GET /sandbox/recording answers the session of the
// app's company as a feature file to download; a request without the
// session's start says which field is missing.
func TestExportRoute(t *testing.T) {
	s, start := exportSandbox(t)
	c := demo(t, s.URL())
	a, err := c.Do(context.Background(), cli.Request{Method: http.MethodGet, Path: "/sandbox/recording?since=" + url.QueryEscape(start.Format(time.RFC3339Nano))})
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != http.StatusOK || !strings.HasPrefix(a.Header.Get("Content-Type"), "text/x-gherkin") ||
		!strings.Contains(a.Header.Get("Content-Disposition"), `filename="sessao-homologa-demo-`) {
		t.Fatalf("%d %v %s", a.Status, a.Header, a.Body)
	}
	body := string(a.Body)
	for _, want := range []string{"Feature: ", `I send "PUT" to "/pix/v2/cob/exportadoexportadoexportado0001" with JSON:`, `I send "POST" to "/sandbox/pix/payments" with JSON:`,
		`I send "POST" to "/sandbox/events/ping" with JSON:`, `the stream delivers a "sandbox.ping" event`} {
		if !strings.Contains(body, want) {
			t.Errorf("the export lacks %q:\n%s", want, body)
		}
	}
	a, _ = c.Do(context.Background(), cli.Request{Method: http.MethodGet, Path: "/sandbox/recording"})
	if a.Status != http.StatusBadRequest || !strings.Contains(string(a.Body), `"field":"since"`) {
		t.Errorf("without since: %d %s", a.Status, a.Body)
	}
}

// TestDashboardExportsAFeature: in the dashboard, the operator picks the
// demo app and the session's start, and the export shows the feature
// (and offers it to download); the feature passes against a fresh
// sandbox.
func TestDashboardExportsAFeature(t *testing.T) {
	s, start := exportSandbox(t)
	ctx := browsertest.Browser(t, 90*time.Second)
	run := func(what string, actions ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	run("open the dashboard", chromedp.Navigate(s.URL()+"/#operator="+browsertest.OperatorToken),
		chromedp.WaitReady(`#exp-app option[value="homologa-demo"]`, chromedp.ByQuery))
	// The form's From is local time, to the second.
	since := start.Add(-time.Second).Local().Format("2006-01-02T15:04:05")
	// As a person does: choose, type, click (in one go: the app list is
	// rebuilt when the apps are read again).
	var chosen bool
	run("export", chromedp.Evaluate(`(() => {
		const app = document.querySelector('#exp-app');
		app.value = 'homologa-demo';
		document.querySelector('#exp-since').value = '`+since+`';
		document.querySelector('#exp-go').click();
		return app.value === 'homologa-demo';
	})()`, &chosen), chromedp.WaitVisible(`#export-text`, chromedp.ByQuery))
	if !chosen {
		t.Fatal("the dashboard does not offer the demo app to export")
	}
	var text, status, download string
	run("read the feature", chromedp.Text(`#export-text`, &text, chromedp.ByQuery), chromedp.Text(`#export-status`, &status, chromedp.ByQuery),
		chromedp.AttributeValue(`#export-download`, "download", &download, nil, chromedp.ByQuery))
	if !strings.Contains(text, "Feature: ") || !strings.Contains(text, "exportadoexportadoexportado0001") || !strings.HasPrefix(download, "sessao-homologa-demo-") {
		t.Fatalf("the dashboard shows %q (download %q):\n%s", status, download, text)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, download), []byte(text+"\n"), 0o644)
	rep, out := replay(t, dir, startSandbox(t, server.Config{}).URL())
	if rep.Failed != 0 || rep.Passed == 0 {
		t.Fatalf("the exported feature against a fresh sandbox: %d passed, %d failed\n%s", rep.Passed, rep.Failed, out)
	}
}
