package dashboard_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"homologa/simulator/browsertest"
	"homologa/simulator/events"
	"homologa/simulator/jobs"
	"homologa/simulator/server"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
	"io"
)

// The dashboard is tested the way an operator meets it: a sandbox on
// loopback, its page at / in headless Chromium, driven by clicks and keys
// while the APIs are called beside it, and the page watched for what it
// must show without a reload.

// run runs browser actions, failing the test with what was being done.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Run(sctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// waitJS evaluates expr in the page until it is true.
func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var ok bool
		err := chromedp.Run(ctx, chromedp.Evaluate(expr, &ok))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var text string
			chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('main').innerText.slice(0, 3000)`, &text))
			t.Fatalf("timed out waiting for %s (%s; err %v); the page shows:\n%s", what, expr, err, text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// screenshot keeps a picture of the page in reports/screenshots (ignored
// by git), or the folder HOMOLOGA_SCREENSHOTS names, for a person to look
// at after a run, as the widgets' tests do.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	dir := os.Getenv("HOMOLOGA_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "reports", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "dashboard-"+name+".png"), png, 0o644); err != nil {
		t.Logf("screenshot %s: %v", name, err)
	}
}

func sandboxClock(t *testing.T, s *server.Server) time.Time {
	t.Helper()
	_, body := call(t, http.MethodGet, s.URL()+"/sandbox/clock", "", "")
	var c struct {
		Now time.Time `json:"now"`
	}
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatal(err)
	}
	return c.Now
}

func TestDashboardInTheBrowser(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	ctx := newBrowser(t)
	t.Cleanup(func() { screenshot(t, ctx, "end") })

	t.Run("ServedAtTheRootToBrowsers", func(t *testing.T) {
		var title string
		// The link the banner prints: the operator's token in the fragment.
		run(t, ctx, "open /", chromedp.Navigate(s.URL()+"/#operator="+browsertest.OperatorToken), chromedp.Title(&title))
		if !strings.Contains(title, "dashboard") {
			t.Fatalf("title: got %q, want the dashboard's", title)
		}
		var loc string
		run(t, ctx, "read the address", chromedp.Location(&loc))
		if strings.Contains(loc, "operator=") {
			t.Errorf("the token stays in the address bar: %s", loc)
		}
		// Set once: if the page reloaded later, it would be gone.
		run(t, ctx, "mark the page", chromedp.Evaluate(`window.sameDocument = true`, nil))
	})

	t.Run("Accessible", func(t *testing.T) {
		var problems []string
		run(t, ctx, "check landmarks and labels", chromedp.Evaluate(`(() => {
			const out = [];
			for (const sel of ['header', 'nav[aria-label]', 'main', 'footer']) if (!document.querySelector(sel)) out.push('no ' + sel);
			for (const el of document.querySelectorAll('input, select, textarea')) {
				if (!el.labels.length && !el.getAttribute('aria-label')) out.push('unlabelled ' + (el.id || el.name));
			}
			for (const s of document.querySelectorAll('main > section')) {
				const id = s.getAttribute('aria-labelledby');
				if (!id || !document.getElementById(id)) out.push('section without a heading: ' + s.id);
			}
			return out;
		})()`, &problems))
		if len(problems) > 0 {
			t.Errorf("accessibility: %v", problems)
		}
	})

	t.Run("ListsTheDemoApp", func(t *testing.T) {
		var row string
		sel := `#apps-table tr[data-client-id="homologa-demo"]`
		run(t, ctx, "wait for the demo app", chromedp.WaitVisible(sel, chromedp.ByQuery), chromedp.Text(sel, &row, chromedp.ByQuery))
		for _, want := range []string{server.DemoCompany, "11.222.333/0001-81", "Demo app", "homologa-demo", "sandbox", s.Demo.WebhookURL, "scopes"} {
			if !strings.Contains(row, want) {
				t.Errorf("demo app row lacks %q: %s", want, row)
			}
		}
	})

	t.Run("AdvancesTheClock", func(t *testing.T) {
		waitJS(t, ctx, "the clock", `document.querySelector('#clock-now').hasAttribute('datetime')`)
		shown := func() time.Time {
			var v string
			var ok bool
			run(t, ctx, "read the clock", chromedp.AttributeValue(`#clock-now`, "datetime", &v, &ok, chromedp.ByQuery))
			at, err := time.Parse(time.RFC3339, v)
			if err != nil {
				t.Fatalf("clock shows %q: %v", v, err)
			}
			return at
		}
		before := shown()
		if api := sandboxClock(t, s).Truncate(time.Second); !api.Equal(before) {
			t.Fatalf("page shows %s, GET /sandbox/clock says %s", before, api)
		}
		run(t, ctx, "click +1 h", chromedp.Click(`button[data-advance="1h"]`, chromedp.ByQuery))
		want := before.Add(time.Hour)
		waitJS(t, ctx, "the clock an hour later", fmt.Sprintf(`document.querySelector('#clock-now').getAttribute('datetime') === %q`, want.Format(time.RFC3339)))
		if api := sandboxClock(t, s).Truncate(time.Second); !api.Equal(want) {
			t.Errorf("after +1 h: GET /sandbox/clock says %s, want %s", api, want)
		}
		var status string
		run(t, ctx, "read the status", chromedp.Text(`#clock-status`, &status, chromedp.ByQuery))
		if !strings.Contains(status, "Advanced by 1h") {
			t.Errorf("status: %q", status)
		}

		// The keyboard alone: focus +1 min, press Enter; then the free field.
		run(t, ctx, "press Enter on +1 min", chromedp.Focus(`button[data-advance="1m"]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
		want = want.Add(time.Minute)
		waitJS(t, ctx, "the clock a minute later", fmt.Sprintf(`document.querySelector('#clock-now').getAttribute('datetime') === %q`, want.Format(time.RFC3339)))
		run(t, ctx, "advance by 1d12h", chromedp.SendKeys(`#advance-by`, "1d12h"+kb.Enter, chromedp.ByQuery))
		want = want.Add(36 * time.Hour)
		waitJS(t, ctx, "the clock 36 hours later", fmt.Sprintf(`document.querySelector('#clock-now').getAttribute('datetime') === %q`, want.Format(time.RFC3339)))
		if api := sandboxClock(t, s).Truncate(time.Second); !api.Equal(want) {
			t.Errorf("GET /sandbox/clock says %s, want %s", api, want)
		}
		var mode string
		run(t, ctx, "read the mode", chromedp.Text(`#clock-mode`, &mode, chromedp.ByQuery))
		if !strings.Contains(mode, "frozen") {
			t.Errorf("mode: %q", mode)
		}
	})

	txid := "dashboardbrowser0000000000000001"
	t.Run("ShowsANewChargeAndItsEventLive", func(t *testing.T) {
		createCob(t, s, demoToken(t, s, "cob.write"), txid, "25.00")
		res := fmt.Sprintf(`#resources-table tr[data-kind="cob"][data-id=%q]`, txid)
		run(t, ctx, "wait for the charge in the resources", chromedp.WaitVisible(res, chromedp.ByQuery))
		var row string
		run(t, ctx, "read the charge", chromedp.Text(res, &row, chromedp.ByQuery))
		if !strings.Contains(row, "ATIVA") || !strings.Contains(row, "homologa-demo") {
			t.Errorf("charge row: %q", row)
		}
		waitJS(t, ctx, "the cob count", `[...document.querySelectorAll('#counts-table tr[data-kind="cob"]')].some(r => /ATIVA\s*1/.test(r.textContent))`)
		ev := `#event-list li[data-type="pix.cob.criada"]`
		run(t, ctx, "wait for the event", chromedp.WaitVisible(ev, chromedp.ByQuery))
		var text string
		run(t, ctx, "read the event", chromedp.Text(ev+" summary", &text, chromedp.ByQuery))
		if !strings.Contains(text, txid) {
			t.Errorf("event: %q, want the txid", text)
		}
		var same bool
		run(t, ctx, "check no reload", chromedp.Evaluate(`window.sameDocument === true`, &same))
		if !same {
			t.Error("the page reloaded")
		}
		var conn string
		run(t, ctx, "read the stream state", chromedp.Text(`#conn`, &conn, chromedp.ByQuery))
		if !strings.Contains(conn, "connected") {
			t.Errorf("stream: %q", conn)
		}
	})

	t.Run("ReplaysADelivery", func(t *testing.T) {
		if code, body := call(t, http.MethodPost, s.URL()+"/sandbox/events/ping", "", `{"clientId": "homologa-demo"}`); code != http.StatusAccepted {
			t.Fatalf("ping: %d %s", code, body)
		}
		row := `#deliveries-table tr[data-event-type="sandbox.ping"]`
		run(t, ctx, "wait for the delivery", chromedp.WaitVisible(row, chromedp.ByQuery))
		var id string
		var ok bool
		run(t, ctx, "read its id", chromedp.AttributeValue(row, "data-id", &id, &ok, chromedp.ByQuery))
		waitJS(t, ctx, "one attempt", fmt.Sprintf(`document.querySelector('tr[data-id=%q] .attempt-count').textContent === '1'`, id))
		attempts := fmt.Sprintf(`#del-%s`, id)
		run(t, ctx, "open the attempts",
			chromedp.Click(fmt.Sprintf(`button[data-focus-key="toggle:%s"]`, id), chromedp.ByQuery),
			chromedp.WaitVisible(attempts+" tr.attempt", chromedp.ByQuery))
		// The live table redraws its rows as the stream brings news: a
		// node found one moment can be gone the next ("No node with given
		// id"), so the rows' text is read in the page, each time anew.
		rowText := func(sel string) string {
			return fmt.Sprintf(`((document.querySelector(%q) || {}).textContent || '')`, sel)
		}
		waitJS(t, ctx, "the first attempt answered 200", rowText(attempts+" tr.attempt")+`.includes('200')`)
		run(t, ctx, "replay", chromedp.Click(fmt.Sprintf(`button[data-focus-key="replay:%s"]`, id), chromedp.ByQuery))
		waitJS(t, ctx, "a second attempt", fmt.Sprintf(`document.querySelectorAll('#del-%s tr.attempt').length === 2`, id))
		second := rowText(attempts + " tr.attempt:nth-child(2)")
		waitJS(t, ctx, "the replay answered 200", second+`.includes('replay') && `+second+`.includes('200')`)
		_, body := call(t, http.MethodGet, s.URL()+"/sandbox/deliveries/"+id, "", "")
		var d events.Delivery
		json.Unmarshal([]byte(body), &d)
		if len(d.Attempts) != 2 || !d.Attempts[1].Replay {
			t.Errorf("GET /sandbox/deliveries/%s: %s", id, body)
		}
		var status string
		run(t, ctx, "read the status", chromedp.Text(`#deliveries-status`, &status, chromedp.ByQuery))
		if !strings.Contains(status, "attempt 2 answered 200") {
			t.Errorf("status: %q", status)
		}
	})

	t.Run("ShowsTheInteractionLog", func(t *testing.T) {
		row := fmt.Sprintf(`#interactions-table tr[data-method="PUT"][data-path="/pix/v2/cob/%s"]`, txid)
		run(t, ctx, "wait for the request", chromedp.WaitVisible(row, chromedp.ByQuery))
		var text, id string
		var ok bool
		run(t, ctx, "read the request", chromedp.Text(row, &text, chromedp.ByQuery), chromedp.AttributeValue(row, "data-id", &id, &ok, chromedp.ByQuery))
		if !strings.Contains(text, "201") || !strings.Contains(text, "homologa-demo") {
			t.Errorf("interaction row: %q", text)
		}
		run(t, ctx, "open its details",
			chromedp.Click(fmt.Sprintf(`button[data-focus-key="toggle:int%s"]`, id), chromedp.ByQuery),
			chromedp.WaitVisible(`#int-`+id+` pre`, chromedp.ByQuery))
		var details string
		run(t, ctx, "read the details", chromedp.Text(`#int-`+id, &details, chromedp.ByQuery))
		if !strings.Contains(details, "Dashboard test") || !strings.Contains(details, "Response 201") {
			t.Errorf("details: %q", details)
		}
		// The filter narrows the log to what the operator asks for.
		run(t, ctx, "filter by method", chromedp.SetValue(`#int-method`, "POST", chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelector('#int-method').dispatchEvent(new Event('change', {bubbles: true}))`, nil))
		waitJS(t, ctx, "only POSTs", `(() => { const rows = [...document.querySelectorAll('#interactions-table tr[data-method]')];
			return rows.length > 0 && rows.every(r => r.dataset.method === 'POST'); })()`)
	})

	t.Run("ShowsAProposalMovingToImplantationLive", func(t *testing.T) {
		numero := fmt.Sprint(propose(t, s))
		row := fmt.Sprintf(`#resources-table tr[data-kind="proposta"][data-id=%q]`, numero)
		waitJS(t, ctx, "the proposal RECEBIDA", fmt.Sprintf(`document.querySelector(%q)?.textContent.includes('RECEBIDA')`, row))
		run(t, ctx, "click +1 day", chromedp.Click(`button[data-advance="1d"]`, chromedp.ByQuery))
		waitJS(t, ctx, "the proposal IMPLANTADA", fmt.Sprintf(`document.querySelector(%q)?.textContent.includes('IMPLANTADA')`, row))
		waitJS(t, ctx, "its enrollment", `!!document.querySelector('#resources-table tr[data-kind="inscricao"]')`)
		for _, typ := range []string{"proposta.status", "proposta.implantada"} {
			waitJS(t, ctx, "the event "+typ, fmt.Sprintf(`[...document.querySelectorAll('#event-list li[data-type=%q] summary')].some(s => s.textContent.includes(%q))`, typ, numero))
		}
		var same bool
		run(t, ctx, "check no reload", chromedp.Evaluate(`window.sameDocument === true`, &same))
		if !same {
			t.Error("the page reloaded")
		}
		screenshot(t, ctx, "implantada")
	})

	t.Run("ShowsActiveFaults", func(t *testing.T) {
		// One activated by the API, seen on the next refresh; one by the
		// page's own button.
		if code, body := call(t, http.MethodPost, s.URL()+"/sandbox/scenarios/webhook-duplicado/activate", "", `{"clientId": "homologa-demo"}`); code != http.StatusOK {
			t.Fatalf("activate: %d %s", code, body)
		}
		run(t, ctx, "wait for the API's fault", chromedp.WaitVisible(`#faults-table tr[data-scenario="webhook-duplicado"]`, chromedp.ByQuery))
		var text string
		run(t, ctx, "read it", chromedp.Text(`#faults-table tr[data-scenario="webhook-duplicado"]`, &text, chromedp.ByQuery))
		if !strings.Contains(text, "homologa-demo") || !strings.Contains(text, "armed") {
			t.Errorf("fault row: %q", text)
		}
		run(t, ctx, "activate from the page",
			chromedp.Click(`button[data-focus-key="activate:pix-indisponivel-uma-vez"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`#faults-table tr[data-scenario="pix-indisponivel-uma-vez"]`, chromedp.ByQuery))
		_, body := call(t, http.MethodGet, s.URL()+"/sandbox/faults", "", "")
		if !strings.Contains(body, `"scenario":"pix-indisponivel-uma-vez"`) {
			t.Errorf("GET /sandbox/faults: %s", body)
		}
		screenshot(t, ctx, "faults")
		run(t, ctx, "deactivate from the page", chromedp.Click(`button[data-focus-key="deactivate:pix-indisponivel-uma-vez:"]`, chromedp.ByQuery))
		waitJS(t, ctx, "the fault gone", `!document.querySelector('#faults-table tr[data-scenario="pix-indisponivel-uma-vez"]')`)
	})
}

// A person signs in to the dashboard with their portal account: the
// session is a cookie the page's scripts cannot read, and the page shows
// the account's company, its apps, clock and live events.
func TestDashboardSignsInWithAPortalAccount(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	ctx := newBrowser(t)
	run(t, ctx, "open the dashboard without a credential", chromedp.Navigate(s.URL()+"/"),
		chromedp.WaitVisible(`#signin`, chromedp.ByQuery))
	run(t, ctx, "a wrong password", chromedp.SendKeys(`#signin-email`, server.DemoEmail, chromedp.ByQuery),
		chromedp.SendKeys(`#signin-password`, "errada-errada", chromedp.ByQuery), chromedp.Click(`#signin button[type=submit]`, chromedp.ByQuery))
	waitJS(t, ctx, "the refusal", `document.querySelector('#signin-error').textContent.includes('Wrong email or password')`)
	run(t, ctx, "the right one", chromedp.SetValue(`#signin-password`, server.DemoPassword, chromedp.ByQuery), chromedp.Click(`#signin button[type=submit]`, chromedp.ByQuery))
	run(t, ctx, "the demo app", chromedp.WaitVisible(`#apps-table tr[data-client-id="homologa-demo"]`, chromedp.ByQuery))
	var cookies string
	run(t, ctx, "read document.cookie", chromedp.Evaluate(`document.cookie`, &cookies))
	if strings.Contains(cookies, "homologa_session") {
		t.Errorf("the page's scripts read the session cookie: %q", cookies)
	}
	waitJS(t, ctx, "the company's clock", `document.querySelector('#clock-now').hasAttribute('datetime')`)
	// Said as the company's, with no choice of another company's.
	waitJS(t, ctx, "the clock said as the company's", `document.querySelector('#clock-which').textContent.startsWith('Your company’s clock')
		&& document.querySelector('#clock-pick').hidden && document.querySelector('#advance-label').textContent === 'Advance your company’s clock'`)
	// An event of the company reaches the page over the stream, which
	// the cookie authenticates.
	call(t, http.MethodPost, s.URL()+"/sandbox/events/ping", demoToken(t, s, ""), "")
	waitJS(t, ctx, "the ping in the live events", `document.querySelector('#events').innerText.includes('sandbox.ping')`)
}

// TestDashboardShowsAJumpInProgress: a move of the clock that outlasts
// its budget answers at once, and the dashboard shows the jump going on
// (its target, jobs run and still due) until it lands.
func TestDashboardShowsAJumpInProgress(t *testing.T) {
	t.Parallel()
	bg := context.Background()
	s, err := server.New(bg, server.Config{Addr: "127.0.0.1:0", Clock: "frozen", Log: io.Discard, OperatorToken: browsertest.OperatorToken,
		ClockBudget: jobs.Budget{Jobs: 5}})
	if err != nil {
		t.Fatal(err)
	}
	// A kind of job of this test's, slow enough that the jump lasts
	// seconds: 800 of the demo company's, due over the next hour, on the
	// default clock it follows.
	s.Jobs.Handle("test.slow", func(context.Context, jobs.Job) error { time.Sleep(4 * time.Millisecond); return nil })
	if err := s.Start(bg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	now := s.Clocks.Default.Now()
	err = s.DB.Tx(bg, func(tx *store.Tx) error {
		for i := range 800 {
			if _, err := s.Jobs.Schedule(tenant.With(bg, s.Demo.CompanyID), tx, "test.slow", now.Add(time.Duration(i+1)*time.Second), nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t)
	run(t, ctx, "open the dashboard", chromedp.Navigate(s.URL()+"/#operator="+browsertest.OperatorToken))
	waitJS(t, ctx, "the clock", `document.querySelector('#clock-now').hasAttribute('datetime')`)
	run(t, ctx, "advance by an hour", chromedp.Click(`[data-advance="1h"]`, chromedp.ByQuery))
	waitJS(t, ctx, "the jump shown", `!document.querySelector('#clock-jump').hidden && Number(document.querySelector('#clock-jump-run').textContent) > 0`)
	var shown string
	run(t, ctx, "read the jump", chromedp.Text(`#clock-jump`, &shown, chromedp.ByQuery))
	if !strings.Contains(shown, "Jumping") || !strings.Contains(shown, "still due") {
		t.Errorf("the jump shows %q", shown)
	}
	if st, ok := s.Jobs.JumpOf(""); !ok || st.Done {
		t.Fatalf("the jump had landed already (%+v): make it longer", st)
	}
	waitJS(t, ctx, "the jump landed", `document.querySelector('#clock-jump').hidden`)
	if st, _ := s.Jobs.JumpOf(""); !st.Done || st.JobsRun != 800 {
		t.Fatalf("the jump: %+v", st)
	}
	screenshot(t, ctx, "jump-landed")
}
