package pix

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"homologa/simulator/pix/duedate"
)

func cobvDoc(due string, valor doc) doc {
	return doc{"calendario": doc{"dataDeVencimento": due}, "valor": valor, "chave": "52998224725"}
}

func TestValidateCobV(t *testing.T) {
	tests := []struct {
		name string
		d    doc
		want []string
	}{
		{"OK", cobvDoc("2026-01-05", doc{"original": "100.00"}), nil},
		{"ErrDueBeforeCreation", cobvDoc("2026-01-04", doc{"original": "100.00"}), []string{"cobv.calendario.dataDeVencimento"}},
		{"ErrDueNotADate", cobvDoc("05/01/2026", doc{"original": "100.00"}), []string{"cobv.calendario.dataDeVencimento"}},
		{"ErrOriginalFormat", cobvDoc("2026-01-05", doc{"original": "100"}), []string{"cobv.valor.original"}},
		{"ErrMultaModalidade", cobvDoc("2026-01-05", doc{"original": "100.00", "multa": doc{"modalidade": float64(3), "valorPerc": "1.00"}}),
			[]string{"cobv.valor.multa.modalidade"}},
		{"ErrAbatimentoTooBig", cobvDoc("2026-01-05", doc{"original": "100.00", "abatimento": doc{"modalidade": float64(1), "valorPerc": "100.00"}}),
			[]string{"cobv.valor.abatimento.valorPerc"}},
		{"ErrDiscountAfterDue indexed as violacoes name it", cobvDoc("2026-01-05", doc{"original": "100.00",
			"desconto": doc{"modalidade": float64(1), "descontoDataFixa": []any{doc{"data": "2026-01-06", "valorPerc": "1.00"}}}}),
			[]string{"cobv.valor.desconto.descontoDataFixa.0.data"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fields(validateCobV(tt.d, t0)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestValidateCobVReasonsArePortuguese(t *testing.T) {
	vs := validateCobV(cobvDoc("2026-01-05", doc{"original": "100.00", "juros": doc{"modalidade": float64(9), "valorPerc": "1.00"}}), t0)
	if len(vs) != 1 || !strings.Contains(vs[0].reason, "não está entre 1 e 8") {
		t.Errorf("got %v, want the juros modalidade out of 1 to 8, in Portuguese", vs)
	}
}

func TestDueCharge(t *testing.T) {
	d := cobvDoc("2026-01-05", doc{"original": "100.00", "multa": doc{"modalidade": float64(2), "valorPerc": "2.00"},
		"desconto": doc{"modalidade": float64(1), "descontoDataFixa": []any{doc{"data": "2026-01-02", "valorPerc": "5.00"}}}})
	sub(d, "calendario")["validadeAposVencimento"] = float64(10)
	ch, vs := dueCharge(d)
	if len(vs) > 0 {
		t.Fatalf("violations %v", vs)
	}
	want := duedate.Charge{Original: 100_00, DueDate: duedate.MustParse("2026-01-05"), Validity: 10,
		Multa:    &duedate.Rule{Modalidade: 2, ValorPerc: 2_00},
		Desconto: &duedate.Discount{Modalidade: 1, Fixed: []duedate.FixedDiscount{{Date: duedate.MustParse("2026-01-02"), ValorPerc: 5_00}}}}
	if !reflect.DeepEqual(ch, want) {
		t.Errorf("got %+v, want %+v", ch, want)
	}
	if ch, _ := dueCharge(cobvDoc("2026-01-05", doc{"original": "1.00"})); ch.Validity != 30 {
		t.Errorf("validity by default = %d, want 30", ch.Validity)
	}
}

func TestOwedCobV(t *testing.T) {
	c := &charge{Kind: "cobv", Body: cobvDoc("2026-01-05", doc{"original": "100.00", "multa": doc{"modalidade": float64(2), "valorPerc": "2.00"}})}
	sub(c.Body, "calendario")["validadeAposVencimento"] = float64(1)
	at := func(day string) time.Time { return atBRT(duedate.MustParse(day), 15, 0, 0) }
	tests := []struct {
		name  string
		day   string
		want  int64
		multa string
		err   string
	}{
		{"OK on time", "2026-01-05", 100_00, "", ""},
		{"OK late", "2026-01-06", 102_00, "2.00", ""},
		{"ErrExpired", "2026-01-07", 0, "", "podia ser paga até 2026-01-06"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, comps, err := owedCobV(c, at(tt.day))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("got %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || int64(got) != tt.want || str(sub(comps, "multa"), "valor") != tt.multa {
				t.Errorf("got %v %v %v, want %d with multa %q", got, comps, err, tt.want, tt.multa)
			}
		})
	}
}

func TestToday(t *testing.T) {
	// 02:00 UTC is still the day before in Brasília.
	if got := today(time.Date(2026, 1, 5, 2, 0, 0, 0, time.UTC)); got != duedate.MustParse("2026-01-04") {
		t.Errorf("got %s, want 2026-01-04", got)
	}
}
