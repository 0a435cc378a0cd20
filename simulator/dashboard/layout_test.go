package dashboard_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"homologa/simulator/browsertest"
	"homologa/simulator/server"
)

// The tables are judged at the widths operators' screens have: a laptop
// (1280), the width of the report that found the deliveries' URL column
// squeezed to four characters (1400) and a desktop (1920), filled with
// the long values partners really send.

// longWebhook is a partner's webhook as partners write them: their own
// path and query after the host. It is the demo inbox with a path, so the
// deliveries to it are served in the process and answer.
func longWebhook(s *server.Server) string {
	return s.Demo.WebhookURL + "/parceiro/integracoes/homologa/webhooks/pix/v2/notificacoes-de-cobranca-imediata?origem=sandbox&ambiente=homologacao&versao=2026-01"
}

// fillWithLongValues puts long values in every table through the APIs: a
// second company with a long name and a long webhook, the demo app's
// webhook made long, its company's clock 2 h ahead, charges of
// 35-character txids, a listing of charges with a long query, a delivery
// and a request with a fault badge, a long idempotency key, and active
// faults.
func fillWithLongValues(t *testing.T, s *server.Server) {
	t.Helper()
	must := func(want int, method, path, token, body string) string {
		t.Helper()
		code, got := call(t, method, s.URL()+path, token, body)
		if code != want {
			t.Fatalf("%s %s: %d %s", method, path, code, got)
		}
		return got
	}
	must(http.StatusCreated, http.MethodPost, "/portal/accounts", "", `{"email": "integracoes@corretora-exemplo.com.br", "password": "senha-longa-do-exemplo",
		"company": {"cnpj": "11444777000161", "name": "Corretora Exemplo de Seguros de Vida e Meios de Pagamento Ltda"}}`)
	must(http.StatusCreated, http.MethodPost, "/portal/apps", browsertest.OperatorToken, fmt.Sprintf(`{"companyId": "11444777000161", "name": "Integração de cobranças recorrentes da corretora",
		"webhookUrl": %q, "scopes": ["cob.read", "cob.write", "cobv.read", "cobv.write", "rec.read", "rec.write", "webhook.read", "webhook.write"]}`,
		longWebhook(s)+"&corretora=11444777000161"))
	pix := demoToken(t, s, "cob.write cob.read webhook.write")
	// A company on a clock of its own: a badge by it in the apps table.
	must(http.StatusOK, http.MethodPost, "/sandbox/clock/advance", pix, `{"by": "2h"}`)
	must(http.StatusOK, http.MethodPut, "/sandbox/app/webhook", pix, fmt.Sprintf(`{"webhookUrl": %q}`, longWebhook(s)))
	// 1.01 selects a scenario that pays the charge: a binding.
	for i, valor := range []string{"1.01", "1234.56", "98765.43"} {
		createCob(t, s, pix, fmt.Sprintf("cobrancaimediataparceiroexemplo%04d", i), valor)
	}
	must(http.StatusOK, http.MethodGet, "/pix/v2/cob?inicio=2020-01-01T00:00:00Z&fim=2199-12-31T23:59:59Z&cpf=52998224725&status=ATIVA&paginacao.paginaAtual=0&paginacao.itensPorPagina=100", pix, "")
	// A delivery a fault touched: its status cell holds two badges.
	must(http.StatusOK, http.MethodPost, "/sandbox/scenarios/webhook-assinatura-invalida/activate", "", `{"clientId": "homologa-demo"}`)
	must(http.StatusAccepted, http.MethodPost, "/sandbox/events/ping", "", `{"clientId": "homologa-demo"}`)
	// An interaction a fault answered, and one with a long idempotency key.
	must(http.StatusOK, http.MethodPost, "/sandbox/scenarios/pix-indisponivel-uma-vez/activate", "", `{"clientId": "homologa-demo"}`)
	must(http.StatusServiceUnavailable, http.MethodPut, "/pix/v2/cob/cobrancaimediataparceiroexemplo9999", pix,
		`{"calendario": {"expiracao": 3600}, "valor": {"original": "10.00"}, "chave": "52998224725"}`)
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/sandbox/events/ping", strings.NewReader(`{"clientId": "homologa-demo"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "homologacao-parceiro-exemplo-ping-0001-b7f3c2d1e4a5968778695a4b3c2d1e0f")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	poll(t, "the faulted delivery", func() bool {
		_, body := call(t, http.MethodGet, s.URL()+"/sandbox/deliveries?limit=50", "", "")
		var out struct {
			Deliveries []struct{ Injected string } `json:"deliveries"`
		}
		json.Unmarshal([]byte(body), &out)
		for _, d := range out.Deliveries {
			if d.Injected != "" {
				return true
			}
		}
		return false
	})
}

// tablesFit measures every table on the page as it is drawn and returns
// what does not fit, and the width of the deliveries' URL column.
const tablesFit = `(() => {
	const problems = [];
	const page = document.documentElement;
	if (page.scrollWidth > page.clientWidth + 1) problems.push('the page scrolls sideways: ' + page.scrollWidth + ' > ' + page.clientWidth);
	const name = (el) => el.id || el.className || el.tagName;
	// Drawn: not hidden, nor inside a closed <details>.
	const visible = (el) => el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true });
	// The width of one character of an element's font.
	const charWidth = (el) => {
		const probe = document.createElement('span');
		probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
		probe.textContent = 'x'.repeat(20);
		el.append(probe);
		const w = probe.getBoundingClientRect().width / 20;
		probe.remove();
		return w;
	};
	// The lines a text node is drawn on, and how many of its breaks fall
	// between two letters or digits (a word cut, not a wrap).
	const lines = (node) => {
		const r = document.createRange();
		let tops = [], cuts = 0, last = null;
		for (let i = 0; i < node.length; i++) {
			r.setStart(node, i); r.setEnd(node, i + 1);
			const rect = r.getClientRects()[0];
			if (!rect || !rect.width) continue;
			if (last !== null && rect.top > last.top + 2) {
				tops.push(rect.top);
				if (i === last.i + 1 && /[\p{L}\p{N}]/u.test(node.data[last.i]) && /[\p{L}\p{N}]/u.test(node.data[i])) cuts++;
			}
			if (last === null) tops.push(rect.top);
			last = { top: rect.top, i };
		}
		return { lines: tops.length, cuts };
	};
	const figures = {};
	for (const table of document.querySelectorAll('main table')) {
		if (!visible(table)) continue;
		const box = table.parentElement.closest('.scroll, td') || table.parentElement;
		const tr = table.getBoundingClientRect(), br = box.getBoundingClientRect();
		if (table.scrollWidth > box.clientWidth + 1 || tr.right > br.right + 1) {
			problems.push(name(table) + ' is wider than its panel: ' + Math.round(tr.width) + ' > ' + box.clientWidth);
		}
		const walk = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			const text = n.data.trim();
			if (text.length < 8 || !visible(n.parentElement)) continue;
			const { lines: l, cuts } = lines(n);
			// A word cut on a line of a few characters, or a value of
			// three or more lines that short: the column was squeezed.
			const value = !n.parentElement.closest('th');
			if (l > 1 && (cuts > 0 && text.length / l < 12 || value && l > 2 && text.length / l < 10)) {
				problems.push(name(table) + ': "' + text.slice(0, 40) + '" is squeezed to ' + l + ' lines of ~' + Math.round(text.length / l) + ' characters');
			}
		}
		for (const cell of table.querySelectorAll('td.url')) {
			if (!visible(cell) || cell.closest('table') !== table) continue;
			const chars = cell.clientWidth / charWidth(cell.querySelector('code') || cell);
			const column = table.tHead.rows[0].cells[cell.cellIndex].textContent;
			figures[table.id + ' ' + column] = Math.round(cell.getBoundingClientRect().width) + ' px, ' + Math.floor(chars) + ' characters';
			if (chars < 24) problems.push(table.id + ': the ' + column + ' column is ' + Math.floor(chars) + ' characters wide');
		}
		for (const b of table.querySelectorAll('.badge')) {
			if (!visible(b) || b.closest('table') !== table) continue;
			const r = b.getBoundingClientRect(), c = b.closest('td, th').getBoundingClientRect();
			if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.right > br.right + 0.5 || b.scrollWidth > b.clientWidth + 1) {
				problems.push(name(table) + ': the badge "' + b.textContent + '" is cut off');
			}
		}
		for (const el of table.querySelectorAll('td *, td')) {
			if (!visible(el) || getComputedStyle(el).textOverflow !== 'ellipsis' || el.scrollWidth <= el.clientWidth) continue;
			const title = el.getAttribute('title') || (el.closest('[title]') || {}).title || '';
			if (!title.includes(el.textContent.trim())) problems.push(name(table) + ': "' + el.textContent.slice(0, 40) + '" is cut short with no title saying it in full');
		}
	}
	return { problems: [...new Set(problems)], figures };
})()`

type fit struct {
	Problems []string          `json:"problems"`
	Figures  map[string]string `json:"figures"`
}

// TestDashboardTablesFit: at 1280, 1400 and 1920 px every table fits its
// panel, long values (URLs, ids, paths) are cut with an ellipsis and a
// title or wrapped at sensible points, never letter by letter, and badges
// show whole; the page never scrolls sideways.
func TestDashboardTablesFit(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	fillWithLongValues(t, s)
	ctx := newBrowser(t)
	run(t, ctx, "open the dashboard", chromedp.Navigate(s.URL()+"/#operator="+browsertest.OperatorToken))
	for what, expr := range map[string]string{
		"the faulted delivery":     `!!document.querySelector('#deliveries-table tr[data-id] .badge.warn')`,
		"the charges":              `document.querySelectorAll('#resources-table tr[data-kind="cob"]').length >= 3`,
		"the listing of charges":   `!!document.querySelector('#interactions-table tr[data-path="/pix/v2/cob"]')`,
		"the second company's app": `document.querySelectorAll('#apps-table tr[data-client-id]').length >= 2`,
		"the demo company's clock": `!!document.querySelector('#apps-table .own-clock')`,
		"the active faults":        `!!document.querySelector('#faults-table tr[data-scenario]')`,
		"the charges' bindings":    `!!document.querySelector('#bindings-table tr[data-scenario]')`,
	} {
		waitJS(t, ctx, what, expr)
	}
	// The attempts of the faulted delivery open: a table in a table.
	run(t, ctx, "open the attempts", chromedp.Evaluate(`[...document.querySelectorAll('#deliveries-table tr[data-id]')]
		.find((r) => r.textContent.includes('fault')).querySelector('button[data-focus-key^="toggle:"]').click()`, nil),
		chromedp.WaitVisible(`#deliveries-table tr.detail:not([hidden])`, chromedp.ByQuery))
	for _, width := range []int64{1024, 1280, 1400, 1920} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			var got fit
			run(t, ctx, "measure the tables", chromedp.EmulateViewport(width, 1000),
				// Two frames: the layout of the new width is drawn.
				chromedp.Evaluate(`new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))`, nil, awaitPromise),
				chromedp.Evaluate(tablesFit, &got))
			screenshot(t, ctx, fmt.Sprintf("tables-%d", width))
			t.Logf("at %d px: %v", width, got.Figures)
			if len(got.Problems) > 0 {
				t.Errorf("at %d px:\n%s", width, strings.Join(got.Problems, "\n"))
			}
		})
	}
	// What the row cuts short, the open delivery says in full.
	var target string
	run(t, ctx, "read the open delivery", chromedp.Text(`#deliveries-table tr.detail:not([hidden]) > td`, &target, chromedp.ByQuery))
	if !strings.Contains(target, longWebhook(s)) || !strings.Contains(target, "webhook-assinatura-invalida#faults.0") {
		t.Errorf("the open delivery says %q, want its URL %s and its fault in full", target, longWebhook(s))
	}
}

func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }
