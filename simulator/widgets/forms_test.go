package widgets_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// formsPath is the forms widget's URL as a partner builds it (the evidenced
// shape; colours are hex without "#").
func formsPath(questionario int, origem string, numero int64, cor1, cor2 string) string {
	return fmt.Sprintf("/widgets/questionario/v2/responder/%d/%s/%d/%s/%s?listenForToken=true", questionario, origem, numero, cor1, cor2)
}

// formsWidget opens the forms widget framed by a partner page that posts
// it a token of the evidenced scope (api.questionario) as access_token.
func (x *sale) formsWidget(path string) *cdp.Node {
	x.t.Helper()
	return x.open(x.partnerPage(path, "access_token", demoToken(x.t, x.s, "api.questionario")))
}

// renderedQuestion is how the page rendered one question.
type renderedQuestion struct {
	Pergunta  string   `json:"pergunta"`
	Tipo      string   `json:"tipo"`
	Controls  []string `json:"controls"` // tag:type/inputmode of each control
	Options   int      `json:"options"`
	Required  bool     `json:"required"`
	Labelled  bool     `json:"labelled"`
	Described bool     `json:"described"`
}

// questions waits for the form's n questions and returns how each rendered.
func (x *sale) questions(f *cdp.Node, n int) []renderedQuestion {
	x.t.Helper()
	x.wait("the questionnaire to render", f, fmt.Sprintf(`!document.getElementById("form").hidden && document.querySelectorAll("[data-pergunta]").length === %d`, n))
	var qs []renderedQuestion
	x.eval(f, `[...document.querySelectorAll("[data-pergunta]")].map((b) => {
		const ctls = [...b.querySelectorAll("input, select, textarea")];
		const desc = b.getAttribute("aria-describedby") || (ctls[0] && ctls[0].getAttribute("aria-describedby"));
		return {
			pergunta: b.dataset.pergunta, tipo: b.dataset.tipo,
			controls: ctls.map((c) => c.tagName.toLowerCase() + ":" + (c.getAttribute("type") || "") + (c.inputMode ? "/" + c.inputMode : "")),
			options: b.querySelectorAll("option").length,
			required: (b.getAttribute("aria-required") || (ctls[0] && ctls[0].getAttribute("aria-required"))) === "true",
			labelled: ctls.every((c) => c.labels.length > 0 && c.labels[0].textContent.trim() !== ""),
			described: !!desc && !!document.getElementById(desc),
		};
	})`, &qs)
	return qs
}

// The whole journey on a proposal of offer YZ, whose questionnaire (901)
// has every answer type: render, refuse in the page, save, tell the host,
// read back through the API, reopen filled in.
func TestFormsWidgetAnswersAProposal(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	tok := demoToken(t, x.s, saleScopes)
	numero := x.propose(tok, map[string]any{"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10})
	path := formsPath(901, "Venda", numero, "7a1f5c", "ffd966")
	f := x.formsWidget(path)

	qs := x.questions(f, 9)
	want := map[string]string{ // pergunta → controls, per tipoResposta
		"1": "input:text/decimal", "2": "input:text/decimal", "3": "input:radio input:radio", "4": "input:text/decimal",
		"5": "input:radio input:radio", "6": "textarea:", "7": "input:radio input:radio", "8": "select:", "9": "input:date",
	}
	types := map[string]bool{}
	for _, q := range qs {
		types[q.Tipo] = true
		if got := strings.Join(q.Controls, " "); got != want[q.Pergunta] {
			t.Errorf("pergunta %s (%s) rendered as %q, want %q", q.Pergunta, q.Tipo, got, want[q.Pergunta])
		}
		if !q.Labelled || !q.Described {
			t.Errorf("pergunta %s: every control needs a label and an error message it points at: %+v", q.Pergunta, q)
		}
		if wantReq := strings.Contains("1 2 3 5 7 8", q.Pergunta); q.Required != wantReq {
			t.Errorf("pergunta %s: aria-required %v, want %v", q.Pergunta, q.Required, wantReq)
		}
	}
	if len(types) != 5 || qs[7].Options != 7 {
		t.Errorf("types %v, options of the DOMINIO question %d (6 and the empty choice)", types, qs[7].Options)
	}

	// The partner's colours, with text that contrasts with each.
	var colours map[string]string
	x.eval(f, `(() => { const b = getComputedStyle(document.getElementById("salvar")), h = getComputedStyle(document.querySelector("header"));
		return {button: b.backgroundColor, buttonText: b.color, band: h.backgroundColor, bandText: h.color}; })()`, &colours)
	if colours["button"] != "rgb(122, 31, 92)" || colours["buttonText"] != "rgb(255, 255, 255)" ||
		colours["band"] != "rgb(255, 217, 102)" || colours["bandText"] != "rgb(0, 0, 0)" {
		t.Errorf("colours %v", colours)
	}

	// Nothing answered: refused in the page, nothing sent.
	if err := chromedp.Run(x.ctx, chromedp.Click("#salvar", chromedp.ByQuery, in(f))); err != nil {
		t.Fatal(err)
	}
	x.wait("the page to refuse", f, `document.getElementById("status").textContent.includes("6 perguntas precisam")`)
	var refused struct {
		Invalid []string `json:"invalid"`
		Message string   `json:"message"`
		Focused string   `json:"focused"`
	}
	x.eval(f, `({invalid: [...document.querySelectorAll("[aria-invalid=true]")].map((e) => e.id || e.dataset.pergunta),
		message: document.getElementById("p7-erro").textContent, focused: document.activeElement.id})`, &refused)
	if strings.Join(refused.Invalid, " ") != "p1 p2 3 5 7 p8" || refused.Message != "Resposta obrigatória." || refused.Focused != "p1" {
		t.Errorf("refusal in the page: %+v", refused)
	}
	if n := len(x.received()); n != 0 {
		t.Errorf("host told %d times of a form that was refused in the page", n)
	}
	answers := fmt.Sprintf("/insurer/v1/proposta/%d/questionario/901", numero)
	if got := x.must(tok, http.MethodGet, answers, nil, http.StatusOK); dig(got, "Valor.situacao") != "NAO_RESPONDIDO" {
		t.Fatalf("answers saved by a refused form: %v", got)
	}

	// Answer: typing, clicks, the keyboard on the select (type-ahead).
	err := chromedp.Run(x.ctx,
		chromedp.SendKeys("#p1", "72,5", chromedp.ByQuery, in(f)),
		chromedp.SendKeys("#p2", "1,80", chromedp.ByQuery, in(f)),
		chromedp.Click("#p3-nao", chromedp.ByQuery, in(f)),
		chromedp.Click("#p5-nao", chromedp.ByQuery, in(f)),
		chromedp.SendKeys("#p6", "nenhuma", chromedp.ByQuery, in(f)),
		chromedp.Click("#p7-sim", chromedp.ByQuery, in(f)),
		chromedp.SendKeys("#p8", "MERG", chromedp.ByQuery, in(f)),
	)
	if err != nil {
		t.Fatal(err)
	}
	// A date input's typing order follows the browser's locale; the
	// value is what the page reads.
	var set string
	x.eval(f, `document.getElementById("p9").value = "2025-11-20"`, &set)
	if err := chromedp.Run(x.ctx, chromedp.Click("#salvar", chromedp.ByQuery, in(f))); err != nil {
		t.Fatal(err)
	}
	m := x.message(1)
	if dig(m, "event") != "questionario" || dig(m, "status") != "salvo" || dig(m, "numeroProposta") != float64(numero) || dig(m, "questionarioId") != 901.0 {
		t.Fatalf("host told %v", m)
	}
	x.wait("the page to confirm", f, `document.getElementById("status").textContent === "Respostas salvas."`)

	got := x.must(tok, http.MethodGet, answers, nil, http.StatusOK)
	b, _ := json.Marshal(dig(got, "Valor.respostas"))
	wantSaved := `[{"perguntaId":1,"tipoResposta":"VALOR","valor":72.5},{"perguntaId":2,"tipoResposta":"VALOR","valor":1.8},` +
		`{"perguntaId":3,"tipoResposta":"SIM_NAO","valor":false},{"perguntaId":5,"tipoResposta":"SIM_NAO","valor":false},` +
		`{"perguntaId":6,"tipoResposta":"TEXTO","valor":"nenhuma"},{"perguntaId":7,"tipoResposta":"SIM_NAO","valor":true},` +
		`{"descricaoOpcao":"MERGULHO","perguntaId":8,"tipoResposta":"DOMINIO","valor":2},{"perguntaId":9,"tipoResposta":"DATA","valor":"2025-11-20"}]`
	if dig(got, "Valor.situacao") != "RESPONDIDO" || string(b) != wantSaved {
		t.Errorf("read back %s\n got %s\nwant %s", dig(got, "Valor.situacao"), b, wantSaved)
	}

	// Reopened, the widget shows what was saved.
	f = x.formsWidget(path)
	x.questions(f, 9)
	var filled []any
	x.eval(f, `[document.getElementById("p1").value, document.getElementById("p7-sim").checked, document.getElementById("p3-nao").checked,
		document.getElementById("p8").value, document.getElementById("p9").value, document.getElementById("p4").value]`, &filled)
	if b, _ := json.Marshal(filled); string(b) != `["72,5",true,true,"2","2025-11-20",""]` {
		t.Errorf("reopened with %s", b)
	}
	x.wait("the page to say it was answered", f, `document.getElementById("status").textContent.includes("já foi respondido")`)

	// The insurer's refusal shows in the page and reaches the host: a
	// cancelled proposal's declaration cannot change.
	x.must(tok, http.MethodPatch, "/insurer/v1/proposta/"+strconv.FormatInt(numero, 10), map[string]any{"motivo": "desistência"}, http.StatusOK)
	if err := chromedp.Run(x.ctx, chromedp.Click("#salvar", chromedp.ByQuery, in(f))); err != nil {
		t.Fatal(err)
	}
	x.wait("the insurer's refusal", f, `document.getElementById("status").textContent.includes("não pode mais ser alterado")`)
	if m := x.message(1); dig(m, "status") != "erro" {
		t.Errorf("host told %v", m)
	}
}

// The questionnaire comes before the proposal: a reserved number is enough
// (offer EIS, questionnaire 903).
func TestFormsWidgetReservedNumber(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	tok := demoToken(t, x.s, saleScopes)
	numero := int64(dig(x.must(tok, http.MethodPost, "/insurer/v1/proposals/EIS/next-number", nil, http.StatusCreated), "proposalReservedNumber").(float64))
	f := x.formsWidget(formsPath(903, "Venda", numero, "000", "fff"))
	x.questions(f, 4)
	err := chromedp.Run(x.ctx,
		chromedp.Click("#p1-sim", chromedp.ByQuery, in(f)),
		chromedp.Click("#p2-nao", chromedp.ByQuery, in(f)),
		chromedp.Click("#salvar", chromedp.ByQuery, in(f)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if m := x.message(1); dig(m, "status") != "salvo" || dig(m, "numeroProposta") != float64(numero) {
		t.Fatalf("host told %v", m)
	}
	got := x.must(tok, http.MethodGet, fmt.Sprintf("/insurer/v1/proposta/%d/questionario/903", numero), nil, http.StatusOK)
	if dig(got, "Valor.modeloProposta") != "EIS" || dig(got, "Valor.respostas.0.valor") != true || dig(got, "Valor.respostas.1.valor") != false {
		t.Errorf("read back %v", got)
	}
}

// A URL the widget cannot serve says why, in its live region.
func TestFormsWidgetBadURL(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	tok := demoToken(t, x.s, saleScopes)
	numero := int64(dig(x.must(tok, http.MethodPost, "/insurer/v1/proposals/YZ/next-number", nil, http.StatusCreated), "proposalReservedNumber").(float64))
	tests := []struct {
		name, path, want string
	}{
		{"ErrOtherOffersQuestionnaire", formsPath(903, "Venda", numero, "0b5394", "e8eef5"), "não é o da proposta"},
		{"ErrUnknownNumber", formsPath(901, "Venda", 999999, "0b5394", "e8eef5"), "não encontrada"},
		{"ErrNotASale", formsPath(901, "Endosso", numero, "0b5394", "e8eef5"), "a origem Venda"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := x.with(t)
			f := x.formsWidget(tt.path)
			x.wait("the reason", f, `document.getElementById("status").textContent.includes(`+strconv.Quote(tt.want)+`)`)
			var hidden bool
			x.eval(f, `document.getElementById("form").hidden`, &hidden)
			if !hidden {
				t.Errorf("a form is shown for %s", tt.path)
			}
		})
	}
}
