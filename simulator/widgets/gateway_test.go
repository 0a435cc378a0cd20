package widgets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"homologa/simulator/auth"
	"homologa/simulator/browsertest"
	"homologa/simulator/widgets"
)

// The widgets as a secure gateway (issue 36): a widget takes its token
// from its parent window alone, posts its results only to the app's
// widget origins, and its page carries a Content-Security-Policy whose
// frame-ancestors are those origins.

// page serves html on a loopback origin of its own and answers its URL.
func page(t *testing.T, html string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, html)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestWidgetIgnoresASiblingsToken: a sibling frame on the partner's page
// (another origin) posts the widget a token of another company's, again
// and again; the widget takes only its parent's, so every call it makes
// is the parent's company's.
func TestWidgetIgnoresASiblingsToken(t *testing.T) {
	t.Parallel()
	f := newFollowUp(t)
	ctx := context.Background()
	numero := f.sell(demoToken(t, f.s, followUpScopes+" apicontroleacesso"), "YZ", "11144477735")
	if _, err := f.s.Auth.CreateCompany(ctx, "11444777000161", "Outra"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Auth.CreateApp(ctx, auth.NewApp{Company: "11444777000161", Name: "outra", ClientID: "outra", ClientSecret: "outra-secret-0123456"}); err != nil {
		t.Fatal(err)
	}
	other, err := f.s.Auth.IssueToken(ctx, "outra", "outra-secret-0123456", "")
	if err != nil {
		t.Fatal(err)
	}
	// The sibling: from its own origin, it posts its token to the widget
	// (the frame before it in the parent), every 50 ms, to any origin.
	sibling := page(t, fmt.Sprintf(`<!doctype html><title>vizinho</title><script>
const tok = %q;
setInterval(() => {
  const w = window.parent.frames[0];
  for (const property of ["access_token", "Auth", "Token"]) w.postMessage({event: "notify", property, value: tok}, "*");
  w.postMessage(JSON.stringify({event: "notify", property: "access_token", value: tok}), "*");
}, 50);
</script>`, other.AccessToken))
	// The partner's page frames the widget, then the sibling, and posts
	// its own token only after the sibling has had a second at it.
	sandbox, _ := json.Marshal(f.s.URL())
	host := page(t, fmt.Sprintf(`<!doctype html><title>Parceiro</title>
<iframe id="w" src="%s/widgets/timeline-proposta/?numeroProposta=%d"></iframe>
<iframe id="s" src="%s"></iframe>
<script>
window.messages = [];
window.addEventListener("message", (ev) => { if (ev.origin === %s) window.messages.push(ev.data); });
setTimeout(() => document.getElementById("w").contentWindow.postMessage({event: "notify", property: "access_token", value: %q}, %s), 1000);
</script>`, f.s.URL(), numero, sibling, sandbox, f.token(), sandbox))
	if err := chromedp.Run(f.ctx, chromedp.Navigate(host)); err != nil {
		t.Fatal(err)
	}
	f.waitJS("the widget's timeline message", `window.messages.some((m) => String(m).includes('"timeline"'))`)
	time.Sleep(300 * time.Millisecond) // the sibling keeps posting meanwhile
	code, body := f.call(other.AccessToken, http.MethodGet, "/sandbox/interactions?path=/insurer/v1/proposta*", nil)
	if code != http.StatusOK || strings.Contains(fmt.Sprint(body["interactions"]), "timeline") {
		t.Fatalf("the other company's calls from the widget: %d %v", code, body)
	}
	code, body = f.call(f.token(), http.MethodGet, "/sandbox/interactions?path=/insurer/v1/proposta*", nil)
	if code != http.StatusOK || !strings.Contains(fmt.Sprint(body["interactions"]), "timeline") {
		t.Fatalf("the parent's company has no call from the widget: %d %v", code, body)
	}
}

// TestWidgetTalksOnlyToTheAppsOrigins: an app registers one widget
// origin. A page there framing the widget for the app gets its messages;
// a page on another origin framing it is refused by the browser
// (frame-ancestors) and receives nothing, even on a developer's sandbox.
func TestWidgetTalksOnlyToTheAppsOrigins(t *testing.T) {
	t.Parallel()
	f := newFollowUp(t)
	numero := f.sell(demoToken(t, f.s, followUpScopes+" apicontroleacesso"), "YZ", "11144477735")
	sandbox, _ := json.Marshal(f.s.URL())
	hostHTML := fmt.Sprintf(`<!doctype html><title>Parceiro</title>
<iframe id="w" src="%s/widgets/timeline-proposta/?numeroProposta=%d&clientId=homologa-demo"></iframe>
<script>
window.messages = [];
window.addEventListener("message", (ev) => window.messages.push({origin: ev.origin, data: ev.data}));
const post = () => document.getElementById("w").contentWindow.postMessage({event: "notify", property: "access_token", value: %q}, %s);
setTimeout(post, 500); setTimeout(post, 1500);
</script>`, f.s.URL(), numero, f.token(), sandbox)
	registered, other := page(t, hostHTML), page(t, hostHTML)
	if code, body := f.call(browsertest.OperatorToken, http.MethodPut, "/portal/apps/homologa-demo/widget-origins", map[string]any{"origins": []string{registered}}); code != http.StatusOK {
		t.Fatalf("register the widget origin: %d %v", code, body)
	}
	// The widget's page says whom it may be framed by.
	resp, err := http.Get(f.s.URL() + "/widgets/timeline-proposta/?clientId=homologa-demo")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Content-Security-Policy"); !strings.Contains(got, "frame-ancestors 'self' "+registered) || !strings.Contains(got, "script-src 'self'") {
		t.Fatalf("the widget's policy: %q", got)
	}
	if err := chromedp.Run(f.ctx, chromedp.Navigate(registered)); err != nil {
		t.Fatal(err)
	}
	f.waitJS("a message on the registered origin", `window.messages.some((m) => m.origin === `+string(sandbox)+`)`)
	if err := chromedp.Run(f.ctx, chromedp.Navigate(other)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond) // both tokens posted, time to answer
	var got string
	if err := chromedp.Run(f.ctx, chromedp.Evaluate(`JSON.stringify(window.messages)`, &got)); err != nil {
		t.Fatal(err)
	}
	if got != "[]" {
		t.Fatalf("a page on an unregistered origin received %s", got)
	}
}

// TestWidgetPolicy: every widget page names who may frame it and runs
// scripts from the sandbox alone; a hosted sandbox lets only its own
// pages frame a widget of no app, a developer's any; an app's origins,
// once registered, are the only others.
func TestWidgetPolicy(t *testing.T) {
	origins := func(_ *http.Request, id string) ([]string, bool) {
		switch id {
		case "with":
			return []string{"https://parceiro.example"}, true
		case "without":
			return []string{}, true
		}
		return nil, false
	}
	for _, tt := range []struct {
		name, path string
		any        bool
		ancestors  string
		meta       string
	}{
		{"HostedNoApp", "/widgets/cartao-credito/", false, "frame-ancestors 'self'", `content=""`},
		{"HostedApp", "/widgets/cartao-credito/?clientId=with", false, "frame-ancestors 'self' https://parceiro.example", `content="https://parceiro.example"`},
		{"HostedAppWithout", "/widgets/pendencias/?clientId=without", false, "frame-ancestors 'self'", `content=""`},
		{"HostedUnknownApp", "/widgets/pendencias/?clientId=nobody", false, "frame-ancestors 'self'", `content=""`},
		{"DeveloperNoApp", "/widgets/timeline-proposta/", true, "frame-ancestors 'self' *", `content="*"`},
		{"DeveloperApp", "/widgets/questionario/v2/responder/1/Venda/2/0b5394/e8eef5?clientId=with", true, "frame-ancestors 'self' https://parceiro.example", `content="https://parceiro.example"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(widgets.Handler("/widgets/", widgets.Policy{Origins: origins, AnyOrigin: tt.any}))
			defer srv.Close()
			resp, err := http.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			policy := resp.Header.Get("Content-Security-Policy")
			if resp.StatusCode != 200 || !strings.HasSuffix(policy, tt.ancestors) || !strings.Contains(policy, "script-src 'self';") ||
				!strings.Contains(string(b), `<meta name="homologa-widget-origins" `+tt.meta+`>`) {
				t.Fatalf("%d %q\n%s", resp.StatusCode, policy, b[:min(len(b), 300)])
			}
		})
	}
}
