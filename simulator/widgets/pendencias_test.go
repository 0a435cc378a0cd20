package widgets_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// dpsCPF gets a health-declaration pending 32 minutes into analysis, and
// is implanted after the answer (scenarios/proposta-pendencia-dps.yaml).
// Tests advance 33 minutes: on the real clock each step counts from when
// the previous one ran, a few milliseconds late.
const dpsCPF = "22255588846"

// The pendings widget shows a pending the moment analysis raises it,
// answers it with text and an uploaded file, and the pending is RESPONDIDA
// in the API; the timeline beside it follows, and the proposal moves on.
func TestPendenciasRespondeComArquivo(t *testing.T) {
	t.Parallel()
	f := newFollowUp(t)
	tok := f.token()
	numero := f.sell(demoToken(t, f.s, followUpScopes+" apicontroleacesso"), "YZ", dpsCPF)
	page := f.host(tok,
		followUpFrame{ID: "pendencias", Path: fmt.Sprintf("/widgets/pendencias/?numeroProposta=%d", numero), Property: "access_token"},
		followUpFrame{ID: "timeline", Path: fmt.Sprintf("/widgets/timeline-proposta/?numeroProposta=%d", numero)})
	frames := f.open(page, "pendencias", "timeline")
	fr, tl := frames["pendencias"], frames["timeline"]
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`#vazio`, f.in(fr))); err != nil {
		t.Fatalf("no pending yet: %v", err)
	}

	f.advance("33m")
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`section.pendencia`, f.in(fr))); err != nil {
		t.Fatalf("the raised pending: %v", err)
	}
	open := f.must(tok, http.MethodGet, fmt.Sprintf("/insurer/v1/pendencia?numeroProposta=%d&status=ABERTA", numero), nil, http.StatusOK)
	id := f.num(open, "Valor.0.id")
	f.waitMessage("pendencias", map[string]any{"event": "pendencias", "abertas": []int64{id}})
	f.screenshot("pendencia-aberta")
	if got := f.text(fr, "section.pendencia h2"); !strings.Contains(got, "DPS") {
		t.Errorf("pending heading %q, want its code DPS", got)
	}

	doc := []byte("%PDF-1.4\n% DPS assinada\n")
	path := f.upload("dps-assinada.pdf", doc)
	if err := chromedp.Run(f.ctx,
		chromedp.SendKeys(`section.pendencia textarea`, "Segue a DPS assinada.", f.in(fr)),
		chromedp.SetUploadFiles(`section.pendencia input[type=file]`, []string{path}, f.in(fr)),
		chromedp.Click(`section.pendencia button`, f.in(fr)),
	); err != nil {
		t.Fatalf("answer: %v", err)
	}
	f.waitMessage("pendencias", map[string]any{"event": "pendencia", "status": "respondida", "id": id, "numeroProposta": numero})

	all := f.must(tok, http.MethodGet, fmt.Sprintf("/insurer/v1/pendencia?numeroProposta=%d", numero), nil, http.StatusOK)
	for path, want := range map[string]any{
		"Valor.0.status": "RESPONDIDA", "Valor.0.resposta": "Segue a DPS assinada.",
		"Valor.0.documento.nomeArquivo": "dps-assinada.pdf", "Valor.0.documento.formato": "PDF", "Valor.0.documento.tamanho": float64(len(doc)),
	} {
		if got := f.field(all, path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	if err := chromedp.Run(f.ctx, chromedp.WaitNotPresent(`section.pendencia`, f.in(fr)), chromedp.WaitVisible(`#vazio`, f.in(fr))); err != nil {
		t.Fatalf("the answered pending leaves the list: %v", err)
	}
	f.waitText(tl, "#historico", "Pendência respondida")
	f.screenshot("respondida")

	// The insurer takes the answer an hour later: back to analysis.
	f.advance("1h")
	f.waitText(tl, "#historico li:last-child", "Em análise")
	if got := f.field(f.must(f.token(), http.MethodGet, fmt.Sprintf("/insurer/v1/pendencia?numeroProposta=%d", numero), nil, http.StatusOK), "Valor.0.status"); got != "RESOLVIDA" {
		t.Errorf("pending %v after the insurer's look, want RESOLVIDA", got)
	}
}

// Keyboard only: Tab into the widget, type the answer, Tab to the button
// and press Enter. The insurer's first refusal (a fault naming the field)
// is shown next to the field, which gets the focus back; the second
// answer goes through.
func TestPendenciasTeclado(t *testing.T) {
	t.Parallel()
	f := newFollowUp(t)
	tok := f.token()
	numero := f.sell(demoToken(t, f.s, followUpScopes+" apicontroleacesso"), "YZ", dpsCPF)
	f.advance("33m")
	f.fault(`id: pendencia-resposta-insuficiente
title: The insurer refuses the first answer to a pending, naming the field
applies_to: insurer
faults:
  - match: {method: PUT, path: "/insurer/v1/pendencia/*"}
    times: 1
    respond:
      status: 422
      body: {Valor: null, HouveErrosDuranteProcessamento: true,
        Mensagens: [{Codigo: RESPOSTA_INSUFICIENTE, Campo: resposta, Descricao: "Informe a data em que a DPS foi assinada."}]}
`)
	page := f.host(tok, followUpFrame{ID: "pendencias", Path: fmt.Sprintf("/widgets/pendencias/?numeroProposta=%d", numero)})
	fr := f.open(page, "pendencias")["pendencias"]
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`section.pendencia`, f.in(fr))); err != nil {
		t.Fatalf("the open pending: %v", err)
	}
	id := f.num(f.must(tok, http.MethodGet, fmt.Sprintf("/insurer/v1/pendencia?numeroProposta=%d&status=ABERTA", numero), nil, http.StatusOK), "Valor.0.id")

	if err := chromedp.Run(f.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if !f.focused(fr, "section.pendencia textarea") {
		t.Fatalf("the first Tab does not reach the answer field")
	}
	if err := chromedp.Run(f.ctx, chromedp.KeyEvent("DPS assinada"), chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if !f.focused(fr, "section.pendencia button") {
		t.Fatalf("two Tabs from the answer (past the file field) do not reach the button")
	}
	if err := chromedp.Run(f.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	errSel := fmt.Sprintf("#p%d-resposta-erro", id)
	f.waitText(fr, errSel, "Informe a data em que a DPS foi assinada.")
	f.screenshot("recusa-da-seguradora")
	if !f.focused(fr, `section.pendencia textarea[aria-invalid="true"]`) {
		t.Errorf("the refused field is not marked invalid and focused")
	}

	if err := chromedp.Run(f.ctx, chromedp.KeyEvent(" em 02/01/2026"), chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	f.waitMessage("pendencias", map[string]any{"event": "pendencia", "status": "respondida", "id": id})
	all := f.must(tok, http.MethodGet, fmt.Sprintf("/insurer/v1/pendencia?numeroProposta=%d", numero), nil, http.StatusOK)
	if got := f.field(all, "Valor.0.status"); got != "RESPONDIDA" {
		t.Errorf("pending %v, want RESPONDIDA", got)
	}
	if got := f.field(all, "Valor.0.resposta"); got != "DPS assinada em 02/01/2026" {
		t.Errorf("answer %q, want what was typed", got)
	}
}
