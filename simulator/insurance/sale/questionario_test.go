package sale

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"homologa/simulator/insurance/catalog"
)

// dps is offer YZ's questionnaire (901): it has every answer type, some
// required and some not.
func dps(t *testing.T) *catalog.Questionario {
	t.Helper()
	c, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	q, ok := c.Questionnaire(901)
	if !ok {
		t.Fatal("no questionnaire 901 in the catalogue")
	}
	types := map[string]bool{}
	for _, pg := range q.Perguntas {
		types[pg.TipoResposta] = true
	}
	if len(types) != 5 {
		t.Fatalf("questionnaire 901 has answer types %v; the cases below need all five", types)
	}
	return q
}

// answers parses a respostas array as the handler receives it.
func answers(t *testing.T, doc string) []respostaIn {
	t.Helper()
	var in []respostaIn
	if err := json.Unmarshal([]byte(doc), &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// The required questions of 901 are 1, 2 (VALOR), 3, 5, 7 (SIM_NAO) and 8
// (DOMINIO); 4 (VALOR), 6 (TEXTO) and 9 (DATA) are optional.
const required901 = `{"perguntaId": 1, "valor": 72.5}, {"perguntaId": 2, "valor": 1.8}, {"perguntaId": 3, "valor": false},
	{"perguntaId": 5, "valor": false}, {"perguntaId": 7, "valor": true}, {"perguntaId": 8, "valor": 2}`

func TestCheckRespostas(t *testing.T) {
	q := dps(t)
	tests := []struct {
		name   string
		doc    string
		fields []string // every violation's field, in order; none means valid
	}{
		{"OK", `[` + required901 + `]`, nil},
		{"OKEveryType", `[` + required901 + `, {"perguntaId": 4, "valor": 0}, {"perguntaId": 6, "valor": "asma leve"}, {"perguntaId": 9, "valor": "2025-06-30"}]`, nil},
		{"OKOptionalBlankOrNull", `[` + required901 + `, {"perguntaId": 6, "valor": "  "}, {"perguntaId": 9, "valor": null}]`, nil},
		{"ErrMissingRequired", `[{"perguntaId": 1, "valor": 72.5}, {"perguntaId": 2, "valor": 1.8}, {"perguntaId": 3, "valor": false},
			{"perguntaId": 5, "valor": false}, {"perguntaId": 8, "valor": 2}]`, []string{"respostas[perguntaId=7]"}},
		{"ErrNothingAnswered", `[]`, []string{"respostas[perguntaId=1]", "respostas[perguntaId=2]", "respostas[perguntaId=3]",
			"respostas[perguntaId=5]", "respostas[perguntaId=7]", "respostas[perguntaId=8]"}},
		{"ErrRequiredBlank", `[` + strings.Replace(required901, `"valor": 72.5`, `"valor": ""`, 1) + `]`, []string{"respostas.0.valor"}},
		{"ErrRequiredNull", `[` + strings.Replace(required901, `"valor": 1.8`, `"valor": null`, 1) + `]`, []string{"respostas.1.valor"}},
		{"ErrUnknownQuestion", `[` + required901 + `, {"perguntaId": 99, "valor": true}]`, []string{"respostas.6.perguntaId"}},
		{"ErrDuplicate", `[` + required901 + `, {"perguntaId": 3, "valor": true}]`, []string{"respostas.6.perguntaId"}},
		{"ErrSimNaoAsText", `[` + strings.Replace(required901, `"perguntaId": 3, "valor": false`, `"perguntaId": 3, "valor": "NAO"`, 1) + `]`, []string{"respostas.2.valor"}},
		{"ErrValorAsText", `[` + strings.Replace(required901, `"valor": 72.5`, `"valor": "72,5"`, 1) + `]`, []string{"respostas.0.valor"}},
		{"ErrDominioUnknownOption", `[` + strings.Replace(required901, `"valor": 2}`, `"valor": 7}`, 1) + `]`, []string{"respostas.5.valor"}},
		{"ErrDominioNotAnID", `[` + strings.Replace(required901, `"valor": 2}`, `"valor": 2.5}`, 1) + `]`, []string{"respostas.5.valor"}},
		{"ErrDominioByDescription", `[` + strings.Replace(required901, `"valor": 2}`, `"valor": "MERGULHO"}`, 1) + `]`, []string{"respostas.5.valor"}},
		{"ErrTextoAsNumber", `[` + required901 + `, {"perguntaId": 6, "valor": 12}]`, []string{"respostas.6.valor"}},
		{"ErrTextoTooLong", `[` + required901 + `, {"perguntaId": 6, "valor": "` + strings.Repeat("x", maxTexto+1) + `"}]`, []string{"respostas.6.valor"}},
		{"ErrHeightInCentimetres", `[` + strings.Replace(required901, `"valor": 1.8`, `"valor": 180`, 1) + `]`, []string{"respostas.1.valor"}},
		{"ErrWeightInGrams", `[` + strings.Replace(required901, `"valor": 72.5`, `"valor": 72500`, 1) + `]`, []string{"respostas.0.valor"}},
		{"ErrDataNotADate", `[` + required901 + `, {"perguntaId": 9, "valor": "30/06/2025"}]`, []string{"respostas.6.valor"}},
		{"ErrDataImpossible", `[` + required901 + `, {"perguntaId": 9, "valor": "2025-02-30"}]`, []string{"respostas.6.valor"}},
		{"ErrSeveral", `[{"perguntaId": 1, "valor": "x"}, {"perguntaId": 42, "valor": 1}]`, []string{"respostas.0.valor", "respostas.1.perguntaId",
			"respostas[perguntaId=2]", "respostas[perguntaId=3]", "respostas[perguntaId=5]", "respostas[perguntaId=7]", "respostas[perguntaId=8]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, vs := checkRespostas(q, answers(t, tt.doc), apiNames)
			var got []string
			for _, v := range vs {
				got = append(got, v.Field)
				if v.Reason == "" {
					t.Errorf("violation of %s has no reason", v.Field)
				}
			}
			if !reflect.DeepEqual(got, tt.fields) {
				t.Errorf("fields = %v, want %v (%+v)", got, tt.fields, vs)
			}
		})
	}
}

// What is saved is typed by the question, in the questionnaire's order,
// without the unanswered optional questions.
func TestCheckRespostasTypesAndOrdersAnswers(t *testing.T) {
	q := dps(t)
	got, vs := checkRespostas(q, answers(t, `[{"perguntaId": 9, "valor": "2025-06-30"}, {"perguntaId": 6, "valor": " asma "}, `+required901+`]`), apiNames)
	if len(vs) > 0 {
		t.Fatal(vs)
	}
	want := []resposta{
		{1, catalog.RespostaValor, 72.5, ""}, {2, catalog.RespostaValor, 1.8, ""}, {3, catalog.RespostaSimNao, false, ""},
		{5, catalog.RespostaSimNao, false, ""}, {6, catalog.RespostaTexto, "asma", ""}, {7, catalog.RespostaSimNao, true, ""},
		{8, catalog.RespostaDominio, 2, "MERGULHO"}, {9, catalog.RespostaData, "2025-06-30", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}
