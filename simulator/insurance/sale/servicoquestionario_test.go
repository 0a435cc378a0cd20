package sale

import (
	"encoding/json"
	"reflect"
	"testing"

	"homologa/simulator/insurance/catalog"
)

// answeredAsTheClient writes the questionnaire service's answer of q as the
// 2025 client posts it: the whole Valor, with a Resposta string in each
// answered node (found by Id, questionnaireUtils.ts).
func answeredAsTheClient(t *testing.T, q *catalog.Questionario, answers map[int]string) string {
	t.Helper()
	b, _ := json.Marshal(servicoOf(q))
	var doc map[string]any
	json.Unmarshal(b, &doc)
	for _, n := range doc["VersaoQuestionario"].([]any)[0].(map[string]any)["Perguntas"].([]any) {
		node := n.(map[string]any)
		if a, ok := answers[int(node["Id"].(float64))]; ok {
			node["Resposta"] = a
		}
	}
	out, _ := json.Marshal(doc)
	return string(out)
}

func TestRespostasDoServico(t *testing.T) {
	c, _ := catalog.Load()
	q, _ := c.Questionnaire(901)
	raw := answeredAsTheClient(t, q, map[int]string{901001: "72,5", 901002: "180", 901003: "Não", 901005: "false", 901007: "sim",
		901008: "MERGULHO", 901009: "20/11/2025"})
	qid, got, err := respostasDoServico(raw, c.Questionnaire)
	if err != nil || qid != 901 {
		t.Fatalf("respostasDoServico: %d, %v", qid, err)
	}
	want := []respostaIn{{1, 72.5}, {2, 180.0}, {3, false}, {5, false}, {7, true}, {8, 2.0}, {9, "20/11/2025"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("answers\n got %#v\nwant %#v", got, want)
	}
	if _, vs := checkRespostas(q, got); len(vs) != 1 || vs[0].Field != "respostas.6.valor" {
		t.Errorf("a date the service cannot read is refused naming it: %+v", vs)
	}
	for _, bad := range []string{"", "{}", `{"Id": 901}`, `{"Id": 999, "VersaoQuestionario": [{"Perguntas": []}]}`,
		`{"Id": 901, "VersaoQuestionario": [{"Perguntas": [{"Id": 902001, "Resposta": "1"}]}]}`} {
		if _, _, err := respostasDoServico(bad, c.Questionnaire); err == nil {
			t.Errorf("respostasDoServico(%q) accepted", bad)
		}
	}
}

func TestValorDoServico(t *testing.T) {
	dominio := &catalog.Pergunta{TipoResposta: catalog.RespostaDominio, Opcoes: []catalog.Dominio{{ID: 1, Descricao: "NENHUM"}, {ID: 2, Descricao: "MERGULHO"}}}
	tests := []struct {
		tipo string
		in   string
		want any
	}{
		{catalog.RespostaSimNao, "Sim", true}, {catalog.RespostaSimNao, "2", false}, {catalog.RespostaSimNao, "talvez", "talvez"},
		{catalog.RespostaValor, "1.234,5", 1234.5}, {catalog.RespostaValor, "80", 80.0}, {catalog.RespostaValor, "muito", "muito"},
		{catalog.RespostaTexto, " texto ", "texto"},
		{catalog.RespostaData, "2025-11-20T00:00:00", "2025-11-20"}, {catalog.RespostaData, "", nil},
	}
	for _, tt := range tests {
		if got := valorDoServico(&catalog.Pergunta{TipoResposta: tt.tipo}, tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %q = %#v, want %#v", tt.tipo, tt.in, got, tt.want)
		}
	}
	if got := valorDoServico(dominio, "mergulho"); got != 2.0 {
		t.Errorf("an option by its description: %v", got)
	}
	if got := valorDoServico(dominio, "1"); got != 1.0 {
		t.Errorf("an option by its id: %v", got)
	}
}
