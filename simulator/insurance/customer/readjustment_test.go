package customer

import (
	"reflect"
	"slices"
	"testing"

	"homologa/simulator/insurance/sale"
	"homologa/simulator/money"
)

func TestAccumulate(t *testing.T) {
	r := money.MustParseRate
	tests := []struct {
		name   string
		months []money.Rate
		want   money.Rate
	}{
		{"DefaultMonthlyAYear", slices.Repeat([]money.Rate{defaultMonthly}, 12), r("4.2818")},
		{"UpAndDown", []money.Rate{r("1"), r("-1")}, r("-0.01")},
		{"Nothing", nil, 0},
		{"HalfAPercentAMonth", slices.Repeat([]money.Rate{r("0.5")}, 12), r("6.1678")},
		// A half in the fifth place rounds away from zero.
		{"HalfUp", []money.Rate{r("0.00005")}, r("0.0001")},
		{"HalfAwayFromZero", []money.Rate{r("-0.00005")}, r("-0.0001")},
	}
	for _, tt := range tests {
		if got := accumulate(tt.months); got != tt.want {
			t.Errorf("%s: accumulate = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestReadjust(t *testing.T) {
	covs := []sale.Cobertura{{ItemProdutoID: 1, CapitalSegurado: 100000_00, Premio: 46_34}, {ItemProdutoID: 2, CapitalSegurado: 5000_00, Premio: 1_01}}
	got, total := readjust(covs, money.MustParseRate("4.2818"))
	want := []sale.Cobertura{{ItemProdutoID: 1, CapitalSegurado: 104281_80, Premio: 48_32}, {ItemProdutoID: 2, CapitalSegurado: 5214_09, Premio: 1_05}}
	if !reflect.DeepEqual(got, want) || total != money.Cents(49_37) {
		t.Errorf("readjust = %+v, %s; want %+v, 49.37", got, total, want)
	}
}

// The documented rule (README, customer cycle): the percentage rounded to
// four decimals is what is applied, so the event's percentual recomputes
// the new values; 1.005^12 unrounded would make the capital 212335.56.
func TestReadjustAppliesTheRoundedPercentage(t *testing.T) {
	pct := accumulate(slices.Repeat([]money.Rate{money.MustParseRate("0.5")}, 12))
	got, total := readjust([]sale.Cobertura{{ItemProdutoID: 1001, CapitalSegurado: 200000_00, Premio: 46_34}}, pct)
	if got[0].CapitalSegurado != 212335_60 || got[0].Premio != 49_20 || total != 49_20 {
		t.Errorf("readjust by %v%% = %+v, %s; want capital 212335.60 and premium 49.20", pct, got, total)
	}
}
