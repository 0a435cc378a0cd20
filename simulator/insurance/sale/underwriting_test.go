package sale

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"homologa/simulator/insurance/catalog"
	"homologa/simulator/money"
)

// quotedProposal is a PROPOSTA of offer YZ, product 511, for a man of 35
// with capital 100,000: each coverage the pricing quotes, with the premium
// it quotes, which premio may change.
func quotedProposal(t *testing.T, premio func(item int, quoted money.Cents) any) (*catalog.Offer, map[string]any, money.Cents, time.Time) {
	t.Helper()
	c, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	o, _ := c.Offer("YZ")
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	// No capital: the simulation the clients make, priced at the base.
	q, _ := catalog.Price(o, catalog.Profile{BirthDate: now.AddDate(-35, 0, -1), At: now, SexoID: catalog.SexoMasculino, Renda: 100000_00}, 0, 30)
	var covs []any
	var total money.Cents
	for _, p := range q.Produtos {
		if p.IDProduto != 511 {
			continue
		}
		for _, cq := range p.Coberturas {
			quoted := cq.PremioCents(money.Reais(100000))
			covs = append(covs, map[string]any{"CODIGO": cq.ItemProdutoID, "VL_COBERTURA": money.Reais(100000), "VL_CONTRIB": premio(cq.ItemProdutoID, quoted)})
			total += quoted
		}
	}
	if len(covs) == 0 {
		t.Fatal("product 511 not quoted")
	}
	prop := map[string]any{
		"DADOS_PROPONENTE": map[string]any{"CPF": "52998224725", "DT_NASCIMENTO": now.AddDate(-35, 0, -1).Format(time.DateOnly), "SEXO": "MASCULINO",
			"RENDA_MENSAL": money.Reais(100000)},
		"DADOS_COBRANCA": map[string]any{"PERIODICIDADE": "MENSAL"},
		"PLANOS":         map[string]any{"PLANO": map[string]any{"CODIGO": 511, "COBERTURAS": map[string]any{"COBERTURA": covs}}},
	}
	return o, decoded(t, prop).(map[string]any), total, now
}

// decoded is v as a handler reads a partner's document: encoded, and
// decoded by encoding/json into maps, numbers as float64.
func decoded(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestUnderwriteComparesPremiumsToTheCent(t *testing.T) {
	tests := []struct {
		name   string
		premio func(item int, quoted money.Cents) any
		total  func(quoted money.Cents) any // VL_TOTAL, nil for none
		fields []string
	}{
		{"OKAsNumbers", func(_ int, q money.Cents) any { return q }, nil, nil},
		{"OKAsStrings", func(_ int, q money.Cents) any { return q.String() }, func(q money.Cents) any { return q.String() }, nil},
		{"OKBrazilianStrings", func(_ int, q money.Cents) any { return strings.Replace(q.String(), ".", ",", 1) }, nil, nil},
		{"ErrTwoCentsShort", func(item int, q money.Cents) any {
			if item == 1001 {
				q -= 2
			}
			return q
		}, nil, []string{"PROPOSTA.PLANOS.PLANO.0.COBERTURAS.COBERTURA.0.VL_CONTRIB"}},
		{"OKTotalOneCentOver", func(_ int, q money.Cents) any { return q }, func(q money.Cents) any { return q + 1 }, nil},
		{"ErrTotalTenCentsOver", func(_ int, q money.Cents) any { return q }, func(q money.Cents) any { return q + 10 },
			[]string{"PROPOSTA.PLANOS.VL_TOTAL"}},
		{"ErrNotANumber", func(_ int, q money.Cents) any { return "quarenta" }, nil, []string{"PROPOSTA.PLANOS.PLANO.0.COBERTURAS.COBERTURA.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, prop, quoted, now := quotedProposal(t, tt.premio)
			if tt.total != nil {
				prop["PLANOS"].(map[string]any)["VL_TOTAL"] = decoded(t, tt.total(quoted))
			}
			total, vs := underwrite(o, prop, now)
			var fields []string
			for _, v := range vs {
				fields = append(fields, v.Field)
			}
			if len(tt.fields) > 0 && len(fields) > 0 {
				fields = fields[:1]
			}
			if !reflect.DeepEqual(fields, tt.fields) {
				t.Fatalf("violations %+v, want on %v", vs, tt.fields)
			}
			if tt.fields == nil && total != quoted {
				t.Errorf("total %s, want %s", total, quoted)
			}
		})
	}
}

// TestUnderwriteAsTheClientsPrice: the 2025 client sends capital ÷
// capitalBase × premioBase unrounded, and a fixed-value coverage's
// premioBase whatever its capital; both are accepted, and the total is
// each premium rounded to the cent.
func TestUnderwriteAsTheClientsPrice(t *testing.T) {
	c, _ := catalog.Load()
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	birth := now.AddDate(-40, 0, -1)
	for _, tt := range []struct {
		offer         string
		produto, item int
		capital       money.Cents
		sent          string // what the client sends, as its float prints it
		twoCentsOver  string // the message when it sends two cents more
	}{
		// 103000 ÷ 1000 × 0.23864398, as a float computes it.
		{"YZ", 511, 1001, money.Reais(103000), "24.580329940000002", "VL_CONTRIB 24.60032994 não confere com o prêmio 24.58 que a simulação dá " +
			"(VL_COBERTURA ÷ capitalBase × premioBase = 103000.00 ÷ 1000 × 0.23864398; idade 40, periodicidade MENSAL)"},
		// Fixed value: premioBase, whatever the capital.
		{"EIS", 530, 3001, money.Reais(1000), "20.21298865", "VL_CONTRIB 20.23298865 não confere com o prêmio 20.21 que a simulação dá " +
			"(a cobertura de valor fixo custa premioBase, 20.21298865; idade 40, periodicidade MENSAL)"},
	} {
		o, _ := c.Offer(tt.offer)
		q, _ := catalog.Price(o, catalog.Profile{BirthDate: birth, At: now, SexoID: catalog.SexoFeminino, Renda: 50000_00}, 0, 30)
		cq, _ := q.Cobertura(tt.produto, tt.item)
		sent := json.Number(tt.sent)
		exact, _ := money.ParseRate(tt.sent)
		if truncated := exact / (money.RateOne / 100) * (money.RateOne / 100); !premioConfere(truncated, cq.PremioOf(tt.capital)) {
			t.Errorf("%s %d: %v truncated to %v refused", tt.offer, tt.item, sent, truncated)
		}
		body := func(sent json.Number) map[string]any {
			return decoded(t, map[string]any{
				"DADOS_PROPONENTE": map[string]any{"CPF": "52998224725", "DT_NASCIMENTO": birth.Format(time.DateOnly), "SEXO": "FEMININO", "RENDA_MENSAL": "50000"},
				"PLANOS": map[string]any{"VL_TOTAL": sent, "PLANO": []any{map[string]any{"CODIGO": fmt.Sprint(tt.produto),
					"COBERTURAS": map[string]any{"COBERTURA": []any{map[string]any{"CODIGO": tt.item, "VL_CONTRIB": sent, "VL_COBERTURA": tt.capital}}}}}},
			}).(map[string]any)
		}
		total, vs := underwrite(o, body(sent), now)
		if want := exact.Cents(); len(vs) > 0 || total != want {
			t.Errorf("%s %d: total %s, violations %+v; want %s and none", tt.offer, tt.item, total, vs, want)
		}
		if _, vs := underwrite(o, body(json.Number((exact + 2*money.RateOne/100).String())), now); len(vs) == 0 || vs[0].Reason != tt.twoCentsOver {
			t.Errorf("%s %d: two cents over accepted, or the message does not say how: %+v", tt.offer, tt.item, vs)
		}
	}
}

// The beneficiaries' shares add up to 100, within a thousandth; a share
// that is not a number is refused naming it, not counted as 0.
func TestParticipacoes(t *testing.T) {
	for _, tt := range []struct {
		name   string
		shares []any
		field  string // "" for accepted
	}{
		{"OK", []any{"60", 40}, ""},
		{"OKThirdsToFourPlaces", []any{33.3333, 33.3333, 33.3333}, ""},
		{"OKBrazilian", []any{"33,34", "33,33", "33,33"}, ""},
		{"ErrNinety", []any{50, 40}, "PROPOSTA.BENEFICIARIOS.BENEFICIARIO"},
		{"ErrAThousandthAndABitShort", []any{"99.9989"}, "PROPOSTA.BENEFICIARIOS.BENEFICIARIO"},
		{"ErrNotANumber", []any{"100", "cem"}, "PROPOSTA.BENEFICIARIOS.BENEFICIARIO.1.PARTICIPACAO"},
	} {
		var bs []map[string]any
		for _, s := range tt.shares {
			bs = append(bs, decoded(t, map[string]any{"NOME": "A", "PARTICIPACAO": s}).(map[string]any))
		}
		u := underwriter{}
		u.participacoes(bs)
		var got []string
		for _, v := range u.vs {
			got = append(got, v.Field)
		}
		if (tt.field == "" && len(got) > 0) || (tt.field != "" && !reflect.DeepEqual(got, []string{tt.field})) {
			t.Errorf("%s: violations %+v, want on %q", tt.name, u.vs, tt.field)
		}
	}
}

func TestPremioConfere(t *testing.T) {
	r := money.MustParseRate
	tests := []struct {
		sent, want string
		ok         bool
	}{
		{"7.11", "7.113483", true}, {"7.12", "7.113483", true}, {"7.113483", "7.113483", true}, {"7.10", "7.113483", false},
		// A cent either way is in; a cent and 10⁻⁸ is out: the rule is
		// exact, not a float's "about a cent".
		{"46.35", "46.34", true}, {"46.33", "46.34", true}, {"46.35000001", "46.34", false}, {"46.32999999", "46.34", false},
		{"46.36", "46.34", false}, {"0.30000000000000004", "0.31", true},
	}
	for _, tt := range tests {
		if got := premioConfere(r(tt.sent), r(tt.want)); got != tt.ok {
			t.Errorf("premioConfere(%s, %s) = %v, want %v", tt.sent, tt.want, got, tt.ok)
		}
	}
	if !totalConfere(r("10.03"), r("10"), 3) || totalConfere(r("10.03000001"), r("10"), 3) || !totalConfere(r("10.01"), r("10"), 0) {
		t.Error("totalConfere: a cent a premium")
	}
}

func TestCheckReservation(t *testing.T) {
	tests := []struct {
		name string
		r    *reservation
		ok   bool
	}{
		{"OK", &reservation{CompanyID: "c1", OfferID: "YZ"}, true},
		{"ErrNotReserved", nil, false},
		{"ErrAnotherOffer", &reservation{CompanyID: "c1", OfferID: "EIS"}, false},
	}
	for _, tt := range tests {
		if err := checkReservation(tt.r, 100001, "YZ"); (err == nil) != tt.ok {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestCheckPreauth(t *testing.T) {
	payer := Payer{CompanyID: "c1", CPF: "52998224725"}
	ok := preautorizacao{CompanyID: "c1", CPF: "52998224725", Valor: 46_34}
	tests := []struct {
		name string
		a    func(a preautorizacao) *preautorizacao
		want string // "" for accepted
	}{
		{"OKCoversToTheCent", func(a preautorizacao) *preautorizacao { return &a }, ""},
		{"ErrOneCentShort", func(a preautorizacao) *preautorizacao { a.Valor--; return &a }, "não cobre o prêmio de 46.34"},
		{"ErrNone", func(preautorizacao) *preautorizacao { return nil }, "não existe"},
		{"ErrAnotherCPF", func(a preautorizacao) *preautorizacao { a.CPF = "11144477735"; return &a }, "outro CPF"},
		{"ErrUsed", func(a preautorizacao) *preautorizacao { a.UsedBy = 100001; return &a }, "já foi usada pela proposta 100001"},
	}
	for _, tt := range tests {
		err := checkPreauth(tt.a(ok), payer, "PA1", 46_34)
		if got := fmt.Sprint(err); (tt.want == "") != (err == nil) || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestCheckToken(t *testing.T) {
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	payer := Payer{CompanyID: "c1", CPF: "52998224725"}
	tests := []struct {
		name string
		t    *usedToken
		ok   bool
	}{
		{"OK", &usedToken{ID: "t", ExpiresAt: now.Add(time.Minute)}, true},
		{"ErrNone", nil, false},
		{"ErrUsed", &usedToken{ID: "t", ExpiresAt: now.Add(time.Minute), Used: true}, false},
		{"ErrExpired", &usedToken{ID: "t", ExpiresAt: now.Add(-time.Second)}, false},
	}
	for _, tt := range tests {
		if err := checkToken(tt.t, payer, "123456", now); (err == nil) != tt.ok {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestApplyGrants(t *testing.T) {
	got := applyGrants([]string{"YZ", "EIS"}, []grant{{OfferID: "EIS", Granted: false}, {OfferID: "A75", Granted: true}, {OfferID: "YZ", Granted: true}})
	if want := []string{"A75", "YZ"}; !reflect.DeepEqual(got, want) {
		t.Errorf("applyGrants = %v, want %v", got, want)
	}
}
