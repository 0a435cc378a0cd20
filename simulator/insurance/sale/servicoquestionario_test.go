package sale

import (
	"encoding/json"
	"reflect"
	"strings"
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
	// As the 2025 client's screen writes them (QuestionnaireRenderer.tsx):
	// the weight digits only, the height in metres masked 0,00, Sim/Nao,
	// an option's description, a date masked 00/00/0000.
	raw := answeredAsTheClient(t, q, map[int]string{901001: "80", 901002: "1,80", 901003: "Nao", 901005: "false", 901007: "Sim",
		901008: "MERGULHO", 901009: "20/11/2025"})
	qid, got, err := respostasDoServico(raw, c.Questionnaire)
	if err != nil || qid != 901 {
		t.Fatalf("respostasDoServico: %d, %v", qid, err)
	}
	want := []respostaIn{{1, 80.0}, {2, 1.8}, {3, false}, {5, false}, {7, true}, {8, 2.0}, {9, "2025-11-20"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("answers\n got %#v\nwant %#v", got, want)
	}
	if _, vs := checkRespostas(q, got, serviceNames(q.ID, got)); len(vs) != 0 {
		t.Errorf("the client's answers refused: %+v", vs)
	}
	// What the service cannot take is refused naming the question by
	// its Id, as the client knows it: an impossible date, a height in
	// centimetres, a mandatory question left out.
	raw = answeredAsTheClient(t, q, map[int]string{901001: "80", 901002: "180", 901005: "false", 901007: "Sim", 901008: "MERGULHO", 901009: "31/02/2025"})
	_, got, _ = respostasDoServico(raw, c.Questionnaire)
	_, vs := checkRespostas(q, got, serviceNames(q.ID, got))
	var fields []string
	for _, v := range vs {
		fields = append(fields, v.Field)
	}
	if strings.Join(fields, " ") != "Perguntas[Id=901002] Perguntas[Id=901009] Perguntas[Id=901003]" ||
		!strings.Contains(vs[0].Reason, "metros") || !strings.Contains(vs[2].Reason, "901003") {
		t.Errorf("refused: %+v", vs)
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
