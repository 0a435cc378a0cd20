package dashboard_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"homologa/simulator/browsertest"
	"homologa/simulator/server"
)

// clockAttr is the instant #clock-now shows, and whose clock it is.
const clockAttr = `(() => { const t = document.querySelector('#clock-now'); return t.getAttribute('datetime') + ' ' + t.dataset.clock; })()`

// ownClock is a company's own clock as GET /sandbox/clocks says it.
func ownClock(t *testing.T, s *server.Server, companyID string) time.Time {
	t.Helper()
	_, body := call(t, http.MethodGet, s.URL()+"/sandbox/clocks", "", "")
	var out struct {
		Clocks []struct {
			CompanyID string    `json:"companyId"`
			Now       time.Time `json:"now"`
		} `json:"clocks"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	for _, c := range out.Clocks {
		if c.CompanyID == companyID {
			return c.Now
		}
	}
	t.Fatalf("GET /sandbox/clocks has no clock of %s: %s", companyID, body)
	return time.Time{}
}

// TestDashboardShowsEachCompanysClock: the demo company moved its clock
// 2 h ahead. The operator's page says that the clock it shows is the
// default, shows the demo company 2 h ahead (beside the clock and by the
// company in the apps table, not by a company that follows the default),
// and shows a company's clock when the operator picks the company, here
// or in the live events' filter.
func TestDashboardShowsEachCompanysClock(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	code, body := call(t, http.MethodPost, s.URL()+"/sandbox/clock/advance", demoToken(t, s, ""), `{"by": "2h"}`)
	if code != http.StatusOK {
		t.Fatalf("the demo company's advance: %d %s", code, body)
	}
	// A second company, which follows the default clock.
	if code, body := call(t, http.MethodPost, s.URL()+"/portal/accounts", "", `{"email": "ti@corretora-exemplo.com.br", "password": "senha-longa-do-exemplo",
		"company": {"cnpj": "11444777000161", "name": "Corretora Exemplo"}}`); code != http.StatusCreated {
		t.Fatalf("register: %d %s", code, body)
	}
	if code, body := call(t, http.MethodPost, s.URL()+"/portal/apps", browsertest.OperatorToken, `{"companyId": "11444777000161", "name": "Exemplo"}`); code != http.StatusCreated {
		t.Fatalf("app: %d %s", code, body)
	}
	def, demo := sandboxClock(t, s), ownClock(t, s, s.Demo.CompanyID)
	if got := demo.Sub(def); got != 2*time.Hour {
		t.Fatalf("the demo company is %s ahead, want 2h", got)
	}
	shows := func(at time.Time, whose string) string {
		return fmt.Sprintf(`%s === %q`, clockAttr, at.UTC().Format(time.RFC3339)+" "+whose)
	}
	ctx := newBrowser(t)
	run(t, ctx, "open the dashboard", chromedp.Navigate(s.URL()+"/#operator="+browsertest.OperatorToken))
	waitJS(t, ctx, "the default clock", fmt.Sprintf(`document.querySelector('#clock-now').getAttribute('datetime') === %q`, def.UTC().Format(time.RFC3339)))
	demoItem := fmt.Sprintf(`#clocks li[data-company=%q]`, s.Demo.CompanyID)
	waitJS(t, ctx, "the demo company 2 h ahead beside", fmt.Sprintf(`(() => { const li = document.querySelector(%q);
		return !!li && li.textContent.includes('Homologa Demo Corretora') && li.textContent.includes('2 h ahead of the default clock')
			&& li.querySelector('time').getAttribute('datetime') === %q; })()`, demoItem, demo.UTC().Format(time.RFC3339)))
	waitJS(t, ctx, "the default clock said", shows(def, "default")+` && document.querySelector('#clock-which').textContent.startsWith('The sandbox’s default clock')`)
	waitJS(t, ctx, "the demo company 2 h ahead in the apps", `(document.querySelector('#apps-table tr[data-client-id="homologa-demo"] .own-clock') || {}).textContent === 'own clock: 2 h ahead'`)
	var other string
	run(t, ctx, "read the other company's app", chromedp.Text(`#apps-table tr[data-client-id]:not([data-client-id="homologa-demo"])`, &other, chromedp.ByQuery))
	if strings.Contains(other, "own clock") {
		t.Errorf("a company on the default clock shows %q", other)
	}

	pick := func(value string) chromedp.Action {
		return chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector('#clock-company'); s.value = %q;
			s.dispatchEvent(new Event('change', {bubbles: true})); return s.value; })()`, value), nil)
	}
	run(t, ctx, "pick the demo company's clock", pick(s.Demo.CompanyID))
	waitJS(t, ctx, "the demo company's clock", shows(demo, s.Demo.CompanyID))
	var which string
	var locked bool
	run(t, ctx, "read what it says", chromedp.Text(`#clock-which`, &which, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('[data-advance="1h"]').disabled && document.querySelector('#advance-by').disabled`, &locked))
	if !strings.Contains(which, "Homologa Demo Corretora") || !strings.Contains(which, "own clock, 2 h ahead of the default clock") {
		t.Errorf("the demo company's clock is said as %q", which)
	}
	if !locked {
		t.Error("the operator's buttons, which move the default clock, stay enabled under a company's own clock")
	}

	// A company that follows the default reads the default's time.
	var otherID string
	run(t, ctx, "find the other company", chromedp.Evaluate(`[...document.querySelector('#clock-company').options].find((o) => o.textContent.startsWith('Corretora Exemplo')).value`, &otherID))
	run(t, ctx, "pick the other company's clock", pick(otherID))
	waitJS(t, ctx, "the other company on the default's time", fmt.Sprintf(`%s.startsWith(%q)`, clockAttr, def.UTC().Format(time.RFC3339)+" "))
	waitJS(t, ctx, "it follows the default", `document.querySelector('#clock-which').textContent.includes('follows the default clock')
		&& !document.querySelector('[data-advance="1h"]').disabled`)

	// Filtering the live events by the demo company shows its clock.
	run(t, ctx, "filter the events by the demo company", chromedp.Evaluate(`(() => { const s = document.querySelector('#ev-company'); s.value = '11222333000181';
		s.dispatchEvent(new Event('change', {bubbles: true})); })()`, nil))
	waitJS(t, ctx, "the demo company's clock again", shows(demo, s.Demo.CompanyID))

	// Back on the default, +1 h: the demo company is now 1 h ahead.
	run(t, ctx, "pick the default clock", pick(""))
	waitJS(t, ctx, "the default clock again", shows(def, "default"))
	run(t, ctx, "click +1 h", chromedp.Click(`button[data-advance="1h"]`, chromedp.ByQuery))
	waitJS(t, ctx, "the default an hour later", shows(def.Add(time.Hour), "default"))
	waitJS(t, ctx, "the demo company 1 h ahead", fmt.Sprintf(`document.querySelector(%q).textContent.includes('1 h ahead of the default clock')`, demoItem))
	screenshot(t, ctx, "clocks")
}
