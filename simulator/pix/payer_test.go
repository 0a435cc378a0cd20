package pix

import (
	"strings"
	"testing"

	"homologa/simulator/errs"
	"homologa/simulator/money"
)

func TestPaidAmount(t *testing.T) {
	fixed := &charge{TxID: "t", Body: doc{"valor": doc{"original": "50.00"}}}
	alterable := &charge{TxID: "t", Body: doc{"valor": doc{"original": "50.00", "modalidadeAlteracao": float64(1)}}}
	owed := money.Cents(50_00)
	tests := []struct {
		name string
		c    *charge
		in   Payment
		want money.Cents
		code errs.Code
	}{
		{"OK the amount owed", fixed, Payment{Valor: "50.00"}, 50_00, ""},
		{"ErrDivergent", fixed, Payment{Valor: "49.99"}, 0, errs.Unprocessable},
		{"OK divergent on purpose", fixed, Payment{Valor: "49.99", ValorDivergente: true}, 49_99, ""},
		{"OK alterable", alterable, Payment{Valor: "70.00"}, 70_00, ""},
		{"ErrFormat", fixed, Payment{Valor: "49,99"}, 0, errs.Invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, comps, err := paidAmount(tt.c, tt.in, owed, doc{"original": doc{"valor": "50.00"}})
			if tt.code != "" {
				if !errs.Is(err, tt.code) {
					t.Errorf("got %v, want %s", err, tt.code)
				}
				return
			}
			if err != nil || got != tt.want || str(sub(comps, "original"), "valor") != tt.want.String() {
				t.Errorf("got %v %v %v, want %v", got, comps, err, tt.want)
			}
		})
	}
}

func TestPaidAmountSaysValorDivergente(t *testing.T) {
	_, _, err := paidAmount(&charge{TxID: "t", Body: doc{}}, Payment{Valor: "1.00"}, 2_00, nil)
	if err == nil || !strings.Contains(err.Error(), "valorDivergente") || !strings.Contains(err.Error(), "pede 2.00") {
		t.Errorf("got %v", err)
	}
}

func TestPaymentRule(t *testing.T) {
	in := Payment{}
	if err := paymentRule(in); err != nil {
		t.Errorf("no payer: %v", err)
	}
	in.Pagador = &struct {
		CPF  string `json:"cpf"`
		CNPJ string `json:"cnpj"`
		Nome string `json:"nome"`
	}{CPF: "12345678900"}
	if err := paymentRule(in); !errs.Is(err, errs.Invalid) {
		t.Errorf("bad CPF: got %v, want invalid", err)
	}
	in.Pagador.CPF, in.Pagador.CNPJ = "", "11222333000181"
	if err := paymentRule(in); err != nil {
		t.Errorf("good CNPJ: %v", err)
	}
}
