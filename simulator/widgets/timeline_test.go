package widgets_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The proposal timeline shows the history and follows the proposal live:
// the clock moves the default analysis on and the new status appears in
// the same page, which never reloads.
func TestTimelinePropostaLive(t *testing.T) {
	t.Parallel()
	f := newFollowUp(t)
	tok := f.token()
	numero := f.sell(demoToken(t, f.s, followUpScopes+" apicontroleacesso"), "YZ", "11144477735")

	page := f.host(tok, followUpFrame{ID: "timeline", Path: fmt.Sprintf("/widgets/timeline-proposta/?numeroProposta=%d", numero)})
	fr := f.open(page, "timeline")["timeline"]
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`li[data-status="RECEBIDA"]`, f.in(fr))); err != nil {
		t.Fatalf("history: %v", err)
	}
	f.waitMessage("timeline", map[string]any{"event": "timeline", "numeroProposta": numero, "status": "RECEBIDA", "registros": 1})
	if got := f.text(fr, "#atual"); got != "Recebida" {
		t.Errorf("current status %q, want Recebida", got)
	}

	f.advance("2m")
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`li[data-status="EM_ANALISE"]`, f.in(fr))); err != nil {
		t.Fatalf("live status: %v", err)
	}
	f.waitMessage("timeline", map[string]any{"event": "timeline", "status": "EM_ANALISE", "registros": 2})
	if got := f.text(fr, "#status"); !strings.Contains(got, "Em análise") {
		t.Errorf("live region says %q, want the new status", got)
	}
	// The host's token expires: the widget still shows what the events
	// say, and says the host must post a new token.
	f.expireTokens()
	f.advance("1h6m")
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`li[data-status="IMPLANTADA"]`, f.in(fr))); err != nil {
		t.Fatalf("implantation: %v", err)
	}
	f.screenshot("implantada")
	if got := f.text(fr, "#status"); !strings.Contains(got, "token") {
		t.Errorf("live region says %q, want it to ask for a new token", got)
	}
	var loads int
	if err := chromedp.Run(f.ctx, chromedp.Evaluate(`window.loads.timeline`, &loads)); err != nil || loads != 1 {
		t.Errorf("the widget loaded %d times (%v), want once: live means no reload", loads, err)
	}

	// A fresh token reloads the history, which matches the API's.
	tok = f.postToken()
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`#status.ok`, f.in(fr))); err != nil {
		t.Fatalf("reload with a new token: %v", err)
	}
	api := f.must(tok, http.MethodGet, fmt.Sprintf("/insurer/v1/proposta/%d/timeline", numero), nil, http.StatusOK)
	var want []string
	for _, e := range api["Valor"].([]any) {
		want = append(want, e.(map[string]any)["status"].(string))
	}
	if got := f.statuses(fr, "#historico li"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("widget shows %v, the API says %v", got, want)
	}
}
