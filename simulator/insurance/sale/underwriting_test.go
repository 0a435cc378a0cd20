package sale

import (
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
	q, _ := catalog.Price(o, catalog.Profile{BirthDate: now.AddDate(-35, 0, -1), At: now, SexoID: catalog.SexoMasculino, Renda: 100000_00}, 100000_00, 30)
	var covs []any
	var total money.Cents
	for _, p := range q.Produtos {
		if p.IDProduto != 511 {
			continue
		}
		for _, cq := range p.Coberturas {
			covs = append(covs, map[string]any{"CODIGO": float64(cq.ItemProdutoID), "VL_COBERTURA": 100000.0, "VL_CONTRIB": premio(cq.ItemProdutoID, cq.Premio)})
			total += cq.Premio
		}
	}
	if len(covs) == 0 {
		t.Fatal("product 511 not quoted")
	}
	prop := map[string]any{
		"DADOS_PROPONENTE": map[string]any{"CPF": "52998224725", "DT_NASCIMENTO": now.AddDate(-35, 0, -1).Format(time.DateOnly), "SEXO": "MASCULINO",
			"RENDA_MENSAL": 100000.0},
		"DADOS_COBRANCA": map[string]any{"PERIODICIDADE": "MENSAL"},
		"PLANOS":         map[string]any{"PLANO": map[string]any{"CODIGO": float64(511), "COBERTURAS": map[string]any{"COBERTURA": covs}}},
	}
	return o, prop, total, now
}

func TestUnderwriteComparesPremiumsToTheCent(t *testing.T) {
	tests := []struct {
		name   string
		premio func(item int, quoted money.Cents) any
		total  func(quoted money.Cents) any // VL_TOTAL, nil for none
		fields []string
	}{
		{"OKAsNumbers", func(_ int, q money.Cents) any { return q.Float() }, nil, nil},
		{"OKAsStrings", func(_ int, q money.Cents) any { return q.String() }, func(q money.Cents) any { return q.String() }, nil},
		{"ErrOneCentShort", func(item int, q money.Cents) any {
			if item == 1001 {
				q--
			}
			return q.Float()
		}, nil, []string{"PROPOSTA.PLANOS.PLANO.0.COBERTURAS.COBERTURA.0.VL_CONTRIB"}},
		{"ErrTotalOneCentOver", func(_ int, q money.Cents) any { return q.Float() }, func(q money.Cents) any { return (q + 1).Float() },
			[]string{"PROPOSTA.PLANOS.VL_TOTAL"}},
		{"ErrNotANumber", func(_ int, q money.Cents) any { return "quarenta" }, nil, []string{"PROPOSTA.PLANOS.PLANO.0.COBERTURAS.COBERTURA.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, prop, quoted, now := quotedProposal(t, tt.premio)
			if tt.total != nil {
				prop["PLANOS"].(map[string]any)["VL_TOTAL"] = tt.total(quoted)
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
