package catalog

import (
	"encoding/json"
	"homologa/simulator/money"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// The fixture is a small catalogue whose rates make premiums easy to
// compute by hand: taxaPor1000 0.5 (9001), 0.1 (9002), and a fixed 5,000
// funeral at 1 + custoFixo 2 (9003).
const fixtureOffer = `
  - id: "TST"
    nome: "Teste"
    descricaoModeloProposta: "Oferta de teste"
    dataUltimaAlteracao: "2025-01-01T00:00:00"
    namespace: "teste"
    formasPagamento: [{ id: 1, descricao: "BOLETO" }]
    diasVencimento: [10]
    periodicidades:
      - { id: 30, descricao: "MENSAL" }
      - { id: 90, descricao: "TRIMESTRAL" }
      - { id: 360, descricao: "ANUAL" }
    ticketMinimo: 20
    politicaValidacao: "PADRAO"
    canalComercializacao: { id: 4, descricao: "PARCEIROS DIGITAIS" }
    grupo: { id: 1, descricao: "VIDA INDIVIDUAL" }
    produtos:
      - id: 900
        descricao: "VIDA TESTE"
        descricaoComercial: "Vida Teste"
        dataUltimaAlteracao: "2025-01-01T00:00:00"
        tipoProponente: { id: 1, descricao: "TITULAR" }
        idadeMinima: 18
        idadeMaxima: 65
        idadeExclusao: 70
        indicarBeneficiario: true
        exigeDPS: true
        prazoCerto: [10]
        profissoesRecusadas: ["2153-05"]
        ufsRecusadas: ["RR"]
        coberturas:
          - id: 24
            itemProdutoId: 9001
            descricao: "MORTE"
            descricaoComercial: "Morte"
            tipo: { id: 3, descricao: "CAPITAL AJUSTÁVEL" }
            causas: [{ id: 1, descricao: "MORTE POR QUALQUER CAUSA" }]
            obrigatoria: true
            coberturaPrincipal: true
            idadeEntrada: 18
            idadeSaida: 65
            valorMinimoCapitalContratacao: 10000
            valorLimiteCapitalReferencia: 1000000
            capitalFixo: false
            valorFixo: 0
            numeroProcessoSusep: "15414.000001/2025-01"
            taxaPor1000: 0.5
            custoFixo: 0
          - id: 31
            itemProdutoId: 9002
            descricao: "IPTA"
            descricaoComercial: "Invalidez"
            tipo: { id: 3, descricao: "CAPITAL AJUSTÁVEL" }
            causas: [{ id: 3, descricao: "INVALIDEZ POR ACIDENTE" }]
            obrigatoria: false
            coberturaPrincipal: false
            idadeEntrada: 18
            idadeSaida: 50
            valorMinimoCapitalContratacao: 10000
            valorLimiteCapitalReferencia: 500000
            capitalFixo: false
            valorFixo: 0
            numeroProcessoSusep: "15414.000002/2025-01"
            taxaPor1000: 0.1
            custoFixo: 0
      - id: 901
        descricao: "FUNERAL TESTE"
        descricaoComercial: "Funeral Teste"
        dataUltimaAlteracao: "2025-01-01T00:00:00"
        tipoProponente: { id: 1, descricao: "TITULAR" }
        idadeMinima: 18
        idadeMaxima: 80
        idadeExclusao: 0
        indicarBeneficiario: false
        exigeDPS: false
        coberturas:
          - id: 40
            itemProdutoId: 9003
            descricao: "FUNERAL"
            descricaoComercial: "Funeral"
            tipo: { id: 1, descricao: "CAPITAL FIXO" }
            causas: [{ id: 5, descricao: "FUNERAL" }]
            obrigatoria: true
            coberturaPrincipal: true
            idadeEntrada: 18
            idadeSaida: 80
            valorMinimoCapitalContratacao: 5000
            valorLimiteCapitalReferencia: 5000
            capitalFixo: true
            valorFixo: 5000
            numeroProcessoSusep: "15414.000003/2025-01"
            taxaPor1000: 1
            custoFixo: 2
    politicaAceitacao:
      id: 1
      dataUltimaAlteracao: "2025-01-01T00:00:00"
      imcMinimoRecusa: 16
      imcMaximoRecusa: 40
      imcMinimoExame: 17
      imcMaximoExame: 35
      cigarrosRecusa: 40
      cigarrosExame: 20
      limitesOperacionaisPorProfissao:
        - { causa: 1, profissaoId: "7825-10", valorMaximoCapitalSegurado: 300000 }
      limitesOperacionaisPorRenda:
        - { causa: 1, idadeInicial: 18, idadeFinal: 65, multiploRenda: 10 }
      limitesOperacionaisPorFaixaEtaria:
        - { causa: 1, idadeInicial: 51, idadeFinal: 65, valorMaximoCapitalSegurado: 400000 }
    questionarios: [{ id: 99, dataUltimaAlteracao: "2025-01-01T00:00:00" }]
`

const fixtureQuestionario = `
    questionario:
      id: 99
      descricao: "DPS de teste"
      dataUltimaAlteracao: "2025-01-01T00:00:00"
      perguntas:
        - { id: 1, descricao: "Fuma?", tipoResposta: SIM_NAO, obrigatoria: true }
        - id: 2
          descricao: "Esporte de risco"
          tipoResposta: DOMINIO
          obrigatoria: true
          opcoes: [{ id: 1, descricao: "NENHUM" }, { id: 2, descricao: "MERGULHO" }]
`

const fixtureVendedores = `
vendedores:
  "11222333000181": ["TST"]
dominios:
  CBO:
    - { id: "241005", descricao: "ADVOGADO", auxiliar: "2410-05" }
    - { id: "215305", descricao: "PILOTO", auxiliar: "2153-05" }
    - { id: "782510", descricao: "MOTORISTA", auxiliar: "7825-10" }
`

func fixture() string {
	return "modelosProposta:" + fixtureOffer + fixtureQuestionario + fixtureVendedores
}

func fixtureOfferT(t *testing.T) *Offer {
	t.Helper()
	c, err := parse([]byte(fixture()))
	if err != nil {
		t.Fatalf("fixture does not load: %v", err)
	}
	o, ok := c.Offer("TST")
	if !ok {
		t.Fatal("fixture has no TST")
	}
	return o
}

var now = time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC)

// base is a 30-year-old non-smoking man, lawyer in SP, R$ 10,000 a month.
func base() Profile {
	return Profile{
		BirthDate: time.Date(1996, 1, 15, 0, 0, 0, 0, time.UTC), At: now,
		SexoID: SexoMasculino, Renda: reais("10000"), ProfissaoCBO: "2410-05", UF: "SP",
	}
}

func aged(p Profile, age int) Profile {
	p.BirthDate = time.Date(now.Year()-age, 1, 15, 0, 0, 0, 0, time.UTC)
	return p
}

func coverage(q Quote, item int) (CoberturaQuote, bool) {
	for _, p := range q.Produtos {
		for _, c := range p.Coberturas {
			if c.ItemProdutoID == item {
				return c, true
			}
		}
	}
	return CoberturaQuote{}, false
}

func hasProduct(q Quote, id int) bool {
	return slices.ContainsFunc(q.Produtos, func(p ProdutoQuote) bool { return p.IDProduto == id })
}

// ---------------------------------------------------------------------
// Catalogue

func TestLoadEmbeddedCatalogue(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	offers := c.Offers()
	if len(offers) < 6 {
		t.Fatalf("%d offers, want at least 6", len(offers))
	}
	if !slices.IsSortedFunc(offers, func(a, b *Offer) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("Offers() is not sorted by id")
	}
	// One offer of each kind the brief asks for.
	kinds := map[string]string{"YZ": "term life", "YX": "whole life", "EIS": "funeral",
		"A7Z": "accidental death", "A75": "critical illness", "105": "pension"}
	for id, kind := range kinds {
		if _, ok := c.Offer(id); !ok {
			t.Errorf("no %s offer %q", kind, id)
		}
	}
	if _, ok := c.Offer("NOPE"); ok {
		t.Error("Offer(NOPE) found something")
	}
	for _, o := range offers {
		q, ok := c.Questionnaire(o.Questionarios[0].ID)
		if !ok || q != o.Questionario {
			t.Errorf("offer %s: Questionnaire(%d) does not return its questionnaire", o.ID, o.Questionarios[0].ID)
		}
	}
	funeral, _ := c.Offer("EIS")
	if !funeral.Produtos[0].Coberturas[0].CapitalFixo {
		t.Error("EIS main coverage is not fixed-capital")
	}
	pension, _ := c.Offer("105")
	if len(pension.Produtos[0].Fundos) == 0 {
		t.Error("pension product has no fundos")
	}
}

// Every embedded offer must price cleanly for an ordinary profile: this
// catches rates, minimums and tickets that do not fit together.
func TestEmbeddedOffersPriceForOrdinaryProfile(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	p := aged(base(), 35)
	for _, o := range c.Offers() {
		capital := reais("200000")
		if o.Produtos[0].Coberturas[0].Tipo.ID == TipoContribuicao {
			capital = reais("1000")
		}
		q, limits := Price(o, p, capital, 30)
		if len(limits) > 0 || len(q.Produtos) != len(o.Produtos) {
			t.Errorf("offer %s: %d of %d products, limits %+v", o.ID, len(q.Produtos), len(o.Produtos), limits)
		}
	}
}

func TestSellableBy(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, o := range c.Offers() {
		all = append(all, o.ID)
	}
	tests := []struct {
		cnpj string
		want []string
	}{
		{"11222333000181", all},
		{"11.222.333/0001-81", all},
		{"11444777000161", []string{"EIS", "YZ"}},
		{"99999999000191", nil},
		{"", nil},
	}
	for _, tt := range tests {
		got := c.SellableBy(tt.cnpj)
		if !slices.Equal(got, tt.want) {
			t.Errorf("SellableBy(%q) = %v, want %v", tt.cnpj, got, tt.want)
		}
	}
	// The caller's slice must not alias the catalogue's.
	got := c.SellableBy("11444777000161")
	got[0] = "X"
	if c.SellableBy("11444777000161")[0] == "X" {
		t.Error("SellableBy returned the catalogue's own slice")
	}
}

func jsonObject(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func keys(m any) []string {
	obj, _ := m.(map[string]any)
	var ks []string
	for k := range obj {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

var headerKeys = []string{"canalComercializacao", "dataUltimaAlteracao", "descricaoModeloProposta",
	"diasVencimento", "formasPagamento", "grupo", "id", "namespace", "nome", "periodicidades",
	"politicaValidacao", "ticketMinimo"}

func TestFullShape(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range c.Offers() {
		m := jsonObject(t, o)
		want := slices.Sorted(slices.Values(append(slices.Clone(headerKeys), "produtos", "politicaAceitacao", "questionarios")))
		if got := keys(m); !slices.Equal(got, want) {
			t.Errorf("offer %s: keys %v, want %v", o.ID, got, want)
		}
		cov := m["produtos"].([]any)[0].(map[string]any)["coberturas"].([]any)[0]
		for _, hidden := range []string{"taxaPor1000", "custoFixo"} {
			if slices.Contains(keys(cov), hidden) {
				t.Errorf("offer %s: pricing field %s leaks into JSON", o.ID, hidden)
			}
		}
		if !slices.Contains(keys(cov), "itemProdutoId") || !slices.Contains(keys(cov), "valorLimiteCapitalReferencia") {
			t.Errorf("offer %s: coverage keys %v", o.ID, keys(cov))
		}
	}
}

// TestV2Types: the fields the v2 models declare as numbers are numbers
// (insurance CLIENTS §8): capitalFixo (the fixed capital, 0 for none) and
// profissoesRecusadas (the CBO's digits); questions carry tipo and ordem.
func TestV2Types(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	yz, _ := c.Offer("YZ")
	prod := jsonObject(t, yz)["produtos"].([]any)[0].(map[string]any)
	if got := prod["profissoesRecusadas"]; !reflect.DeepEqual(got, []any{215305.0}) {
		t.Errorf("YZ profissoesRecusadas %v, want [215305]", got)
	}
	if got := prod["coberturas"].([]any)[0].(map[string]any)["capitalFixo"]; got != 0.0 {
		t.Errorf("YZ 1001 capitalFixo %v, want 0", got)
	}
	eis, _ := c.Offer("EIS")
	cov := jsonObject(t, eis)["produtos"].([]any)[0].(map[string]any)["coberturas"].([]any)[0].(map[string]any)
	if cov["capitalFixo"] != 7000.0 || cov["descricaoDigitalCurta"] == "" {
		t.Errorf("EIS 3001: capitalFixo %v, descricaoDigitalCurta %q; want 7000 and a text", cov["capitalFixo"], cov["descricaoDigitalCurta"])
	}
	for i, pg := range jsonObject(t, yz.Questionario)["perguntas"].([]any) {
		m := pg.(map[string]any)
		if m["ordem"] != float64(i+1) || m["tipo"].(map[string]any)["id"] != 1.0 {
			t.Errorf("pergunta %d: ordem %v tipo %v, want %d and {id 1}", i, m["ordem"], m["tipo"], i+1)
		}
	}
}

// TestPriceWithoutCapital: a simulation without a capital prices every
// coverage at its base, whatever the capital limits, and shows the
// smallest capital it sells with its premium.
func TestPriceWithoutCapital(t *testing.T) {
	o := fixtureOfferT(t)
	p := aged(base(), 40)
	p.Renda = 0 // the income limit would refuse any capital
	q, limits := Price(o, p, 0, 90)
	if len(limits) > 0 {
		t.Fatalf("limits %+v", limits)
	}
	c, ok := coverage(q, 9001)
	// 1.16982343 a month, × 3 months
	if !ok || c.CapitalBase != reais("1000") || c.PremioBase != rate("3.50947029") || c.Capital != reais("10000") || c.Premio != reais("35.09") || c.Limite != 0 {
		t.Errorf("9001 without capital: %+v", c)
	}
	if got := c.PremioOf(reais("250000")); got != rate("877.3675725") {
		t.Errorf("PremioOf(250000) = %v, want 250 × 3.50947029", got)
	}
	if f, _ := coverage(q, 9003); f.Capital != reais("5000") || f.Premio != reais("41.09") || f.PremioMensal != reais("13.70") {
		t.Errorf("funeral without capital: %+v", f)
	}
	if _, refused := findLimit(limits, LimitTicketMinimo); refused {
		t.Error("ticket checked without a capital")
	}
	_, limits = Price(o, aged(base(), 17), 0, 30)
	if _, ok := findLimit(limits, LimitIdadeProduto); !ok {
		t.Errorf("age limits still apply without a capital: %+v", limits)
	}
}

func TestReducedShape(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	refKeys := []string{"dataUltimaAlteracao", "id"}
	for _, o := range c.Offers() {
		m := jsonObject(t, c.Reduced(o))
		want := slices.Sorted(slices.Values(append(slices.Clone(headerKeys), "produtos", "politicaAceitacao", "questionarios")))
		if got := keys(m); !slices.Equal(got, want) {
			t.Errorf("offer %s: keys %v, want %v", o.ID, got, want)
		}
		if m["id"] != o.ID || m["nome"] != o.Nome {
			t.Errorf("offer %s: header not copied: %v %v", o.ID, m["id"], m["nome"])
		}
		prods := m["produtos"].([]any)
		if len(prods) != len(o.Produtos) {
			t.Errorf("offer %s: %d product refs, want %d", o.ID, len(prods), len(o.Produtos))
		}
		for i, p := range prods {
			if got := keys(p); !slices.Equal(got, refKeys) {
				t.Errorf("offer %s: produtos[%d] keys %v, want %v", o.ID, i, got, refKeys)
			}
			if id := p.(map[string]any)["id"].(float64); int(id) != o.Produtos[i].ID {
				t.Errorf("offer %s: produtos[%d].id %v, want %d", o.ID, i, id, o.Produtos[i].ID)
			}
		}
		if got := keys(m["politicaAceitacao"]); !slices.Equal(got, refKeys) {
			t.Errorf("offer %s: politicaAceitacao keys %v", o.ID, got)
		}
		for i, q := range m["questionarios"].([]any) {
			if got := keys(q); !slices.Equal(got, refKeys) {
				t.Errorf("offer %s: questionarios[%d] keys %v", o.ID, i, got)
			}
		}
	}
}

func TestValidation(t *testing.T) {
	good := fixture()
	tests := []struct {
		name string
		yaml string
		want []string // substrings of the error
	}{
		{"unknown field", strings.Replace(good, `namespace: "teste"`, "namespace: \"teste\"\n    nomespace: \"x\"", 1),
			[]string{"nomespace"}},
		{"duplicate offer id", "modelosProposta:" + fixtureOffer + fixtureQuestionario +
			strings.Replace(strings.Replace(fixtureOffer+fixtureQuestionario, "9001", "8001", 1), "9002", "8002", 1) +
			fixtureVendedores, []string{`offer "TST": id: duplicate offer id`}},
		{"duplicate itemProdutoId", strings.Replace(good, "itemProdutoId: 9002", "itemProdutoId: 9001", 1),
			[]string{`offer "TST": produto 900: itemProdutoId 9001: already used`}},
		{"coverage ages", strings.Replace(good, "idadeSaida: 50", "idadeSaida: 10", 1),
			[]string{`offer "TST": produto 900: cobertura 9002: idadeEntrada 18 / idadeSaida 10`}},
		{"product ages", strings.Replace(good, "idadeExclusao: 70", "idadeExclusao: 60", 1),
			[]string{`offer "TST": produto 900: idadeExclusao 60`}},
		{"missing questionnaire", "modelosProposta:" + fixtureOffer + fixtureVendedores,
			[]string{`offer "TST": questionario: missing`}},
		{"questionnaire ref mismatch", strings.Replace(good, "questionarios: [{ id: 99,", "questionarios: [{ id: 98,", 1),
			[]string{`offer "TST": questionarios: want exactly`}},
		{"DOMINIO without options", strings.Replace(good, `opcoes: [{ id: 1, descricao: "NENHUM" }, { id: 2, descricao: "MERGULHO" }]`, "opcoes: []", 1),
			[]string{`offer "TST": questionario 99: pergunta 2: opcoes`}},
		{"answer type", strings.Replace(good, "tipoResposta: SIM_NAO", "tipoResposta: BOOLEANO", 1),
			[]string{`pergunta 1: tipoResposta "BOOLEANO"`}},
		{"vendedor unknown offer", strings.Replace(good, `["TST"]`, `["TST", "NOPE"]`, 1),
			[]string{`vendedores "11222333000181": offer "NOPE": no such offer`}},
		{"vendedor bad CNPJ", strings.Replace(good, `"11222333000181"`, `"11222333000182"`, 1),
			[]string{`vendedores "11222333000182": not a CNPJ`}},
		{"capitalFixo against tipo", strings.Replace(good, "capitalFixo: true", "capitalFixo: false", 1),
			[]string{`cobertura 9003: capitalFixo false disagrees with tipo.id 1`}},
		{"custoFixo on an adjustable coverage", strings.Replace(good, "taxaPor1000: 0.5\n            custoFixo: 0", "taxaPor1000: 0.5\n            custoFixo: 1", 1),
			[]string{`cobertura 9001: custoFixo: only a capitalFixo coverage has one`}},
		{"profession not in the CBO domain", strings.Replace(good, `profissaoId: "7825-10"`, `profissaoId: "7825-11"`, 1),
			[]string{`offer "TST": profession 7825-11 is not in dominios CBO`}},
		{"CBO item", strings.Replace(good, `auxiliar: "2410-05"`, `auxiliar: "241005"`, 1),
			[]string{`dominios CBO[0]: auxiliar "241005"`}},
		{"limit on unused causa", strings.Replace(good, "{ causa: 1, profissaoId", "{ causa: 7, profissaoId", 1),
			[]string{`politicaAceitacao: limitesOperacionaisPorProfissao[0].causa 7`}},
		{"unknown periodicity", strings.Replace(good, `{ id: 90, descricao: "TRIMESTRAL" }`, `{ id: 60, descricao: "BIMESTRAL" }`, 1),
			[]string{`offer "TST": periodicidades: unknown id 60`}},
		{"every problem at once", strings.Replace(strings.Replace(good, "idadeSaida: 50", "idadeSaida: 10", 1),
			`["TST"]`, `["NOPE"]`, 1),
			[]string{"idadeSaida 10", `offer "NOPE"`}},
	}
	if _, err := parse([]byte(good)); err != nil {
		t.Fatalf("the fixture itself fails: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse([]byte(tt.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

// ---------------------------------------------------------------------
// Pricing

func TestPriceBaseProfile(t *testing.T) {
	o := fixtureOfferT(t)
	tests := []struct {
		name                   string
		profile                func(Profile) Profile
		periodicidade          int
		m9001, m9002, m9003    string // monthly premiums
		total9001, total, mTot string // for the periodicity, and monthly total
	}{
		{"monthly", func(p Profile) Profile { return p }, 30, "50", "10", "7", "50", "67", "67"},
		{"quarterly", func(p Profile) Profile { return p }, 90, "50", "10", "7", "150", "201", "67"},
		{"annual, 5% off", func(p Profile) Profile { return p }, 360, "50", "10", "7", "570", "763.80", "67"},
		{"female 0.85", func(p Profile) Profile { p.SexoID = SexoFeminino; return p }, 30, "42.50", "8.50", "6.25", "42.50", "57.25", "57.25"},
		{"smoker 1.5", func(p Profile) Profile { p.Fumante = true; return p }, 30, "75", "15", "9.50", "75", "99.50", "99.50"},
		{"industrial CBO 1.3", func(p Profile) Profile { p.ProfissaoCBO = "7170-20"; return p }, 30, "65", "13", "8.50", "65", "86.50", "86.50"},
		{"CBO without dash", func(p Profile) Profile { p.ProfissaoCBO = "717020"; return p }, 30, "65", "13", "8.50", "65", "86.50", "86.50"},
		{"RJ 1.05", func(p Profile) Profile { p.UF = "rj"; return p }, 30, "52.50", "10.50", "7.25", "52.50", "70.25", "70.25"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, limits := Price(o, tt.profile(base()), reais("100000"), tt.periodicidade)
			if len(limits) > 0 {
				t.Fatalf("limits: %+v", limits)
			}
			for item, want := range map[int]string{9001: tt.m9001, 9002: tt.m9002, 9003: tt.m9003} {
				c, ok := coverage(q, item)
				if !ok || c.PremioMensal != reais(want) {
					t.Errorf("coverage %d premioMensal = %v (found %t), want %v", item, c.PremioMensal, ok, want)
				}
			}
			if c, _ := coverage(q, 9001); c.Premio != reais(tt.total9001) {
				t.Errorf("coverage 9001 premio = %v, want %v", c.Premio, tt.total9001)
			}
			if q.Premio != reais(tt.total) || q.PremioMensal != reais(tt.mTot) {
				t.Errorf("totals premio %v premioMensal %v, want %v %v", q.Premio, q.PremioMensal, tt.total, tt.mTot)
			}
		})
	}
}

func TestPriceCoverageFields(t *testing.T) {
	o := fixtureOfferT(t)
	q, _ := Price(o, aged(base(), 40), reais("100000"), 30)
	c, ok := coverage(q, 9001)
	if !ok {
		t.Fatal("9001 not quoted")
	}
	// 0.5 × exp(0.085 × 10) = 1.169823426…; 100,000 ÷ 1,000 × 1.16982343 = 116.98
	want := CoberturaQuote{ID: 24, ItemProdutoID: 9001, Descricao: "MORTE", DescricaoDigitalCurta: "Morte", DescricaoDigitalLonga: "Morte (MORTE)",
		TipoID: 3, CausaID: 1, Obrigatoria: true, NumeroProcessoSusep: "15414.000001/2025-01",
		Capital: reais("100000"), CapitalBase: reais("1000"), TipoCapitalBase: "CAPITAL_SEGURADO", Limite: reais("1000000"), PremioBase: rate("1.16982343"),
		PremioMensal: reais("116.98"), Premio: reais("116.98"),
		ValorMinimoCapitalContratacao: reais("10000"), ValorLimiteCapitalReferencia: reais("1000000"),
		QuestionariosPorFaixa: []FaixaQuestionarios{{Questionarios: []QuestionarioRef{{IDQuestionario: 99}}}}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
	if q.Idade != 40 || q.TicketMinimo != reais("20") || q.CodigoModeloProposta != "TST" || q.CapitalSegurado != reais("100000") {
		t.Errorf("quote header %+v", q)
	}
	// The income limit (10 × R$ 60,000 a year) is below the coverage's own.
	p := base()
	p.Renda = reais("5000")
	q, _ = Price(o, p, reais("100000"), 30)
	if c, _ := coverage(q, 9001); c.Limite != reais("600000") {
		t.Errorf("limite = %v, want the income limit 600000", c.Limite)
	}
}

func TestPriceDeterministic(t *testing.T) {
	o := fixtureOfferT(t)
	p := aged(base(), 47)
	p.Fumante, p.UF = true, "PA"
	q1, l1 := Price(o, p, reais("123456.78"), 360)
	q2, l2 := Price(o, p, reais("123456.78"), 360)
	if !reflect.DeepEqual(q1, q2) || !reflect.DeepEqual(l1, l2) {
		t.Error("same inputs, different outputs")
	}
}

func TestPriceMonotonicInAge(t *testing.T) {
	o := fixtureOfferT(t)
	var prev money.Cents
	for age := 18; age <= 65; age++ {
		q, limits := Price(o, aged(base(), age), reais("100000"), 30)
		c, ok := coverage(q, 9001)
		if !ok {
			t.Fatalf("age %d: 9001 not quoted: %+v", age, limits)
		}
		if c.PremioMensal <= prev {
			t.Errorf("age %d: premium %v not above %v", age, c.PremioMensal, prev)
		}
		prev = c.PremioMensal
	}
}

func TestPriceMonotonicInCapital(t *testing.T) {
	o := fixtureOfferT(t)
	var prev money.Cents
	for capital := reais("10000"); capital <= reais("500000"); capital += reais("10000") {
		q, limits := Price(o, base(), capital, 30)
		if len(limits) > 0 && limits[0].Code != LimitTicketMinimo {
			t.Fatalf("capital %v: %+v", capital, limits)
		}
		if q.PremioMensal <= prev {
			t.Errorf("capital %v: total %v not above %v", capital, q.PremioMensal, prev)
		}
		prev = q.PremioMensal
	}
}

func TestFixedCapital(t *testing.T) {
	o := fixtureOfferT(t)
	var first CoberturaQuote
	for i, capital := range []money.Cents{0, reais("10000"), reais("900000")} {
		q, _ := Price(o, base(), capital, 30)
		c, ok := coverage(q, 9003)
		if !ok {
			t.Fatalf("capital %v: funeral not quoted", capital)
		}
		if c.Capital != reais("5000") || c.Limite != reais("5000") || c.PremioMensal != reais("7") || c.Premio != reais("7") ||
			c.CapitalBase != reais("5000") || c.PremioBase != rate("7") || c.CustoFixo != reais("7") || c.PremioOf(123) != rate("7") {
			t.Errorf("capital %v: funeral %+v, want capital 5000 and premium 7, its base", capital, c)
		}
		if i == 0 {
			first = c
		} else if !reflect.DeepEqual(c, first) {
			t.Errorf("capital %v changed the funeral quote", capital)
		}
	}
}

func TestContribution(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	o, _ := c.Offer("105")
	p := aged(base(), 60) // age, sex and smoking must not matter
	p.Fumante, p.SexoID = true, SexoFeminino
	q, limits := Price(o, p, reais("500"), 360)
	if len(limits) > 0 {
		t.Fatalf("limits %+v", limits)
	}
	if q.PremioMensal != reais("500") || q.Premio != reais("6000") {
		t.Errorf("contribution 500 a month: premioMensal %v premio %v, want 500 and 6000 (no discount)", q.PremioMensal, q.Premio)
	}
}

func findLimit(limits []Limit, code string) (Limit, bool) {
	i := slices.IndexFunc(limits, func(l Limit) bool { return l.Code == code })
	if i < 0 {
		return Limit{}, false
	}
	return limits[i], true
}

func TestLimits(t *testing.T) {
	o := fixtureOfferT(t)
	rich := func(p Profile) Profile { p.Renda = reais("1e6"); return p }
	tests := []struct {
		name          string
		profile       func(Profile) Profile
		capital       string
		periodicidade int
		code, field   string
		produto, item int
		valor         string // the answer's valor: an age, or money
		keeps900      bool   // product 900 is still quoted
	}{
		{"product age", func(p Profile) Profile { return aged(p, 17) }, "100000", 30,
			LimitIdadeProduto, "proponente.dataNascimento", 900, 0, "18", false},
		{"coverage age drops the optional coverage", func(p Profile) Profile { return aged(p, 55) }, "100000", 30,
			LimitIdadeCobertura, "proponente.dataNascimento", 900, 9002, "50", true},
		{"capital below minimum", rich, "5000", 30,
			LimitCapitalMinimo, "capitalSegurado", 900, 9001, "10000", false},
		{"capital above coverage limit", rich, "1100000", 30,
			LimitCapitalMaximo, "capitalSegurado", 900, 9001, "1000000", false},
		{"capital above income limit", func(p Profile) Profile { p.Renda = reais("5000"); return p }, "700000", 30,
			LimitCapitalRenda, "capitalSegurado", 900, 9001, "600000", false},
		{"no income declared", func(p Profile) Profile { p.Renda = 0; return p }, "100000", 30,
			LimitCapitalRenda, "capitalSegurado", 900, 9001, "", false},
		{"capital above age-band limit", func(p Profile) Profile { return aged(rich(p), 55) }, "450000", 30,
			LimitCapitalFaixaEtaria, "capitalSegurado", 900, 9001, "400000", false},
		{"capital above profession limit", func(p Profile) Profile { p.ProfissaoCBO = "7825-10"; return rich(p) }, "350000", 30,
			LimitCapitalProfissao, "capitalSegurado", 900, 9001, "300000", false},
		{"refused profession", func(p Profile) Profile { p.ProfissaoCBO = "215305"; return p }, "100000", 30,
			LimitProfissaoRecusada, "proponente.profissaoCbo", 900, 0, "", false},
		{"refused UF", func(p Profile) Profile { p.UF = "RR"; return p }, "100000", 30,
			LimitUFRecusada, "proponente.uf", 900, 0, "", false},
		{"below ticket minimum", func(p Profile) Profile { return p }, "10000", 30,
			LimitTicketMinimo, "capitalSegurado", 0, 0, "20", true},
		{"periodicity not offered", func(p Profile) Profile { return p }, "100000", 180,
			LimitPeriodicidadeInvalida, "periodicidadeCobrancaId", 0, 0, "", false},
		{"sex", func(p Profile) Profile { p.SexoID = 1800; return p }, "100000", 30,
			LimitSexoInvalido, "proponente.sexoId", 0, 0, "", false},
		{"CBO", func(p Profile) Profile { p.ProfissaoCBO = "Programador"; return p }, "100000", 30,
			LimitProfissaoInvalida, "proponente.profissaoCbo", 0, 0, "", false},
		{"UF", func(p Profile) Profile { p.UF = "XX"; return p }, "100000", 30,
			LimitUFInvalida, "proponente.uf", 0, 0, "", false},
		{"income", func(p Profile) Profile { p.Renda = reais("-1"); return p }, "100000", 30,
			LimitRendaInvalida, "proponente.renda", 0, 0, "", false},
		{"capital negative", func(p Profile) Profile { return p }, "-1", 30,
			LimitCapitalInvalido, "capitalSegurado", 0, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, limits := Price(o, tt.profile(base()), reais(tt.capital), tt.periodicidade)
			l, ok := findLimit(limits, tt.code)
			if !ok {
				t.Fatalf("no %s among %+v", tt.code, limits)
			}
			var answered struct {
				Valor json.RawMessage `json:"valor"`
			}
			if b, err := json.Marshal(l); err != nil || json.Unmarshal(b, &answered) != nil {
				t.Fatalf("limit %+v does not marshal: %v", l, err)
			}
			if l.Field != tt.field || l.ProdutoID != tt.produto || l.ItemProdutoID != tt.item || string(answered.Valor) != tt.valor {
				t.Errorf("got %+v\nwant field %s produto %d item %d valor %v", l, tt.field, tt.produto, tt.item, tt.valor)
			}
			if l.Message == "" {
				t.Error("no message")
			}
			if got := hasProduct(q, 900); got != tt.keeps900 {
				t.Errorf("product 900 quoted = %t, want %t", got, tt.keeps900)
			}
			if tt.item != 0 {
				if _, quoted := coverage(q, tt.item); quoted {
					t.Errorf("coverage %d quoted despite its limit", tt.item)
				}
			}
		})
	}
}

func TestLimitMessagesArePortuguese(t *testing.T) {
	o := fixtureOfferT(t)
	p := base()
	p.Renda = reais("5000")
	_, limits := Price(o, p, reais("1234567.8"), 30)
	l, ok := findLimit(limits, LimitCapitalMaximo)
	if !ok {
		t.Fatalf("no %s in %+v", LimitCapitalMaximo, limits)
	}
	want := "capital de R$ 1.234.567,80 acima do limite de R$ 1.000.000,00 da cobertura MORTE"
	if l.Message != want {
		t.Errorf("message %q, want %q", l.Message, want)
	}
}

func TestBoundaryAges(t *testing.T) {
	o := fixtureOfferT(t) // product 900: 18..65
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name  string
		birth time.Time
		age   int
		ok    bool
	}{
		{"18 today", day(2008, 3, 10), 18, true},
		{"18 tomorrow", day(2008, 3, 11), 17, false},
		{"65, turns 66 tomorrow", day(1960, 3, 11), 65, true},
		{"66 today", day(1960, 3, 10), 66, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := base()
			p.BirthDate, p.Renda = tt.birth, reais("1e6")
			q, limits := Price(o, p, reais("100000"), 30)
			if q.Idade != tt.age {
				t.Errorf("idade %d, want %d", q.Idade, tt.age)
			}
			_, refused := findLimit(limits, LimitIdadeProduto)
			if hasProduct(q, 900) != tt.ok || refused == tt.ok {
				t.Errorf("quoted %t, age limit %t, want quoted %t", hasProduct(q, 900), refused, tt.ok)
			}
		})
	}
}

func TestAge(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }
	tests := []struct {
		birth, at time.Time
		want      int
	}{
		{day(1990, 5, 1), day(2026, 4, 30), 35},
		{day(1990, 5, 1), day(2026, 5, 1), 36},
		{day(2008, 2, 29), day(2026, 2, 28), 17},
		{day(2008, 2, 29), day(2026, 3, 1), 18},
		{day(2008, 2, 29), day(2028, 2, 29), 20},
		{day(2030, 1, 1), day(2026, 1, 1), -4},
	}
	for _, tt := range tests {
		if got := Age(tt.birth, tt.at); got != tt.want {
			t.Errorf("Age(%s, %s) = %d, want %d", tt.birth.Format("2006-01-02"), tt.at.Format("2006-01-02"), got, tt.want)
		}
	}
}

// PremioOf is what a VL_CONTRIB is held to, to eight places; PremioCents
// the premium charged, rounded to the cent once from the exact product.
func TestPremioOf(t *testing.T) {
	adjustable := CoberturaQuote{CapitalBase: reais("1000"), PremioBase: rate("0.21919743")}
	fixed := CoberturaQuote{CapitalBase: reais("7000"), PremioBase: rate("13.705"), Fixed: true}
	for _, tt := range []struct {
		name    string
		c       CoberturaQuote
		capital money.Cents
		premio  money.Rate
		cents   money.Cents
	}{
		// The README's: 150000 ÷ 1000 × 0.21919743.
		{"OK", adjustable, reais("150000"), rate("32.8796145"), reais("32.88")},
		{"OKCentsOfCapital", adjustable, reais("123456.78"), rate("27.06140889"), reais("27.06")},
		// 10.01 ÷ 1000 × 0.21919743 = 0.0021941662743: eight places
		// round it up, the cent down.
		{"OKRoundedToEightPlaces", adjustable, reais("10.01"), rate("0.00219417"), 0},
		{"OKFixedWhateverTheCapital", fixed, reais("1"), rate("13.705"), reais("13.71")},
	} {
		if got := tt.c.PremioOf(tt.capital); got != tt.premio {
			t.Errorf("%s: PremioOf(%s) = %s, want %s", tt.name, tt.capital, got, tt.premio)
		}
		if got := tt.c.PremioCents(tt.capital); got != tt.cents {
			t.Errorf("%s: PremioCents(%s) = %s, want %s", tt.name, tt.capital, got, tt.cents)
		}
	}
}

func TestPriceRoundsHalfUp(t *testing.T) {
	o := fixtureOfferT(t)
	// 10.01 × 0.5 = 5.005: half-up gives 5.01 where banker's rounding
	// and truncation give 5.00.
	q, _ := Price(o, base(), reais("10010"), 30)
	if c, _ := coverage(q, 9001); c.PremioMensal != reais("5.01") || c.Premio != reais("5.01") {
		t.Errorf("premioMensal %v premio %v, want 5.01", c.PremioMensal, c.Premio)
	}
}

// The tariff is e^(0.085 × (age − 30)) in a float, rounded to eight
// places, and exact at 30, where the factor is 1.
func TestTariff(t *testing.T) {
	for _, tt := range []struct {
		taxa money.Rate
		age  int
		risk money.Rate
		want money.Rate
	}{
		{rate("0.5"), 40, money.RateOne, rate("1.16982343")}, // 0.5 × e^0.85 = 1.169823426…
		{rate("0.12"), 39, rate("0.85"), rate("0.21919743")}, // the README's, for coverage 1001 of YZ
		{rate("0.5"), 18, money.RateOne, rate("0.18029747")}, // 0.5 × e^-1.02 = 0.180297470…
		{rate("0.5"), 30, money.RateOne, rate("0.5")},
		// 0.03 × 1.5395625 is 0.046186875, and 0.0003 × 1.81125 is
		// 0.000543375: a half in the ninth place, rounded up, where a
		// float's product (0.000543374999…) would round it down.
		{rate("0.03"), 30, rate("1.5395625"), rate("0.04618688")},
		{rate("0.0003"), 30, rate("1.81125"), rate("0.00054338")},
	} {
		if got := tariff(tt.taxa, tt.age, tt.risk); got != tt.want {
			t.Errorf("tariff(%s, %d, %s) = %s, want %s", tt.taxa, tt.age, tt.risk, got, tt.want)
		}
	}
}

func TestBRL(t *testing.T) {
	tests := map[money.Cents]string{0: "R$ 0,00", 700: "R$ 7,00", 123450: "R$ 1.234,50", 100000000: "R$ 1.000.000,00", -5: "-R$ 0,05"}
	for in, want := range tests {
		if got := brl(in); got != want {
			t.Errorf("brl(%v) = %q, want %q", in, got, want)
		}
	}
}

// reais is an amount of the tests, written as a decimal, in cents.
func reais(s string) money.Cents {
	c, err := money.FromJSON(s)
	if err != nil {
		panic(err)
	}
	return c
}

// rate is a rate of the tests.
func rate(s string) money.Rate { return money.MustParseRate(s) }

func TestDominios(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	cbo, ok := c.Dominio("cbo")
	if !ok || len(cbo) < 10 {
		t.Fatalf("CBO: %d items", len(cbo))
	}
	m := jsonObject(t, cbo[0])
	if got := keys(m); !slices.Equal(got, []string{"Auxiliar", "Descricao", "Id"}) {
		t.Errorf("item keys %v, want Id, Descricao, Auxiliar", got)
	}
	if _, ok := c.Dominio("NOPE"); ok {
		t.Error("an unknown domain found")
	}
	if !slices.Contains(c.Dominios(), "CBO") {
		t.Errorf("Dominios() = %v", c.Dominios())
	}
}
