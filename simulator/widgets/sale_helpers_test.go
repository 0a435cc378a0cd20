package widgets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"homologa/simulator/server"
	"homologa/simulator/store"
)

// Helpers of the sale widgets' tests (credit card, forms, host page). They
// are methods of sale so that the follow-up widgets' tests, written at the
// same time, keep their own names.

// saleCPF is the proponent of every sale: the default analysis.
const saleCPF = "11144477735"

// saleScopes is what the partner's backend uses to sell: the insurer API,
// the number reservation and the signature code.
const saleScopes = "apiseguradora apiunderwriting apicontroleacesso"

// sale is one test's sandbox and browser.
type sale struct {
	t   *testing.T
	s   *server.Server
	ctx context.Context
}

func newSale(t *testing.T) *sale {
	t.Helper()
	return &sale{t: t, s: startSandbox(t), ctx: newBrowser(t)}
}

// with is x for a subtest: same sandbox and browser, failures reported
// to t.
func (x *sale) with(t *testing.T) *sale {
	y := *x
	y.t = t
	return &y
}

// partnerPage serves, on its own loopback origin (another origin than the
// sandbox's, as in production), a page that frames one widget at path,
// posts it the token under property when the frame loads, and keeps every
// message the widget posts, as posted, in window.received. It returns the
// page's URL.
func (x *sale) partnerPage(path, property, token string) string {
	x.t.Helper()
	origin, _ := json.Marshal(x.s.URL())
	msg, _ := json.Marshal(map[string]string{"event": "notify", "property": property, "value": token})
	page := fmt.Sprintf(`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Parceiro</title></head>
<body><h1>Loja do parceiro</h1>
<iframe id="widget" title="Widget da seguradora" src="%s" width="640" height="900"></iframe>
<script>
"use strict";
const sandbox = %s;
window.received = [];
window.loaded = 0;
const frame = document.getElementById("widget");
window.addEventListener("message", (ev) => {
  if (ev.origin === sandbox && ev.source === frame.contentWindow) window.received.push(ev.data);
});
frame.addEventListener("load", () => { window.loaded++; frame.contentWindow.postMessage(%s, sandbox); });
</script></body></html>`, html.EscapeString(x.s.URL()+path), origin, msg)
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	x.t.Cleanup(h.Close)
	return h.URL
}

// open navigates to a partner page and returns the widget's iframe once
// it has loaded and been posted the token, for queries inside it
// (chromedp.FromNode).
func (x *sale) open(url string) *cdp.Node {
	x.t.Helper()
	if err := chromedp.Run(x.ctx, chromedp.Navigate(url)); err != nil {
		x.t.Fatalf("open %s: %v", url, err)
	}
	x.wait("the widget's frame to load", nil, `window.loaded >= 1`)
	var nodes []*cdp.Node
	if err := chromedp.Run(x.ctx, chromedp.Nodes("iframe", &nodes, chromedp.ByQuery)); err != nil || len(nodes) == 0 {
		x.t.Fatalf("iframe: %v", err)
	}
	return nodes[0]
}

// in runs a query inside the frame.
func in(frame *cdp.Node) chromedp.QueryOption { return chromedp.FromNode(frame) }

// wait polls a JavaScript expression, in the frame or (nil) the partner
// page, until it is truthy; a deadline ends a wait that never comes.
func (x *sale) wait(what string, frame *cdp.Node, expr string) {
	x.t.Helper()
	opts := []chromedp.PollOption{chromedp.WithPollingTimeout(15 * time.Second)}
	if frame != nil {
		opts = append(opts, chromedp.WithPollingInFrame(frame))
	}
	if err := chromedp.Run(x.ctx, chromedp.Poll(expr, nil, opts...)); err != nil {
		x.t.Fatalf("waiting for %s (%s): %v", what, expr, err)
	}
}

// eval evaluates a JavaScript expression in the frame's own context (the
// frame is cross-origin: the partner page cannot reach into it) and
// decodes its value into out.
func (x *sale) eval(frame *cdp.Node, expr string, out any) {
	x.t.Helper()
	// Poll answers the first truthy value: a JSON string always is.
	var s string
	err := chromedp.Run(x.ctx, chromedp.Poll(`JSON.stringify(`+expr+`)`, &s,
		chromedp.WithPollingInFrame(frame), chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		x.t.Fatalf("eval %s: %v", expr, err)
	}
	if err := json.Unmarshal([]byte(s), out); err != nil {
		x.t.Fatalf("eval %s: %v (%s)", expr, err, s)
	}
}

// text is the text of the element matched by sel in the frame.
func (x *sale) text(frame *cdp.Node, sel string) string {
	x.t.Helper()
	var s string
	if err := chromedp.Run(x.ctx, chromedp.Text(sel, &s, chromedp.ByQuery, in(frame))); err != nil {
		x.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// received is every message the widget posted to the partner page, each
// as posted (the widgets post JSON strings).
func (x *sale) received() []string {
	x.t.Helper()
	var raw []any
	if err := chromedp.Run(x.ctx, chromedp.Evaluate(`window.received`, &raw)); err != nil {
		x.t.Fatalf("received: %v", err)
	}
	out := make([]string, len(raw))
	for i, m := range raw {
		s, ok := m.(string)
		if !ok {
			x.t.Errorf("message %d is not a JSON string: %#v", i, m)
			b, _ := json.Marshal(m)
			s = string(b)
		}
		out[i] = s
	}
	return out
}

// message waits for the partner page's n-th message (1-based) and decodes
// it.
func (x *sale) message(n int) map[string]any {
	x.t.Helper()
	x.wait(fmt.Sprintf("message %d from the widget", n), nil, fmt.Sprintf(`window.received.length >= %d`, n))
	raw := x.received()[n-1]
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		x.t.Fatalf("message %d is not JSON: %q", n, raw)
	}
	return m
}

func (x *sale) call(token, method, path string, body any) (int, map[string]any) {
	x.t.Helper()
	return apiCall(x.t, x.s, token, method, path, body)
}

func (x *sale) must(token, method, path string, body any, want int) map[string]any {
	x.t.Helper()
	return apiMust(x.t, x.s, token, method, path, body, want)
}

// propose sends a YZ proposal for saleCPF, priced by the simulation and
// signed with a code from the outbox, as features/contract/venda-ciclo
// does, billed as cobranca says. It answers the proposal's number.
func (x *sale) propose(token string, cobranca map[string]any) int64 {
	x.t.Helper()
	sim := x.must(token, http.MethodPost, "/insurer/v1/simulacao?codigoModeloProposta=YZ", map[string]any{"simulacoes": []any{map[string]any{
		"proponente":              map[string]any{"cpf": saleCPF, "dataNascimento": "1986-03-15", "sexoId": 2, "renda": 8000, "profissaoCbo": "2410-05", "uf": "SP"},
		"periodicidadeCobrancaId": 30, "capitalSegurado": 200000}}}, http.StatusOK)
	premio := dig(sim, "Valor.simulacoes.0.produtos.0.coberturas.0.premio")
	if dig(sim, "Valor.simulacoes.0.produtos.0.coberturas.0.itemProdutoId") != 1001.0 || premio == nil {
		x.t.Fatalf("simulation did not price coverage 1001: %v", sim)
	}
	x.must(token, http.MethodPost, "/access/v1/token/user", map[string]any{"cpf": saleCPF}, http.StatusCreated)
	box := x.must("", http.MethodGet, "/sandbox/outbox?cpf="+saleCPF, nil, http.StatusOK)
	prop := x.must(token, http.MethodPost, "/insurer/v1/proposta?codigoModeloProposta=YZ", map[string]any{"PROPOSTA": map[string]any{
		"NUMERO": "0",
		"DADOS_PROPONENTE": map[string]any{"NOME": "Maria Souza", "DT_NASCIMENTO": "1986-03-15", "SEXO": "FEMININO", "CPF": saleCPF,
			"RENDA_MENSAL": 8000, "ENDERECOS": map[string]any{"ENDERECO": []any{map[string]any{"ESTADO": "SP", "CEP": "01310100"}}},
			"PROFISSAO": map[string]any{"CODIGO": "2410-05"}},
		"PLANOS": map[string]any{"VL_TOTAL": premio, "PLANO": []any{map[string]any{"CODIGO": 511,
			"COBERTURAS": map[string]any{"COBERTURA": []any{map[string]any{"CODIGO": 1001, "VL_CONTRIB": premio, "VL_COBERTURA": 200000}}}}}},
		"BENEFICIARIOS":  map[string]any{"BENEFICIARIO": []any{map[string]any{"NOME": "João Souza", "PARENTESCO": "CONJUGE", "PARTICIPACAO": 100}}},
		"DADOS_COBRANCA": cobranca,
		"ASSINATURA":     map[string]any{"TIPO": "TOKEN", "TOKEN": dig(box, "messages.0.codigo")},
	}}, http.StatusCreated)
	n, ok := dig(prop, "Valor.numeroProposta").(float64)
	if !ok {
		x.t.Fatalf("no numeroProposta: %v", prop)
	}
	return int64(n)
}

// storedAnywhere lists the table.column cells of the sandbox's database
// holding s: a card number must be in none.
func (x *sale) storedAnywhere(s string) []string {
	x.t.Helper()
	var found []string
	err := x.s.DB.Read(context.Background(), func(tx *store.Tx) error {
		rows, err := tx.QueryContext(context.Background(), `SELECT name FROM sqlite_master WHERE type = 'table'`)
		if err != nil {
			return err
		}
		var tables []string
		for rows.Next() {
			var n string
			rows.Scan(&n)
			tables = append(tables, n)
		}
		rows.Close()
		for _, table := range tables {
			rows, err := tx.QueryContext(context.Background(), `SELECT * FROM "`+table+`"`)
			if err != nil {
				return err
			}
			cols, _ := rows.Columns()
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					rows.Close()
					return err
				}
				for i, v := range vals {
					if b, ok := v.([]byte); ok {
						v = string(b)
					}
					if strings.Contains(fmt.Sprint(v), s) {
						found = append(found, table+"."+cols[i])
					}
				}
			}
			rows.Close()
		}
		return nil
	})
	if err != nil {
		x.t.Fatal(err)
	}
	return found
}
