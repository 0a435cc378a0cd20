package schemas_test

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"homologa/schemas"
	"homologa/simulator/schema"
)

// cobvExamplesPath is a copy of shared/reference/pix/examples.json, the
// official spec's examples, kept in testdata so the test needs nothing
// outside the repository.
const cobvExamplesPath = "testdata/pix-examples.json"

// cobvRegistry compiles every embedded schema, as the server does.
func cobvRegistry(t *testing.T) *schema.Registry {
	t.Helper()
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// cobvFields validates doc and returns the violated fields, sorted.
func cobvFields(t *testing.T, reg *schema.Registry, name string, doc []byte) []string {
	t.Helper()
	vs, err := reg.Validate(name, doc)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var fields []string
	for _, v := range vs {
		fields = append(fields, v.Field)
	}
	sort.Strings(fields)
	return fields
}

// cobvCheck asserts that doc is valid when want is empty, and otherwise that
// every wanted field is among the violations (oneOf and if/then also report
// their parent object, which the cases need not list).
func cobvCheck(t *testing.T, reg *schema.Registry, name string, doc []byte, want []string) {
	t.Helper()
	got := cobvFields(t, reg, name, doc)
	if len(want) == 0 {
		if len(got) != 0 {
			vs, _ := reg.Validate(name, doc)
			t.Errorf("%s: want valid, got violations %+v", name, vs)
		}
		return
	}
	have := map[string]bool{}
	for _, f := range got {
		have[f] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("%s: want a violation of %q, got fields %q", name, w, got)
		}
	}
}

// cobvMutate decodes base, lets f change it and encodes it again.
func cobvMutate(t *testing.T, base string, f func(d map[string]any)) []byte {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(base), &d); err != nil {
		t.Fatalf("base document: %v", err)
	}
	if f != nil {
		f(d)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cobvObj walks d along keys (creating nothing) and returns the object there.
func cobvObj(d map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		d = d[k].(map[string]any)
	}
	return d
}

func cobvJSON(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	return v
}

// A valid PUT /cobv/{txid} body: cobBody1 of the spec with its modalidades
// as integers, plus every optional field.
const cobvRequestOK = `{
  "calendario": {"dataDeVencimento": "2020-12-31", "validadeAposVencimento": 30},
  "loc": {"id": 789},
  "devedor": {"logradouro": "Alameda Souza, Numero 80, Bairro Braz", "cidade": "Recife", "uf": "PE", "cep": "70011750",
    "cpf": "12345678909", "nome": "Francisco da Silva", "email": "francisco@example.com"},
  "valor": {
    "original": "123.45",
    "multa": {"modalidade": 2, "valorPerc": "15.00"},
    "juros": {"modalidade": 2, "valorPerc": "2.00"},
    "abatimento": {"modalidade": 1, "valorPerc": "5.00"},
    "desconto": {"modalidade": 1, "descontoDataFixa": [{"data": "2020-11-30", "valorPerc": "30.00"}]}
  },
  "chave": "5f84a4c5-c5cb-4599-9f13-7eb4d419dacc",
  "solicitacaoPagador": "Cobrança dos serviços prestados.",
  "infoAdicionais": [{"nome": "Campo 1", "valor": "Informação Adicional1 do PSP-Recebedor"}]
}`

// cobResponse4 of the spec with loc.txid and loc.criacao, which CobVGerada
// requires and the example omits.
const cobvGeradaOK = `{
  "calendario": {"criacao": "2020-09-09T20:15:00.358Z", "dataDeVencimento": "2020-12-31", "validadeAposVencimento": 30},
  "txid": "7978c0c97ea847e78e8849634473c1f1",
  "revisao": 0,
  "loc": {"id": 789, "location": "pix.example.com/qr/c2/cobv/9d36b84fc70b478fb95c12729b90ca25", "tipoCob": "cobv",
    "txid": "7978c0c97ea847e78e8849634473c1f1", "criacao": "2020-09-09T20:15:00.358Z"},
  "status": "ATIVA",
  "devedor": {"logradouro": "Alameda Souza, Numero 80, Bairro Braz", "cidade": "Recife", "uf": "PE", "cep": "70011750",
    "cpf": "12345678909", "nome": "Francisco da Silva"},
  "recebedor": {"logradouro": "Rua 15 Numero 1200, Bairro São Luiz", "cidade": "São Paulo", "uf": "SP", "cep": "70800100",
    "cnpj": "56989000019533", "nome": "Empresa de Logística SA"},
  "valor": {"original": "123.45"},
  "chave": "5f84a4c5-c5cb-4599-9f13-7eb4d419dacc",
  "solicitacaoPagador": "Cobrança dos serviços prestados."
}`

// loteCobVResponse1 of the spec with the id that LoteCobVConsultado requires.
const cobvLoteOK = `{
  "id": 1,
  "descricao": "Cobranças dos alunos do turno vespertino",
  "criacao": "2020-11-01T20:15:00.358Z",
  "cobsv": [
    {"criacao": "2020-11-01T20:15:00.358Z", "txid": "fb2761260e554ad593c7226beb5cb650", "status": "CRIADA"},
    {"txid": "7978c0c97ea847e78e8849634473c1f1", "status": "NEGADA",
      "problema": {"type": "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida", "title": "Cobrança inválida.", "status": 400,
        "detail": "A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.",
        "violacoes": [{"razao": "O objeto cobv.devedor não respeita o _schema_.", "propriedade": "cobv.devedor"}]}}
  ]
}`

// cobPayload2 of the spec (verbatim): the payload of a cobv JWS.
const cobvPayloadOK = `{
  "calendario": {"criacao": "2020-09-15T19:39:54.013Z", "apresentacao": "2020-04-01T18:00:00Z", "dataDeVencimento": "2020-12-31", "validadeAposVencimento": 30},
  "devedor": {"cnpj": "56989000019533", "nome": "Empresa de Alimentos SA"},
  "recebedor": {"logradouro": "Rua 20 Numero 70, Bairro Luz", "cidade": "Belo Horizonte", "uf": "MG", "cep": "55120750",
    "cnpj": "58900633120711", "nome": "Empresa de Abastecimento SA"},
  "txid": "fc9a4366ff3d4964b5dbc6c91a8722d3",
  "revisao": 3,
  "status": "ATIVA",
  "valor": {"original": "123.45", "multa": "15.00", "juros": "2.00", "final": "140.45"},
  "chave": "7407c9c8-f78b-11ea-adc1-0242ac120002",
  "solicitacaoPagador": "Informar cartao fidelidade",
  "infoAdicionais": [{"nome": "quantidade", "valor": "2"}]
}`

// TestPixCobVReferenceExamples validates every cobv and lotecobv example of
// examples.json against its schema. Both are defective as published, so
// both must fail, and on exactly the defective fields.
func TestPixCobVReferenceExamples(t *testing.T) {
	b, err := os.ReadFile(cobvExamplesPath)
	if err != nil {
		t.Fatal(err)
	}
	var examples map[string]json.RawMessage // "_about" is a string, the rest {endpoint, specExample, value}
	if err := json.Unmarshal(b, &examples); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		schema string
		want   []string // exact violated fields; none means valid
	}{
		// cobBody1 sends modalidade "2", "2", "1" as strings where the
		// schema says integer (SUMMARY §12): a server must refuse them.
		"cobvCreateRequest": {"pix/cobv.request", []string{"valor.desconto.modalidade", "valor.juros.modalidade", "valor.multa.modalidade"}},
		// cobResponse4's loc lacks txid and criacao, which CobVGerada.loc
		// requires and strict validators enforce (SUMMARY §13). Its missing
		// top-level location is tolerated (SUMMARY §12).
		"cobvCreateResponse": {"pix/cobv", []string{"loc.criacao", "loc.txid"}},
	}
	reg := cobvRegistry(t)
	for key, raw := range examples {
		if !strings.HasPrefix(strings.ToLower(key), "cobv") && !strings.HasPrefix(strings.ToLower(key), "lotecobv") {
			continue
		}
		var ex struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(raw, &ex); err != nil {
			t.Fatalf("example %s: %v", key, err)
		}
		c, ok := cases[key]
		if !ok {
			t.Errorf("example %s has no case here: add one", key)
			continue
		}
		got := cobvFields(t, reg, c.schema, ex.Value)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("example %s against %s: violated fields %q, want %q", key, c.schema, got, c.want)
		}
		delete(cases, key)
	}
	for key := range cases {
		t.Errorf("example %s is no longer in %s", key, cobvExamplesPath)
	}
}

// TestPixCobVValidDocuments checks documents that must pass: the spec's
// other cobv and lotecobv examples (corrected where noted) and documents a
// server produces.
func TestPixCobVValidDocuments(t *testing.T) {
	reg := cobvRegistry(t)
	cases := []struct {
		name, schema, doc string
	}{
		{"full request", "pix/cobv.request", cobvRequestOK},
		{"minimal request, cnpj devedor", "pix/cobv.request", `{"calendario": {"dataDeVencimento": "2020-12-31"},
			"devedor": {"cnpj": "12ABC34501DE35", "nome": "Empresa"}, "valor": {"original": "0.01"}, "chave": "+5561999999999"}`},
		{"desconto by anticipation", "pix/cobv.request", `{"calendario": {"dataDeVencimento": "2020-12-31"},
			"devedor": {"cpf": "12345678909", "nome": "F"}, "valor": {"original": "10.00", "desconto": {"modalidade": 5, "valorPerc": "0.50"}}, "chave": "k"}`},
		// Business rules, not schema: the server answers CobVOperacaoInvalida.
		{"negative validadeAposVencimento", "pix/cobv.request", `{"calendario": {"dataDeVencimento": "2020-12-31", "validadeAposVencimento": -1},
			"devedor": {"cpf": "12345678909", "nome": "F"}, "valor": {"original": "10.00", "abatimento": {"modalidade": 2, "valorPerc": "100.00"}}, "chave": "k"}`},
		{"cobBody7 (revision)", "pix/cobv.patch", `{"loc": {"id": 789}, "devedor": {"logradouro": "Alameda Souza, Numero 80, Bairro Braz",
			"cidade": "Recife", "uf": "PE", "cep": "70011750", "cpf": "12345678909", "nome": "Francisco da Silva"},
			"valor": {"original": "123.45"}, "solicitacaoPagador": "Cobrança dos serviços prestados."}`},
		{"cobBody4 (revision)", "pix/cobv.patch", `{"valor": {"original": "567.89"}, "solicitacaoPagador": "Informar cartão fidelidade"}`},
		{"cobBody5 (removal)", "pix/cobv.patch", `{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}`},
		{"empty revision", "pix/cobv.patch", `{}`},
		{"revision of juros alone", "pix/cobv.patch", `{"valor": {"juros": {"modalidade": 8, "valorPerc": "1.00"}}}`},
		{"cobResponse4 with loc.txid and loc.criacao", "pix/cobv", cobvGeradaOK},
		{"generated with location and pixCopiaECola", "pix/cobv", string(cobvMutate(t, cobvGeradaOK, func(d map[string]any) {
			d["location"] = "pix.example.com/qr/c2/cobv/9d36b84fc70b478fb95c12729b90ca25"
			d["pixCopiaECola"] = "00020101021226..."
			d["novoCampoDoPSP"] = true // responses tolerate additions (spec compatibility rule)
		}))},
		{"generated without loc", "pix/cobv", string(cobvMutate(t, cobvGeradaOK, func(d map[string]any) { delete(d, "loc") }))},
		{"complete with pix", "pix/cobv.completa", string(cobvMutate(t, cobvGeradaOK, func(d map[string]any) {
			d["status"] = "CONCLUIDA"
			d["pix"] = cobvJSON(`[{"endToEndId": "E12345678202009091221abcdef12345", "txid": "7978c0c97ea847e78e8849634473c1f1",
				"valor": "140.45", "componentesValor": {"original": {"valor": "123.45"}, "multa": {"valor": "15.00"}, "juros": {"valor": "2.00"}},
				"chave": "5f84a4c5-c5cb-4599-9f13-7eb4d419dacc", "horario": "2020-12-31T12:00:00Z",
				"devolucoes": [{"id": "d1", "rtrId": "D12345678202009091000abcde123456", "valor": "1.00",
					"horario": {"solicitacao": "2021-01-01T10:00:00Z"}, "status": "EM_PROCESSAMENTO"}]}]`)
		}))},
		// getCobsV1 with its item corrected as above.
		{"getCobsV1", "pix/cobv.list", `{"parametros": {"inicio": "2020-04-01T00:00:00Z", "fim": "2020-04-01T23:59:59Z",
			"paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 1, "quantidadeTotalDeItens": 1}},
			"cobs": [` + cobvGeradaOK + `]}`},
		{"empty list", "pix/cobv.list", `{"parametros": {"inicio": "2020-04-01T00:00:00Z", "fim": "2020-04-01T23:59:59Z", "loteCobVId": 3,
			"paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 0, "quantidadeTotalDeItens": 0}}, "cobs": []}`},
		{"cobPayload2", "pix/cobv.payload", cobvPayloadOK},
		{"loteCobVBody1", "pix/lotecobv.request", `{"descricao": "Cobranças dos alunos do turno vespertino", "cobsv": [
			{"calendario": {"dataDeVencimento": "2020-12-31", "validadeAposVencimento": 30}, "txid": "fb2761260e554ad593c7226beb5cb650",
			 "loc": {"id": 789}, "devedor": {"logradouro": "Alameda Souza, Numero 80, Bairro Braz", "cidade": "Recife", "uf": "PE",
			 "cep": "70011750", "cpf": "08577095428", "nome": "João Souza"}, "valor": {"original": "100.00"},
			 "chave": "7c084cd4-54af-4172-a516-a7d1a12b75cc", "solicitacaoPagador": "Informar matrícula"},
			{"calendario": {"dataDeVencimento": "2020-12-31", "validadeAposVencimento": 30}, "txid": "7978c0c97ea847e78e8849634473c1f1",
			 "loc": {"id": 57221}, "devedor": {"logradouro": "Rua 15, Numero 1, Bairro Campo Grande", "cidade": "Recife", "uf": "PE",
			 "cep": "70055751", "cpf": "15311295449", "nome": "Manoel Silva"}, "valor": {"original": "100.00"},
			 "chave": "7c084cd4-54af-4172-a516-a7d1a12b75cc", "solicitacaoPagador": "Informar matrícula"}]}`},
		{"loteCobVBodyRevisado1", "pix/lotecobv.patch", `{"cobsv": [
			{"calendario": {"dataDeVencimento": "2020-01-10"}, "txid": "fb2761260e554ad593c7226beb5cb650", "valor": {"original": "110.00"}},
			{"calendario": {"dataDeVencimento": "2020-01-10"}, "txid": "7978c0c97ea847e78e8849634473c1f1", "valor": {"original": "110.00"}}]}`},
		{"loteCobVResponse1 with id", "pix/lotecobv", cobvLoteOK},
		{"batch still processing", "pix/lotecobv", `{"id": 2, "descricao": "d", "criacao": "2020-11-17T20:00:00.358Z",
			"cobsv": [{"txid": "06601eaa3822423fbe897f613b983e01", "status": "EM_PROCESSAMENTO"}]}`},
		{"getLotesCobsV with ids", "pix/lotecobv.list", `{"parametros": {"inicio": "2020-01-01T00:00:00Z", "fim": "2020-12-01T23:59:59Z",
			"paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 1, "quantidadeTotalDeItens": 1}},
			"lotes": [` + cobvLoteOK + `]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { cobvCheck(t, reg, c.schema, []byte(c.doc), nil) })
	}
}

// TestPixCobVInvalidDocuments checks that each defect is reported on the
// field a client must fix.
func TestPixCobVInvalidDocuments(t *testing.T) {
	reg := cobvRegistry(t)
	set := func(v any, keys ...string) func(d map[string]any) {
		return func(d map[string]any) { cobvObj(d, keys[:len(keys)-1]...)[keys[len(keys)-1]] = v }
	}
	del := func(keys ...string) func(d map[string]any) {
		return func(d map[string]any) { delete(cobvObj(d, keys[:len(keys)-1]...), keys[len(keys)-1]) }
	}
	cases := []struct {
		name   string
		schema string
		base   string
		mutate func(d map[string]any)
		want   []string
	}{
		// The desconto rule of the CobVOperacaoInvalida violations.
		{"desconto 1 without descontoDataFixa", "pix/cobv.request", cobvRequestOK,
			set(cobvJSON(`{"modalidade": 1}`), "valor", "desconto"), []string{"valor.desconto.descontoDataFixa"}},
		{"desconto 2 with valorPerc", "pix/cobv.request", cobvRequestOK,
			set(cobvJSON(`{"modalidade": 2, "valorPerc": "1.00", "descontoDataFixa": [{"data": "2020-11-30", "valorPerc": "3.00"}]}`), "valor", "desconto"),
			[]string{"valor.desconto.valorPerc"}},
		{"desconto 3 with descontoDataFixa", "pix/cobv.request", cobvRequestOK,
			set(cobvJSON(`{"modalidade": 3, "valorPerc": "1.00", "descontoDataFixa": [{"data": "2020-11-30", "valorPerc": "3.00"}]}`), "valor", "desconto"),
			[]string{"valor.desconto.descontoDataFixa"}},
		{"desconto 6 without valorPerc", "pix/cobv.request", cobvRequestOK,
			set(cobvJSON(`{"modalidade": 6}`), "valor", "desconto"), []string{"valor.desconto.valorPerc"}},
		{"desconto 7", "pix/cobv.request", cobvRequestOK,
			set(cobvJSON(`{"modalidade": 7, "valorPerc": "1.00"}`), "valor", "desconto"), []string{"valor.desconto.modalidade"}},
		{"four descontoDataFixa", "pix/cobv.request", cobvRequestOK,
			set(cobvJSON(`[{"data": "2020-11-01", "valorPerc": "1.00"}, {"data": "2020-11-02", "valorPerc": "1.00"},
				{"data": "2020-11-03", "valorPerc": "1.00"}, {"data": "2020-11-04", "valorPerc": "1.00"}]`), "valor", "desconto", "descontoDataFixa"),
			[]string{"valor.desconto.descontoDataFixa"}},
		{"descontoDataFixa bad date", "pix/cobv.request", cobvRequestOK,
			set(cobvJSON(`[{"data": "30/11/2020", "valorPerc": "1.00"}]`), "valor", "desconto", "descontoDataFixa"),
			[]string{"valor.desconto.descontoDataFixa.0.data"}},
		{"juros 9", "pix/cobv.request", cobvRequestOK, set(9, "valor", "juros", "modalidade"), []string{"valor.juros.modalidade"}},
		{"multa 3", "pix/cobv.request", cobvRequestOK, set(3, "valor", "multa", "modalidade"), []string{"valor.multa.modalidade"}},
		{"abatimento 0", "pix/cobv.request", cobvRequestOK, set(0, "valor", "abatimento", "modalidade"), []string{"valor.abatimento.modalidade"}},
		{"multa as string", "pix/cobv.request", cobvRequestOK, set("2", "valor", "multa", "modalidade"), []string{"valor.multa.modalidade"}},
		{"multa without valorPerc", "pix/cobv.request", cobvRequestOK, del("valor", "multa", "valorPerc"), []string{"valor.multa.valorPerc"}},
		{"juros valorPerc in percent notation", "pix/cobv.request", cobvRequestOK, set("2%", "valor", "juros", "valorPerc"), []string{"valor.juros.valorPerc"}},
		{"original without cents", "pix/cobv.request", cobvRequestOK, set("10", "valor", "original"), []string{"valor.original"}},
		{"original with thousands separator", "pix/cobv.request", cobvRequestOK, set("1,000.00", "valor", "original"), []string{"valor.original"}},
		{"original as number", "pix/cobv.request", cobvRequestOK, set(10.5, "valor", "original"), []string{"valor.original"}},
		{"no original", "pix/cobv.request", cobvRequestOK, del("valor", "original"), []string{"valor.original"}},
		// devedor: nome and exactly one of cpf or cnpj.
		{"devedor with cpf and cnpj", "pix/cobv.request", cobvRequestOK, set("12345678000195", "devedor", "cnpj"), []string{"devedor"}},
		{"devedor without cpf or cnpj", "pix/cobv.request", cobvRequestOK, del("devedor", "cpf"), []string{"devedor"}},
		{"devedor without nome", "pix/cobv.request", cobvRequestOK, del("devedor", "nome"), []string{"devedor.nome"}},
		{"cpf with Perl slashes", "pix/cobv.request", cobvRequestOK, set("/12345678909/", "devedor", "cpf"), []string{"devedor.cpf"}},
		{"cpf with mask", "pix/cobv.request", cobvRequestOK, set("123.456.789-09", "devedor", "cpf"), []string{"devedor.cpf"}},
		{"uf too long", "pix/cobv.request", cobvRequestOK, set("PER", "devedor", "uf"), []string{"devedor.uf"}},
		// Unknown fields are named, at any depth.
		{"unknown top-level field", "pix/cobv.request", cobvRequestOK, set("x", "recebedor"), []string{"recebedor"}},
		{"unknown nested field", "pix/cobv.request", cobvRequestOK, set("x", "valor", "multa", "data"), []string{"valor.multa.data"}},
		{"unknown calendario field", "pix/cobv.request", cobvRequestOK, set(3600, "calendario", "expiracao"), []string{"calendario.expiracao"}},
		{"dataDeVencimento DD-MM-YYYY", "pix/cobv.request", cobvRequestOK, set("20-04-2020", "calendario", "dataDeVencimento"),
			[]string{"calendario.dataDeVencimento"}},
		{"no dataDeVencimento", "pix/cobv.request", cobvRequestOK, del("calendario", "dataDeVencimento"), []string{"calendario.dataDeVencimento"}},
		{"validadeAposVencimento as string", "pix/cobv.request", cobvRequestOK, set("30", "calendario", "validadeAposVencimento"),
			[]string{"calendario.validadeAposVencimento"}},
		{"loc id as string", "pix/cobv.request", cobvRequestOK, set("789", "loc", "id"), []string{"loc.id"}},
		{"no chave", "pix/cobv.request", cobvRequestOK, del("chave"), []string{"chave"}},
		{"no devedor", "pix/cobv.request", cobvRequestOK, del("devedor"), []string{"devedor"}},
		{"chave too long", "pix/cobv.request", cobvRequestOK, set(strings.Repeat("a", 78), "chave"), []string{"chave"}},
		{"51 infoAdicionais", "pix/cobv.request", cobvRequestOK, func(d map[string]any) {
			var list []any
			for range 51 {
				list = append(list, map[string]any{"nome": "n", "valor": "v"})
			}
			d["infoAdicionais"] = list
		}, []string{"infoAdicionais"}},
		// PATCH
		{"status other than removal", "pix/cobv.patch", `{"status": "ATIVA"}`, nil, []string{"status"}},
		{"revision of devedor nome alone", "pix/cobv.patch", `{"devedor": {"nome": "Outro"}}`, nil, []string{"devedor"}},
		{"revision of calendario without dataDeVencimento", "pix/cobv.patch", `{"calendario": {"validadeAposVencimento": 10}}`, nil,
			[]string{"calendario.dataDeVencimento"}},
		{"revision with unknown field", "pix/cobv.patch", `{"txid": "7978c0c97ea847e78e8849634473c1f1"}`, nil, []string{"txid"}},
		// Responses
		{"location with scheme", "pix/cobv", cobvGeradaOK, set("https://pix.example.com/qr/c2/cobv/9d36b84fc70b478fb95c12729b90ca25", "loc", "location"),
			[]string{"loc.location"}},
		{"unknown status", "pix/cobv", cobvGeradaOK, set("REMOVIDO_PELO_PSP", "status"), []string{"status"}},
		{"no recebedor", "pix/cobv", cobvGeradaOK, del("recebedor"), []string{"recebedor"}},
		{"recebedor without address", "pix/cobv", cobvGeradaOK, del("recebedor", "cep"), []string{"recebedor.cep"}},
		{"calendario without criacao", "pix/cobv", cobvGeradaOK, del("calendario", "criacao"), []string{"calendario.criacao"}},
		{"criacao as a bare date", "pix/cobv", cobvGeradaOK, set("2020-09-09", "calendario", "criacao"), []string{"calendario.criacao"}},
		{"txid too short", "pix/cobv", cobvGeradaOK, set("abc", "txid"), []string{"txid"}},
		{"payload without final", "pix/cobv.payload", cobvPayloadOK, del("valor", "final"), []string{"valor.final"}},
		{"payload without apresentacao", "pix/cobv.payload", cobvPayloadOK, del("calendario", "apresentacao"), []string{"calendario.apresentacao"}},
		{"list with itensPorPagina 0", "pix/lotecobv.list", `{"parametros": {"inicio": "2020-01-01T00:00:00Z", "fim": "2020-12-01T23:59:59Z",
			"paginacao": {"paginaAtual": 0, "itensPorPagina": 0, "quantidadeDePaginas": 0, "quantidadeTotalDeItens": 0}}, "lotes": []}`, nil,
			[]string{"parametros.paginacao.itensPorPagina"}},
		// Batches
		{"batch item without txid", "pix/lotecobv.request", `{"descricao": "d", "cobsv": [` + cobvRequestOK + `]}`, nil, []string{"cobsv.0.txid"}},
		{"batch item with juros 9", "pix/lotecobv.request", `{"descricao": "d", "cobsv": [` + cobvRequestOK + `]}`,
			set(cobvJSON(`[{"txid": "fb2761260e554ad593c7226beb5cb650", "calendario": {"dataDeVencimento": "2020-12-31"},
				"devedor": {"cpf": "12345678909", "nome": "F"}, "valor": {"original": "1.00", "juros": {"modalidade": 9, "valorPerc": "1.00"}}, "chave": "k"}]`),
				"cobsv"), []string{"cobsv.0.valor.juros.modalidade"}},
		{"batch without descricao", "pix/lotecobv.request", `{"cobsv": []}`, nil, []string{"descricao"}},
		{"batch revision item with unknown field", "pix/lotecobv.patch", `{"cobsv": [{"txid": "fb2761260e554ad593c7226beb5cb650", "foo": 1}]}`, nil,
			[]string{"cobsv.0.foo"}},
		{"batch revision item without txid", "pix/lotecobv.patch", `{"cobsv": [{"valor": {"original": "1.00"}}]}`, nil, []string{"cobsv.0.txid"}},
		{"NEGADA without problema", "pix/lotecobv", cobvLoteOK, func(d map[string]any) {
			delete(d["cobsv"].([]any)[1].(map[string]any), "problema")
		}, []string{"cobsv.1.problema"}},
		{"batch item status", "pix/lotecobv", cobvLoteOK, func(d map[string]any) {
			d["cobsv"].([]any)[0].(map[string]any)["status"] = "ATIVA"
		}, []string{"cobsv.0.status"}},
		{"batch id as text", "pix/lotecobv", cobvLoteOK, set("1", "id"), []string{"id"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cobvCheck(t, reg, c.schema, cobvMutate(t, c.base, c.mutate), c.want)
		})
	}
}

// TestPixCobVSpecLoteExamples: the spec's batch answers omit the id that
// LoteCobVConsultado requires, so as published they must fail on it.
func TestPixCobVSpecLoteExamples(t *testing.T) {
	reg := cobvRegistry(t)
	loteCobVResponse1 := cobvMutate(t, cobvLoteOK, func(d map[string]any) { delete(d, "id") })
	cobvCheck(t, reg, "pix/lotecobv", loteCobVResponse1, []string{"id"})
	getLotesCobsV := `{"parametros": {"inicio": "2020-01-01T00:00:00Z", "fim": "2020-12-01T23:59:59Z",
		"paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 1, "quantidadeTotalDeItens": 2}},
		"lotes": [` + string(loteCobVResponse1) + `, {"descricao": "Cobranças dos assinantes anuais", "criacao": "2020-11-17T20:00:00.358Z",
		"cobsv": [{"criacao": "2020-11-17T20:00:00.358Z", "txid": "06601eaa3822423fbe897f613b983e01", "status": "CRIADA"},
		          {"criacao": "2020-11-17T20:00:00.358Z", "txid": "4e07059760d54cf493de6e7f1fbfad9a", "status": "CRIADA"}]}]}`
	if got := cobvFields(t, reg, "pix/lotecobv.list", []byte(getLotesCobsV)); strings.Join(got, ",") != "lotes.0.id,lotes.1.id" {
		t.Errorf("getLotesCobsV: violated fields %q, want the two missing ids", got)
	}
}
