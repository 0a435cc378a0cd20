package pix

import (
	"database/sql"
	"reflect"
	"testing"

	"homologa/simulator/pix/duedate"
)

func TestValidateRec(t *testing.T) {
	today := duedate.MustParse("2026-01-05")
	rec := func(cal doc, more ...any) doc {
		d := doc{"calendario": cal, "vinculo": doc{"devedor": doc{"cpf": "52998224725"}}}
		for i := 0; i+1 < len(more); i += 2 {
			d[more[i].(string)] = more[i+1]
		}
		return d
	}
	tests := []struct {
		name string
		req  doc
		want []string
	}{
		{"OK", rec(doc{"dataInicial": "2026-01-05", "dataFinal": "2026-12-31"}), nil},
		{"ErrPast", rec(doc{"dataInicial": "2026-01-04"}), []string{"calendario.dataInicial"}},
		{"ErrNotADate", rec(doc{"dataInicial": "2026-13-01"}), []string{"calendario.dataInicial"}},
		{"ErrFinalBeforeInitial", rec(doc{"dataInicial": "2026-02-01", "dataFinal": "2026-01-31"}), []string{"calendario.dataFinal"}},
		{"ErrBothValues", rec(doc{"dataInicial": "2026-02-01"}, "valor", doc{"valorRec": "1.00", "valorMinimoRecebedor": "1.00"}), []string{"valor"}},
		{"ErrCPF", doc{"calendario": doc{"dataInicial": "2026-02-01"}, "vinculo": doc{"devedor": doc{"cpf": "12345678900"}}}, []string{"vinculo.devedor.cpf"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fields(validateRec(tt.req, today)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRecPatchRule(t *testing.T) {
	tests := []struct {
		name   string
		status string
		req    doc
		want   string // the violated field
	}{
		{"OK cancel", RecAprovada, doc{"status": RecCancelada}, ""},
		{"OK loc while CRIADA", RecCriada, doc{"loc": float64(1)}, ""},
		{"OK nome when APROVADA", RecAprovada, doc{"vinculo": doc{"devedor": doc{"nome": "X"}}}, ""},
		{"ErrEnded", RecCancelada, doc{"vinculo": doc{"devedor": doc{"nome": "X"}}}, "status"},
		{"ErrOtherStatus", RecCriada, doc{"status": RecAprovada}, "status"},
		{"ErrLocWhenAPROVADA", RecAprovada, doc{"loc": float64(1)}, "loc"},
		{"ErrDataInicialWhenAPROVADA", RecAprovada, doc{"calendario": doc{"dataInicial": "2026-02-01"}}, "calendario.dataInicial"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := recPatchRule(tt.status, tt.req)
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

func TestLocRecRule(t *testing.T) {
	tests := []struct {
		name string
		l    *locRec
		want string
	}{
		{"OK free", &locRec{ID: 1}, ""},
		{"OK its own", &locRec{ID: 1, IDRec: sql.NullString{String: "R1", Valid: true}}, ""},
		{"ErrMissing", nil, "location de recorrência inexistente"},
		{"ErrInUse", &locRec{ID: 1, IDRec: sql.NullString{String: "R2", Valid: true}}, "a location já está em uso por outra recorrência"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := locRecRule(tt.l, "R1"); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRecLocID(t *testing.T) {
	tests := []struct {
		v    any
		id   int64
		isID bool
	}{
		{float64(3), 3, true},
		{map[string]any{"id": float64(4)}, 4, true},
		{"3", 0, false},
		{map[string]any{"location": "x"}, 0, false},
	}
	for _, tt := range tests {
		if id, ok := recLocID(tt.v); id != tt.id || ok != tt.isID {
			t.Errorf("recLocID(%v) = %d, %v; want %d, %v", tt.v, id, ok, tt.id, tt.isID)
		}
	}
}

func TestPayerOf(t *testing.T) {
	withCPF := Payment{ISPB: "1"}
	withCPF.Pagador = &struct {
		CPF  string `json:"cpf"`
		CNPJ string `json:"cnpj"`
		Nome string `json:"nome"`
	}{CPF: "52998224725"}
	tests := []struct {
		name string
		in   Payment
		dev  doc
		want doc
	}{
		{"OK who paid", withCPF, doc{"cnpj": "11222333000181"}, doc{"ispbParticipante": "1", "cpf": "52998224725"}},
		{"OK the debtor's CPF", Payment{ISPB: "2"}, doc{"cpf": "12345678909"}, doc{"ispbParticipante": "2", "cpf": "12345678909"}},
		{"OK the debtor's CNPJ", Payment{ISPB: "2"}, doc{"cnpj": "11222333000181"}, doc{"ispbParticipante": "2", "cnpj": "11222333000181"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := payerOf(tt.in, tt.dev); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewRecBody(t *testing.T) {
	req := doc{"recebedor": doc{"convenio": "C1"}, "calendario": doc{"dataInicial": "2026-02-01"}}
	got := newRecBody(req, "RR1", company{CNPJ: "11222333000181", Name: "Loja"}, t0)
	if got["idRec"] != "RR1" || got["status"] != RecCriada || str(got, "recebedor", "convenio") != "C1" || str(got, "recebedor", "nome") != "Loja" ||
		str(got, "ativacao", "tipoJornada") != "AGUARDANDO_DEFINICAO" || len(got["atualizacao"].([]any)) != 1 {
		t.Errorf("got %v", got)
	}
}

func TestRejectionText(t *testing.T) {
	for code, want := range map[string]string{"AP13": "Rejeitada pelo usuário pagador", "AP14": "Rejeitada pelo PSP do usuário pagador", "XX99": "Rejeitada"} {
		if got := rejectionText(code); got != want {
			t.Errorf("rejectionText(%s) = %q, want %q", code, got, want)
		}
	}
}
