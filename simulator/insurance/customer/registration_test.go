package customer

import (
	"reflect"
	"testing"
)

func TestChanged(t *testing.T) {
	dados := map[string]any{"email": "a@b.com", "telefone": "11999990000"}
	got := changed(dados, map[string]any{"email": "a@b.com", "telefone": "11888880000", "endereco": map[string]any{"cep": "01001000"}, "nome": "ignored"})
	if want := []string{"telefone", "endereco"}; !reflect.DeepEqual(got, want) {
		t.Errorf("changed = %v, want %v", got, want)
	}
	if dados["telefone"] != "11888880000" || dados["nome"] != nil {
		t.Errorf("dados = %v", dados)
	}
}

func TestCheckDadosCadastrais(t *testing.T) {
	tests := []struct {
		in map[string]any
		ok bool
	}{
		{map[string]any{"email": "a@b.com", "endereco": map[string]any{"cep": "01001000"}}, true},
		{map[string]any{"telefone": "11"}, true},
		{map[string]any{"email": "sem-arroba"}, false},
		{map[string]any{"endereco": map[string]any{"cep": "01001-000"}}, false},
	}
	for _, tt := range tests {
		if err := checkDadosCadastrais(tt.in); (err == nil) != tt.ok {
			t.Errorf("checkDadosCadastrais(%v) = %v, want ok %v", tt.in, err, tt.ok)
		}
	}
}
