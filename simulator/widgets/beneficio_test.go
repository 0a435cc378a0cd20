package widgets_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"homologa/schemas"
	"homologa/simulator/widgets"
)

// Maria's enrollment (offer YZ) insures death by any cause; 529.982.247-25
// is a communicant no scenario knows (default regulation), 666.111.444-47
// gets a documents pending (scenarios/beneficio-pendencia-documentos.yaml).
const (
	seguradaCPF       = "11144477735"
	comunicanteCPF    = "52998224725"
	comunicantePedido = "66611144447"
)

// The benefit notice widget shows the enrollment's coverages, refuses an
// incomplete notice before sending it and an invalid one with the
// insurer's message next to the field, and gives a valid notice, which
// the API then knows.
func TestAvisoBeneficio(t *testing.T) {
	t.Parallel()
	f := newFollowUp(t)
	numero, insc, tok := f.implant(seguradaCPF)
	start, _ := f.field(f.must(tok, http.MethodGet, fmt.Sprintf("/insurer/v1/inscricao/%d", insc), nil, http.StatusOK), "Valor.dataInicioVigencia").(string)
	day, err := time.Parse(time.DateOnly, start)
	if err != nil {
		t.Fatalf("dataInicioVigencia %q: %v", start, err)
	}

	page := f.host(tok, followUpFrame{ID: "aviso", Path: fmt.Sprintf("/widgets/aviso-beneficio/?inscricao=%d", insc), Property: "Token"})
	fr := f.open(page, "aviso")["aviso"]
	if err := chromedp.Run(f.ctx,
		chromedp.WaitVisible(`#aviso`, f.in(fr)),
		chromedp.WaitReady(`optgroup[label="Cobertas por esta inscrição"] option[value="MORTE"]`, f.in(fr)),
	); err != nil {
		t.Fatalf("the form with the covered causes: %v", err)
	}
	var cov string
	if err := chromedp.Run(f.ctx, chromedp.TextContent(`#itemProdutoId option[value="1001"]`, &cov, f.in(fr))); err != nil || !strings.Contains(cov, "Morte por qualquer causa") {
		t.Errorf("coverage 1001 reads %q (%v), want its commercial name", cov, err)
	}
	var cpf string
	if err := chromedp.Run(f.ctx, chromedp.Value(`#cpfSegurado`, &cpf, f.in(fr))); err != nil || cpf != "111.444.777-35" {
		t.Errorf("insured's CPF prefilled as %q (%v)", cpf, err)
	}

	// Nothing filled in: the widget says what is missing, sends nothing.
	if err := chromedp.Run(f.ctx, chromedp.Click(`#aviso button[type=submit]`, f.in(fr))); err != nil {
		t.Fatal(err)
	}
	f.waitText(fr, "#causa-erro", "Preencha este campo.")
	if !f.focused(fr, "#causa") {
		t.Errorf("the first missing field is not focused")
	}

	// A notice of a death the day after tomorrow: the insurer refuses it,
	// and says so next to the date.
	certidao := f.upload("certidao.pdf", []byte("%PDF-1.4\n% certidao\n"))
	if err := chromedp.Run(f.ctx,
		chromedp.SetValue(`#causa`, "MORTE", f.in(fr)),
		chromedp.SetValue(`#dataOcorrencia`, day.AddDate(0, 0, 2).Format(time.DateOnly), f.in(fr)),
		chromedp.SendKeys(`#descricaoOcorrencia`, "Infarto em casa", f.in(fr)),
		chromedp.SendKeys(`#comunicante-nome`, "Clara Alves", f.in(fr)),
		chromedp.SetValue(`#comunicante-relacao`, "CONJUGE", f.in(fr)),
		chromedp.SendKeys(`#comunicante-documento`, comunicanteCPF, f.in(fr)),
		chromedp.SetUploadFiles(`#documentos`, []string{certidao}, f.in(fr)),
		chromedp.Click(`#aviso button[type=submit]`, f.in(fr)),
	); err != nil {
		t.Fatalf("fill in the notice: %v", err)
	}
	f.waitText(fr, "#dataOcorrencia-erro", "posterior a hoje")
	f.screenshot("data-futura")
	if !f.focused(fr, `#dataOcorrencia[aria-invalid="true"]`) {
		t.Errorf("the refused date is not marked invalid and focused")
	}
	if got := f.text(fr, "#causa-erro"); got != "" {
		t.Errorf("the fixed field still says %q", got)
	}
	f.waitMessage("aviso", map[string]any{"event": "erro", "widget": "aviso-beneficio", "status": 422})
	list := f.must(tok, http.MethodGet, fmt.Sprintf("/benefits/v1/beneficio?inscricaoId=%d", insc), nil, http.StatusOK)
	if n := len(list["Valor"].([]any)); n != 0 {
		t.Fatalf("a refused notice created %d benefit(s)", n)
	}

	if err := chromedp.Run(f.ctx,
		chromedp.SetValue(`#dataOcorrencia`, start, f.in(fr)),
		chromedp.Click(`#aviso button[type=submit]`, f.in(fr)),
	); err != nil {
		t.Fatal(err)
	}
	msg := f.waitMessage("aviso", map[string]any{"event": "beneficio", "status": "avisado", "inscricaoId": insc, "numeroProposta": numero})
	id := f.num(msg, "beneficioId")
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`#resultado`, f.in(fr))); err != nil {
		t.Fatal(err)
	}
	f.screenshot("avisado")
	b := f.must(tok, http.MethodGet, fmt.Sprintf("/benefits/v1/beneficio/%d", id), nil, http.StatusOK)
	for path, want := range map[string]any{
		"Valor.status": "AVISADO", "Valor.causa": "MORTE", "Valor.inscricaoId": float64(insc), "Valor.dataOcorrencia": start,
		"Valor.descricaoOcorrencia": "Infarto em casa", "Valor.comunicante.nome": "Clara Alves", "Valor.comunicante.documento": comunicanteCPF,
		"Valor.comunicante.relacao": "CONJUGE", "Valor.documentos.0.tipo": "CERTIDAO_OBITO", "Valor.documentos.0.nomeArquivo": "certidao.pdf",
		"Valor.protocolo": msg["protocolo"],
	} {
		if got := f.field(b, path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	if got := f.text(fr, "#resultado-protocolo"); got != msg["protocolo"] {
		t.Errorf("the widget shows protocol %q, the host got %v", got, msg["protocolo"])
	}
}

// The benefit timeline shows the notice and follows regulation live as the
// clock moves it to payment; with a fresh token it reloads to the API's
// history.
func TestTimelineBeneficioLive(t *testing.T) {
	t.Parallel()
	f := newFollowUp(t)
	_, insc, tok := f.implant(seguradaCPF)
	id := f.notice(tok, insc, seguradaCPF, comunicanteCPF)

	page := f.host(tok, followUpFrame{ID: "timeline", Path: fmt.Sprintf("/widgets/timeline-beneficio/?beneficio=%d", id)})
	fr := f.open(page, "timeline")["timeline"]
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`li[data-status="AVISADO"]`, f.in(fr))); err != nil {
		t.Fatalf("history: %v", err)
	}
	f.waitMessage("timeline", map[string]any{"event": "timeline", "beneficioId": id, "status": "AVISADO", "registros": 1})

	for _, step := range []struct{ by, status string }{{"1h", "EM_REGULACAO"}, {"2d", "APROVADO"}, {"1d", "PAGO"}} {
		f.advance(step.by)
		if err := chromedp.Run(f.ctx, chromedp.WaitVisible(fmt.Sprintf(`li[data-status=%q]`, step.status), f.in(fr))); err != nil {
			t.Fatalf("live %s: %v", step.status, err)
		}
		f.waitMessage("timeline", map[string]any{"event": "timeline", "beneficioId": id, "status": step.status})
	}
	f.screenshot("pago")
	if got := f.text(fr, "#atual"); got != "Pago" {
		t.Errorf("current status %q, want Pago", got)
	}
	var loads int
	if err := chromedp.Run(f.ctx, chromedp.Evaluate(`window.loads.timeline`, &loads)); err != nil || loads != 1 {
		t.Errorf("the widget loaded %d times (%v), want once", loads, err)
	}

	tok = f.postToken()
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`#status.ok`, f.in(fr))); err != nil {
		t.Fatalf("reload with a new token: %v", err)
	}
	api := f.must(tok, http.MethodGet, fmt.Sprintf("/benefits/v1/beneficio/%d/timeline", id), nil, http.StatusOK)
	var want []string
	for _, e := range api["Valor"].([]any) {
		want = append(want, e.(map[string]any)["status"].(string))
	}
	if got := f.statuses(fr, "#historico li"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("widget shows %v, the API says %v", got, want)
	}
}

// The benefit pending widget follows the benefit into regulation, lists
// the pending of documents once the host renews its token, answers it with
// a text and one file per document asked for, and the benefit moves on.
func TestPendenciaBeneficio(t *testing.T) {
	t.Parallel()
	f := newFollowUp(t)
	_, insc, tok := f.implant(seguradaCPF)
	id := f.notice(tok, insc, seguradaCPF, comunicantePedido)

	page := f.host(tok,
		followUpFrame{ID: "pendencia", Path: fmt.Sprintf("/widgets/pendencia-beneficio/?beneficio=%d", id)},
		followUpFrame{ID: "timeline", Path: fmt.Sprintf("/widgets/timeline-beneficio/?beneficio=%d", id)})
	frames := f.open(page, "pendencia", "timeline")
	fr, tl := frames["pendencia"], frames["timeline"]
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`#vazio`, f.in(fr))); err != nil {
		t.Fatalf("no pending yet: %v", err)
	}
	f.waitText(fr, "#atual", "Avisado")

	f.advance("1h")
	f.waitText(fr, "#atual", "Em regulação")
	f.advance("2h")
	f.waitText(fr, "#atual", "Pendente")
	// The host posts a new token, as it does when its token expires.
	tok = f.postToken()
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`section.pendencia`, f.in(fr))); err != nil {
		t.Fatalf("the raised pending: %v", err)
	}
	open := f.must(tok, http.MethodGet, fmt.Sprintf("/benefits/v1/beneficio/%d/pendencias?status=ABERTA", id), nil, http.StatusOK)
	pid := f.num(open, "Valor.0.id")
	f.screenshot("pendencia-aberta")
	if got := f.text(fr, "section.pendencia fieldset"); !strings.Contains(got, "Certidão de óbito") || !strings.Contains(got, "Documento de identificação") {
		t.Errorf("the pending asks for %q, want a field per document asked for", got)
	}

	certidao := f.upload("certidao.pdf", []byte("%PDF-1.4\n% certidao de obito\n"))
	rg := f.upload("rg.png", []byte("\x89PNG\r\n\x1a\nrg"))
	if err := chromedp.Run(f.ctx,
		chromedp.SendKeys(`section.pendencia textarea`, "Seguem a certidão e o documento.", f.in(fr)),
		chromedp.SetUploadFiles(`input[data-tipo="CERTIDAO_OBITO"]`, []string{certidao}, f.in(fr)),
		chromedp.SetUploadFiles(`input[data-tipo="DOCUMENTO_IDENTIFICACAO"]`, []string{rg}, f.in(fr)),
		chromedp.Click(`section.pendencia button`, f.in(fr)),
	); err != nil {
		t.Fatalf("answer: %v", err)
	}
	f.waitMessage("pendencia", map[string]any{"event": "pendencia", "status": "respondida", "id": pid, "beneficioId": id})
	all := f.must(tok, http.MethodGet, fmt.Sprintf("/benefits/v1/beneficio/%d/pendencias", id), nil, http.StatusOK)
	for path, want := range map[string]any{
		"Valor.0.status": "RESPONDIDA", "Valor.0.resposta": "Seguem a certidão e o documento.",
		"Valor.0.documentos.0.tipo": "CERTIDAO_OBITO", "Valor.0.documentos.0.nomeArquivo": "certidao.pdf", "Valor.0.documentos.0.formato": "PDF",
		"Valor.0.documentos.1.tipo": "DOCUMENTO_IDENTIFICACAO", "Valor.0.documentos.1.nomeArquivo": "rg.png", "Valor.0.documentos.1.tamanho": float64(10),
	} {
		if got := f.field(all, path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	if err := chromedp.Run(f.ctx, chromedp.WaitNotPresent(`section.pendencia`, f.in(fr))); err != nil {
		t.Fatal(err)
	}
	f.waitText(tl, "#historico", "Pendência respondida")

	// Regulation takes the answer an hour later and goes on.
	f.advance("1h")
	f.waitText(fr, "#atual", "Em regulação")
	f.waitMessage("pendencia", map[string]any{"event": "beneficio", "beneficioId": id, "status": "EM_REGULACAO"})
	if err := chromedp.Run(f.ctx, chromedp.WaitVisible(`li[data-status="EM_REGULACAO"]:last-child`, f.in(tl))); err != nil {
		t.Fatal(err)
	}
	b := f.must(f.token(), http.MethodGet, fmt.Sprintf("/benefits/v1/beneficio/%d", id), nil, http.StatusOK)
	if got := f.field(b, "Valor.status"); got != "EM_REGULACAO" {
		t.Errorf("benefit %v after the answer was taken, want EM_REGULACAO", got)
	}
	if got := f.field(b, "Valor.pendencias.0.status"); got != "RESOLVIDA" {
		t.Errorf("pending %v, want RESOLVIDA", got)
	}
}

// The notice widget offers exactly the causes the benefits API takes.
func TestAvisoBeneficioCausas(t *testing.T) {
	t.Parallel()
	js, err := fs.ReadFile(widgets.Files, "aviso-beneficio/app.js")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range regexp.MustCompile(`codigo: "([A-Z_]+)"`).FindAllStringSubmatch(string(js), -1) {
		got = append(got, m[1])
	}
	raw, err := fs.ReadFile(schemas.FS, "insurance/beneficio.common.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Definitions struct {
			Causa struct {
				Enum []string `json:"enum"`
			} `json:"causa"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	want := doc.Definitions.Causa.Enum
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the widget offers %v, the API takes %v", got, want)
	}
}
