package pix

import (
	"testing"
	"time"
)

func TestValidateSolicRec(t *testing.T) {
	req := func(cpf, exp string) doc {
		return doc{"destinatario": doc{"cpf": cpf}, "calendario": doc{"dataExpiracaoSolicitacao": exp}}
	}
	tests := []struct {
		name string
		req  doc
		want string // the violated field
	}{
		{"OK", req("52998224725", "2026-01-06T12:00:00Z"), ""},
		{"ErrCPF", req("12345678900", "2026-01-06T12:00:00Z"), "destinatario.cpf"},
		{"ErrNotATime", req("52998224725", "2026-01-06"), "calendario.dataExpiracaoSolicitacao"},
		{"ErrNotFuture", req("52998224725", "2026-01-05T12:00:00Z"), "calendario.dataExpiracaoSolicitacao"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp, v := validateSolicRec(tt.req, t0)
			got := ""
			if v != nil {
				got = v.field
			}
			if got != tt.want || v == nil && !exp.Equal(t0.Add(24*time.Hour)) {
				t.Errorf("got %v, %v; want field %q", exp, v, tt.want)
			}
		})
	}
}

func TestRecPayload(t *testing.T) {
	rc := &rec{ID: "RR1", Body: doc{"vinculo": doc{"contrato": "c"}, "recebedor": doc{"cnpj": "11222333000181"}, "status": RecCriada, "loc": doc{}}}
	got := recPayload(rc)
	if got["idRec"] != "RR1" || str(got, "vinculo", "contrato") != "c" || str(got, "recebedor", "ispbParticipante") != ISPB || got["status"] != nil || got["loc"] != nil {
		t.Errorf("got %v", got)
	}
	if str(rc.Body, "recebedor", "ispbParticipante") != "" {
		t.Error("recPayload changed the recurrence")
	}
}

func TestSolicRecMachine(t *testing.T) {
	for _, m := range []struct {
		from, to string
		ok       bool
	}{
		{SolCriada, SolEnviada, true},
		{SolRecebida, SolAceita, true},
		{SolCriada, SolAceita, false},
		{SolAceita, SolCancelada, false},
	} {
		if _, err := solicRecMachine.Check(m.from, m.to); (err == nil) != m.ok {
			t.Errorf("%s → %s: %v, want ok %v", m.from, m.to, err, m.ok)
		}
	}
}
