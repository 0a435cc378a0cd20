package sale_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/server"
)

// sandbox is a frozen-clock sandbox with the demo app, for the answers
// endpoint's HTTP behaviour.
type sandbox struct {
	t *testing.T
	s *server.Server
}

func startSandbox(t *testing.T) *sandbox {
	t.Helper()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: "frozen",
		ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return &sandbox{t, s}
}

func (sb *sandbox) token(clientID, secret, scope string) string {
	sb.t.Helper()
	tok, err := sb.s.Auth.IssueToken(context.Background(), clientID, secret, scope)
	if err != nil {
		sb.t.Fatal(err)
	}
	return tok.AccessToken
}

// call sends body (JSON) and decodes the answer.
func (sb *sandbox) call(method, path, tok, body string) (int, map[string]any, []byte) {
	sb.t.Helper()
	req, _ := http.NewRequest(method, sb.s.URL()+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		sb.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	json.Unmarshal(raw, &m)
	return resp.StatusCode, m, raw
}

// valid checks an answer against its schema, as the harness does.
func (sb *sandbox) valid(name string, raw []byte) {
	sb.t.Helper()
	vs, err := sb.s.Schemas.Validate(name, raw)
	if err != nil || len(vs) > 0 {
		sb.t.Errorf("answer breaks %s: %v %+v\n%s", name, err, vs, raw)
	}
}

// field reads a dotted path of a decoded answer.
func field(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

const answered901 = `{"respostas": [{"perguntaId": 1, "valor": 72.5}, {"perguntaId": 2, "valor": 1.8}, {"perguntaId": 3, "valor": false},
	{"perguntaId": 4, "valor": null}, {"perguntaId": 5, "valor": false}, {"perguntaId": 6, "valor": ""},
	{"perguntaId": 7, "valor": true}, {"perguntaId": 8, "valor": 1}, {"perguntaId": 9, "valor": "2025-11-20"}], "autor": "widget"}`

func TestQuestionnaireAnswers(t *testing.T) {
	sb := startSandbox(t)
	seguradora := sb.token(server.DemoClientID, server.DemoClientSecret, "apiseguradora apiunderwriting")
	// The forms widget's token carries api.questionario alone (SUMMARY §3.10).
	widget := sb.token(server.DemoClientID, server.DemoClientSecret, "api.questionario")

	code, m, _ := sb.call(http.MethodPost, "/insurer/v1/proposals/YZ/next-number", seguradora, "")
	if code != 201 {
		t.Fatalf("reserve: %d %v", code, m)
	}
	numero := int64(m["proposalReservedNumber"].(float64))
	path := fmt.Sprintf("/insurer/v1/proposta/%d/questionario/901", numero)

	t.Run("OKNothingYet", func(t *testing.T) {
		code, m, raw := sb.call(http.MethodGet, path, widget, "")
		if code != 200 || field(m, "Valor.situacao") != "NAO_RESPONDIDO" || field(m, "Valor.modeloProposta") != "YZ" {
			t.Fatalf("%d %s", code, raw)
		}
		sb.valid("insurance/questionario.respostas", raw)
	})
	t.Run("OKQuestionsWithTheWidgetToken", func(t *testing.T) {
		code, m, raw := sb.call(http.MethodGet, "/insurer/v1/questionario?codigoModeloProposta=YZ", widget, "")
		if code != 200 || field(m, "Valor.0.id") != 901.0 {
			t.Fatalf("%d %s", code, raw)
		}
	})
	t.Run("ErrMissingRequired", func(t *testing.T) {
		body := strings.Replace(answered901, `{"perguntaId": 7, "valor": true}, `, "", 1)
		code, m, raw := sb.call(http.MethodPut, path, widget, body)
		if code != 422 || field(m, "HouveErrosDuranteProcessamento") != true ||
			field(m, "Mensagens.0.Codigo") != "RESPOSTAS_INVALIDAS" || field(m, "Mensagens.0.Campo") != "respostas[perguntaId=7]" {
			t.Fatalf("%d %s", code, raw)
		}
	})
	t.Run("ErrWrongTypeAndUnknownQuestion", func(t *testing.T) {
		body := strings.Replace(answered901, `"valor": 72.5}`, `"valor": "setenta"}, {"perguntaId": 77, "valor": true}`, 1)
		code, m, raw := sb.call(http.MethodPut, path, widget, body)
		if code != 422 || field(m, "Mensagens.0.Campo") != "respostas.0.valor" || field(m, "Mensagens.1.Campo") != "respostas.1.perguntaId" {
			t.Fatalf("%d %s", code, raw)
		}
		if !strings.Contains(field(m, "Mensagens.0.Descricao").(string), "Peso (kg)") {
			t.Errorf("the message does not name the question: %s", raw)
		}
	})
	t.Run("ErrMalformedValor", func(t *testing.T) {
		code, m, raw := sb.call(http.MethodPut, path, widget, `{"respostas": [{"perguntaId": 1, "valor": {"kg": 70}}]}`)
		if code != 400 || !strings.HasPrefix(fmt.Sprint(field(m, "Mensagens.0.Campo")), "respostas.0.valor") {
			t.Fatalf("%d %s", code, raw)
		}
	})
	t.Run("OKSavedAndReadBack", func(t *testing.T) {
		code, m, raw := sb.call(http.MethodPut, path, widget, answered901)
		if code != 200 || field(m, "Valor.situacao") != "RESPONDIDO" || field(m, "Valor.autor") != "widget" {
			t.Fatalf("%d %s", code, raw)
		}
		sb.valid("insurance/questionario.respostas", raw)
		code, got, raw := sb.call(http.MethodGet, path, seguradora, "")
		if code != 200 {
			t.Fatalf("%d %s", code, raw)
		}
		sb.valid("insurance/questionario.respostas", raw)
		// Unanswered optional questions (4, 6) are left out; keys are
		// sorted, the answer having been decoded into maps.
		want := `[{"perguntaId":1,"tipoResposta":"VALOR","valor":72.5},{"perguntaId":2,"tipoResposta":"VALOR","valor":1.8},` +
			`{"perguntaId":3,"tipoResposta":"SIM_NAO","valor":false},{"perguntaId":5,"tipoResposta":"SIM_NAO","valor":false},` +
			`{"perguntaId":7,"tipoResposta":"SIM_NAO","valor":true},{"descricaoOpcao":"NENHUM","perguntaId":8,"tipoResposta":"DOMINIO","valor":1},` +
			`{"perguntaId":9,"tipoResposta":"DATA","valor":"2025-11-20"}]`
		if b, _ := json.Marshal(field(got, "Valor.respostas")); string(b) != want {
			t.Errorf("read back\n got %s\nwant %s", b, want)
		}
		if field(got, "Valor.dataAtualizacao") != "2026-01-05T12:00:00Z" {
			t.Errorf("dataAtualizacao %v, want the sandbox clock's", field(got, "Valor.dataAtualizacao"))
		}
	})
	t.Run("ErrOtherOffersQuestionnaire", func(t *testing.T) {
		code, m, raw := sb.call(http.MethodGet, fmt.Sprintf("/insurer/v1/proposta/%d/questionario/902", numero), widget, "")
		if code != 404 || field(m, "Mensagens.0.Codigo") != "QUESTIONARIO_NAO_ENCONTRADO" || field(m, "Mensagens.0.Campo") != "questionarioId" {
			t.Fatalf("%d %s", code, raw)
		}
	})
	t.Run("ErrUnknownNumber", func(t *testing.T) {
		code, m, raw := sb.call(http.MethodPut, "/insurer/v1/proposta/999999/questionario/901", widget, answered901)
		if code != 404 || field(m, "Mensagens.0.Codigo") != "PROPOSTA_NAO_ENCONTRADA" {
			t.Fatalf("%d %s", code, raw)
		}
	})
	t.Run("ErrScope", func(t *testing.T) {
		code, m, raw := sb.call(http.MethodGet, path, sb.token(server.DemoClientID, server.DemoClientSecret, "cartaocredito"), "")
		if code != 403 || field(m, "HouveErrosDuranteProcessamento") != true {
			t.Fatalf("%d %s", code, raw)
		}
	})
	t.Run("ErrAnotherCompanysNumber", func(t *testing.T) {
		ctx := context.Background()
		if _, err := sb.s.Auth.CreateCompany(ctx, "11444777000161", "Corretora Sul"); err != nil {
			t.Fatal(err)
		}
		app, err := sb.s.Auth.CreateApp(ctx, auth.NewApp{Company: "11444777000161", Name: "sul"})
		if err != nil {
			t.Fatal(err)
		}
		code, m, raw := sb.call(http.MethodGet, path, sb.token(app.ClientID, app.ClientSecret, "api.questionario"), "")
		if code != 404 || field(m, "Mensagens.0.Codigo") != "PROPOSTA_NAO_ENCONTRADA" {
			t.Fatalf("%d %s", code, raw)
		}
	})
	t.Run("ErrDecidedProposal", func(t *testing.T) {
		code, m, raw := sb.call(http.MethodPost, "/insurer/v1/simulacao?codigoModeloProposta=EIS", seguradora,
			`{"simulacoes": [{"proponente": {"dataNascimento": "1980-01-01", "sexoId": 2}, "periodicidadeCobrancaId": 30}]}`)
		premio := field(m, "Valor.simulacoes.0.produtos.0.coberturas.0.premio")
		if code != 200 || premio == nil {
			t.Fatalf("simulate: %d %s", code, raw)
		}
		code, m, raw = sb.call(http.MethodPost, "/insurer/v1/proposta?codigoModeloProposta=EIS", seguradora, fmt.Sprintf(
			`{"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
			"PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": %v, "VL_COBERTURA": 7000}]}}]},
			"DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
			"ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}`, premio))
		if code != 201 {
			t.Fatalf("proposal: %d %s", code, raw)
		}
		eis := fmt.Sprintf("/insurer/v1/proposta/%v", field(m, "Valor.numeroProposta"))
		answers := `{"respostas": [{"perguntaId": 1, "valor": true}, {"perguntaId": 2, "valor": false}]}`
		if code, _, raw := sb.call(http.MethodPut, eis+"/questionario/903", widget, answers); code != 200 {
			t.Fatalf("answering a proposal in analysis: %d %s", code, raw)
		}
		if code, _, raw := sb.call(http.MethodPatch, eis, seguradora, `{"motivo": "desistência", "tipoCancelamento": 1}`); code != 200 {
			t.Fatalf("cancel: %d %s", code, raw)
		}
		code, m, raw = sb.call(http.MethodPut, eis+"/questionario/903", widget, answers)
		if code != 422 || field(m, "Mensagens.0.Codigo") != "QUESTIONARIO_ENCERRADO" || field(m, "Mensagens.0.Campo") != "numeroProposta" {
			t.Fatalf("%d %s", code, raw)
		}
		// What was saved stays readable.
		if code, m, raw := sb.call(http.MethodGet, eis+"/questionario/903", widget, ""); code != 200 || field(m, "Valor.situacao") != "RESPONDIDO" {
			t.Fatalf("%d %s", code, raw)
		}
	})
}
