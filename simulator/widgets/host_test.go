package widgets_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"homologa/simulator/server"
)

// The example host page at /widgets/: a token from the demo app's
// credentials, every widget framed with its URL and posted the token, the
// messages logged, and the card's code where the partner keeps it.
func TestHostPage(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	ctx := x.ctx
	run := func(what string, acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	run("open the host page", chromedp.Navigate(x.s.URL()+"/widgets/"), chromedp.WaitVisible("#get-token", chromedp.ByID))

	var unlabelled []string
	run("labels", chromedp.Evaluate(`[...document.querySelectorAll("input")].filter((i) => i.labels.length === 0).map((i) => i.id)`, &unlabelled))
	if len(unlabelled) > 0 {
		t.Errorf("inputs without a label: %v", unlabelled)
	}

	// The demo app's credentials are filled in, as make run prints them.
	run("get a token", chromedp.Click("#get-token", chromedp.ByID))
	x.wait("the token", nil, `document.getElementById("token-status").textContent.includes("obtido")`)
	run("reserve a number", chromedp.Click("#reserve", chromedp.ByID))
	x.wait("the reserved number", nil, `/^\d+$/.test(document.getElementById("numero").value)`)
	run("fill in the rest", chromedp.SendKeys("#inscricao", "1", chromedp.ByID), chromedp.SendKeys("#beneficio", "1", chromedp.ByID),
		chromedp.Click("#load", chromedp.ByID))
	x.wait("the token posted to all seven widgets", nil, `new Set([...document.querySelectorAll("#log li[data-dir=out]")].map((l) => l.dataset.widget)).size === 7`)
	// The widgets work in the page, not just receive the token: the forms
	// widget renders the offer's questionnaire for the reserved number (the
	// frames share the sandbox's origin here, so the page can look inside).
	x.wait("the questionnaire rendered in the host page", nil,
		`(document.getElementById("frame-questionario").contentDocument?.querySelectorAll("#perguntas .q").length ?? 0) >= 9`)

	var numero string
	var frames []struct {
		ID    string `json:"id"`
		Src   string `json:"src"`
		Title string `json:"title"`
	}
	run("frames", chromedp.Value("#numero", &numero, chromedp.ByID),
		chromedp.Evaluate(`[...document.querySelectorAll("iframe")].map((f) => ({id: f.id, src: f.src, title: f.title}))`, &frames))
	card := "cnpj=" + server.DemoCNPJ + "&acao=PreAutorizacao&valorCompra=100.00&chave=cpf&valor=11144477735&chave=ModeloProposta&valor=YZ"
	want := map[string]string{
		"frame-cartao-credito":      "/widgets/cartao-credito/?" + card,
		"frame-questionario":        "/widgets/questionario/v2/responder/901/Venda/" + numero + "/0b5394/e8eef5?listenForToken=true",
		"frame-timeline-proposta":   "/widgets/timeline-proposta/?numeroProposta=" + numero,
		"frame-pendencias":          "/widgets/pendencias/?numeroProposta=" + numero,
		"frame-aviso-beneficio":     "/widgets/aviso-beneficio/?inscricao=1",
		"frame-timeline-beneficio":  "/widgets/timeline-beneficio/?beneficio=1",
		"frame-pendencia-beneficio": "/widgets/pendencia-beneficio/?beneficio=1",
	}
	if len(frames) != len(want) {
		t.Errorf("%d frames, want %d", len(frames), len(want))
	}
	for _, f := range frames {
		if u, _ := url.Parse(f.Src); u == nil || u.RequestURI() != want[f.ID] {
			t.Errorf("frame %s: src %s, want %s", f.ID, f.Src, want[f.ID])
		}
		if f.Title == "" {
			t.Errorf("frame %s has no title", f.ID)
		}
	}

	// Pay in the framed card widget: the host logs the answer and keeps
	// the code, and nowhere on the page is the card number.
	var nodes []*cdp.Node
	run("card frame", chromedp.Nodes("#frame-cartao-credito", &nodes, chromedp.ByQuery))
	f := nodes[0]
	x.wait("the card widget to get its token", f, `!document.getElementById("pagar").disabled`)
	run("pay",
		chromedp.SendKeys("#numero", "4111111111111111", chromedp.ByQuery, in(f)),
		chromedp.SendKeys("#validade", "12/30", chromedp.ByQuery, in(f)),
		chromedp.SendKeys("#cvv", "123", chromedp.ByQuery, in(f)),
		chromedp.SendKeys("#titular", "MARIA SOUZA", chromedp.ByQuery, in(f)),
		chromedp.Click("#pagar", chromedp.ByQuery, in(f)))
	x.wait("the code kept by the partner", nil, `/^PA[0-9A-F]{12}$/.test(document.getElementById("num-pre-autorizacao").textContent)`)
	var code, logged, page string
	run("read the page", chromedp.Text("#num-pre-autorizacao", &code, chromedp.ByID),
		chromedp.Evaluate(`[...document.querySelectorAll("#log li[data-dir=in][data-widget=cartao-credito] code")].map((c) => c.textContent).join("\n")`, &logged),
		chromedp.Evaluate(`document.documentElement.outerHTML`, &page))
	if !strings.Contains(logged, `"CodigoPreAutorizacao":"`+code+`"`) {
		t.Errorf("the log does not show the card's answer with %s: %q", code, logged)
	}
	if strings.Contains(page, "4111111111111111") {
		t.Error("the host page holds the card number")
	}
	var tokenShown bool
	run("log", chromedp.Evaluate(`document.getElementById("log").textContent.includes("\"property\":\"Auth\"")`, &tokenShown))
	if !tokenShown {
		t.Error("the log does not show the token posted to the card widget as Auth")
	}

	// A pasted token goes to every framed widget at once.
	tok := demoToken(t, x.s, "cartaocredito api.questionario apiseguradora")
	var before int
	run("count", chromedp.Evaluate(`document.querySelectorAll("#log li[data-dir=out]").length`, &before))
	run("paste a token", chromedp.SendKeys("#token-paste", tok, chromedp.ByID), chromedp.Click("#paste-form button", chromedp.ByQuery))
	x.wait("the pasted token posted to all seven", nil, `document.querySelectorAll("#log li[data-dir=out]").length === `+strconv.Itoa(before+7))
	var html string
	run("html", chromedp.Evaluate(`document.getElementById("log").textContent`, &html))
	if strings.Contains(html, tok) {
		t.Error("the log shows whole tokens; it shortens them")
	}
}
