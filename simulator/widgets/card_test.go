package widgets_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"homologa/simulator/server"
	"homologa/simulator/store"
)

// cardPath is the credit-card widget's URL as a partner builds it (the
// evidenced shape, repeated chave/valor pairs).
func cardPath(valorCompra string) string {
	q := url.Values{"cnpj": {server.DemoCNPJ}, "acao": {"PreAutorizacao"}, "valorCompra": {valorCompra}}
	return "/widgets/cartao-credito/?" + q.Encode() + "&chave=cpf&valor=" + saleCPF + "&chave=ModeloProposta&valor=YZ"
}

// cardWidget opens the card widget framed by a partner page that posts it
// a token of the evidenced scope (cartaocredito) and waits until it can
// pay.
func (x *sale) cardWidget() *cdp.Node {
	x.t.Helper()
	tok := demoToken(x.t, x.s, "cartaocredito")
	f := x.open(x.partnerPage(cardPath("100.00"), "Auth", tok))
	x.wait("the card widget to get its token", f, `!document.getElementById("pagar").disabled`)
	return f
}

// pay types into the (empty) card form and presses the button.
func (x *sale) pay(f *cdp.Node, numero, validade, cvv, titular string) {
	x.t.Helper()
	var acts []chromedp.Action
	for _, kv := range [][2]string{{"#numero", numero}, {"#validade", validade}, {"#cvv", cvv}, {"#titular", titular}} {
		if kv[1] != "" {
			acts = append(acts, chromedp.SendKeys(kv[0], kv[1], chromedp.ByQuery, in(f)))
		}
	}
	acts = append(acts, chromedp.Click("#pagar", chromedp.ByQuery, in(f)))
	if err := chromedp.Run(x.ctx, acts...); err != nil {
		x.t.Fatalf("pay with %s: %v", numero, err)
	}
}

var preauthCode = regexp.MustCompile(`^PA[0-9A-F]{12}$`)

// noCardNumber fails when any message the host got carries the number.
func (x *sale) noCardNumber(numero string) {
	x.t.Helper()
	digits := strings.ReplaceAll(numero, " ", "")
	for i, m := range x.received() {
		if strings.Contains(strings.NewReplacer(" ", "", "-", "", ".", "").Replace(m), digits) {
			x.t.Errorf("message %d to the host carries the card number: %s", i+1, m)
		}
	}
}

func TestCardWidgetTestCards(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	tests := []struct {
		name     string
		numero   string
		bandeira string
		reason   string // the refusal shown; "" approves
	}{
		{"OKVisa", "4111111111111111", "VISA", ""},
		{"OKMastercardTypedWithSpaces", "5555 5555 5555 4444", "MASTERCARD", ""},
		{"ErrDeclined", "4000000000000002", "", "CARTAO_RECUSADO"},
		{"ErrInsufficientFunds", "4000000000009995", "", "SALDO_INSUFICIENTE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := x.with(t)
			f := x.cardWidget()
			x.pay(f, tt.numero, "12/30", "123", "MARIA SOUZA")
			m := x.message(1)
			if tt.reason == "" {
				code, _ := dig(m, "Valor.CodigoPreAutorizacao").(string)
				if !preauthCode.MatchString(code) || dig(m, "HouveErrosDuranteProcessamento") != false ||
					dig(m, "Valor.Bandeira") != tt.bandeira || dig(m, "Valor.Valor") != 100.0 {
					t.Fatalf("approval posted to the host: %v", m)
				}
				x.wait("the approval shown", f, `document.getElementById("status").textContent.includes(`+strconv.Quote(code)+`)`)
				var left string
				x.eval(f, `document.getElementById("numero").value + document.getElementById("cvv").value`, &left)
				if left != "" {
					t.Errorf("number and CVV stay in the form after approval: %q", left)
				}
			} else {
				if dig(m, "HouveErrosDuranteProcessamento") != true || dig(m, "Valor") != nil ||
					dig(m, "Mensagens.0.Codigo") != "PRE_AUTORIZACAO_NEGADA" || !strings.Contains(dig(m, "Mensagens.0.Descricao").(string), tt.reason) {
					t.Fatalf("refusal posted to the host: %v", m)
				}
				x.wait("the refusal's reason shown", f, `document.getElementById("status").textContent.includes(`+strconv.Quote(tt.reason)+`)`)
				if st := x.text(f, "#status"); !strings.HasPrefix(st, "Pagamento recusado") {
					t.Errorf("status %q", st)
				}
			}
			if n := len(x.received()); n != 1 {
				t.Errorf("host got %d messages, want 1", n)
			}
			x.noCardNumber(tt.numero)
		})
	}
}

// The retry card refuses with a retryable code, keeps what was typed, and
// approves the next attempt: the customer presses the button again.
func TestCardWidgetRetryCard(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	f := x.cardWidget()
	x.pay(f, "4000000000000119", "12/30", "123", "MARIA SOUZA")
	first := x.message(1)
	if dig(first, "Mensagens.0.Codigo") != "PRE_AUTORIZACAO_TENTE_NOVAMENTE" || dig(first, "HouveErrosDuranteProcessamento") != true {
		t.Fatalf("first attempt posted %v", first)
	}
	x.wait("the retry advice", f, `document.getElementById("status").textContent.includes("tente de novo")`)
	if b := x.text(f, "#pagar"); b != "Tentar novamente" {
		t.Errorf("button says %q after a retryable refusal", b)
	}
	var kept string
	x.eval(f, `document.getElementById("numero").value`, &kept)
	if kept != "4000000000000119" {
		t.Errorf("the number was not kept for the retry: %q", kept)
	}
	if err := chromedp.Run(x.ctx, chromedp.Click("#pagar", chromedp.ByQuery, in(f))); err != nil {
		t.Fatal(err)
	}
	second := x.message(2)
	if code, _ := dig(second, "Valor.CodigoPreAutorizacao").(string); !preauthCode.MatchString(code) || dig(second, "Valor.Final") != "0119" {
		t.Fatalf("second attempt posted %v", second)
	}
	x.noCardNumber("4000000000000119")
}

// The code the host gets is what a proposal carries as
// CARTAO.NUM_PRE_AUTORIZACAO; the sandbox keeps only the last four digits
// of the card, anywhere.
func TestCardWidgetApprovalPaysAProposal(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	f := x.cardWidget()
	x.pay(f, "4111111111111111", "12/30", "123", "MARIA SOUZA")
	code, _ := dig(x.message(1), "Valor.CodigoPreAutorizacao").(string)
	if !preauthCode.MatchString(code) {
		t.Fatalf("no code: %v", x.received())
	}

	tok := demoToken(t, x.s, saleScopes)
	numero := x.propose(tok, map[string]any{"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10,
		"CARTAO": map[string]any{"NUM_PRE_AUTORIZACAO": code, "BANDEIRA": "VISA"}})
	p := x.must(tok, http.MethodGet, "/insurer/v1/proposta/"+strconv.FormatInt(numero, 10), nil, http.StatusOK)
	if dig(p, "Valor.formaPagamento") != "CARTAO" {
		t.Errorf("proposal %d: %v", numero, p)
	}

	if where := x.storedAnywhere("4111111111111111"); len(where) > 0 {
		t.Errorf("the card number is stored in %v", where)
	}
	var final string
	var used int64
	err := x.s.DB.Read(x.ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(x.ctx, `SELECT final, used_by FROM card_preauths WHERE code = ?`, code).Scan(&final, &used)
	})
	if err != nil || final != "1111" || used != numero {
		t.Errorf("card_preauths row of %s: final %q used_by %d (%v), want 1111 and %d", code, final, used, err, numero)
	}
	_, log := x.call("", http.MethodGet, "/sandbox/interactions", nil)
	if b, _ := json.Marshal(log); strings.Contains(string(b), "4111111111111111") {
		t.Errorf("the interaction log holds the card number")
	}
}

// Client-side checks refuse before anything is sent, with the message on
// the field (aria-invalid, aria-describedby) and focus on the first one
// in error.
func TestCardWidgetClientChecks(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	tests := []struct {
		name, numero, validade, cvv, titular string
		field, want                          string
	}{
		{"ErrEmpty", "", "", "", "", "numero", "Informe o número"},
		{"ErrLuhn", "4111111111111112", "12/30", "123", "MARIA", "numero", "confira os dígitos"},
		{"ErrShort", "411111", "12/30", "123", "MARIA", "numero", "13 a 19"},
		{"ErrExpired", "4111111111111111", "01/20", "123", "MARIA", "validade", "vencido"},
		{"ErrMonth", "4111111111111111", "13/30", "123", "MARIA", "validade", "MM/AA"},
		{"ErrCVVShort", "4111111111111111", "12/30", "12", "MARIA", "cvv", "3 ou 4"},
		{"ErrCVVLetters", "4111111111111111", "12/30", "12a", "MARIA", "cvv", "3 ou 4"},
		{"ErrHolder", "4111111111111111", "12/30", "123", "", "titular", "nome impresso"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := x.with(t)
			f := x.cardWidget()
			x.pay(f, tt.numero, tt.validade, tt.cvv, tt.titular)
			x.wait("the field's message", f, `document.getElementById("`+tt.field+`-erro").textContent.includes(`+strconv.Quote(tt.want)+`)`)
			var state struct {
				Invalid   string `json:"invalid"`
				Described string `json:"described"`
				Focused   string `json:"focused"`
				Status    string `json:"status"`
			}
			x.eval(f, `({invalid: document.getElementById("`+tt.field+`").getAttribute("aria-invalid"),
				described: document.getElementById("`+tt.field+`").getAttribute("aria-describedby"),
				focused: document.activeElement.id, status: document.getElementById("status").textContent})`, &state)
			if state.Invalid != "true" || state.Described != tt.field+"-erro" || state.Focused != tt.field || !strings.HasPrefix(state.Status, "Corrija") {
				t.Errorf("%+v", state)
			}
			if n := len(x.received()); n != 0 {
				t.Errorf("host got %d messages for a form that never left the page", n)
			}
		})
	}
	if where := x.storedAnywhere("4111111111111111"); len(where) > 0 {
		t.Errorf("the card number is stored in %v", where)
	}
	var n int
	x.s.DB.Read(x.ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(x.ctx, `SELECT COUNT(*) FROM card_preauths`).Scan(&n)
	})
	if n != 0 {
		t.Errorf("%d pre-authorisations for forms refused in the page", n)
	}
}

// A customer without a mouse: Tab from the partner's page into the
// widget, type each field, Enter to pay.
func TestCardWidgetKeyboardOnly(t *testing.T) {
	t.Parallel()
	x := newSale(t)
	f := x.cardWidget()
	keys := func(ks ...string) {
		t.Helper()
		var acts []chromedp.Action
		for _, k := range ks {
			acts = append(acts, chromedp.KeyEvent(k))
		}
		if err := chromedp.Run(x.ctx, acts...); err != nil {
			t.Fatal(err)
		}
	}
	keys(kb.Tab)
	x.wait("focus on the card number", f, `document.activeElement && document.activeElement.id === "numero"`)
	keys("4111111111111111", kb.Tab, "12/30", kb.Tab, "123", kb.Tab, "MARIA SOUZA")
	var focused string
	x.eval(f, `document.activeElement.id`, &focused)
	if focused != "titular" {
		t.Fatalf("after three Tabs focus is on %q, want titular", focused)
	}
	keys(kb.Enter)
	m := x.message(1)
	if code, _ := dig(m, "Valor.CodigoPreAutorizacao").(string); !preauthCode.MatchString(code) {
		t.Fatalf("keyboard payment posted %v", m)
	}
	x.noCardNumber("4111111111111111")
}
