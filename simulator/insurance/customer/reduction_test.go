package customer

import (
	"reflect"
	"testing"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/money"
)

func ptr(c money.Cents) *money.Cents { return &c }

// An enrollment of two coverages: 1001 (minimum capital 10,000) and 1003
// (fixed capital), premium 50 + 10.
func enrollment() *Inscricao {
	return &Inscricao{ValorContribuicao: 60_00, Coberturas: []sale.Cobertura{
		{ItemProdutoID: 1001, CapitalSegurado: 100000_00, Premio: 50_00},
		{ItemProdutoID: 1003, CapitalSegurado: 5000_00, Premio: 10_00},
	}}
}

func catalogue(item int) *catalog.Cobertura {
	switch item {
	case 1001:
		return &catalog.Cobertura{ItemProdutoID: 1001, ValorMinimoCapitalContratacao: 10000_00}
	case 1003:
		return &catalog.Cobertura{ItemProdutoID: 1003, CapitalFixo: true}
	}
	return nil
}

func TestReduced(t *testing.T) {
	tests := []struct {
		name   string
		novos  map[int]money.Cents
		ticket money.Cents
		total  money.Cents
		fields []string
	}{
		{"OKHalfTheCapital", map[int]money.Cents{1001: 50000_00}, 20_00, 35_00, nil},
		{"OKPremiumToTheCent", map[int]money.Cents{1001: 33333_33}, 0, 26_67, nil},
		{"ErrNotLower", map[int]money.Cents{1001: 100000_00}, 0, 0, []string{"coberturas.0.capitalSeguradoNovo"}},
		{"ErrFixedCapital", map[int]money.Cents{1003: 1000_00}, 0, 0, []string{"coberturas.1.capitalSeguradoNovo"}},
		{"ErrBelowMinimum", map[int]money.Cents{1001: 9999_99}, 0, 0, []string{"coberturas.0.capitalSeguradoNovo"}},
		{"ErrNoSuchCoverage", map[int]money.Cents{2002: 1_00}, 0, 0, []string{"coberturas"}},
		{"ErrBelowTicket", map[int]money.Cents{1001: 10000_00}, 20_00, 0, []string{"coberturas"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := enrollment()
			covs, total, vs := reduced(in.Coberturas, tt.novos, catalogue, tt.ticket, "YZ")
			var fields []string
			for _, v := range vs {
				fields = append(fields, v.Field)
			}
			if !reflect.DeepEqual(fields, tt.fields) {
				t.Fatalf("violations %+v, want fields %v", vs, tt.fields)
			}
			if len(vs) == 0 && total != tt.total {
				t.Errorf("premium %s, want %s (%+v)", total, tt.total, covs)
			}
			if in.Coberturas[0].CapitalSegurado != 100000_00 {
				t.Error("the enrollment's own coverages changed")
			}
		})
	}
}

func TestNewCapitals(t *testing.T) {
	t.Run("OKPremiumLowersEachCapitalToWholeReais", func(t *testing.T) {
		got, err := newCapitals(enrollment(), reducao{ValorContribuicao: ptr(30_00)})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[int]money.Cents{1001: 50000_00, 1003: 2500_00}; !reflect.DeepEqual(got, want) {
			t.Errorf("capitals %v, want %v", got, want)
		}
	})
	t.Run("ErrPremiumNotLower", func(t *testing.T) {
		if _, err := newCapitals(enrollment(), reducao{ValorContribuicao: ptr(60_00)}); !errs.Is(err, errs.Unprocessable) {
			t.Errorf("err %v, want a broken rule", err)
		}
	})
	t.Run("ErrCapitalMissing", func(t *testing.T) {
		_, err := newCapitals(enrollment(), reducao{Capitais: []capitalNovo{{ItemProdutoID: 1001}}})
		if e := errs.As(err); e.Code != errs.Invalid || e.Violations[0].Field != "coberturas.0.capitalSeguradoNovo" {
			t.Errorf("err %v, want a 400 on coberturas.0.capitalSeguradoNovo", err)
		}
	})
}
