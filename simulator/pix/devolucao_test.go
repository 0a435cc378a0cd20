package pix

import (
	"strings"
	"testing"
	"time"

	"homologa/simulator/money"
)

func TestDevolucaoRule(t *testing.T) {
	paid := t0
	plain := &pixRecebido{Valor: 100_00, Horario: paid, Body: doc{"componentesValor": doc{"original": doc{"valor": "100.00"}}}}
	saque := &pixRecebido{Valor: 150_00, Horario: paid, Body: doc{"componentesValor": doc{"original": doc{"valor": "100.00"}, "saque": doc{"valor": "50.00"}}}}
	req := func(natureza, valor string) devolucaoRequest {
		return devolucaoRequest{ID: "d1", Natureza: natureza, Valor: valor}
	}
	tests := []struct {
		name  string
		p     *pixRecebido
		in    devolucaoRequest
		taken bool
		done  money.Cents
		now   time.Time
		want  string // the violated field, "" for none
	}{
		{"OK", plain, req("ORIGINAL", "100.00"), false, 0, paid, ""},
		{"OK the rest", plain, req("ORIGINAL", "40.00"), false, 60_00, paid, ""},
		{"ErrTaken", plain, req("ORIGINAL", "1.00"), true, 0, paid, "id"},
		{"ErrAfter90Days", plain, req("ORIGINAL", "1.00"), false, 0, paid.Add(devolucaoWindow + time.Second), "valor"},
		{"OK on the 90th day", plain, req("ORIGINAL", "1.00"), false, 0, paid.Add(devolucaoWindow), ""},
		{"ErrRetiradaWithoutSaque", plain, req("RETIRADA", "1.00"), false, 0, paid, "natureza"},
		{"OK retirada", saque, req("RETIRADA", "50.00"), false, 0, paid, ""},
		{"ErrOverLimit", plain, req("ORIGINAL", "40.01"), false, 60_00, paid, "valor"},
		{"ErrOriginalOfASaque", saque, req("ORIGINAL", "100.01"), false, 0, paid, "valor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			valor, _ := money.Parse(tt.in.Valor)
			v := devolucaoRule(tt.p, tt.in, valor, tt.taken, tt.done, tt.now)
			got := ""
			if v != nil {
				got = v.field
			}
			if got != tt.want {
				t.Errorf("got %v, want field %q", v, tt.want)
			}
		})
	}
}

func TestDevolucaoRuleSaysTheSums(t *testing.T) {
	p := &pixRecebido{Valor: 100_00, Horario: t0, Body: doc{}}
	v := devolucaoRule(p, devolucaoRequest{Natureza: "ORIGINAL", Valor: "50.00"}, 50_00, false, 60_00, t0)
	want := "a soma das devoluções (60.00 já pedidos + 50.00) excede o valor devolvível de 100.00 (ORIGINAL)"
	if v == nil || v.reason != want {
		t.Errorf("got %v, want %q", v, want)
	}
}

func TestSettled(t *testing.T) {
	d := doc{"status": EmProcessamento, "horario": doc{"solicitacao": "x"}}
	settled(d, Devolvido, "", t0)
	if d["status"] != Devolvido || str(d, "horario", "liquidacao") != rfc3339(t0) || d["motivo"] != nil {
		t.Errorf("DEVOLVIDO: got %v", d)
	}
	d = doc{"status": EmProcessamento, "horario": doc{}}
	settled(d, NaoRealizado, "Conta encerrada", t0)
	if d["status"] != NaoRealizado || str(d, "horario", "liquidacao") != "" || !strings.Contains(str(d, "motivo"), "encerrada") {
		t.Errorf("NAO_REALIZADO: got %v", d)
	}
}

func TestDevolucaoIDRule(t *testing.T) {
	for id, ok := range map[string]bool{"d1": true, strings.Repeat("a", 35): true, strings.Repeat("a", 36): false, "": false, "d-1": false} {
		if err := devolucaoIDRule(id); (err == nil) != ok {
			t.Errorf("devolucaoIDRule(%q) = %v, want ok %v", id, err, ok)
		}
	}
}
