package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"homologa/simulator/server"
)

// TestV2ModelsAsDeclared: where the v2 models declare a String the v2
// clients get a string (ResumoDaProposta.valorProposta, a simulation
// coverage's causaId), the other clients the number they read; and the
// fields the v2 Produto, Cobertura and Questionario models have and the
// catalogue does not are present, null (or what the catalogue knows of
// them), not left out.
func TestV2ModelsAsDeclared(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)})
	defer s.Close(context.Background())
	tok, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "apiseguradora")
	if err != nil {
		t.Fatal(err)
	}
	call := func(method, path, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var out map[string]any
		json.Unmarshal(b, &out)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return out
	}
	venda := call(http.MethodPost, "/api/v2/venda", `{"CNPJ": "11222333000181", "ModeloProposta": "YZ",
		"DadosProponente": {"Nome": "TIPOS", "DtNascimento": "1980-05-10T00:00:00.000Z", "Sexo": "MASCULINO", "CPF": "11144477735",
			"RendaMensal": 12000, "Enderecos": [{"ESTADO": "RJ"}], "Profissao": {"Codigo": "2521-05"}},
		"Planos": {"Plano": [{"Codigo": 511, "Coberturas": [{"Codigo": 1001, "VlContrib": 135.27, "VlCobertura": 300000}]}]},
		"DadosCobranca": {"Periodicidade": "MENSAL", "TipoCobranca": "BOLETO", "DiaVencimento": 15}}`)
	numero := jsonOf(venda["Valor"])
	if v := dig(call(http.MethodGet, "/api/v2/Proposta/"+numero+"?cnpj=11222333000181", ""), "Valor.valorProposta"); v != "135.27" {
		t.Errorf("v2 valorProposta %#v, want the string", v)
	}
	if v := dig(call(http.MethodGet, "/apiseguradora/v3/proposta/"+numero, ""), "Valor.valorProposta"); v != 135.27 {
		t.Errorf("v3 valorProposta %#v, want the number", v)
	}
	const sim = `{"simulacoes": [{"proponente": {"nome": "X", "cpf": "11144477735", "dataNascimento": "1986-03-15", "profissaoCbo": "2410-05", "renda": 8000, "sexoId": 2, "uf": "SP"}}]}`
	if v := dig(call(http.MethodPost, "/api/v2/Simulacao?cnpj=11222333000181&codigoModeloProposta=YZ", sim), "Valor.simulacoes.0.produtos.0.coberturas.0.causaId"); v != "1" {
		t.Errorf("v2 causaId %#v, want the string", v)
	}
	if v := dig(call(http.MethodPost, "/apiseguradora/v3/simulacao?cnpj=11222333000181&codigoModeloProposta=YZ", sim), "Valor.simulacoes.0.produtos.0.coberturas.0.causaId"); v != 1.0 {
		t.Errorf("v3 causaId %#v, want the number", v)
	}
	produto := call(http.MethodGet, "/api/v2/Produto/511?codigoModeloProposta=YZ", "")
	for _, f := range []string{"Valor.fundos", "Valor.prazoRenda", "Valor.periodicidades", "Valor.formasPagamento", "Valor.profissoesAceitas",
		"Valor.coberturas.0.exigeDPS", "Valor.coberturas.0.tipoRelacaoSegurado", "Valor.coberturas.0.dependenciasCoberturaProdutos"} {
		if v, present := digPresent(produto, f); !present || v != nil {
			t.Errorf("%s: %#v (present %v), want null", f, v, present)
		}
	}
	q := call(http.MethodGet, "/api/v2/Questionario/901?codigoModeloProposta=YZ", "")
	if dig(q, "Valor.tipo.sigla") != "DPS" || dig(q, "Valor.relacaoSegurado.descricao") != "TITULAR" {
		t.Errorf("questionnaire %v", q)
	}
	if v, present := digPresent(q, "Valor.sexo"); !present || v != nil {
		t.Errorf("sexo %#v (present %v)", v, present)
	}
	if c, _ := dig(q, "Valor.condicoes").([]any); c == nil {
		t.Errorf("condicoes %#v", dig(q, "Valor.condicoes"))
	}
}

// dig is the value at a dotted path of a decoded document.
func dig(v any, path string) any {
	out, _ := digPresent(v, path)
	return out
}

// digPresent is dig, and whether the path's last member is present.
func digPresent(v any, path string) (any, bool) {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return nil, false
			}
		case []any:
			i := 0
			for _, c := range k {
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}
