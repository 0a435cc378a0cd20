package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"homologa/simulator/server"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// insTenants is a sandbox on a frozen clock with two copies of the demo
// company, as the harness gives each scenario: A in the sandbox's own
// namespace, B in a namespace of its own (same CNPJ, credentials and
// offers, another company id).
type insTenants struct {
	t      *testing.T
	s      *server.Server
	ns     string            // B's namespace
	tokens map[string]string // "A", "B"
}

const insCPF = "11144477735"

func newInsTenants(t *testing.T) *insTenants { return newInsTenantsWith(t, server.Config{}) }

// newInsTenantsWith is newInsTenants with cfg's other settings.
func newInsTenantsWith(t *testing.T, cfg server.Config) *insTenants {
	cfg.Clock, cfg.ClockStart = "frozen", time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	s := startServer(t, cfg)
	t.Cleanup(func() { s.Close(context.Background()) })
	w := &insTenants{t: t, s: s, tokens: map[string]string{}}
	code, body := tenantCall(t, s, testOperator, "POST", "/sandbox/namespaces", "")
	var ns struct{ Namespace string }
	if err := json.Unmarshal([]byte(body), &ns); err != nil || code != 201 || ns.Namespace == "" {
		t.Fatalf("a namespace for B: %d %s", code, body)
	}
	w.ns = ns.Namespace
	w.renew("A")
	w.renew("B")
	return w
}

// renew takes a new token for company who: the old one may have expired on
// its clock.
func (w *insTenants) renew(who string) {
	w.t.Helper()
	ctx := context.Background()
	if who == "B" {
		ctx = tenant.WithNamespace(ctx, w.ns)
	}
	tok, err := w.s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		w.t.Fatal(err)
	}
	w.tokens[who] = tok.AccessToken
}

// call sends a request as who ("A", "B", or "op" for the operator) and
// answers the status and the JSON body.
func (w *insTenants) call(who, method, path, body string) (int, map[string]any) {
	w.t.Helper()
	tok := testOperator
	if who != "op" {
		tok = w.tokens[who]
	}
	code, text := tenantCall(w.t, w.s, tok, method, path, body)
	var out map[string]any
	json.Unmarshal([]byte(text), &out)
	return code, out
}

func (w *insTenants) must(want int, who, method, path, body string) map[string]any {
	w.t.Helper()
	code, out := w.call(who, method, path, body)
	if code != want {
		w.t.Fatalf("%s %s %s: %d %v, want %d", who, method, path, code, out, want)
	}
	return out
}

// advance moves who's clock and renews its token.
func (w *insTenants) advance(who, by string) {
	w.t.Helper()
	w.must(200, who, "POST", "/sandbox/clock/advance", `{"by":"`+by+`"}`)
	w.renew(who)
}

// companyOf is who's company id.
func (w *insTenants) companyOf(who string) string {
	w.t.Helper()
	p, err := w.s.Auth.Authenticate(context.Background(), w.tokens[who])
	if err != nil {
		w.t.Fatal(err)
	}
	return p.CompanyID
}

// proposal is a funeral proposal (offer EIS) of insCPF, priced on the
// company's date, signed by a document unless signature says otherwise.
func (w *insTenants) proposal(who, cobranca, signature string) string {
	w.t.Helper()
	sim := w.must(200, who, "POST", "/insurer/v1/simulacao?codigoModeloProposta=EIS",
		`{"simulacoes":[{"proponente":{"dataNascimento":"1980-01-01","sexoId":2},"periodicidadeCobrancaId":30}]}`)
	cov := "Valor.simulacoes.0.produtos.0.coberturas.0."
	if signature == "" {
		signature = `{"TIPO":"DOCUMENTO","ID_DOCUMENTO":"GED-1"}`
	}
	if cobranca == "" {
		cobranca = `{"TIPO_COBRANCA":"BOLETO","DIA_VENCIMENTO":10}`
	}
	return fmt.Sprintf(`{"PROPOSTA":{"DADOS_PROPONENTE":{"NOME":"Maria","DT_NASCIMENTO":"1980-01-01","SEXO":"FEMININO","CPF":"%s"},
		"PLANOS":{"PLANO":{"CODIGO":530,"COBERTURAS":{"COBERTURA":{"CODIGO":%s,"VL_CONTRIB":%s,"VL_COBERTURA":%s}}}},
		"DADOS_COBRANCA":%s,"ASSINATURA":%s}}`, insCPF, field(sim, cov+"itemProdutoId"), field(sim, cov+"premio"), field(sim, cov+"capital"), cobranca, signature)
}

// sell registers who's proposal and answers its number.
func (w *insTenants) sell(who string) string {
	w.t.Helper()
	out := w.must(201, who, "POST", "/insurer/v1/proposta?codigoModeloProposta=EIS", w.proposal(who, "", ""))
	return field(out, "Valor.numeroProposta")
}

// implanted sells to who and runs its clock through the default analysis;
// it answers the proposal's number and its enrollment.
func (w *insTenants) implanted(who string) (numero, inscricao string) {
	w.t.Helper()
	numero = w.sell(who)
	w.advance(who, "1h7m")
	list := w.must(200, who, "GET", "/customer/v1/inscricao?numeroProposta="+numero, "")
	if inscricao = field(list, "Valor.0.inscricaoId"); inscricao == "" {
		w.t.Fatalf("%s's proposal %s not implanted: %v", who, numero, list)
	}
	return numero, inscricao
}

func (w *insTenants) status(who, numero string) string {
	w.t.Helper()
	return field(w.must(200, who, "GET", "/insurer/v1/proposta/"+numero, ""), "Valor.status")
}

func (w *insTenants) charges(who, inscricao string) []any {
	w.t.Helper()
	list, _ := w.must(200, who, "GET", "/customer/v1/inscricao/"+inscricao+"/cobrancas", "")["Valor"].([]any)
	return list
}

// readjustments lists the percentages of who's annual readjustments, as
// its events tell them.
func (w *insTenants) readjustments(who string) []string {
	w.t.Helper()
	evs, _ := w.must(200, who, "GET", "/sandbox/events?limit=1000", "")["events"].([]any)
	var out []string
	for _, e := range evs {
		ev, _ := e.(map[string]any)
		if field(ev, "type") == "inscricao.valor_pago_alterado" && field(ev, "data.motivo") == "REAJUSTE_ANUAL" {
			out = append(out, field(ev, "data.percentual"))
		}
	}
	return out
}

// notice is a funeral notice on an enrollment, of an occurrence on date.
func notice(inscricao, date string) string {
	return `{"inscricaoId":` + inscricao + `,"cpfSegurado":"` + insCPF + `","causa":"FUNERAL","dataOcorrencia":"` + date + `",
		"comunicante":{"nome":"João Souza","tipoDocumento":"CPF","documento":"66611144447","relacao":"CONJUGE"}}`
}

// Each company's insurance lives on its own clock: A moves a year on, B
// stays. A's proposal implants on A's analysis, B's waits for B's clock;
// A's enrollment bills every month and readjusts, B's bills nothing new.
// Ages, card expiry and benefits' occurrence dates are judged on each
// company's date.
func TestInsuranceLivesOnItsCompanysClock(t *testing.T) {
	t.Parallel()
	w := newInsTenants(t)
	numA := w.sell("A")
	numB := w.sell("B")
	w.advance("A", "1h7m")
	if st := w.status("A", numA); st != "IMPLANTADA" {
		t.Errorf("A's proposal after A's analysis: %s", st)
	}
	if st := w.status("B", numB); st != "RECEBIDA" {
		t.Errorf("B's proposal after A's analysis: %s, want RECEBIDA", st)
	}
	w.advance("B", "1h7m")
	inscA := field(w.must(200, "A", "GET", "/customer/v1/inscricao?numeroProposta="+numA, ""), "Valor.0.inscricaoId")
	inscB := field(w.must(200, "B", "GET", "/customer/v1/inscricao?numeroProposta="+numB, ""), "Valor.0.inscricaoId")
	laterB := w.sell("B")

	w.advance("A", "365d")
	if n := len(w.charges("A", inscA)); n < 12 {
		t.Errorf("A's enrollment a year on has %d charges, want one a month", n)
	}
	if n := len(w.charges("B", inscB)); n != 1 {
		t.Errorf("B's enrollment after A's year has %d charges, want 1", n)
	}
	if r := w.readjustments("A"); len(r) != 1 {
		t.Errorf("A's readjustments a year on: %v, want one", r)
	}
	if r := w.readjustments("B"); len(r) != 0 {
		t.Errorf("B's readjustments after A's year: %v, want none", r)
	}
	if c := field(w.must(200, "A", "GET", "/customer/v1/inscricao/"+inscA, ""), "Valor.competenciaReajuste"); c != "01/2028" {
		t.Errorf("A's next readjustment: %s, want 01/2028", c)
	}
	if c := field(w.must(200, "B", "GET", "/customer/v1/inscricao/"+inscB, ""), "Valor.competenciaReajuste"); c != "01/2027" {
		t.Errorf("B's next readjustment: %s, want 01/2027", c)
	}
	if st := w.status("B", laterB); st != "RECEBIDA" {
		t.Errorf("B's later proposal after A's year: %s, want RECEBIDA", st)
	}
	checkCompanysDates(t, w, inscA, inscB)
}

// checkCompanysDates checks what is judged on the company's date once A is
// a year ahead of B: the proponent's age, a card's expiry, a benefit's
// occurrence.
func checkCompanysDates(t *testing.T, w *insTenants, inscA, inscB string) {
	sim := `{"simulacoes":[{"proponente":{"dataNascimento":"1986-01-06","sexoId":2},"periodicidadeCobrancaId":30}]}`
	ageA := field(w.must(200, "A", "POST", "/insurer/v1/simulacao?codigoModeloProposta=EIS", sim), "Valor.simulacoes.0.idade")
	ageB := field(w.must(200, "B", "POST", "/insurer/v1/simulacao?codigoModeloProposta=EIS", sim), "Valor.simulacoes.0.idade")
	if ageA != "40" || ageB != "39" {
		t.Errorf("a proponent born 1986-01-06: %s for A (2027-01-05), %s for B (2026-01-05)", ageA, ageB)
	}
	card := `{"cpf":"` + insCPF + `","valor":100,"numero":"4111111111111111","validade":"12/2026"}`
	if code, out := w.call("A", "POST", "/sandbox/cartao/preautorizacao", card); code != 400 || !strings.Contains(fmt.Sprint(out), "vencido") {
		t.Errorf("a card valid through 12/2026 on A's 2027: %d %v, want 400", code, out)
	}
	w.must(201, "B", "POST", "/sandbox/cartao/preautorizacao", card)
	w.must(201, "A", "POST", "/benefits/v1/beneficio", notice(inscA, "2026-06-01"))
	if code, out := w.call("B", "POST", "/benefits/v1/beneficio", notice(inscB, "2026-06-01")); code != 422 || field(out, "Mensagens.0.Codigo") != "OCORRENCIA_FUTURA" {
		t.Errorf("B's notice of 2026-06-01 on B's 2026-01-05: %d %v, want OCORRENCIA_FUTURA", code, out)
	}
}

// The control routes act for the caller's company: each reads in the
// outbox only the codes sent to its customers (the operator, all), and
// signs only with them; a card pre-authorisation is the caller's; index
// values set by a company are its own, the operator's every company's.
func TestInsuranceControlActsForTheCallersCompany(t *testing.T) {
	t.Parallel()
	w := newInsTenants(t)
	codes := map[string]string{}
	for _, who := range []string{"A", "B"} {
		w.must(201, who, "POST", "/access/v1/token/user", `{"cpf":"`+insCPF+`"}`)
		box := w.must(200, who, "GET", "/sandbox/outbox?cpf="+insCPF, "")
		if msgs, _ := box["messages"].([]any); len(msgs) != 1 {
			t.Fatalf("%s's outbox: %v, want its one code", who, box)
		}
		codes[who] = field(box, "messages.0.codigo")
	}
	if msgs, _ := w.must(200, "op", "GET", "/sandbox/outbox?cpf="+insCPF, "")["messages"].([]any); len(msgs) != 2 {
		t.Errorf("the operator's outbox: %d messages, want both companies'", len(msgs))
	}
	signedBy := func(code string) string { return `{"TIPO":"TOKEN","TOKEN":"` + code + `"}` }
	if codes["A"] != codes["B"] {
		if code, out := w.call("A", "POST", "/insurer/v1/proposta?codigoModeloProposta=EIS", w.proposal("A", "", signedBy(codes["B"]))); code != 422 {
			t.Errorf("A signs with B's code: %d %v, want 422", code, out)
		}
	}
	w.must(201, "A", "POST", "/insurer/v1/proposta?codigoModeloProposta=EIS", w.proposal("A", "", signedBy(codes["A"])))

	card := `{"cpf":"` + insCPF + `","valor":100,"numero":"4111111111111111","validade":"12/2030"}`
	preauth := field(w.must(201, "A", "POST", "/sandbox/cartao/preautorizacao", card), "Valor.CodigoPreAutorizacao")
	byCard := `{"TIPO_COBRANCA":"CARTAO","DIA_VENCIMENTO":10,"CARTAO":{"NUM_PRE_AUTORIZACAO":"` + preauth + `"}}`
	if code, out := w.call("B", "POST", "/insurer/v1/proposta?codigoModeloProposta=EIS", w.proposal("B", byCard, "")); code != 422 {
		t.Errorf("B pays with A's pre-authorisation: %d %v, want 422", code, out)
	}
	w.must(201, "A", "POST", "/insurer/v1/proposta?codigoModeloProposta=EIS", w.proposal("A", byCard, ""))
	checkIndexScopes(t, w)
}

// checkIndexScopes: A's value is A's alone; the operator's is every
// company's that has none of its own.
func checkIndexScopes(t *testing.T, w *insTenants) {
	month := func(who, mes string) string {
		list, _ := w.must(200, who, "GET", "/sandbox/indices/IPCA-IBGE", "")["meses"].([]any)
		for _, m := range list {
			if m, _ := m.(map[string]any); field(m, "mes") == mes {
				return field(m, "valor")
			}
		}
		return ""
	}
	w.must(200, "A", "PUT", "/sandbox/indices/IPCA-IBGE", `{"2026-01": 1.25}`)
	if a, b, op := month("A", "2026-01"), month("B", "2026-01"), month("op", "2026-01"); a != "1.25" || b != "" || op != "" {
		t.Errorf("2026-01 after A sets it: A %q, B %q, the sandbox %q", a, b, op)
	}
	w.must(200, "op", "PUT", "/sandbox/indices/IPCA-IBGE", `{"2026-01": 0.75, "2026-02": 0.7}`)
	if a, b := month("A", "2026-01"), month("B", "2026-01"); a != "1.25" || b != "0.75" {
		t.Errorf("2026-01 after the operator sets it: A %q (its own), B %q", a, b)
	}
	if a, b := month("A", "2026-02"), month("B", "2026-02"); a != "0.7" || b != "0.7" {
		t.Errorf("2026-02 the operator set: A %q, B %q", a, b)
	}
}

// A company's index values readjust its enrollments only: A's table of
// 0.5 % a month gives A 6.1678 %, B reads the sandbox's 0.35 % a month.
func TestInsuranceReadjustsByItsCompanysIndex(t *testing.T) {
	t.Parallel()
	w := newInsTenants(t)
	w.implanted("A")
	w.implanted("B")
	var months []string
	for m := 1; m <= 12; m++ {
		months = append(months, fmt.Sprintf(`"2026-%02d": 0.5`, m))
	}
	w.must(200, "A", "PUT", "/sandbox/indices/IPCA-IBGE", "{"+strings.Join(months, ",")+"}")
	w.advance("A", "365d")
	w.advance("B", "365d")
	if r := w.readjustments("A"); len(r) != 1 || r[0] != "6.1678" {
		t.Errorf("A's readjustment: %v, want 6.1678", r)
	}
	want := strconv.FormatFloat(math.Round((math.Pow(1.0035, 12)-1)*1e6)/1e4, 'f', -1, 64)
	if r := w.readjustments("B"); len(r) != 1 || r[0] != want {
		t.Errorf("B's readjustment: %v, want %s (the sandbox's table)", r, want)
	}
}

// A token of one company cannot read another's proposal, enrollment,
// charge or benefit: each is answered as missing.
func TestInsuranceResourcesAreTheirCompanys(t *testing.T) {
	t.Parallel()
	w := newInsTenants(t)
	numB, inscB := w.implanted("B")
	ben := field(w.must(201, "B", "POST", "/benefits/v1/beneficio", notice(inscB, "2026-01-05")), "Valor.beneficioId")
	cob := fmt.Sprint(w.charges("B", inscB)[0].(map[string]any)["cobrancaId"])
	for _, path := range []string{"/insurer/v1/proposta/" + numB, "/insurer/v1/proposta/" + numB + "/timeline", "/customer/v1/inscricao/" + inscB,
		"/customer/v1/inscricao/" + inscB + "/cobrancas", "/customer/v1/cobranca/" + cob, "/benefits/v1/beneficio/" + ben} {
		if code, out := w.call("A", "GET", path, ""); code != 404 {
			t.Errorf("A reads B's %s: %d %v, want 404", path, code, out)
		}
		w.must(200, "B", "GET", path, "")
	}
	if code, out := w.call("A", "PATCH", "/insurer/v1/proposta/"+numB, `{"motivo":"teste"}`); code != 404 {
		t.Errorf("A cancels B's proposal: %d %v, want 404", code, out)
	}
}

// A company's reset empties its insurance data, offer grants aside, and
// leaves another company's intact.
func TestInsuranceResetEmptiesOnlyTheCallersCompany(t *testing.T) {
	t.Parallel()
	w := newInsTenants(t)
	a, b := w.companyOf("A"), w.companyOf("B")
	code, body := tenantCall(t, w.s, testOperator, "PUT", "/portal/companies/"+a+"/offers/EIS", "")
	if code >= 300 {
		t.Fatalf("grant EIS to A: %d %s", code, body)
	}
	for _, who := range []string{"A", "B"} {
		w.must(201, who, "POST", "/access/v1/token/user", `{"cpf":"`+insCPF+`"}`)
		w.must(201, who, "POST", "/sandbox/cartao/preautorizacao", `{"cpf":"`+insCPF+`","valor":100,"numero":"4111111111111111"}`)
		w.call(who, "POST", "/sandbox/cartao/preautorizacao", `{"cpf":"`+insCPF+`","valor":100,"numero":"4000000000000119"}`)
		w.must(201, who, "POST", "/insurer/v1/proposals/EIS/next-number", "")
		w.must(200, who, "PUT", "/sandbox/indices/IPCA-IBGE", `{"2026-01": 1}`)
		_, insc := w.implanted(who)
		w.advance(who, "38d")
		w.must(201, who, "POST", "/benefits/v1/beneficio", notice(insc, "2026-02-01"))
	}
	before := insuranceRows(t, w.s.DB, a)
	for _, table := range []string{"propostas", "inscricoes", "cobrancas", "comissoes", "beneficios", "outbox_messages", "card_preauths", "card_retries", "indices"} {
		if before[table] == 0 {
			t.Errorf("A has no %s before its reset: the test made none", table)
		}
	}
	rowsB := insuranceRows(t, w.s.DB, b)
	w.must(200, "A", "POST", "/sandbox/reset", "")
	for table, n := range insuranceRows(t, w.s.DB, a) {
		if n != 0 {
			t.Errorf("A keeps %d rows of %s after its reset", n, table)
		}
	}
	if after := insuranceRows(t, w.s.DB, b); fmt.Sprint(after) != fmt.Sprint(rowsB) || after["propostas"] == 0 || after["beneficios"] == 0 {
		t.Errorf("B's rows after A's reset: %v, before %v", after, rowsB)
	}
	if n := count(t, w.s.DB, `SELECT COUNT(*) FROM insurance_grants WHERE company_id = ?`, a); n != 1 {
		t.Errorf("A's offer grants after its reset: %d, want 1", n)
	}
	w.renew("A")
	w.sell("A")
}

// insuranceRows counts a company's rows in each insurance table, its offer
// grants aside.
func insuranceRows(t *testing.T, db *store.DB, companyID string) map[string]int {
	t.Helper()
	ofProposals := ` WHERE numero IN (SELECT numero FROM propostas WHERE company_id = ?)`
	ofBenefits := ` WHERE beneficio_id IN (SELECT id FROM beneficios WHERE company_id = ?)`
	out := map[string]int{
		"proposta_timeline":    count(t, db, `SELECT COUNT(*) FROM proposta_timeline`+ofProposals, companyID),
		"pendencias":           count(t, db, `SELECT COUNT(*) FROM pendencias`+ofProposals, companyID),
		"beneficio_pendencias": count(t, db, `SELECT COUNT(*) FROM beneficio_pendencias`+ofBenefits, companyID),
		"beneficio_timeline":   count(t, db, `SELECT COUNT(*) FROM beneficio_timeline`+ofBenefits, companyID),
	}
	for _, table := range []string{"propostas", "proposal_numbers", "questionario_respostas", "signature_tokens", "outbox_messages", "card_preauths",
		"card_retries", "inscricoes", "cobrancas", "comissoes", "comissao_lotes", "indices", "beneficios"} {
		out[table] = count(t, db, `SELECT COUNT(*) FROM `+table+` WHERE company_id = ?`, companyID)
	}
	return out
}

func count(t *testing.T, db *store.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Read(context.Background(), func(tx *store.Tx) error { return tx.QueryRowContext(context.Background(), q, args...).Scan(&n) }); err != nil {
		t.Fatal(err)
	}
	return n
}
