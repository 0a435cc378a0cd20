package widgets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"homologa/simulator/server"
)

// Helpers of the follow-up widgets' tests (timelines, pendings, benefit
// notice): a partner's page on another origin that frames widgets, and
// sales and enrollments made through the public APIs, as a partner makes
// them. They are methods of followUp so that the other widgets' tests
// can name their own helpers freely.

// followUpScopes is what the follow-up widgets need between them: the
// insurer API (timeline, pendings, enrollment, offer) and the benefits API.
const followUpScopes = "apiseguradora apibeneficio"

// followUpFrame is one widget the host page frames: its iframe id, the
// sandbox path it loads and the property the token is posted under
// (Auth when empty; the widgets take access_token and Token too).
type followUpFrame struct {
	ID, Path, Property string
}

// followUp is one test's sandbox and browser.
type followUp struct {
	t   *testing.T
	s   *server.Server
	ctx context.Context
}

// newFollowUp starts a sandbox with the demo app and a headless browser.
func newFollowUp(t *testing.T) *followUp {
	t.Helper()
	return &followUp{t: t, s: startSandbox(t), ctx: newBrowser(t)}
}

// token is a demo app token with the follow-up widgets' scopes.
func (f *followUp) token() string { return demoToken(f.t, f.s, followUpScopes) }

// host serves a partner's page on its own loopback origin that frames
// the widgets, posts each the token when it loads ({event: "notify",
// property, value}), records what the widgets post in window.messages
// ({frame, data}) and counts each frame's loads in window.loads. Its
// window.postToken(t) posts a fresh token to every frame, as a host does
// when its token expires. It returns the page's URL.
func (f *followUp) host(token string, frames ...followUpFrame) string {
	t, s := f.t, f.s
	t.Helper()
	origin, _ := json.Marshal(s.URL())
	tok, _ := json.Marshal(token)
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Parceiro</title>
<script>
"use strict";
const sandbox = %s;
let token = %s;
window.messages = [];
window.loads = {};
window.addEventListener("message", (ev) => {
  if (ev.origin !== sandbox) return;
  let data = ev.data;
  if (typeof data === "string") { try { data = JSON.parse(data); } catch (e) {} }
  const f = [...document.querySelectorAll("iframe")].find((f) => f.contentWindow === ev.source);
  window.messages.push({ frame: f ? f.id : "", data });
});
function notify(f) { f.contentWindow.postMessage({ event: "notify", property: f.dataset.property, value: token }, sandbox); }
function loaded(f) { window.loads[f.id] = (window.loads[f.id] || 0) + 1; notify(f); }
window.postToken = (t) => { token = t; document.querySelectorAll("iframe").forEach(notify); };
</script></head><body><h1>Página do parceiro</h1>
`, origin, tok)
	for _, fr := range frames {
		prop := fr.Property
		if prop == "" {
			prop = "Auth"
		}
		fmt.Fprintf(&b, `<iframe id="%s" title="%s" src="%s" data-property="%s" width="560" height="760" onload="loaded(this)"></iframe>
`, html.EscapeString(fr.ID), html.EscapeString(fr.ID), html.EscapeString(s.URL()+fr.Path), html.EscapeString(prop))
	}
	b.WriteString("</body></html>")
	page := b.String()
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	t.Cleanup(h.Close)
	return h.URL
}

// open navigates to the host page and returns each frame's node once
// its widget has loaded, for queries inside it (chromedp.FromNode).
func (f *followUp) open(url string, ids ...string) map[string]*cdp.Node {
	t, ctx := f.t, f.ctx
	t.Helper()
	// Wide enough for two frames side by side: Chromium paints no frame
	// below the viewport, and the screenshots would show them blank.
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(1200, 840), chromedp.Navigate(url)); err != nil {
		t.Fatalf("open host page: %v", err)
	}
	out := map[string]*cdp.Node{}
	for _, id := range ids {
		f.waitJS(fmt.Sprintf("frame %s loaded", id), fmt.Sprintf(`(window.loads[%q] || 0) >= 1`, id))
		var nodes []*cdp.Node
		if err := chromedp.Run(ctx, chromedp.Nodes("iframe#"+id, &nodes, chromedp.ByQuery)); err != nil || len(nodes) == 0 {
			t.Fatalf("iframe %s: %v", id, err)
		}
		out[id] = nodes[0]
	}
	return out
}

// postToken has the host page post a fresh token to its frames, as a
// partner's page does when its token expires, and returns it.
func (f *followUp) postToken() string {
	f.t.Helper()
	tok := f.token()
	if err := chromedp.Run(f.ctx, chromedp.Evaluate(fmt.Sprintf(`window.postToken(%q)`, tok), nil)); err != nil {
		f.t.Fatalf("post a token: %v", err)
	}
	return tok
}

// upload writes a file for the browser to pick.
func (f *followUp) upload(name string, content []byte) string {
	f.t.Helper()
	path := filepath.Join(f.t.TempDir(), name)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		f.t.Fatal(err)
	}
	return path
}

// screenshot saves the host page as reports/screenshots/<test>-<name>.png
// (reports/ is git-ignored; HOMOLOGA_SCREENSHOTS names another folder),
// for a person to look at what the test saw. A failure to save is logged,
// not failed: the picture is an artifact, not an assertion.
func (f *followUp) screenshot(name string) {
	f.t.Helper()
	dir := os.Getenv("HOMOLOGA_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "reports", "screenshots")
	}
	var png []byte
	if err := chromedp.Run(f.ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		f.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(dir, f.t.Name()+"-"+name+".png")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		f.t.Logf("screenshot %s: %v", name, err)
	}
}

// waitJS polls a boolean expression in the host page until it holds or
// the browser's deadline passes.
func (f *followUp) waitJS(what, expr string) {
	t, ctx := f.t, f.ctx
	t.Helper()
	for {
		var ok bool
		if err := chromedp.Run(ctx, chromedp.Evaluate(expr, &ok)); err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitMessage waits until the frame has posted a message whose data has
// every field of want (compared as JSON) and returns its data.
func (f *followUp) waitMessage(frame string, want map[string]any) map[string]any {
	t, ctx := f.t, f.ctx
	t.Helper()
	w, _ := json.Marshal(want)
	expr := fmt.Sprintf(`(() => {
  const want = %s;
  const m = window.messages.find((m) => m.frame === %q && m.data && Object.entries(want).every(([k, v]) => JSON.stringify(m.data[k]) === JSON.stringify(v)));
  return m ? JSON.stringify(m.data) : "";
})()`, w, frame)
	for {
		var got string
		if err := chromedp.Run(ctx, chromedp.Evaluate(expr, &got)); err != nil {
			t.Fatalf("waiting for a message %s from %s: %v", w, frame, err)
		}
		if got != "" {
			var out map[string]any
			json.Unmarshal([]byte(got), &out)
			return out
		}
		select {
		case <-ctx.Done():
			var all string
			chromedp.Run(context.WithoutCancel(ctx), chromedp.Evaluate(`JSON.stringify(window.messages)`, &all))
			t.Fatalf("no message %s from %s; got %s", w, frame, all)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// in runs a query inside a frame.
func (f *followUp) in(frame *cdp.Node) chromedp.QueryOption {
	return func(s *chromedp.Selector) {
		chromedp.ByQuery(s)
		chromedp.FromNode(frame)(s)
	}
}

// statuses reads the data-status of every element sel matches in the
// frame, in order.
func (f *followUp) statuses(frame *cdp.Node, sel string) []string {
	f.t.Helper()
	var attrs []map[string]string
	if err := chromedp.Run(f.ctx, chromedp.AttributesAll(sel, &attrs, chromedp.ByQueryAll, chromedp.FromNode(frame))); err != nil {
		f.t.Fatalf("attributes of %s: %v", sel, err)
	}
	var out []string
	for _, a := range attrs {
		out = append(out, a["data-status"])
	}
	return out
}

// waitText waits until the text of sel in the frame contains want.
func (f *followUp) waitText(frame *cdp.Node, sel, want string) {
	f.t.Helper()
	for {
		// A live list redraws between finding a node and reading it
		// ("No node with given id found"): that is "not yet", not a failure.
		var s string
		err := chromedp.Run(f.ctx, chromedp.Text(sel, &s, f.in(frame)))
		if err == nil && strings.Contains(s, want) {
			return
		}
		select {
		case <-f.ctx.Done():
			f.t.Fatalf("%s says %q (last error %v), never %q", sel, s, err, want)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// focused reports whether sel matches the focused element of the frame.
func (f *followUp) focused(frame *cdp.Node, sel string) bool {
	f.t.Helper()
	var nodes []*cdp.Node
	if err := chromedp.Run(f.ctx, chromedp.Nodes(sel+":focus", &nodes, chromedp.ByQueryAll, chromedp.FromNode(frame), chromedp.AtLeast(0))); err != nil {
		f.t.Fatalf("focus of %s: %v", sel, err)
	}
	return len(nodes) > 0
}

// text reads the text of the first element sel matches in the frame.
func (f *followUp) text(frame *cdp.Node, sel string) string {
	t, ctx := f.t, f.ctx
	t.Helper()
	var s string
	if err := chromedp.Run(ctx, chromedp.Text(sel, &s, f.in(frame))); err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func (f *followUp) call(token, method, path string, body any) (int, map[string]any) {
	f.t.Helper()
	return apiCall(f.t, f.s, token, method, path, body)
}

func (f *followUp) must(token, method, path string, body any, want int) map[string]any {
	f.t.Helper()
	return apiMust(f.t, f.s, token, method, path, body, want)
}

func (f *followUp) field(v any, path string) any { return dig(v, path) }

// num reads a dotted path as an integer id.
func (f *followUp) num(v any, path string) int64 {
	f.t.Helper()
	n, ok := f.field(v, path).(float64)
	if !ok {
		f.t.Fatalf("%s is not a number in %v", path, v)
	}
	return int64(n)
}

// advance moves the sandbox clock, running what falls due on the way.
func (f *followUp) advance(by string) {
	f.t.Helper()
	f.must("", http.MethodPost, "/sandbox/clock/advance", map[string]any{"by": by}, http.StatusOK)
}

// expireTokens ends the demo company's access tokens now: they live on
// the wall clock, so advancing the sandbox clock never ends them.
func (f *followUp) expireTokens() {
	f.t.Helper()
	f.must(f.token(), http.MethodPost, "/sandbox/tokens/expire", nil, http.StatusOK)
}

// sell sells offer to cpf through the public APIs, as the harness's "an
// implanted enrollment" step does: simulation, signature code from the
// outbox, proposal with the mandatory coverages. The magic CPFs of
// scenarios/README.md choose what analysis does.
func (f *followUp) sell(token, offer, cpf string) int64 {
	t := f.t
	t.Helper()
	sim := f.must(token, http.MethodPost, "/insurer/v1/simulacao?codigoModeloProposta="+offer, map[string]any{"simulacoes": []any{map[string]any{
		"proponente":              map[string]any{"cpf": cpf, "dataNascimento": "1980-01-01", "sexoId": 2, "renda": 20000, "profissaoCbo": "2410-05", "uf": "SP"},
		"periodicidadeCobrancaId": 30, "capitalSegurado": 200000}}}, http.StatusOK)
	prod, _ := f.field(sim, "Valor.simulacoes.0.produtos.0").(map[string]any)
	if prod == nil {
		t.Fatalf("offer %s priced nothing: %v", offer, sim)
	}
	var covs []any
	for _, c := range prod["coberturas"].([]any) {
		c := c.(map[string]any)
		if c["obrigatoria"] == true {
			covs = append(covs, map[string]any{"CODIGO": c["itemProdutoId"], "VL_CONTRIB": c["premio"], "VL_COBERTURA": c["capital"]})
		}
	}
	f.must(token, http.MethodPost, "/access/v1/token/user", map[string]any{"cpf": cpf}, http.StatusCreated)
	box := f.must("", http.MethodGet, "/sandbox/outbox?cpf="+cpf, nil, http.StatusOK)
	code := f.field(box, "messages.0.codigo")
	prop := f.must(token, http.MethodPost, "/insurer/v1/proposta?codigoModeloProposta="+offer, map[string]any{"PROPOSTA": map[string]any{
		"DADOS_PROPONENTE": map[string]any{"NOME": "Cliente " + cpf, "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": cpf,
			"RENDA_MENSAL": 20000, "ENDERECOS": map[string]any{"ENDERECO": map[string]any{"ESTADO": "SP", "CEP": "01310100"}},
			"PROFISSAO": map[string]any{"CODIGO": "2410-05"}},
		"PLANOS":         map[string]any{"PLANO": map[string]any{"CODIGO": prod["idProduto"], "COBERTURAS": map[string]any{"COBERTURA": covs}}},
		"DADOS_COBRANCA": map[string]any{"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
		"ASSINATURA":     map[string]any{"TIPO": "TOKEN", "TOKEN": code},
	}}, http.StatusCreated)
	return f.num(prop, "Valor.numeroProposta")
}

// implant sells offer YZ to cpf, advances the clock through the default
// analysis (1h07m, and a minute more: on the real clock each step counts
// from when the previous one ran, a few milliseconds late) and returns the
// proposal, its enrollment and a token with the follow-up's scopes.
func (f *followUp) implant(cpf string) (numero, inscricao int64, token string) {
	f.t.Helper()
	numero = f.sell(demoToken(f.t, f.s, followUpScopes+" apicontroleacesso"), "YZ", cpf)
	f.advance("1h8m")
	token = f.token()
	list := f.must(token, http.MethodGet, "/insurer/v1/inscricao?numeroProposta="+strconv.FormatInt(numero, 10), nil, http.StatusOK)
	return numero, f.num(list, "Valor.0.inscricaoId"), token
}

// fault uploads a scenario of faults and activates it for the demo app.
func (f *followUp) fault(yaml string) {
	f.t.Helper()
	out := f.must("", http.MethodPost, "/sandbox/scenarios", yaml, http.StatusCreated)
	id, _ := out["id"].(string)
	if id == "" {
		f.t.Fatalf("uploaded scenario has no id: %v", out)
	}
	f.must("", http.MethodPost, "/sandbox/scenarios/"+id+"/activate", map[string]any{"clientId": server.DemoClientID}, http.StatusOK)
}

// notice gives a death notice for the enrollment through the API; the
// communicant's document picks the regulation scenario.
func (f *followUp) notice(token string, inscricao int64, cpf, comunicante string) int64 {
	f.t.Helper()
	ins := f.must(token, http.MethodGet, "/insurer/v1/inscricao/"+strconv.FormatInt(inscricao, 10), nil, http.StatusOK)
	out := f.must(token, http.MethodPost, "/benefits/v1/beneficio", map[string]any{
		"inscricaoId": inscricao, "cpfSegurado": cpf, "causa": "MORTE", "dataOcorrencia": f.field(ins, "Valor.dataInicioVigencia"),
		"comunicante": map[string]any{"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": comunicante, "relacao": "CONJUGE"},
	}, http.StatusCreated)
	return f.num(out, "Valor.beneficioId")
}
