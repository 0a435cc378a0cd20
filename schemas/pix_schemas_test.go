package schemas_test

// Tests of the API Pix 2.9.0 schemas for cob, loc, pix, devolucao, webhook
// and the /pix callback (schemas/pix/*.json except cobv* and lotecobv*).
// The spec examples are copied verbatim from components.examples of the
// official openapi.yaml (bacen/pix-api 2.9.0). Where an example is itself
// defective (a published quirk, or a required field it leaves out), the
// case lists the exact fields that must be reported, so the test also
// proves that nothing else in the example is refused.

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"homologa/schemas"
	"homologa/simulator/schema"
)

// pixCobCase is one document validated against one schema.
type pixCobCase struct {
	name   string
	schema string   // registry name, e.g. "pix/cob.request"
	doc    string   // the JSON document
	fields []string // fields that must be reported; none means the document is valid
}

// Spec examples (components.examples), verbatim.
const (
	pixCobExCobBody2                 = `{"calendario": {"expiracao": 3600}, "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "37.00", "modalidadeAlteracao": 1}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906", "solicitacaoPagador": "Serviço realizado.", "infoAdicionais": [{"nome": "Campo 1", "valor": "Informação Adicional1 do PSP-Recebedor"}, {"nome": "Campo 2", "valor": "Informação Adicional2 do PSP-Recebedor"}]}`
	pixCobExCobBody3                 = `{"loc": {"id": 7768}, "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "123.45"}, "solicitacaoPagador": "Cobrança dos serviços prestados."}`
	pixCobExCobBody4                 = `{"valor": {"original": "567.89"}, "solicitacaoPagador": "Informar cartão fidelidade"}`
	pixCobExCobBody5                 = `{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}`
	pixCobExCobBody6                 = `{"devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "0.00", "modalidadeAlteracao": 0, "retirada": {"saque": {"valor": "5.00", "modalidadeAlteracao": 0, "modalidadeAgente": "AGPSS", "prestadorDoServicoDeSaque": "12345678"}}}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}`
	pixCobExCobBody8                 = `{"devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "0.00", "modalidadeAlteracao": 0, "retirada": {"saque": {"valor": "20.00", "modalidadeAlteracao": 1, "modalidadeAgente": "AGPSS", "prestadorDoServicoDeSaque": "12345678"}}}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}`
	pixCobExCobBody9                 = `{"devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "10.00", "modalidadeAlteracao": 0, "retirada": {"troco": {"valor": "0.00", "modalidadeAlteracao": 1, "modalidadeAgente": "AGTEC", "prestadorDoServicoDeSaque": "12345678"}}}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}`
	pixCobExCobResponse1             = `{"calendario": {"criacao": "2020-09-09T20:15:00.358Z", "expiracao": 3600}, "txid": "7978c0c97ea847e78e8849634473c1f1", "revisao": 0, "loc": {"id": 789, "location": "pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25", "tipoCob": "cob"}, "location": "pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25", "status": "ATIVA", "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "37.00", "modalidadeAlteracao": 1}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906", "solicitacaoPagador": "Serviço realizado.", "infoAdicionais": [{"nome": "Campo 1", "valor": "Informação Adicional1 do PSP-Recebedor"}, {"nome": "Campo 2", "valor": "Informação Adicional2 do PSP-Recebedor"}]}`
	pixCobExCobResponse2             = `{"calendario": {"criacao": "2020-09-09T20:15:00.358Z", "expiracao": 3600}, "txid": "655dfdb1a4514b8fbb58254b958913fb", "revisao": 1, "loc": {"id": 567, "location": "pix.example.com/qr/1dd7f893a58e417287028dc33e21a403"}, "location": "pix.example.com/qr/1dd7f893a58e417287028dc33e21a403", "status": "CONCLUIDA", "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "100.00", "modalidadeAlteracao": 0}, "chave": "40a0932d-1918-4eee-845d-35a2da1690dc", "solicitacaoPagador": "Informar cartão fidelidade", "pix": [{"endToEndId": "E1234567820200909122120200808008", "txid": "655dfdb1a4514b8fbb58254b958913fb", "valor": "110.00", "horario": "2020-09-09T20:15:00.358Z", "infoPagador": "0123456789", "devolucoes": [{"id": "123ABC", "rtrId": "D1234567820200909122120200808006", "valor": "10.00", "horario": {"solicitacao": "2020-09-09T20:15:00.358Z"}, "status": "EM_PROCESSAMENTO"}]}]}`
	pixCobExCobResponse3             = `{"calendario": {"criacao": "2020-09-09T20:15:00.358Z", "expiracao": 3600}, "txid": "7978c0c97ea847e78e8849634473c1f1", "revisao": 1, "loc": {"id": 7768, "location": "pix.example.com/qr/b1/9d36b84fc70b478fb95c12729b90ca25", "tipoCob": "cob"}, "location": "pix.example.com/qr/v1/9d36b84fc70b478fb95c12729b90ca25", "status": "ATIVA", "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "123.45", "modalidadeAlteracao": 0}, "chave": "a1f4102e-a446-4a57-bcce-6fa48899c1d1", "solicitacaoPagador": "Cobrança dos serviços prestados."}`
	pixCobExCobResponse5             = `{"calendario": {"criacao": "2020-09-09T20:15:00.358Z", "expiracao": 3600}, "txid": "33beb661beda44a8928fef47dbeb2dc5", "revisao": 0, "loc": {"id": 1004, "location": "pix.example.com/qr/7faa6893c4e64893a503baf0d40af213", "tipoCob": "cob"}, "location": "pix.example.com/qr/7faa6893c4e64893a503baf0d40af213", "status": "ATIVA", "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "0.00", "modalidadeAlteracao": 0, "retirada": {"saque": {"valor": "5.00", "modalidadeAlteracao": 0, "modalidadeAgente": "AGPSS", "prestadorDoServicoDeSaque": "12345678"}}}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}`
	pixCobExCobResponse6             = `{"calendario": {"criacao": "2020-09-09T20:15:00.358Z", "expiracao": 3600}, "txid": "33beb661beda44a8928fef47dbeb2dc5", "revisao": 0, "loc": {"id": 1004, "location": "pix.example.com/qr/7faa6893c4e64893a503baf0d40af213", "tipoCob": "cob"}, "location": "pix.example.com/qr/7faa6893c4e64893a503baf0d40af213", "status": "ATIVA", "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "0.00", "modalidadeAlteracao": 0, "retirada": {"saque": {"valor": "20.00", "modalidadeAlteracao": 1, "modalidadeAgente": "AGPSS", "prestadorDoServicoDeSaque": "12345678"}}}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}`
	pixCobExCobResponse7             = `{"calendario": {"criacao": "2020-09-09T20:15:00.358Z", "expiracao": 3600}, "txid": "33beb661beda44a8928fef47dbeb2dc5", "revisao": 0, "loc": {"id": 1004, "location": "pix.example.com/qr/7faa6893c4e64893a503baf0d40af213", "tipoCob": "cob"}, "location": "pix.example.com/qr/7faa6893c4e64893a503baf0d40af213", "status": "ATIVA", "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "valor": {"original": "10.00", "modalidadeAlteracao": 0, "retirada": {"troco": {"valor": "0.00", "modalidadeAlteracao": 1, "modalidadeAgente": "AGTEC", "prestadorDoServicoDeSaque": "12345678"}}}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}`
	pixCobExPayloadLocationResponse1 = `{"id": 7716, "txid": "fda9460fe04e4f129b72863ae57ee22f", "location": "pix.example.com/qr/v2/cobv/2353c790eefb11eaadc10242ac120002", "tipoCob": "cobv", "criacao": "2020-03-11T21:19:51.013Z"}`
	pixCobExPayloadLocationResponse2 = `{"id": 856, "txid": "31e08604f9ce459bb59672332af8d672", "location": "pix.example.com/qr/v2/cobv/39c9f435c6324867aa1dec1260e1127c", "tipoCob": "cobv", "criacao": "2020-02-10T19:22:52.013Z"}`
	pixCobExPayloadLocationResponse3 = `{"id": 2316, "txid": "eb9d87f36fca4c92b7d5ec48e2ee3853", "location": "pix.example.com/qr/v2/a8534e273ecb47d3ac30613104544466", "tipoCob": "cob", "criacao": "2020-05-31T19:39:54.013Z"}`
	pixCobExPayloadLocationResponse4 = `{"id": 2316, "location": "pix.example.com/qr/v2/a8534e273ecb47d3ac30613104544466", "tipoCob": "cob", "criacao": "2020-05-31T19:39:54.013Z"}`
	pixCobExPayloadLocationResponse5 = `{"id": 7716, "location": "pix.example.com/qr/v2/2353c790eefb11eaadc10242ac120002", "tipoCob": "cob", "criacao": "2020-03-11T21:19:51.013Z"}`
	pixCobExPayloadLocationResponse6 = `{"id": 856, "location": "pix.example.com/qr/v2/cobv/39c9f435c6324867aa1dec1260e1127c", "tipoCob": "cobv", "criacao": "2020-02-10T19:22:52.013Z"}`
	pixCobExCobPayload1              = `{"calendario": {"criacao": "2020-09-15T19:39:54.013Z", "apresentacao": "2020-04-01T18:00:00Z", "expiracao": 3600}, "txid": "fc9a4366ff3d4964b5dbc6c91a8722d3", "revisao": 3, "status": "ATIVA", "valor": {"original": "500.00", "modalidadeAlteracao": 0}, "chave": "7407c9c8-f78b-11ea-adc1-0242ac120002", "solicitacaoPagador": "Informar cartao fidelidade", "infoAdicionais": [{"nome": "quantidade", "valor": "2"}]}`
	pixCobExPixResponse1             = `{"endToEndId": "E12345678202009091221abcdef12345", "txid": "cd1fe328c875481285a6f233ae41b662", "valor": "100.00", "horario": "2020-09-10T13:03:33.902Z", "infoPagador": "Reforma da casa", "devolucoes": [{"id": "000AAA111", "rtrId": "D12345678202009091000abcde123456", "valor": "11.00", "horario": {"solicitacao": "2020-09-10T13:03:33.902Z"}, "status": "EM_PROCESSAMENTO"}]}`
	pixCobExPixResponse2             = `{"endToEndId": "E12345678202009091221ghijk78901234", "txid": "5b933948f3224266b1050ac54319e775", "valor": "200.00", "horario": "2020-09-10T13:03:33.902Z", "infoPagador": "Revisão do carro"}`
	pixCobExPixResponse3             = `{"endToEndId": "E88631478202009091221ghijk78901234", "txid": "82433415910c47e5adb6ac3527cca160", "valor": "200.00", "componentesValor": {"original": {"valor": "180.00"}, "saque": {"valor": "20.00", "modalidadeAgente": "AGPSS", "prestadorDeServicoDeSaque": "12345678"}}, "horario": "2020-09-10T13:03:33.902Z", "infoPagador": "Saque Pix"}`
	pixCobExDevolucaoResponse1       = `{"id": "123456", "rtrId": "D12345678202009091000abcde123456", "valor": "7.89", "horario": {"solicitacao": "2020-09-11T15:25:59.411Z"}, "status": "EM_PROCESSAMENTO"}`
	pixCobExDevolucaoResponse2       = `{"id": "502", "rtrId": "D12345678202011111000fghij789012", "valor": "20.00", "horario": {"solicitacao": "2020-09-11T15:25:59.411Z"}, "status": "NAO_REALIZADO", "motivo": "Negado por timeout"}`
	pixCobExWebhookResponse1         = `{"webhookUrl": "https://pix.example.com/api/webhook/", "chave": "40a0932d-1918-4eee-845d-35a2da1690dc", "criacao": "2020-11-11T10:15:00.358Z"}`
	pixCobExPixWebhook1              = `{"endToEndId": "E12345678202009091221kkkkkkkkkkk", "txid": "c3e0e7a4e7f1469a9f782d3d4999343c", "valor": "110.00", "horario": "2020-09-09T20:15:00.358Z", "infoPagador": "0123456789", "devolucoes": {"id": "123ABC", "rtrId": "D12345678202009091221abcdf098765", "valor": "10.00", "horario": {"solicitacao": "2020-09-09T20:15:00.358Z"}, "status": "EM_PROCESSAMENTO"}}`
	pixCobExPixWebhook2              = `{"endToEndId": "E87654321202009091221dfghi123456", "txid": "971122d8f37211eaadc10242ac120002", "valor": "110.00", "horario": "2020-09-09T20:15:00.358Z", "infoPagador": "0123456789"}`
)

// pixCobList builds a list answer {parametros, <key>: [items]} as the spec's
// list examples (getCobs1, getPix1, ...) do by reference to item examples.
func pixCobList(inicio, fim string, total int, key string, items ...string) string {
	return `{"parametros": {"inicio": "` + inicio + `", "fim": "` + fim +
		`", "paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 1, "quantidadeTotalDeItens": ` +
		strconv.Itoa(total) + `}}, "` + key + `": [` + strings.Join(items, ", ") + `]}`
}

// pixCobRegistry compiles every embedded schema, as the server does.
func pixCobRegistry(t *testing.T) *schema.Registry {
	t.Helper()
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// pixCobLeafFields lists the reported fields without the ones that only wrap
// a deeper violation (allOf, oneOf and $ref report at the parent too).
func pixCobLeafFields(vs []schema.Violation) []string {
	set := map[string]bool{}
	for _, v := range vs {
		set[v.Field] = true
	}
	var out []string
	for f := range set {
		leaf := true
		for g := range set {
			if g != f && (f == "" || strings.HasPrefix(g, f+".")) {
				leaf = false
				break
			}
		}
		if leaf {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// pixCobRun validates each case and compares the leaf fields reported.
func pixCobRun(t *testing.T, cases []pixCobCase) {
	reg := pixCobRegistry(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs, err := reg.Validate(c.schema, []byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			got := pixCobLeafFields(vs)
			want := append([]string(nil), c.fields...)
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s: fields %q, want %q; violations %+v", c.schema, got, want, vs)
			}
		})
	}
}

// TestPixCobSchemasSpecExamples validates the spec examples against the
// schema of the operation that shows them.
func TestPixCobSchemasSpecExamples(t *testing.T) {
	// The cob answers of the spec show loc without criacao and txid (and
	// cobResponse2 also without tipoCob), although CobGerada requires
	// loc{id, txid, tipoCob, criacao} and PayloadLocation adds location.
	locGaps := []string{"loc.criacao", "loc.txid"}
	day := "2020-04-01T00:00:00Z"
	dayEnd := "2020-04-01T23:59:59Z"
	pixCobRun(t, []pixCobCase{
		// Requests.
		{"cobBody2 PUT /cob", "pix/cob.request", pixCobExCobBody2, nil},
		// The Saque/Troco creation examples leave out calendario, which
		// CobSolicitada requires. Real clients send what the examples show,
		// so the sandbox takes calendario as optional (expiracao defaults to
		// 86400 s).
		{"cobBody6 saque without calendario", "pix/cob.request", pixCobExCobBody6, nil},
		{"cobBody8 saque without calendario", "pix/cob.request", pixCobExCobBody8, nil},
		{"cobBody9 troco without calendario", "pix/cob.request", pixCobExCobBody9, nil},
		{"cobBody3 PATCH /cob loc {id} only", "pix/cob.patch", pixCobExCobBody3, nil},
		{"cobBody4 PATCH /cob", "pix/cob.patch", pixCobExCobBody4, nil},
		{"cobBody5 PATCH /cob removal", "pix/cob.patch", pixCobExCobBody5, nil},
		{"payloadLocationBody1", "pix/loc.request", `{"tipoCob": "cob"}`, nil},
		{"payloadLocationBody2", "pix/loc.request", `{"tipoCob": "cobv"}`, nil},
		{"devolucaoSolicitada1", "pix/devolucao.request", `{"valor": "7.89"}`, nil},
		{"webhookBody1", "pix/webhook.request", `{"webhookUrl": "https://pix.example.com/api/webhook/"}`, nil},

		// Cob answers.
		{"cobResponse1 loc gaps", "pix/cob", pixCobExCobResponse1, locGaps},
		{"cobResponse1 repaired", "pix/cob", strings.Replace(pixCobExCobResponse1, `"tipoCob": "cob"}`,
			`"tipoCob": "cob", "criacao": "2020-09-09T20:15:00.358Z", "txid": "7978c0c97ea847e78e8849634473c1f1"}`, 1), nil},
		{"cobResponse3 loc gaps", "pix/cob", pixCobExCobResponse3, locGaps},
		{"cobResponse5 saque loc gaps", "pix/cob", pixCobExCobResponse5, locGaps},
		{"cobResponse6 saque loc gaps", "pix/cob", pixCobExCobResponse6, locGaps},
		{"cobResponse7 troco loc gaps", "pix/cob", pixCobExCobResponse7, locGaps},
		{"cobResponse1 GET loc gaps", "pix/cob.completa", pixCobExCobResponse1, locGaps},
		{"cobResponse2 GET paid, loc gaps", "pix/cob.completa", pixCobExCobResponse2,
			[]string{"loc.criacao", "loc.tipoCob", "loc.txid"}},
		{"getCobs1 loc gaps", "pix/cob.list", pixCobList(day, "2020-04-02T10:00:00Z", 2, "cobs",
			pixCobExCobResponse1, pixCobExCobResponse2, pixCobExCobResponse5, pixCobExCobResponse6, pixCobExCobResponse7),
			[]string{"cobs.0.loc.criacao", "cobs.0.loc.txid", "cobs.1.loc.criacao", "cobs.1.loc.tipoCob", "cobs.1.loc.txid",
				"cobs.2.loc.criacao", "cobs.2.loc.txid", "cobs.3.loc.criacao", "cobs.3.loc.txid", "cobs.4.loc.criacao", "cobs.4.loc.txid"}},
		{"getCobs2 loc gaps", "pix/cob.list", pixCobList(day, dayEnd, 1, "cobs", pixCobExCobResponse1),
			[]string{"cobs.0.loc.criacao", "cobs.0.loc.txid"}},
		{"cobPayload1", "pix/cob.payload", pixCobExCobPayload1, nil},

		// Locations.
		{"payloadLocationResponse1", "pix/loc", pixCobExPayloadLocationResponse1, nil},
		{"payloadLocationResponse2", "pix/loc", pixCobExPayloadLocationResponse2, nil},
		{"payloadLocationResponse3", "pix/loc", pixCobExPayloadLocationResponse3, nil},
		{"payloadLocationResponse4", "pix/loc", pixCobExPayloadLocationResponse4, nil},
		{"payloadLocationResponse5", "pix/loc", pixCobExPayloadLocationResponse5, nil},
		{"payloadLocationResponse6", "pix/loc", pixCobExPayloadLocationResponse6, nil},
		{"getPayloadLocation1", "pix/loc.list", pixCobList(day, dayEnd, 3, "loc",
			pixCobExPayloadLocationResponse1, pixCobExPayloadLocationResponse2, pixCobExPayloadLocationResponse3), nil},

		// Pix and refunds.
		{"pixResponse1", "pix/pix", pixCobExPixResponse1, nil},
		// pixResponse2 and pixResponse3 carry a 34-character endToEndId
		// (EndToEndId is exactly 32, in the published file too).
		{"pixResponse2 e2eid of 34", "pix/pix", pixCobExPixResponse2, []string{"endToEndId"}},
		// pixResponse3 also spells prestadorDeServicoDeSaque ("De"); the field,
		// required in componentesValor.saque, is prestadorDoServicoDeSaque.
		{"pixResponse3 e2eid of 34, saque typo", "pix/pix", pixCobExPixResponse3,
			[]string{"componentesValor.saque.prestadorDoServicoDeSaque", "endToEndId"}},
		{"getPix1", "pix/pix.list", pixCobList(day, dayEnd, 2, "pix",
			pixCobExPixResponse1, pixCobExPixResponse2, pixCobExPixResponse3),
			[]string{"pix.1.endToEndId", "pix.2.componentesValor.saque.prestadorDoServicoDeSaque", "pix.2.endToEndId"}},
		{"devolucaoResponse1", "pix/devolucao", pixCobExDevolucaoResponse1, nil},
		{"devolucaoResponse2", "pix/devolucao", pixCobExDevolucaoResponse2, nil},

		// Webhooks.
		{"webhookResponse1 with chave", "pix/webhook", pixCobExWebhookResponse1, nil},
		{"getWebhook1", "pix/webhook.list", pixCobList(day, dayEnd, 1, "webhooks",
			`{"webhookUrl": "https://usuario.recebedor.com/api/webhookrec/", "criacao": "2023-12-20T12:51:16.485Z"}`), nil},
		// pixWebhook1 carries devolucoes as an object instead of an array.
		{"WebhookPixBody devolucoes object", "pix/callback.pix", `{"pix": [` + pixCobExPixWebhook1 + `, ` + pixCobExPixWebhook2 + `]}`,
			[]string{"pix.0.devolucoes"}},
		{"pixWebhook2", "pix/callback.pix", `{"pix": [` + pixCobExPixWebhook2 + `]}`, nil},
	})
}

// TestPixCobSchemasDocuments checks the rules the schemas add or fix: strict
// requests, anchored patterns, the saque/troco and cpf/cnpj exclusions, and
// the values that must pass the schema because the server judges them.
func TestPixCobSchemasDocuments(t *testing.T) {
	// cob builds a PUT /cob body around the given fields.
	cob := func(extra string) string {
		return `{"calendario": {"expiracao": 3600}, "valor": {"original": "10.00"}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"` + extra + `}`
	}
	// gerada builds a CobGerada answer around the given fields.
	gerada := func(txid, extra string) string {
		return `{"calendario": {"criacao": "2020-09-09T20:15:00.358Z", "expiracao": 3600}, "txid": "` + txid +
			`", "revisao": 0, "status": "ATIVA", "valor": {"original": "10.00"}, "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"` + extra + `}`
	}
	txid := "7978c0c97ea847e78e8849634473c1f1"
	pix := func(e2e, txid string) string {
		return `{"endToEndId": "` + e2e + `", "txid": "` + txid + `", "valor": "100.00", "horario": "2020-09-10T13:03:33.902Z"}`
	}
	e2e := "E12345678202009091221abcdef12345"
	saque := `"saque": {"valor": "5.00", "modalidadeAgente": "AGPSS", "prestadorDoServicoDeSaque": "12345678"}`
	troco := `"troco": {"valor": "5.00", "modalidadeAgente": "AGTEC", "prestadorDoServicoDeSaque": "12345678"}`
	many := strings.Repeat(`{"nome": "n", "valor": "v"}, `, 50) + `{"nome": "n", "valor": "v"}`
	pag := `"paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 0, "quantidadeTotalDeItens": 0}`
	periodo := `"inicio": "2020-04-01T00:00:00Z", "fim": "2020-04-01T23:59:59Z"`

	pixCobRun(t, []pixCobCase{
		// What the server, not the schema, refuses (CobOperacaoInvalida).
		{"expiracao 0 passes", "pix/cob.request", strings.Replace(cob(""), "3600", "0", 1), nil},
		{"expiracao negative passes", "pix/cob.request", strings.Replace(cob(""), "3600", "-1", 1), nil},
		{"original 0.00 passes", "pix/cob.request", strings.Replace(cob(""), "10.00", "0.00", 1), nil},
		{"empty calendario passes", "pix/cob.request", strings.Replace(cob(""), `{"expiracao": 3600}`, `{}`, 1), nil},
		{"loc id alone", "pix/cob.request", cob(`, "loc": {"id": 789}`), nil},
		{"loc id and tipoCob", "pix/cob.request", cob(`, "loc": {"id": 789, "tipoCob": "cob"}`), nil},
		{"alphanumeric cnpj", "pix/cob.request", cob(`, "devedor": {"cnpj": "12ABC34501DE35", "nome": "Empresa"}`), nil},
		{"saque", "pix/cob.request", `{"calendario": {}, "valor": {"original": "0.00", "retirada": {` + saque + `}}, "chave": "k"}`, nil},
		{"troco", "pix/cob.request", `{"calendario": {}, "valor": {"original": "10.00", "retirada": {` + troco + `}}, "chave": "k"}`, nil},

		// Strict requests report unknown or misspelt fields by name.
		{"txid in body", "pix/cob.request", cob(`, "txid": "` + txid + `"`), []string{"txid"}},
		{"misspelt solicitacaoPagador", "pix/cob.request", cob(`, "solicitacaoPagado": "x"`), []string{"solicitacaoPagado"}},
		{"unknown field in valor", "pix/cob.request", strings.Replace(cob(""), `"10.00"`, `"10.00", "final": "10.00"`, 1), []string{"valor.final"}},
		{"unknown field in calendario", "pix/cob.request", strings.Replace(cob(""), `3600`, `3600, "dataDeVencimento": "2020-12-31"`, 1), []string{"calendario.dataDeVencimento"}},
		{"unknown field in loc", "pix/cob.request", cob(`, "loc": {"id": 1, "location": "x"}`), []string{"loc.location"}},
		{"unknown field in devedor", "pix/cob.request", cob(`, "devedor": {"cpf": "12345678909", "nome": "F", "email": "f@x.com"}`), []string{"devedor.email"}},
		{"unknown field in infoAdicionais", "pix/cob.request", cob(`, "infoAdicionais": [{"nome": "n", "valor": "v", "x": 1}]`), []string{"infoAdicionais.0.x"}},
		{"unknown field in loc request", "pix/loc.request", `{"tipoCob": "cob", "id": 1}`, []string{"id"}},
		{"unknown field in devolucao request", "pix/devolucao.request", `{"valor": "1.00", "motivo": "x"}`, []string{"motivo"}},
		{"unknown field in webhook request", "pix/webhook.request", `{"webhookUrl": "https://x.example.com/h", "chave": "k"}`, []string{"chave"}},

		// Required fields, types, lengths, patterns, enums.
		{"empty cob", "pix/cob.request", `{}`, []string{"chave", "valor"}},
		{"valor without original", "pix/cob.request", strings.Replace(cob(""), `"original": "10.00"`, `"modalidadeAlteracao": 1`, 1), []string{"valor.original"}},
		{"money 10.0", "pix/cob.request", strings.Replace(cob(""), "10.00", "10.0", 1), []string{"valor.original"}},
		{"money as number", "pix/cob.request", strings.Replace(cob(""), `"10.00"`, `10.00`, 1), []string{"valor.original"}},
		{"money with comma", "pix/devolucao.request", `{"valor": "7,89"}`, []string{"valor"}},
		{"expiracao as string", "pix/cob.request", strings.Replace(cob(""), "3600", `"3600"`, 1), []string{"calendario.expiracao"}},
		{"modalidadeAlteracao 2", "pix/cob.request", strings.Replace(cob(""), `"10.00"`, `"10.00", "modalidadeAlteracao": 2`, 1), []string{"valor.modalidadeAlteracao"}},
		{"chave of 78", "pix/cob.request", strings.Replace(cob(""), "7d9f0335-8dcc-4054-9bf9-0dbd61d36906", strings.Repeat("a", 78), 1), []string{"chave"}},
		{"solicitacaoPagador of 141", "pix/cob.request", cob(`, "solicitacaoPagador": "` + strings.Repeat("a", 141) + `"`), []string{"solicitacaoPagador"}},
		{"51 infoAdicionais", "pix/cob.request", cob(`, "infoAdicionais": [` + many + `]`), []string{"infoAdicionais"}},
		{"infoAdicional nome of 51", "pix/cob.request", cob(`, "infoAdicionais": [{"nome": "` + strings.Repeat("a", 51) + `", "valor": "v"}]`), []string{"infoAdicionais.0.nome"}},
		{"cpf with a mask", "pix/cob.request", cob(`, "devedor": {"cpf": "123.456.789-09", "nome": "F"}`), []string{"devedor.cpf"}},
		{"cpf of 12 digits", "pix/cob.request", cob(`, "devedor": {"cpf": "123456789091", "nome": "F"}`), []string{"devedor.cpf"}},
		{"cnpj in lower case", "pix/cob.request", cob(`, "devedor": {"cnpj": "12abc34501de35", "nome": "E"}`), []string{"devedor.cnpj"}},
		{"devedor without nome", "pix/cob.request", cob(`, "devedor": {"cpf": "12345678909"}`), []string{"devedor.nome"}},
		// A oneOf failure names the field of its closest branch.
		{"devedor nome alone", "pix/cob.request", cob(`, "devedor": {"nome": "F"}`), []string{"devedor.cpf"}},
		{"devedor cpf and cnpj", "pix/cob.request", cob(`, "devedor": {"cpf": "12345678909", "cnpj": "12345678000195", "nome": "F"}`), []string{"devedor"}},
		{"loc without id", "pix/cob.request", cob(`, "loc": {"tipoCob": "cob"}`), []string{"loc.id"}},
		{"loc id as string", "pix/cob.request", cob(`, "loc": {"id": "789"}`), []string{"loc.id"}},
		{"saque and troco", "pix/cob.request", `{"calendario": {}, "valor": {"original": "0.00", "retirada": {` + saque + `, ` + troco + `}}, "chave": "k"}`, []string{"valor.retirada"}},
		{"empty retirada", "pix/cob.request", `{"calendario": {}, "valor": {"original": "0.00", "retirada": {}}, "chave": "k"}`, []string{"valor.retirada.saque"}},
		{"troco by AGPSS", "pix/cob.request", `{"calendario": {}, "valor": {"original": "10.00", "retirada": {` + strings.Replace(troco, "AGTEC", "AGPSS", 1) + `}}, "chave": "k"}`,
			[]string{"valor.retirada.troco.modalidadeAgente"}},
		{"saque without prestador", "pix/cob.request", `{"calendario": {}, "valor": {"original": "0.00", "retirada": {"saque": {"valor": "5.00", "modalidadeAgente": "AGPSS"}}}, "chave": "k"}`,
			[]string{"valor.retirada.saque.prestadorDoServicoDeSaque"}},
		{"tipoCob cobr", "pix/loc.request", `{"tipoCob": "cobr"}`, []string{"tipoCob"}},
		{"empty loc request", "pix/loc.request", `{}`, []string{"tipoCob"}},
		{"natureza MED_FRAUDE requested", "pix/devolucao.request", `{"valor": "1.00", "natureza": "MED_FRAUDE"}`, []string{"natureza"}},
		{"natureza RETIRADA requested", "pix/devolucao.request", `{"valor": "1.00", "natureza": "RETIRADA", "descricao": "troco"}`, nil},
		{"descricao of 141", "pix/devolucao.request", `{"valor": "1.00", "descricao": "` + strings.Repeat("a", 141) + `"}`, []string{"descricao"}},
		{"webhookUrl without scheme", "pix/webhook.request", `{"webhookUrl": "pix.example.com/api/webhook"}`, []string{"webhookUrl"}},

		// PATCH /cob: every field optional, status only to remove.
		{"empty patch", "pix/cob.patch", `{}`, nil},
		{"patch valor without original", "pix/cob.patch", `{"valor": {"modalidadeAlteracao": 1}}`, nil},
		{"patch status ATIVA", "pix/cob.patch", `{"status": "ATIVA"}`, []string{"status"}},
		{"patch status REMOVIDA_PELO_PSP", "pix/cob.patch", `{"status": "REMOVIDA_PELO_PSP"}`, []string{"status"}},
		{"patch unknown field", "pix/cob.patch", `{"revisao": 2}`, []string{"revisao"}},

		// Answers: txid lengths, location without scheme, extra fields.
		{"cob txid of 26", "pix/cob", gerada(strings.Repeat("a", 26), ""), nil},
		{"cob txid of 25", "pix/cob", gerada(strings.Repeat("a", 25), ""), []string{"txid"}},
		{"cob txid of 36", "pix/cob", gerada(strings.Repeat("a", 36), ""), []string{"txid"}},
		{"cob txid with a dash", "pix/cob", gerada("7978c0c9-7ea847e78e8849634473c1f1", ""), []string{"txid"}},
		{"cob extra field tolerated", "pix/cob", gerada(txid, `, "nomeRecebedor": "PSP"`), nil},
		{"cob location without scheme", "pix/cob", gerada(txid, `, "location": "pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25"`), nil},
		{"cob location of 78", "pix/cob", gerada(txid, `, "location": "`+strings.Repeat("a", 78)+`"`), []string{"location"}},
		{"cob full loc", "pix/cob", gerada(txid, `, "loc": {"id": 1, "txid": "`+txid+`", "location": "pix.example.com/qr/v2/x", "tipoCob": "cob", "criacao": "2020-09-09T20:15:00Z"}`), nil},
		{"cob status EXPIRADA", "pix/cob", strings.Replace(gerada(txid, ""), "ATIVA", "EXPIRADA", 1), []string{"status"}},
		{"cob status REMOVIDO spelling", "pix/cob", strings.Replace(gerada(txid, ""), "ATIVA", "REMOVIDO_PELO_PSP", 1), []string{"status"}},
		{"cob calendario without criacao", "pix/cob", strings.Replace(gerada(txid, ""), `"criacao": "2020-09-09T20:15:00.358Z", `, "", 1), []string{"calendario.criacao"}},
		{"cob criacao as a date", "pix/cob", strings.Replace(gerada(txid, ""), "2020-09-09T20:15:00.358Z", "2020-09-09", 1), []string{"calendario.criacao"}},
		{"cob without revisao", "pix/cob", strings.Replace(gerada(txid, ""), `"revisao": 0, `, "", 1), []string{"revisao"}},
		{"cob pix txid of 35", "pix/cob.completa", gerada(txid, `, "pix": [`+pix(e2e, strings.Repeat("b", 35))+`]`), nil},
		{"cob pix txid of 10", "pix/cob.completa", gerada(txid, `, "pix": [`+pix(e2e, "abcdefghij")+`]`), []string{"pix.0.txid"}},
		{"payload without apresentacao", "pix/cob.payload", gerada(txid, ""), []string{"calendario.apresentacao"}},
		{"loc with txid of 10", "pix/loc", `{"id": 1, "txid": "abcdefghij", "location": "pix.example.com/qr/v2/x", "tipoCob": "cob", "criacao": "2020-09-09T20:15:00Z"}`, []string{"txid"}},
		{"loc without criacao", "pix/loc", `{"id": 1, "location": "pix.example.com/qr/v2/x", "tipoCob": "cob"}`, []string{"criacao"}},

		// Pix and refunds.
		{"pix txid of 10", "pix/pix", pix(e2e, "abcdefghij"), nil},
		{"pix without txid", "pix/pix", `{"endToEndId": "` + e2e + `", "valor": "1.00", "horario": "2020-09-10T13:03:33Z"}`, nil},
		{"pix txid of 36", "pix/pix", pix(e2e, strings.Repeat("b", 36)), []string{"txid"}},
		{"pix e2eid of 31", "pix/pix", pix(e2e[:31], txid), []string{"endToEndId"}},
		{"pix e2eid with a dash", "pix/pix", pix("E-2345678202009091221abcdef12345", txid), []string{"endToEndId"}},
		{"pix without horario", "pix/pix", `{"endToEndId": "` + e2e + `", "valor": "1.00"}`, []string{"horario"}},
		{"pix saque and troco", "pix/pix", `{"endToEndId": "` + e2e + `", "valor": "10.00", "horario": "2020-09-10T13:03:33Z", "componentesValor": {` + saque + `, ` + troco + `}}`,
			[]string{"componentesValor"}},
		{"pix componentes", "pix/pix", `{"endToEndId": "` + e2e + `", "valor": "105.00", "horario": "2020-09-10T13:03:33Z", "componentesValor": {"original": {"valor": "100.00"}, "multa": {"valor": "3.00"}, "juros": {"valor": "2.00"}}}`, nil},
		{"pix componente without valor", "pix/pix", `{"endToEndId": "` + e2e + `", "valor": "1.00", "horario": "2020-09-10T13:03:33Z", "componentesValor": {"original": {}}}`,
			[]string{"componentesValor.original.valor"}},
		{"devolucao DEVOLVIDO", "pix/devolucao", `{"id": "a1", "rtrId": "D12345678202009091000abcde123456", "valor": "1.00", "natureza": "MED_FRAUDE", "horario": {"solicitacao": "2020-09-11T15:25:59Z", "liquidacao": "2020-09-11T15:26:00Z"}, "status": "DEVOLVIDO"}`, nil},
		{"devolucao rtrId of 31", "pix/devolucao", `{"id": "a1", "rtrId": "D12345678202009091000abcde12345", "valor": "1.00", "horario": {"solicitacao": "2020-09-11T15:25:59Z"}, "status": "DEVOLVIDO"}`, []string{"rtrId"}},
		{"devolucao id of 36", "pix/devolucao", `{"id": "` + strings.Repeat("a", 36) + `", "rtrId": "D12345678202009091000abcde123456", "valor": "1.00", "horario": {"solicitacao": "2020-09-11T15:25:59Z"}, "status": "DEVOLVIDO"}`, []string{"id"}},
		{"devolucao without solicitacao", "pix/devolucao", `{"id": "a1", "rtrId": "D12345678202009091000abcde123456", "valor": "1.00", "horario": {}, "status": "DEVOLVIDO"}`, []string{"horario.solicitacao"}},
		{"devolucao status PENDENTE", "pix/devolucao", `{"id": "a1", "rtrId": "D12345678202009091000abcde123456", "valor": "1.00", "horario": {"solicitacao": "2020-09-11T15:25:59Z"}, "status": "PENDENTE"}`, []string{"status"}},

		// Lists and pagination.
		{"empty cob list", "pix/cob.list", `{"parametros": {` + periodo + `, ` + pag + `}, "cobs": []}`, nil},
		{"cob list without paginacao", "pix/cob.list", `{"parametros": {` + periodo + `}, "cobs": []}`, []string{"parametros.paginacao"}},
		{"paginacao without a counter", "pix/loc.list", `{"parametros": {` + periodo + `, "paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 0}}, "loc": []}`,
			[]string{"parametros.paginacao.quantidadeTotalDeItens"}},
		{"itensPorPagina 0", "pix/loc.list", `{"parametros": {` + periodo + `, ` + strings.Replace(pag, `"itensPorPagina": 100`, `"itensPorPagina": 0`, 1) + `}, "loc": []}`,
			[]string{"parametros.paginacao.itensPorPagina"}},
		{"pix list under cobs", "pix/pix.list", `{"parametros": {` + periodo + `, ` + pag + `}, "cobs": []}`, []string{"pix"}},
		{"pix list filter txid of 1", "pix/pix.list", `{"parametros": {` + periodo + `, "txid": "a", ` + pag + `}, "pix": []}`, nil},

		// Webhooks and the /pix callback.
		{"webhook with cnpj and chave", "pix/webhook", `{"webhookUrl": "https://x.example.com/h", "chave": "k", "cnpj": "12345678000195", "criacao": "2020-11-11T10:15:00Z"}`, nil},
		{"webhook without criacao", "pix/webhook", `{"webhookUrl": "https://x.example.com/h", "chave": "k"}`, []string{"criacao"}},
		{"empty webhook list", "pix/webhook.list", `{"webhooks": []}`, nil},
		{"callback without pix", "pix/callback.pix", `{"pix": []}`, []string{"pix"}},
		{"callback pix without txid", "pix/callback.pix", `{"pix": [{"endToEndId": "` + e2e + `", "valor": "1.00", "horario": "2020-09-10T13:03:33Z"}]}`, []string{"pix.0.txid"}},
	})
}
