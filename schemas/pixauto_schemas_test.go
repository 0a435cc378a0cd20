package schemas_test

// Tests of the API Pix 2.9.0 schemas of Pix Automático: tags Rec, SolicRec,
// CobR, PayloadLocationRec, RecPayload, WebhookRec and WebhookCobR, and the
// /rec and /cobr callbacks (schemas/pix/rec*, solicrec*, cobr*, locrec*,
// webhookrec*, webhookcobr*, callback.rec, callback.cobr, pixauto.common).
// The spec examples are copied verbatim from components.examples of the
// official openapi.yaml (bacen/pix-api 2.9.0). Where an example is itself
// defective, the case lists the exact fields that must be reported, so the
// test also proves that nothing else in the example is refused. The runner
// and the case type are those of pix_schemas_test.go.

import (
	"strings"
	"testing"
)

// Spec examples (components.examples), verbatim.
const (
	pixAutoExRecBody1                    = `{"vinculo": {"contrato": "63100862", "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"}, "objeto": "Serviço de Streamming de Música."}, "calendario": {"dataFinal": "2025-04-01", "dataInicial": "2024-04-01", "periodicidade": "MENSAL"}, "valor": {"valorRec": "35.00"}, "politicaRetentativa": "NAO_PERMITE", "loc": 108, "ativacao": {"dadosJornada": {"txid": "33beb661beda44a8928fef47dbeb2dc5"}}}`
	pixAutoExRecBody2                    = `{"vinculo": {"contrato": "998782003", "devedor": {"cpf": "02989131415", "nome": "Beltrano da Silva"}, "objeto": "Serviço de Plano de Saúde."}, "calendario": {"dataInicial": "2024-10-10", "periodicidade": "ANUAL"}, "valor": {"valorMinimoRecebedor": "5000.00"}, "politicaRetentativa": "PERMITE_3R_7D"}`
	pixAutoExRecBody3                    = `{"loc": 108, "vinculo": {"devedor": {"nome": "Fulano de Tal"}}, "calendario": {"dataInicial": "2024-04-01"}, "ativacao": {"dadosJornada": {"txid": "33beb661beda44a8928fef47dbeb2dc5"}}}`
	pixAutoExRecResponse1                = `{"idRec": "RN1234567820240115abcdefghijk", "vinculo": {"contrato": "63100862", "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"}, "objeto": "Serviço de Streamming de Música."}, "calendario": {"dataFinal": "2025-04-01", "dataInicial": "2024-04-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "recebedor": {"cnpj": "01602606113708", "nome": "Empresa de Serviços SA"}, "valor": {"valorRec": "35.00"}, "status": "CRIADA", "loc": {"criacao": "2023-12-10T07:10:05.115Z", "id": 108, "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002", "idRec": "RN1234567820240115abcdefghijk"}, "ativacao": {"dadosJornada": {"tipoJornada": "JORNADA_3", "txid": "33beb661beda44a8928fef47dbeb2dc5"}}, "atualizacao": [{"data": "2023-12-19T12:28:05.230Z", "nome": "CRIADA"}]}`
	pixAutoExRecResponse2                = `{"idRec": "RR1234567820240115abcdefghijk", "vinculo": {"contrato": "998782003", "devedor": {"cpf": "02989131415", "nome": "Beltrano da Silva"}, "objeto": "Serviço de Plano de Saúde."}, "calendario": {"dataInicial": "2024-10-10", "periodicidade": "ANUAL"}, "politicaRetentativa": "PERMITE_3R_7D", "recebedor": {"cnpj": "09172302153900", "nome": "Empresa de Serviços de Saúde SA"}, "valor": {"valorMinimoRecebedor": "5000.00"}, "status": "CRIADA", "atualizacao": [{"data": "2024-01-11T10:27:01.280Z", "nome": "CRIADA"}]}`
	pixAutoExRecResponse3                = `{"idRec": "RN1234567820240115abcdefghijk", "status": "APROVADA", "valor": {"valorRec": "300.00"}, "vinculo": {"contrato": "98625023", "devedor": {"cpf": "87734514122", "nome": "Fulano de Tal"}, "objeto": "Serviços de Gestão de Imóveis"}, "calendario": {"dataFinal": "2028-09-01", "dataInicial": "2024-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "loc": {"criacao": "2023-12-19T12:28:05.230Z", "id": 5100, "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002", "idRec": "RN1234567820240115abcdefghijk"}, "pagador": {"codMun": "2673833", "cpf": "75633122216", "ispbParticipante": "81102623"}, "recebedor": {"cnpj": "92221288310574", "nome": "Imobiliária Bom Sucesso"}, "atualizacao": [{"data": "2024-01-03T08:30:02.050Z", "nome": "CRIADA"}, {"data": "2024-01-04T09:40:42.210Z", "nome": "APROVADA"}], "dadosQR": {"jornada": "JORNADA_2", "pixCopiaECola": "00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002630462C9"}}`
	pixAutoExRecResponse4                = `{"idRec": "RR7784567820240528123defgh775", "status": "CRIADA", "valor": {"valorRec": "250.00"}, "vinculo": {"contrato": "9612389", "devedor": {"cpf": "45832633800", "nome": "Alfredo Tavares"}, "objeto": "Serviços Esportivos"}, "calendario": {"dataFinal": "2028-09-01", "dataInicial": "2024-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "PERMITE_3R_7D", "pagador": {"codMun": "1509873", "cpf": "45832633800", "ispbParticipante": "52780028"}, "recebedor": {"cnpj": "56958712500811", "nome": "Academia Saúde"}, "atualizacao": [{"data": "2024-01-03T08:30:02.050Z", "nome": "CRIADA"}]}`
	pixAutoExRecResponse5                = `{"idRec": "RR1026652320240821lab77511abf", "status": "CANCELADA", "valor": {"valorMinimoRecebedor": "800.00"}, "vinculo": {"contrato": "298620560", "devedor": {"cpf": "12600511100", "nome": "Sebastião Silva"}, "objeto": "Faculdade de Engenharia"}, "calendario": {"dataFinal": "2027-09-01", "dataInicial": "2024-10-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "PERMITE_3R_7D", "pagador": {"codMun": "1509873", "cpf": "12600511100", "ispbParticipante": "52780028"}, "recebedor": {"cnpj": "61593007802371", "nome": "Universidade Brasileira"}, "encerramento": {"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": "Cancelamento solicitado pelo usuário recebedor"}}, "atualizacao": [{"data": "2024-08-03T08:30:02.050Z", "nome": "CRIADA"}, {"data": "2024-09-06T09:11:42.205Z", "nome": "APROVADA"}, {"data": "2024-10-06T15:05:33.305Z", "nome": "CANCELADA"}], "ativacao": {"tipoJornada": "JORNADA_1"}}`
	pixAutoExRecResponse6                = `{"idRec": "RN1234567820241203fghijkabcde", "status": "CRIADA", "valor": {"valorRec": "150.00"}, "vinculo": {"contrato": "5582610", "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"}, "objeto": "Serviços de Gestão de Imóveis"}, "calendario": {"dataFinal": "2028-09-01", "dataInicial": "2025-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "loc": {"criacao": "2024-10-01T10:15:01.115Z", "id": 2726, "location": "pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890", "idRec": "RN1234567820241203fghijkabcde"}, "recebedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}, "atualizacao": [{"data": "2024-12-03T08:30:02.050Z", "nome": "CRIADA"}], "dadosQR": {"jornada": "JORNADA_3", "pixCopiaECola": "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa35319489063047741"}}`
	pixAutoExRecResponse7                = `{"idRec": "RN1234567820241130lkwdefghijk", "status": "CRIADA", "valor": {"valorRec": "210.00"}, "vinculo": {"contrato": "11750023", "devedor": {"cpf": "75633122216", "nome": "Francisco da Silva"}, "objeto": "Assinatura de Serviços de Transporte"}, "calendario": {"dataFinal": "2026-12-01", "dataInicial": "2025-03-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "loc": {"criacao": "2024-05-19T10:28:05.230Z", "id": 6153, "location": "pix.example.com/qr/v2/rec/3ffa640fa4f14080adccb949fa2dc0d0", "idRec": "RN1234567820241130lkwdefghijk"}, "recebedor": {"cnpj": "56989000019533", "nome": "Empresa de Logística SA"}, "atualizacao": [{"data": "2024-11-30T08:30:02.050Z", "nome": "CRIADA"}], "dadosQR": {"jornada": "JORNADA_4", "pixCopiaECola": "00020101021226810014br.gov.bcb.pix2559pix.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e75204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/3ffa640fa4f14080adccb949fa2dc0d06304A441"}}`
	pixAutoExRecResponse8                = `{"idRec": "RR3781267820250201123deabc339", "status": "CRIADA", "valor": {"valorRec": "170.00"}, "vinculo": {"contrato": "1793651", "devedor": {"cpf": "01536985566", "nome": "Fulano de Tal"}, "objeto": "Serviços de Telefonia"}, "calendario": {"dataFinal": "2028-03-01", "dataInicial": "2025-03-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "pagador": {"codMun": "1509873", "cpf": "45832633800", "ispbParticipante": "52780028"}, "recebedor": {"convenio": "Master", "cnpj": "56958712500811", "nome": "Academia Saúde"}, "atualizacao": [{"data": "2025-02-01T08:30:02.050Z", "nome": "CRIADA"}]}`
	pixAutoExRecWebhookNotification1     = `{"recs": [{"idRec": "RR1026652320240821lab77511abf", "status": "APROVADA", "atualizacao": [{"status": "CRIADA", "data": "2024-08-20T10:12:07.567Z"}, {"status": "APROVADA", "data": "2024-08-22T12:43:53.337Z"}], "ativacao": {"tipoJornada": "JORNADA_3", "dadosJornada": {"txid": "r9eFIFmwcZ55Nm4RsKZAAtIvvCrlcNN6"}}}]}`
	pixAutoExRecPayload1                 = `{"idRec": "RN123456782024011577825445612", "vinculo": {"contrato": "5582610", "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"}, "objeto": "Serviço de Streamming de Música."}, "calendario": {"dataFinal": "2025-04-01", "dataInicial": "2024-04-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "valor": {"valorRec": "35.00"}, "recebedor": {"cnpj": "28765007802371", "nome": "Startup Musical", "ispbParticipante": "12345678"}, "atualizacao": [{"status": "CRIADA", "data": "2024-03-20T10:12:07.567Z"}]}`
	pixAutoExSolicRecBody1               = `{"idRec": "RN123456782024011577825445612", "calendario": {"dataExpiracaoSolicitacao": "2023-12-20T12:17:11.926Z"}, "destinatario": {"agencia": "2569", "conta": "550689", "cpf": "15231470190", "ispbParticipante": "91193552"}}`
	pixAutoExSolicRecBody2               = `{"status": "CANCELADA"}`
	pixAutoExSolicRecResponse1           = `{"idSolicRec": "SC876456782024021577825445312", "idRec": "RN123456782024011577825445612", "calendario": {"dataExpiracaoSolicitacao": "2023-12-20T12:17:11.926Z"}, "status": "CRIADA", "destinatario": {"agencia": "2569", "conta": "550689", "cpf": "15231470190", "ispbParticipante": "91193552"}, "atualizacao": [{"data": "2023-12-20T12:18:18.618Z", "status": "CRIADA"}], "recPayload": {"idRec": "RN123456782024011577825445612", "vinculo": {"contrato": "561238008", "devedor": {"cpf": "15231470190", "nome": "Fulano de Tal"}, "objeto": "Serviços de Telecomunicações"}, "calendario": {"dataFinal": "2023-12-01", "dataInicial": "2024-04-01", "periodicidade": "MENSAL"}, "recebedor": {"cnpj": "94370926517368", "nome": "Empresa de Serviços SA"}, "valor": {"valorRec": "1200.09"}, "atualizacao": [{"data": "2023-12-15T08:30:07.115Z", "status": "CRIADA"}]}}`
	pixAutoExSolicRecResponse2           = `{"idSolicRec": "SC875116782024021577820565312", "idRec": "RR692350012024051502650081069", "calendario": {"dataExpiracaoSolicitacao": "2024-12-15T12:17:11.926Z"}, "status": "REJEITADA", "destinatario": {"agencia": "1179", "conta": "73851", "cpf": "07031470825", "ispbParticipante": "91193552"}, "atualizacao": [{"data": "2024-12-15T12:18:18.618Z", "status": "CRIADA"}, {"data": "2024-12-15T16:18:18.618Z", "status": "ENVIADA"}, {"data": "2024-12-16T08:50:18.268Z", "status": "REJEITADA"}], "recPayload": {"idRec": "RR692350012024051502650081069", "vinculo": {"contrato": "Assinatura Individual", "devedor": {"cpf": "07031470825", "nome": "Sebastião Silva"}, "objeto": "Serviços de Entrega de Alimentos"}, "valor": {"valorMinimoRecebedor": "300.00"}, "calendario": {"dataFinal": "2025-05-01", "dataInicial": "2024-12-01", "periodicidade": "MENSAL"}, "recebedor": {"cnpj": "25603926517008", "nome": "Empresa de Produtos Alimentícios SA"}, "atualizacao": [{"data": "2023-12-08T16:24:35.233Z", "status": "CRIADA"}]}}`
	pixAutoExSolicRecResponse3           = `{"idSolicRec": "SC876456782024021577825445312", "idRec": "RN123456782024011577825445612", "calendario": {"dataExpiracaoSolicitacao": "2024-06-11T07:17:11.008Z"}, "status": "CANCELADA", "destinatario": {"agencia": "2569", "conta": "550689", "cpf": "15231470190", "ispbParticipante": "91193552"}, "atualizacao": [{"data": "2024-05-16T17:01:06.781Z", "status": "CRIADA"}, {"data": "2024-05-30T10:18:18.618Z", "status": "CANCELADA"}], "recPayload": {"idRec": "RN123456782024011577825445612", "vinculo": {"contrato": "Banda Larga Fibra Ótica", "devedor": {"cpf": "15231470190", "nome": "Fulano de Tal"}, "objeto": "Serviços de Telecomunicações"}, "valor": {"valorRec": "1200.09"}, "calendario": {"dataFinal": "2025-05-01", "dataInicial": "2024-05-01", "periodicidade": "MENSAL"}, "recebedor": {"cnpj": "94370926517368", "nome": "Empresa de Serviços SA"}, "atualizacao": [{"data": "2023-12-08T16:24:35.233Z", "status": "CRIADA"}]}}`
	pixAutoExCobRBody1                   = `{"idRec": "RR1234567820240115abcdefghijk", "infoAdicional": "Serviços de Streamming de Música e Filmes.", "calendario": {"dataDeVencimento": "2024-04-15"}, "valor": {"original": "106.07"}, "ajusteDiaUtil": true, "devedor": {"cep": "89256-140", "cidade": "Uberlândia", "email": "sebastiao.tavares@mail.com", "logradouro": "Alameda Franco 1056", "uf": "MG"}, "recebedor": {"agencia": "9708", "conta": "012682", "tipoConta": "CORRENTE"}}`
	pixAutoExCobRBody2                   = `{"status": "CANCELADA"}`
	pixAutoExCobRResponse1               = `{"idRec": "RR1234567820240115abcdefghijk", "txid": "3136957d93134f2184b369e8f1c0729d", "infoAdicional": "Serviços de Streamming de Música e Filmes.", "calendario": {"criacao": "2024-04-01", "dataDeVencimento": "2024-04-15"}, "status": "CRIADA", "valor": {"original": "106.07"}, "politicaRetentativa": "PERMITE_3R_7D", "ajusteDiaUtil": true, "devedor": {"cep": "89256-140", "cidade": "Uberlândia", "email": "sebastiao.tavares@mail.com", "logradouro": "Alameda Franco 1056", "uf": "MG"}, "recebedor": {"agencia": "9708", "conta": "012682", "tipoConta": "CORRENTE"}, "atualizacao": [{"data": "2024-04-01T14:47:29.470Z", "status": "CRIADA"}]}`
	pixAutoExCobRResponse2               = `{"idRec": "RR1234567820240115abcdefghijk", "txid": "3136957d93134f2184b369e8f1c0729d", "infoAdicional": "Serviços de Streamming de Música e Filmes.", "calendario": {"criacao": "2024-04-01", "dataDeVencimento": "2024-04-15"}, "valor": {"original": "106.07"}, "status": "CRIADA", "politicaRetentativa": "PERMITE_3R_7D", "ajusteDiaUtil": true, "devedor": {"cep": "89256-140", "cidade": "Uberlândia", "email": "sebastiao.tavares@mail.com", "logradouro": "Alameda Franco 1056", "uf": "MG"}, "recebedor": {"agencia": "9708", "conta": "012682", "tipoConta": "CORRENTE"}, "atualizacao": [{"data": "2024-04-01T14:47:29.470Z", "status": "CRIADA"}]}`
	pixAutoExCobRResponse3               = `{"idRec": "RR123456782024061999000566354", "txid": "7f733863543b4a16b516d839bd4bc34e", "calendario": {"criacao": "2024-05-20", "dataDeVencimento": "2024-06-20"}, "valor": {"original": "50.33"}, "status": "ATIVA", "politicaRetentativa": "PERMITE_3R_7D", "ajusteDiaUtil": true, "devedor": {"cep": "63259-740", "cidade": "Campinas", "email": "beltrano.silva@mail.com", "logradouro": "Rua Gonçalves Dias 605", "uf": "SP"}, "recebedor": {"cnpj": "58966551101210", "conta": "997182", "tipoConta": "CORRENTE"}, "tentativas": [{"dataLiquidacao": "2024-06-22", "tipo": "AGND", "endToEndId": "E12345678202406201221abcdef12345", "status": "EXPIRADA"}, {"dataLiquidacao": "2024-06-24", "tipo": "NTAG", "endToEndId": "E12345678202406201221abcdef12345", "status": "AGENDADA"}], "atualizacao": [{"data": "2024-05-20T14:47:29.470Z", "status": "CRIADA"}, {"data": "2024-05-21T10:18:20.120Z", "status": "ATIVA"}]}`
	pixAutoExCobRResponse4               = `{"idRec": "RN985156112024071999000566354", "txid": "517bd858b59d458a841280b0f0a60bfa", "calendario": {"criacao": "2024-05-20", "dataDeVencimento": "2024-06-20"}, "valor": {"original": "210.00"}, "status": "CANCELADA", "politicaRetentativa": "NAO_PERMITE", "ajusteDiaUtil": true, "devedor": {"cep": "26901-340", "cidade": "São Luís", "email": "fulano.tal@mail.com", "logradouro": "Alameda Cardoso 1007", "uf": "MA"}, "recebedor": {"cnpj": "31166575201770", "conta": "107262", "nome": "Empresa de Telecomunicações SA", "tipoConta": "POUPANÇA"}, "tentativas": [{"dataLiquidacao": "2024-06-20", "tipo": "AGND", "endToEndId": "E12345678202406201221abcdef12345", "status": "CANCELADA"}], "encerramento": {"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": "Cancelamento de agendamento solicitado pelo usuário recebedor"}}, "atualizacao": [{"data": "2024-05-20T14:47:29.470Z", "status": "CRIADA"}, {"data": "2024-05-21T10:18:20.120Z", "status": "ATIVA"}, {"data": "2024-05-26T10:18:20.120Z", "status": "CANCELADA"}]}`
	pixAutoExPayloadLocationRecResponse1 = `{"id": 12069, "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002", "criacao": "2023-12-20T12:38:28.774Z", "idRec": "RR123456782024011510056892226"}`
	pixAutoExPayloadLocationRecResponse2 = `{"id": 12069, "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002", "criacao": "2023-12-20T12:38:28.774Z"}`
	pixAutoExRecWebhookBody1             = `{"webhookUrl": "https://usuario.recebedor.com/api/webhookrec/"}`
	pixAutoExRecWebhookResponse1         = `{"webhookUrl": "https://usuario.recebedor.com/api/webhookrec/", "criacao": "2023-12-20T12:51:16.485Z"}`
	pixAutoExCobRWebhookBody1            = `{"webhookUrl": "https://usuario.recebedor.com/api/webhookcobr/"}`
	pixAutoExCobRWebhookResponse1        = `{"webhookUrl": "https://usuario.recebedor.com/api/webhookcobr/", "criacao": "2023-12-20T12:51:16.485Z"}`
	pixAutoExCobRWebhookNotification1    = `{"cobsr": [{"idRec": "RR1234567820240115abcdefghijk", "txid": "3136957d93134f2184b369e8f1c0729d", "status": "ATIVA", "atualizacao": [{"status": "ATIVA", "data": "2024-08-20T12:34:21.300Z"}], "tentativas": [{"dataLiquidacao": "2024-20-08", "tipo": "AGND", "status": "SOLICITADA", "endToEndId": "E12345678202406201221abcdef12345"}]}]}`
	pixAutoExGetPayloadLocationRec1      = `{"parametros": {"inicio": "2023-12-01T00:00:00Z", "fim": "2024-04-01T23:59:59Z", "paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 1, "quantidadeTotalDeItens": 1}}, "loc": [{"id": 12069, "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002", "criacao": "2023-12-20T12:38:28.774Z", "idRec": "RR123456782024011510056892226"}]}`
	pixAutoExGetRec1                     = `{"parametros": {"inicio": "2024-04-01T00:00:00Z", "fim": "2024-04-01T23:59:59Z", "paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 1, "quantidadeTotalDeItens": 1}}, "recs": [{"idRec": "RN1234567820240115abcdefghijk", "status": "APROVADA", "valor": {"valorRec": "300.00"}, "vinculo": {"contrato": "98625023", "devedor": {"cpf": "87734514122", "nome": "Fulano de Tal"}, "objeto": "Serviços de Gestão de Imóveis"}, "calendario": {"dataFinal": "2028-09-01", "dataInicial": "2024-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "loc": {"criacao": "2023-12-19T12:28:05.230Z", "id": 5100, "location": "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002", "idRec": "RN1234567820240115abcdefghijk"}, "pagador": {"codMun": "2673833", "cpf": "75633122216", "ispbParticipante": "81102623"}, "recebedor": {"cnpj": "92221288310574", "nome": "Imobiliária Bom Sucesso"}, "atualizacao": [{"data": "2024-01-03T08:30:02.050Z", "nome": "CRIADA"}, {"data": "2024-01-04T09:40:42.210Z", "nome": "APROVADA"}]}]}`
	pixAutoExGetCobR1                    = `{"parametros": {"inicio": "2024-04-01T00:00:00Z", "fim": "2024-12-01T23:59:59Z", "paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 1, "quantidadeTotalDeItens": 1}}, "cobsr": [{"idRec": "RR123456782024061999000566354", "txid": "7f733863543b4a16b516d839bd4bc34e", "calendario": {"criacao": "2024-05-20", "dataDeVencimento": "2024-06-20"}, "valor": {"original": "50.33"}, "status": "ATIVA", "ajusteDiaUtil": false, "politicaRetentativa": "PERMITE_3R_7D", "devedor": {"cep": "63259-740", "cidade": "Campinas", "email": "beltrano.silva@mail.com", "logradouro": "Rua Gonçalves Dias 605", "uf": "SP"}, "recebedor": {"conta": "997182", "tipoConta": "CORRENTE"}, "tentativas": [{"dataLiquidacao": "2024-06-20", "tipo": "AGND", "status": "AGENDADA", "endToEndId": "E12345678202406201221abcdef12345", "atualizacao": [{"data": "2024-05-21T10:40:16.730Z", "status": "SOLICITADA"}, {"data": "2024-05-21T17:08:00.520Z", "status": "AGENDADA"}]}], "atualizacao": [{"data": "2024-05-20T14:47:29.470Z", "status": "CRIADA"}, {"data": "2024-05-21T10:18:20.120Z", "status": "ATIVA"}]}]}`
)

// pixAutoStatusNotNome writes the Rec examples' atualizacao items with
// status, as the schema has them, in place of nome.
func pixAutoStatusNotNome(doc string) string {
	for _, s := range []string{"CRIADA", "APROVADA", "CANCELADA"} {
		doc = strings.ReplaceAll(doc, `"nome": "`+s+`"`, `"status": "`+s+`"`)
	}
	return doc
}

// pixAutoReplace replaces old by new once in doc and fails the test if old
// is not there, so a case never silently validates the unchanged document.
func pixAutoReplace(t *testing.T, doc, old, new string) string {
	t.Helper()
	if !strings.Contains(doc, old) {
		t.Fatalf("%q not in %s", old, doc)
	}
	return strings.Replace(doc, old, new, 1)
}

// TestPixAutoSchemasSpecExamples validates the spec examples against the
// schema of the operation that shows them.
func TestPixAutoSchemasSpecExamples(t *testing.T) {
	r := func(doc, old, new string) string { return pixAutoReplace(t, doc, old, new) }
	// The spec's RecPayload requires politicaRetentativa and
	// recebedor.ispbParticipante; the recPayload inside the solicrec examples
	// has neither.
	recPayloadGaps := []string{"recPayload.politicaRetentativa", "recPayload.recebedor.ispbParticipante"}
	pixCobRun(t, []pixCobCase{
		// Rec requests. recBody1 and recBody2 carry no idRec (the PSP
		// generates it) and no retentativa, both required by the published
		// RecBase: the schema requires neither.
		{"recBody1 POST /rec valorRec, loc, Jornada 3 txid", "pix/rec.request", pixAutoExRecBody1, nil},
		{"recBody2 POST /rec valorMinimoRecebedor", "pix/rec.request", pixAutoExRecBody2, nil},
		{"recBody3 PATCH /rec", "pix/rec.patch", pixAutoExRecBody3, nil},

		// Rec answers. Every Rec example writes atualizacao items as
		// {data, nome} where the schema (and the RecPayload and notification
		// examples) have {status, data}: status is reported missing.
		// recResponse1 also puts tipoJornada inside dadosJornada, where
		// RecAtivacao requires it one level up.
		{"recResponse1 POST/PATCH nome, tipoJornada misplaced", "pix/rec", pixAutoExRecResponse1,
			[]string{"ativacao.tipoJornada", "atualizacao.0.status"}},
		{"recResponse1 repaired", "pix/rec", r(pixAutoStatusNotNome(pixAutoExRecResponse1),
			`"dadosJornada": {"tipoJornada": "JORNADA_3", `, `"tipoJornada": "JORNADA_3", "dadosJornada": {`), nil},
		{"recResponse2 POST nome", "pix/rec", pixAutoExRecResponse2, []string{"atualizacao.0.status"}},
		{"recResponse2 repaired", "pix/rec", pixAutoStatusNotNome(pixAutoExRecResponse2), nil},
		{"recResponse3 GET Jornada 2 nome", "pix/rec.completa", pixAutoExRecResponse3,
			[]string{"atualizacao.0.status", "atualizacao.1.status"}},
		{"recResponse3 repaired", "pix/rec.completa", pixAutoStatusNotNome(pixAutoExRecResponse3), nil},
		{"recResponse4 GET Jornada 1 nome", "pix/rec.completa", pixAutoExRecResponse4, []string{"atualizacao.0.status"}},
		{"recResponse4 repaired", "pix/rec.completa", pixAutoStatusNotNome(pixAutoExRecResponse4), nil},
		{"recResponse5 GET cancelled nome", "pix/rec.completa", pixAutoExRecResponse5,
			[]string{"atualizacao.0.status", "atualizacao.1.status", "atualizacao.2.status"}},
		{"recResponse5 repaired", "pix/rec.completa", pixAutoStatusNotNome(pixAutoExRecResponse5), nil},
		{"recResponse6 GET Jornada 3 nome", "pix/rec.completa", pixAutoExRecResponse6, []string{"atualizacao.0.status"}},
		{"recResponse6 repaired", "pix/rec.completa", pixAutoStatusNotNome(pixAutoExRecResponse6), nil},
		// recResponse7's objeto "Assinatura de Serviços de Transporte" has 36
		// characters; vinculo.objeto allows 35.
		{"recResponse7 GET Jornada 4 nome, objeto of 36", "pix/rec.completa", pixAutoExRecResponse7,
			[]string{"atualizacao.0.status", "vinculo.objeto"}},
		{"recResponse8 GET convenio nome", "pix/rec.completa", pixAutoExRecResponse8, []string{"atualizacao.0.status"}},
		{"recResponse8 repaired", "pix/rec.completa", pixAutoStatusNotNome(pixAutoExRecResponse8), nil},
		{"getRec1 nome", "pix/rec.list", pixAutoExGetRec1,
			[]string{"recs.0.atualizacao.0.status", "recs.0.atualizacao.1.status"}},
		{"getRec1 repaired", "pix/rec.list", pixAutoStatusNotNome(pixAutoExGetRec1), nil},

		// RecPayload and the /rec callback.
		{"recPayload1", "pix/rec.payload", pixAutoExRecPayload1, nil},
		{"recWebhookNotification1", "pix/callback.rec", pixAutoExRecWebhookNotification1, nil},

		// SolicRec. solicRecBody1 has no pagador, which the published
		// SolicRecBase requires without declaring it.
		{"solicRecBody1 POST /solicrec", "pix/solicrec.request", pixAutoExSolicRecBody1, nil},
		{"solicRecBody2 PATCH /solicrec", "pix/solicrec.patch", pixAutoExSolicRecBody2, nil},
		{"solicRecResponse1 POST/GET recPayload gaps", "pix/solicrec", pixAutoExSolicRecResponse1, recPayloadGaps},
		{"solicRecResponse1 repaired", "pix/solicrec", r(r(pixAutoExSolicRecResponse1,
			`"nome": "Empresa de Serviços SA"}`, `"nome": "Empresa de Serviços SA", "ispbParticipante": "12345678"}`),
			`"recebedor":`, `"politicaRetentativa": "NAO_PERMITE", "recebedor":`), nil},
		{"solicRecResponse2 GET rejected, recPayload gaps", "pix/solicrec", pixAutoExSolicRecResponse2, recPayloadGaps},
		{"solicRecResponse3 PATCH cancelled, recPayload gaps", "pix/solicrec", pixAutoExSolicRecResponse3, recPayloadGaps},

		// CobR requests. The devedor.cep of every cobr example is masked
		// (89256-140, 9 characters); the schema takes it beside the published
		// 8 characters.
		{"cobRBody1 PUT/POST /cobr", "pix/cobr.request", pixAutoExCobRBody1, nil},
		{"cobRBody2 PATCH /cobr", "pix/cobr.patch", pixAutoExCobRBody2, nil},

		// CobR answers. CobRGerada's recebedor is DadosBancariosRecebedor and
		// PessoaJuridicaRecorrencia, so cnpj and nome are required there;
		// cobRResponse1 and 2 have neither. cobRResponse4 spells POUPANÇA
		// (the enum is POUPANCA). The tentativas of cobRResponse3 and 4 and of
		// the notification lack their required atualizacao.
		{"cobRResponse1 POST recebedor gaps", "pix/cobr", pixAutoExCobRResponse1, []string{"recebedor.cnpj", "recebedor.nome"}},
		{"cobRResponse1 repaired", "pix/cobr", r(pixAutoExCobRResponse1,
			`"tipoConta": "CORRENTE"}`, `"tipoConta": "CORRENTE", "cnpj": "12345678000195", "nome": "Empresa de Streaming SA"}`), nil},
		{"cobRResponse2 PUT recebedor gaps", "pix/cobr", pixAutoExCobRResponse2, []string{"recebedor.cnpj", "recebedor.nome"}},
		{"cobRResponse2 GET", "pix/cobr.completa", pixAutoExCobRResponse2, nil},
		{"cobRResponse3 GET/retentativa tentativas without atualizacao", "pix/cobr.completa", pixAutoExCobRResponse3,
			[]string{"tentativas.0.atualizacao", "tentativas.1.atualizacao"}},
		{"cobRResponse4 PATCH POUPANÇA, tentativa without atualizacao", "pix/cobr", pixAutoExCobRResponse4,
			[]string{"recebedor.tipoConta", "tentativas.0.atualizacao"}},
		{"cobRResponse4 GET", "pix/cobr.completa", pixAutoExCobRResponse4,
			[]string{"recebedor.tipoConta", "tentativas.0.atualizacao"}},
		{"cobRResponse4 repaired", "pix/cobr", r(r(pixAutoExCobRResponse4, "POUPANÇA", "POUPANCA"),
			`"status": "CANCELADA"}], "encerramento"`,
			`"status": "CANCELADA", "atualizacao": [{"status": "CANCELADA", "data": "2024-05-26T10:18:20.120Z"}]}], "encerramento"`), nil},
		{"getCobR1", "pix/cobr.list", pixAutoExGetCobR1, nil},
		// cobRWebhookNotification1 also has dataLiquidacao "2024-20-08".
		{"cobRWebhookNotification1 bad date, no atualizacao", "pix/callback.cobr", pixAutoExCobRWebhookNotification1,
			[]string{"cobsr.0.tentativas.0.atualizacao", "cobsr.0.tentativas.0.dataLiquidacao"}},
		{"cobRWebhookNotification1 repaired", "pix/callback.cobr", r(pixAutoExCobRWebhookNotification1,
			`"dataLiquidacao": "2024-20-08"`, `"dataLiquidacao": "2024-08-20", "atualizacao": [{"status": "SOLICITADA", "data": "2024-08-20T12:34:21.300Z"}]`), nil},

		// Locations of rec: no tipo, which the published
		// PayloadLocationRecGerada requires without declaring it.
		{"payloadLocationRecResponse1 GET /locrec/{id}", "pix/locrec", pixAutoExPayloadLocationRecResponse1, nil},
		{"payloadLocationRecResponse2 POST /locrec", "pix/locrec", pixAutoExPayloadLocationRecResponse2, nil},
		{"getPayloadLocationRec1", "pix/locrec.list", pixAutoExGetPayloadLocationRec1, nil},

		// Webhooks.
		{"recWebhookBody1", "pix/webhookrec.request", pixAutoExRecWebhookBody1, nil},
		{"recWebhookResponse1", "pix/webhookrec", pixAutoExRecWebhookResponse1, nil},
		{"cobRWebhookBody1", "pix/webhookcobr.request", pixAutoExCobRWebhookBody1, nil},
		{"cobRWebhookResponse1", "pix/webhookcobr", pixAutoExCobRWebhookResponse1, nil},
	})
}

// TestPixAutoSchemasDocuments checks the rules the schemas add or fix:
// strict requests, anchored identifier patterns, valorRec xor
// valorMinimoRecebedor, CANCELADA-only PATCHes, the requirements the
// published file misplaces, and the oneOfs it makes unsatisfiable.
func TestPixAutoSchemasDocuments(t *testing.T) {
	r := func(doc, old, new string) string { return pixAutoReplace(t, doc, old, new) }
	rec := pixAutoExRecBody1
	patch := pixAutoExRecBody3
	gerada := r(pixAutoStatusNotNome(pixAutoExRecResponse1),
		`"dadosJornada": {"tipoJornada": "JORNADA_3", `, `"tipoJornada": "JORNADA_3", "dadosJornada": {`)
	completa := pixAutoStatusNotNome(pixAutoExRecResponse3)
	payload := pixAutoExRecPayload1
	solic := pixAutoExSolicRecBody1
	solicOK := r(r(pixAutoExSolicRecResponse1,
		`"nome": "Empresa de Serviços SA"}`, `"nome": "Empresa de Serviços SA", "ispbParticipante": "12345678"}`),
		`"recebedor":`, `"politicaRetentativa": "NAO_PERMITE", "recebedor":`)
	cobr := pixAutoExCobRBody1
	cobrGerada := r(pixAutoExCobRResponse1,
		`"tipoConta": "CORRENTE"}`, `"tipoConta": "CORRENTE", "cnpj": "12345678000195", "nome": "Empresa de Streaming SA"}`)
	cobrCompleta := pixAutoExCobRResponse2
	locrec := pixAutoExPayloadLocationRecResponse1
	txid := "33beb661beda44a8928fef47dbeb2dc5"
	e2e := "E12345678202406201221abcdef12345"
	pixAuto := `{"endToEndId": "` + e2e + `", "txid": "` + "3136957d93134f2184b369e8f1c0729d" + `", "valor": "106.07", "horario": "2024-04-15T10:00:00Z"}`
	devolucao := `{"id": "D1", "rtrId": "D12345678202009091000abcde123456", "valor": "1.00", "natureza": "MED_PIX_AUTOMATICO", "horario": {"solicitacao": "2024-04-16T10:00:00Z"}, "status": "EM_PROCESSAMENTO"}`
	tentativa := `{"dataLiquidacao": "2024-04-15", "tipo": "AGND", "endToEndId": "` + e2e + `", "status": "AGENDADA", "atualizacao": [{"status": "AGENDADA", "data": "2024-04-14T10:00:00Z"}]}`
	cancelRec := `"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": "x"}`
	rejeicaoRec := `"rejeicao": {"codigo": "AP13", "descricao": "x"}`
	notif := `{"idRec": "RR1026652320240821lab77511abf", "status": "APROVADA", "atualizacao": [{"status": "APROVADA", "data": "2024-08-22T12:43:53.337Z"}]}`
	pag := `"paginacao": {"paginaAtual": 0, "itensPorPagina": 100, "quantidadeDePaginas": 0, "quantidadeTotalDeItens": 0}`
	periodo := `"inicio": "2024-04-01T00:00:00Z", "fim": "2024-04-01T23:59:59Z"`

	pixCobRun(t, []pixCobCase{
		// POST /rec: strict, the PSP-generated and undeclared fields refused.
		{"rec without valor", "pix/rec.request", r(rec, `"valor": {"valorRec": "35.00"}, `, ""), nil},
		{"rec empty valor", "pix/rec.request", r(rec, `{"valorRec": "35.00"}`, `{}`), nil},
		{"rec alphanumeric cnpj", "pix/rec.request", r(rec, `"cpf": "45164632481"`, `"cnpj": "12ABC34501DE35"`), nil},
		{"rec convenio", "pix/rec.request", r(rec, `"loc": 108`, `"loc": 108, "recebedor": {"convenio": "Master"}`), nil},
		{"rec idRec in body", "pix/rec.request", r(rec, `{"vinculo"`, `{"idRec": "RN1234567820240115abcdefghijk", "vinculo"`), []string{"idRec"}},
		{"rec retentativa", "pix/rec.request", r(rec, `"politicaRetentativa": "NAO_PERMITE"`, `"retentativa": "NAO_PERMITE"`),
			[]string{"politicaRetentativa", "retentativa"}},
		{"rec status", "pix/rec.request", r(rec, `"loc": 108`, `"loc": 108, "status": "CRIADA"`), []string{"status"}},
		{"rec ativacao tipoJornada", "pix/rec.request", r(rec, `"ativacao": {`, `"ativacao": {"tipoJornada": "JORNADA_3", `), []string{"ativacao.tipoJornada"}},
		{"rec recebedor cnpj", "pix/rec.request", r(rec, `"loc": 108`, `"loc": 108, "recebedor": {"cnpj": "01602606113708"}`), []string{"recebedor.cnpj"}},
		{"rec empty", "pix/rec.request", `{}`, []string{"calendario", "politicaRetentativa", "vinculo"}},
		{"rec without contrato", "pix/rec.request", r(rec, `"contrato": "63100862", `, ""), []string{"vinculo.contrato"}},
		{"rec without periodicidade", "pix/rec.request", r(rec, `, "periodicidade": "MENSAL"`, ""), []string{"calendario.periodicidade"}},
		{"rec without dataInicial", "pix/rec.request", r(rec, `"dataInicial": "2024-04-01", `, ""), []string{"calendario.dataInicial"}},
		{"rec periodicidade DIARIA", "pix/rec.request", r(rec, `"MENSAL"`, `"DIARIA"`), []string{"calendario.periodicidade"}},
		{"rec politicaRetentativa PERMITE", "pix/rec.request", r(rec, `"NAO_PERMITE"`, `"PERMITE"`), []string{"politicaRetentativa"}},
		{"rec valorRec and valorMinimoRecebedor", "pix/rec.request", r(rec, `{"valorRec": "35.00"}`, `{"valorRec": "35.00", "valorMinimoRecebedor": "10.00"}`),
			[]string{"valor"}},
		// The published money pattern \d{1,10}\.\d{2} is unanchored and
		// would take these.
		{"rec valorRec 35.001", "pix/rec.request", r(rec, `"35.00"`, `"35.001"`), []string{"valor.valorRec"}},
		{"rec valorRec R$ 35.00", "pix/rec.request", r(rec, `"35.00"`, `"R$ 35.00"`), []string{"valor.valorRec"}},
		{"rec valor unknown field", "pix/rec.request", r(rec, `{"valorRec": "35.00"}`, `{"valorRec": "35.00", "valorMaximo": "50.00"}`), []string{"valor.valorMaximo"}},
		{"rec cpf with a mask", "pix/rec.request", r(rec, `"45164632481"`, `"451.646.324-81"`), []string{"vinculo.devedor.cpf"}},
		{"rec cpf of 12 digits", "pix/rec.request", r(rec, `"45164632481"`, `"451646324810"`), []string{"vinculo.devedor.cpf"}},
		{"rec devedor cpf and cnpj", "pix/rec.request", r(rec, `"cpf": "45164632481"`, `"cpf": "45164632481", "cnpj": "12345678000195"`), []string{"vinculo.devedor"}},
		{"rec devedor without nome", "pix/rec.request", r(rec, `, "nome": "Fulano de Tal"`, ""), []string{"vinculo.devedor.nome"}},
		{"rec devedor nome of 141", "pix/rec.request", r(rec, `"Fulano de Tal"`, `"`+strings.Repeat("a", 141)+`"`), []string{"vinculo.devedor.nome"}},
		{"rec devedor email", "pix/rec.request", r(rec, `"nome": "Fulano de Tal"`, `"nome": "Fulano de Tal", "email": "f@x.com"`), []string{"vinculo.devedor.email"}},
		{"rec contrato of 36", "pix/rec.request", r(rec, `"63100862"`, `"`+strings.Repeat("9", 36)+`"`), []string{"vinculo.contrato"}},
		{"rec objeto of 36", "pix/rec.request", r(rec, `"Serviço de Streamming de Música."`, `"`+strings.Repeat("o", 36)+`"`), []string{"vinculo.objeto"}},
		{"rec dataInicial 01/04/2024", "pix/rec.request", r(rec, `"2024-04-01"`, `"01/04/2024"`), []string{"calendario.dataInicial"}},
		{"rec dataFinal 2025-13-01", "pix/rec.request", r(rec, `"2025-04-01"`, `"2025-13-01"`), []string{"calendario.dataFinal"}},
		{"rec dataInicial date-time", "pix/rec.request", r(rec, `"2024-04-01"`, `"2024-04-01T00:00:00Z"`), []string{"calendario.dataInicial"}},
		{"rec loc as object", "pix/rec.request", r(rec, `"loc": 108`, `"loc": {"id": 108}`), []string{"loc"}},
		{"rec dadosJornada without txid", "pix/rec.request", r(rec, `{"txid": "`+txid+`"}`, `{}`), []string{"ativacao.dadosJornada.txid"}},
		{"rec dadosJornada txid of 25", "pix/rec.request", r(rec, txid, txid[:25]), []string{"ativacao.dadosJornada.txid"}},
		{"rec convenio of 61", "pix/rec.request", r(rec, `"loc": 108`, `"loc": 108, "recebedor": {"convenio": "`+strings.Repeat("c", 61)+`"}`), []string{"recebedor.convenio"}},

		// PATCH /rec: every field optional, status only CANCELADA.
		{"rec patch cancel", "pix/rec.patch", `{"status": "CANCELADA"}`, nil},
		{"rec patch empty", "pix/rec.patch", `{}`, nil},
		{"rec patch status APROVADA", "pix/rec.patch", `{"status": "APROVADA"}`, []string{"status"}},
		{"rec patch status REJEITADA", "pix/rec.patch", `{"status": "REJEITADA"}`, []string{"status"}},
		{"rec patch devedor cpf", "pix/rec.patch", r(patch, `{"nome": "Fulano de Tal"}`, `{"cpf": "45164632481", "nome": "Fulano de Tal"}`), []string{"vinculo.devedor.cpf"}},
		{"rec patch devedor without nome", "pix/rec.patch", r(patch, `{"nome": "Fulano de Tal"}`, `{}`), []string{"vinculo.devedor.nome"}},
		{"rec patch contrato", "pix/rec.patch", r(patch, `"vinculo": {`, `"vinculo": {"contrato": "1", `), []string{"vinculo.contrato"}},
		{"rec patch periodicidade", "pix/rec.patch", r(patch, `{"dataInicial": "2024-04-01"}`, `{"dataInicial": "2024-04-01", "periodicidade": "ANUAL"}`), []string{"calendario.periodicidade"}},
		{"rec patch valor", "pix/rec.patch", r(patch, `{"loc": 108`, `{"valor": {"valorRec": "1.00"}, "loc": 108`), []string{"valor"}},
		{"rec patch politicaRetentativa", "pix/rec.patch", `{"politicaRetentativa": "NAO_PERMITE"}`, []string{"politicaRetentativa"}},

		// RecGerada and RecCompleta.
		{"rec answer extra field tolerated", "pix/rec", r(gerada, `"status": "CRIADA", "loc"`, `"status": "CRIADA", "nomeRecebedor": "PSP", "loc"`), nil},
		{"rec answer without politicaRetentativa", "pix/rec", r(gerada, `"politicaRetentativa": "NAO_PERMITE", `, ""), nil},
		{"rec answer AGUARDANDO_DEFINICAO", "pix/rec", r(gerada, `"JORNADA_3"`, `"AGUARDANDO_DEFINICAO"`), nil},
		{"rec answer cancelled", "pix/rec", r(gerada, `"ativacao"`, `"encerramento": {`+cancelRec+`}, "ativacao"`), nil},
		{"rec answer rejected", "pix/rec", r(gerada, `"ativacao"`, `"encerramento": {`+rejeicaoRec+`}, "ativacao"`), nil},
		{"rec answer without idRec", "pix/rec", r(gerada, `"idRec": "RN1234567820240115abcdefghijk", "vinculo"`, `"vinculo"`), []string{"idRec"}},
		{"rec answer without atualizacao", "pix/rec", r(gerada, `, "atualizacao": [{"data": "2023-12-19T12:28:05.230Z", "status": "CRIADA"}]`, ""), []string{"atualizacao"}},
		// idRec: R, R or N, 8 of [0-9A-Z], 8 digits, 11 alphanumerics. The
		// published [a-zA-Z0-9]{29} would take all of these.
		{"rec idRec RA", "pix/rec", r(gerada, `"idRec": "RN12`, `"idRec": "RA12`), []string{"idRec"}},
		{"rec idRec XN", "pix/rec", r(gerada, `"idRec": "RN12`, `"idRec": "XN12`), []string{"idRec"}},
		{"rec idRec lower-case agent", "pix/rec", r(gerada, `"idRec": "RN12345678`, `"idRec": "RNabcdefgh`), []string{"idRec"}},
		{"rec idRec letters in the date", "pix/rec", r(gerada, `"idRec": "RN1234567820240115`, `"idRec": "RN12345678202401AB`), []string{"idRec"}},
		{"rec idRec of 30", "pix/rec", r(gerada, `"idRec": "RN1234567820240115abcdefghijk"`, `"idRec": "RN1234567820240115abcdefghijkl"`), []string{"idRec"}},
		{"rec status PENDENTE", "pix/rec", r(gerada, `"status": "CRIADA", "loc"`, `"status": "PENDENTE", "loc"`), []string{"status"}},
		{"rec atualizacao status ATIVA", "pix/rec", r(gerada, `"status": "CRIADA"}]`, `"status": "ATIVA"}]`), []string{"atualizacao.0.status"}},
		{"rec atualizacao data as a date", "pix/rec", r(gerada, `"2023-12-19T12:28:05.230Z"`, `"2023-12-19"`), []string{"atualizacao.0.data"}},
		{"rec answer both valores", "pix/rec", r(gerada, `{"valorRec": "35.00"}`, `{"valorRec": "35.00", "valorMinimoRecebedor": "1.00"}`), []string{"valor"}},
		{"rec recebedor without cnpj", "pix/rec", r(gerada, `"cnpj": "01602606113708", `, ""), []string{"recebedor.cnpj"}},
		{"rec recebedor cpf for cnpj", "pix/rec", r(gerada, `"cnpj": "01602606113708"`, `"cpf": "45164632481"`), []string{"recebedor.cnpj"}},
		{"rec loc without criacao", "pix/rec", r(gerada, `"criacao": "2023-12-10T07:10:05.115Z", `, ""), []string{"loc.criacao"}},
		{"rec loc with a scheme", "pix/rec", r(gerada, `"location": "pix.`, `"location": "https://pix.`), []string{"loc.location"}},
		{"rec ativacao without tipoJornada", "pix/rec", r(gerada, `"tipoJornada": "JORNADA_3", `, ""), []string{"ativacao.tipoJornada"}},
		{"rec tipoJornada JORNADA_5", "pix/rec", r(gerada, `"JORNADA_3"`, `"JORNADA_5"`), []string{"ativacao.tipoJornada"}},
		// The published RecEncerramento is a oneOf of two objects without
		// required properties, which a filled encerramento matches twice.
		{"rec encerramento both", "pix/rec", r(gerada, `"ativacao"`, `"encerramento": {`+cancelRec+`, `+rejeicaoRec+`}, "ativacao"`), []string{"encerramento"}},
		{"rec rejeicao code SLCR", "pix/rec", r(gerada, `"ativacao"`, `"encerramento": {`+strings.Replace(rejeicaoRec, "AP13", "SLCR", 1)+`}, "ativacao"`),
			[]string{"encerramento.rejeicao.codigo"}},
		{"rec cancelamento without solicitante", "pix/rec", r(gerada, `"ativacao"`, `"encerramento": {`+strings.Replace(cancelRec, `"solicitante": "USUARIO_RECEBEDOR", `, "", 1)+`}, "ativacao"`),
			[]string{"encerramento.cancelamento.solicitante"}},
		{"rec cancelamento code ACCT", "pix/rec", r(gerada, `"ativacao"`, `"encerramento": {`+strings.Replace(cancelRec, "SLCR", "ACCT", 1)+`}, "ativacao"`),
			[]string{"encerramento.cancelamento.codigo"}},
		{"rec completa with solicitacao", "pix/rec.completa", r(completa, `"dadosQR"`, `"solicitacao": [`+solicOK+`], "dadosQR"`), nil},
		{"rec completa with a cnpj pagador", "pix/rec.completa", r(completa, `"cpf": "75633122216"`, `"cnpj": "12ABC34501DE35"`), nil},
		{"rec completa without politicaRetentativa", "pix/rec.completa", r(completa, `"politicaRetentativa": "NAO_PERMITE", `, ""), []string{"politicaRetentativa"}},
		// DadosPagadorRec requires ispbParticipante one level above pagador,
		// where the published file would look for it.
		{"rec ispbParticipante beside pagador", "pix/rec.completa", r(completa, `"pagador": {"codMun": "2673833", "cpf": "75633122216", "ispbParticipante": "81102623"}`,
			`"ispbParticipante": "81102623", "pagador": {"codMun": "2673833", "cpf": "75633122216"}`), []string{"pagador.ispbParticipante"}},
		{"rec pagador ispb of 7", "pix/rec.completa", r(completa, `"81102623"`, `"8110262"`), []string{"pagador.ispbParticipante"}},
		{"rec pagador codMun of 8", "pix/rec.completa", r(completa, `"2673833"`, `"26738330"`), []string{"pagador.codMun"}},
		{"rec pagador codMun /2673833/", "pix/rec.completa", r(completa, `"2673833"`, `"/2673833/"`), []string{"pagador.codMun"}},
		{"rec pagador without cpf", "pix/rec.completa", r(completa, `"cpf": "75633122216", `, ""), []string{"pagador.cpf"}},
		{"rec dadosQR JORNADA_1", "pix/rec.completa", r(completa, `"jornada": "JORNADA_2"`, `"jornada": "JORNADA_1"`), []string{"dadosQR.jornada"}},
		{"rec completa solicitacao of the spec", "pix/rec.completa", r(completa, `"dadosQR"`, `"solicitacao": [`+pixAutoExSolicRecResponse1+`], "dadosQR"`),
			[]string{"solicitacao.0.recPayload.politicaRetentativa", "solicitacao.0.recPayload.recebedor.ispbParticipante"}},
		{"rec list without paginacao", "pix/rec.list", `{"parametros": {` + periodo + `}, "recs": []}`, []string{"parametros.paginacao"}},
		{"rec list convenio of 61", "pix/rec.list", `{"parametros": {` + periodo + `, "recebedor": {"convenio": "` + strings.Repeat("c", 61) + `"}, ` + pag + `}, "recs": []}`,
			[]string{"parametros.recebedor.convenio"}},
		{"rec list empty", "pix/rec.list", `{"parametros": {` + periodo + `, "cpf": "45164632481", "status": "APROVADA", ` + pag + `}, "recs": []}`, nil},

		// RecPayload.
		{"payload without ispbParticipante", "pix/rec.payload", r(payload, `, "ispbParticipante": "12345678"`, ""), []string{"recebedor.ispbParticipante"}},
		{"payload ispbParticipante lower case", "pix/rec.payload", r(payload, `"12345678"`, `"1234567a"`), []string{"recebedor.ispbParticipante"}},
		{"payload without politicaRetentativa", "pix/rec.payload", r(payload, `"politicaRetentativa": "NAO_PERMITE", `, ""), []string{"politicaRetentativa"}},
		{"payload without atualizacao", "pix/rec.payload", r(payload, `, "atualizacao": [{"status": "CRIADA", "data": "2024-03-20T10:12:07.567Z"}]`, ""), []string{"atualizacao"}},
		{"payload retentativa not required", "pix/rec.payload", payload, nil},

		// POST /solicrec.
		{"solicrec cnpj", "pix/solicrec.request", r(solic, `"cpf": "15231470190"`, `"cnpj": "12345678000195"`), nil},
		{"solicrec without agencia", "pix/solicrec.request", r(solic, `"agencia": "2569", `, ""), nil},
		{"solicrec pagador", "pix/solicrec.request", r(solic, `"destinatario"`, `"pagador": {"cpf": "15231470190"}, "destinatario"`), []string{"pagador"}},
		{"solicrec empty", "pix/solicrec.request", `{}`, []string{"calendario", "destinatario", "idRec"}},
		{"solicrec idRec is an idSolicRec", "pix/solicrec.request", r(solic, `"RN123456782024011577825445612"`, `"SC876456782024021577825445312"`), []string{"idRec"}},
		{"solicrec without dataExpiracaoSolicitacao", "pix/solicrec.request", r(solic, `{"dataExpiracaoSolicitacao": "2023-12-20T12:17:11.926Z"}`, `{}`),
			[]string{"calendario.dataExpiracaoSolicitacao"}},
		{"solicrec dataExpiracaoSolicitacao as a date", "pix/solicrec.request", r(solic, `"2023-12-20T12:17:11.926Z"`, `"2023-12-20"`),
			[]string{"calendario.dataExpiracaoSolicitacao"}},
		{"solicrec without conta", "pix/solicrec.request", r(solic, `"conta": "550689", `, ""), []string{"destinatario.conta"}},
		{"solicrec without ispbParticipante", "pix/solicrec.request", r(solic, `, "ispbParticipante": "91193552"`, ""), []string{"destinatario.ispbParticipante"}},
		{"solicrec ispb with a letter in lower case", "pix/solicrec.request", r(solic, `"91193552"`, `"9119355a"`), []string{"destinatario.ispbParticipante"}},
		{"solicrec ispb of 9", "pix/solicrec.request", r(solic, `"91193552"`, `"911935520"`), []string{"destinatario.ispbParticipante"}},
		{"solicrec agencia of 5", "pix/solicrec.request", r(solic, `"2569"`, `"25690"`), []string{"destinatario.agencia"}},
		{"solicrec conta of 21", "pix/solicrec.request", r(solic, `"550689"`, `"`+strings.Repeat("5", 21)+`"`), []string{"destinatario.conta"}},
		{"solicrec destinatario without cpf", "pix/solicrec.request", r(solic, `"cpf": "15231470190", `, ""), []string{"destinatario.cpf"}},
		{"solicrec destinatario nome", "pix/solicrec.request", r(solic, `"cpf": "15231470190"`, `"cpf": "15231470190", "nome": "F"`), []string{"destinatario.nome"}},

		// PATCH /solicrec.
		{"solicrec patch empty", "pix/solicrec.patch", `{}`, []string{"status"}},
		{"solicrec patch ACEITA", "pix/solicrec.patch", `{"status": "ACEITA"}`, []string{"status"}},
		{"solicrec patch another field", "pix/solicrec.patch", `{"status": "CANCELADA", "idRec": "RN123456782024011577825445612"}`, []string{"idRec"}},

		// SolicRecCompleta.
		{"solicrec answer repaired", "pix/solicrec", solicOK, nil},
		{"solicrec answer without recPayload", "pix/solicrec", pixAutoExSolicRecResponse1[:strings.Index(pixAutoExSolicRecResponse1, `, "recPayload"`)] + `}`, []string{"recPayload"}},
		{"solicrec answer idSolicRec SX", "pix/solicrec", r(solicOK, `"SC8764`, `"SX8764`), []string{"idSolicRec"}},
		{"solicrec answer idSolicRec is an idRec", "pix/solicrec", r(solicOK, `"SC876456782024021577825445312"`, `"RN876456782024021577825445312"`), []string{"idSolicRec"}},
		{"solicrec answer status APROVADA", "pix/solicrec", r(solicOK, `"status": "CRIADA", "destinatario"`, `"status": "APROVADA", "destinatario"`), []string{"status"}},
		{"solicrec answer without atualizacao", "pix/solicrec", r(solicOK, `"atualizacao": [{"data": "2023-12-20T12:18:18.618Z", "status": "CRIADA"}], `, ""), []string{"atualizacao"}},
		{"solicrec answer pagador not required", "pix/solicrec", solicOK, nil},

		// PUT /cobr.
		{"cobr without devedor", "pix/cobr.request", r(cobr, `"devedor": {"cep": "89256-140", "cidade": "Uberlândia", "email": "sebastiao.tavares@mail.com", "logradouro": "Alameda Franco 1056", "uf": "MG"}, `, ""), nil},
		{"cobr cep of 8 digits", "pix/cobr.request", r(cobr, `"89256-140"`, `"89256140"`), nil},
		{"cobr cep of 9 digits", "pix/cobr.request", r(cobr, `"89256-140"`, `"892561400"`), []string{"devedor.cep"}},
		{"cobr cep 8925-6140", "pix/cobr.request", r(cobr, `"89256-140"`, `"8925-6140"`), []string{"devedor.cep"}},
		{"cobr ajusteDiaUtil false", "pix/cobr.request", r(cobr, `"ajusteDiaUtil": true`, `"ajusteDiaUtil": false`), nil},
		{"cobr without ajusteDiaUtil", "pix/cobr.request", r(cobr, `"ajusteDiaUtil": true, `, ""), []string{"ajusteDiaUtil"}},
		{"cobr ajusteDiaUtil as a string", "pix/cobr.request", r(cobr, `"ajusteDiaUtil": true`, `"ajusteDiaUtil": "true"`), []string{"ajusteDiaUtil"}},
		{"cobr empty", "pix/cobr.request", `{}`, []string{"ajusteDiaUtil", "calendario", "idRec", "recebedor", "valor"}},
		{"cobr txid in body", "pix/cobr.request", r(cobr, `{"idRec"`, `{"txid": "`+txid+`", "idRec"`), []string{"txid"}},
		{"cobr politicaRetentativa in body", "pix/cobr.request", r(cobr, `{"idRec"`, `{"politicaRetentativa": "NAO_PERMITE", "idRec"`), []string{"politicaRetentativa"}},
		{"cobr idRec RA", "pix/cobr.request", r(cobr, `"RR1234`, `"RA1234`), []string{"idRec"}},
		{"cobr without dataDeVencimento", "pix/cobr.request", r(cobr, `{"dataDeVencimento": "2024-04-15"}`, `{}`), []string{"calendario.dataDeVencimento"}},
		{"cobr dataDeVencimento date-time", "pix/cobr.request", r(cobr, `"2024-04-15"`, `"2024-04-15T00:00:00Z"`), []string{"calendario.dataDeVencimento"}},
		{"cobr without original", "pix/cobr.request", r(cobr, `{"original": "106.07"}`, `{}`), []string{"valor.original"}},
		{"cobr original 106.071", "pix/cobr.request", r(cobr, `"106.07"`, `"106.071"`), []string{"valor.original"}},
		{"cobr original as a number", "pix/cobr.request", r(cobr, `"106.07"`, `106.07`), []string{"valor.original"}},
		{"cobr valor multa", "pix/cobr.request", r(cobr, `{"original": "106.07"}`, `{"original": "106.07", "multa": {"modalidade": 1}}`), []string{"valor.multa"}},
		{"cobr infoAdicional of 141", "pix/cobr.request", r(cobr, `"Serviços de Streamming de Música e Filmes."`, `"`+strings.Repeat("i", 141)+`"`), []string{"infoAdicional"}},
		{"cobr tipoConta POUPANÇA", "pix/cobr.request", r(cobr, `"CORRENTE"`, `"POUPANÇA"`), []string{"recebedor.tipoConta"}},
		{"cobr without tipoConta", "pix/cobr.request", r(cobr, `, "tipoConta": "CORRENTE"`, ""), []string{"recebedor.tipoConta"}},
		{"cobr without conta", "pix/cobr.request", r(cobr, `"conta": "012682", `, ""), []string{"recebedor.conta"}},
		{"cobr recebedor cnpj", "pix/cobr.request", r(cobr, `"agencia": "9708"`, `"agencia": "9708", "cnpj": "12345678000195"`), []string{"recebedor.cnpj"}},
		{"cobr devedor cpf", "pix/cobr.request", r(cobr, `"cep": "89256-140"`, `"cpf": "45164632481", "cep": "89256-140"`), []string{"devedor.cpf"}},
		{"cobr devedor uf of 3", "pix/cobr.request", r(cobr, `"MG"`, `"MGS"`), []string{"devedor.uf"}},

		// PATCH /cobr: status CANCELADA, required and alone.
		{"cobr patch empty", "pix/cobr.patch", `{}`, []string{"status"}},
		{"cobr patch CONCLUIDA", "pix/cobr.patch", `{"status": "CONCLUIDA"}`, []string{"status"}},
		{"cobr patch REMOVIDA_PELO_USUARIO_RECEBEDOR", "pix/cobr.patch", `{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}`, []string{"status"}},
		{"cobr patch with valor", "pix/cobr.patch", `{"status": "CANCELADA", "valor": {"original": "1.00"}}`, []string{"valor"}},

		// CobRGerada and CobRCompleta.
		{"cobr answer without politicaRetentativa", "pix/cobr", r(cobrGerada, `"politicaRetentativa": "PERMITE_3R_7D", `, ""), nil},
		{"cobr answer without atualizacao", "pix/cobr", r(cobrGerada, `, "atualizacao": [{"data": "2024-04-01T14:47:29.470Z", "status": "CRIADA"}]`, ""), nil},
		{"cobr answer with tentativas", "pix/cobr", r(cobrGerada, `"atualizacao"`, `"tentativas": [`+tentativa+`], "atualizacao"`), nil},
		{"cobr answer without txid", "pix/cobr", r(cobrGerada, `"txid": "3136957d93134f2184b369e8f1c0729d", `, ""), []string{"txid"}},
		{"cobr answer txid of 25", "pix/cobr", r(cobrGerada, `"3136957d93134f2184b369e8f1c0729d"`, `"3136957d93134f2184b369e8f"`), []string{"txid"}},
		{"cobr answer criacao date-time", "pix/cobr", r(cobrGerada, `"criacao": "2024-04-01"`, `"criacao": "2024-04-01T14:47:29.470Z"`), []string{"calendario.criacao"}},
		{"cobr answer without criacao", "pix/cobr", r(cobrGerada, `"criacao": "2024-04-01", `, ""), []string{"calendario.criacao"}},
		{"cobr answer status ATIVO", "pix/cobr", r(cobrGerada, `"status": "CRIADA", "valor"`, `"status": "ATIVO", "valor"`), []string{"status"}},
		{"cobr answer without ajusteDiaUtil", "pix/cobr", r(cobrGerada, `"ajusteDiaUtil": true, `, ""), []string{"ajusteDiaUtil"}},
		{"cobr answer recebedor nome of 141", "pix/cobr", r(cobrGerada, `"Empresa de Streaming SA"`, `"`+strings.Repeat("n", 141)+`"`), []string{"recebedor.nome"}},
		{"cobr encerramento cancelamento", "pix/cobr", r(cobrGerada, `"atualizacao"`, `"encerramento": {"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": "x"}}, "atualizacao"`), nil},
		{"cobr encerramento rec code SLDB", "pix/cobr", r(cobrGerada, `"atualizacao"`, `"encerramento": {"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLDB", "descricao": "x"}}, "atualizacao"`),
			[]string{"encerramento.cancelamento.codigo"}},
		{"cobr encerramento both", "pix/cobr", r(cobrGerada, `"atualizacao"`, `"encerramento": {"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": "x"}, "rejeicao": {"codigo": "AM02", "descricao": "x"}}, "atualizacao"`),
			[]string{"encerramento"}},
		{"cobr completa with pix", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"pix": [`+r(pixAuto, `}`, `, "devolucoes": [`+devolucao+`]}`)+`], "atualizacao"`), nil},
		{"cobr completa pix txid of 10", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"pix": [`+r(pixAuto, "3136957d93134f2184b369e8f1c0729d", "3136957d93")+`], "atualizacao"`), []string{"pix.0.txid"}},
		{"cobr completa pix without txid", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"pix": [`+r(pixAuto, `"txid": "3136957d93134f2184b369e8f1c0729d", `, "")+`], "atualizacao"`), []string{"pix.0.txid"}},
		{"cobr completa pix valor 106.070", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"pix": [`+r(pixAuto, `"106.07"`, `"106.070"`)+`], "atualizacao"`), []string{"pix.0.valor"}},
		{"cobr completa devolucao RETIRADA", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"pix": [`+r(pixAuto, `}`, `, "devolucoes": [`+r(devolucao, "MED_PIX_AUTOMATICO", "RETIRADA")+`]}`)+`], "atualizacao"`),
			[]string{"pix.0.devolucoes.0.natureza"}},
		{"cobr completa without politicaRetentativa", "pix/cobr.completa", r(cobrCompleta, `"politicaRetentativa": "PERMITE_3R_7D", `, ""), []string{"politicaRetentativa"}},
		{"cobr completa without atualizacao", "pix/cobr.completa", r(cobrCompleta, `, "atualizacao": [{"data": "2024-04-01T14:47:29.470Z", "status": "CRIADA"}]`, ""), []string{"atualizacao"}},
		{"cobr completa tentativa", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"tentativas": [`+tentativa+`], "atualizacao"`), nil},
		{"cobr completa tentativa rejected", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"tentativas": [`+r(tentativa, `"AGENDADA", "atualizacao"`, `"REJEITADA", "rejeicao": {"codigo": "MSUC", "descricao": "Saldo insuficiente"}, "atualizacao"`)+`], "atualizacao"`), nil},
		{"cobr completa tentativa rejeicao AP13", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"tentativas": [`+r(tentativa, `"AGENDADA", "atualizacao"`, `"REJEITADA", "rejeicao": {"codigo": "AP13", "descricao": "x"}, "atualizacao"`)+`], "atualizacao"`),
			[]string{"tentativas.0.rejeicao.codigo"}},
		{"cobr completa tentativa tipo AGEN", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"tentativas": [`+r(tentativa, `"AGND"`, `"AGEN"`)+`], "atualizacao"`), []string{"tentativas.0.tipo"}},
		{"cobr completa tentativa e2e of 31", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"tentativas": [`+r(tentativa, e2e, e2e[:31])+`], "atualizacao"`), []string{"tentativas.0.endToEndId"}},
		{"cobr completa tentativa status PAGO", "pix/cobr.completa", r(cobrCompleta, `"atualizacao"`, `"tentativas": [`+r(tentativa, `"status": "AGENDADA", "atualizacao"`, `"status": "PAGO", "atualizacao"`)+`], "atualizacao"`), []string{"tentativas.0.status"}},
		{"cobr list idRec filter", "pix/cobr.list", `{"parametros": {` + periodo + `, "idRec": "RR1234567820240115abcdefghijk", "recebedor": {"convenio": "Master"}, ` + pag + `}, "cobsr": []}`, nil},
		{"cobr list idRec filter SC", "pix/cobr.list", `{"parametros": {` + periodo + `, "idRec": "SC1234567820240115abcdefghijk", ` + pag + `}, "cobsr": []}`, []string{"parametros.idRec"}},
		{"cobr list under cobs", "pix/cobr.list", `{"parametros": {` + periodo + `, ` + pag + `}, "cobs": []}`, []string{"cobsr"}},

		// Locations of rec.
		{"locrec with tipo tolerated", "pix/locrec", r(locrec, `{"id": 12069`, `{"tipo": "rec", "id": 12069`), nil},
		{"locrec location with a scheme", "pix/locrec", r(locrec, `"location": "pix.`, `"location": "https://pix.`), []string{"location"}},
		{"locrec location of 78", "pix/locrec", r(locrec, `"pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002"`, `"`+strings.Repeat("l", 78)+`"`), []string{"location"}},
		{"locrec without criacao", "pix/locrec", r(locrec, `"criacao": "2023-12-20T12:38:28.774Z", `, ""), []string{"criacao"}},
		{"locrec id as a string", "pix/locrec", r(locrec, `12069`, `"12069"`), []string{"id"}},
		{"locrec idRec SC", "pix/locrec", r(locrec, `"RR1234`, `"SC1234`), []string{"idRec"}},
		{"locrec list idRecPresente", "pix/locrec.list", `{"parametros": {` + periodo + `, "idRecPresente": true, "recebedor": {"convenio": "Master"}, ` + pag + `}, "loc": []}`, nil},
		{"locrec list idRecPresente as a string", "pix/locrec.list", `{"parametros": {` + periodo + `, "idRecPresente": "true", ` + pag + `}, "loc": []}`, []string{"parametros.idRecPresente"}},

		// Webhooks.
		{"webhookrec chave", "pix/webhookrec.request", `{"webhookUrl": "https://x.example.com/h", "chave": "k"}`, []string{"chave"}},
		{"webhookrec without scheme", "pix/webhookrec.request", `{"webhookUrl": "usuario.recebedor.com/api/webhookrec/"}`, []string{"webhookUrl"}},
		{"webhookcobr empty", "pix/webhookcobr.request", `{}`, []string{"webhookUrl"}},
		{"webhookcobr cnpj", "pix/webhookcobr.request", `{"webhookUrl": "https://x.example.com/h", "cnpj": "12345678000195"}`, []string{"cnpj"}},
		{"webhookrec answer without criacao", "pix/webhookrec", `{"webhookUrl": "https://x.example.com/h"}`, nil},
		{"webhookcobr answer without webhookUrl", "pix/webhookcobr", `{"criacao": "2023-12-20T12:51:16.485Z"}`, []string{"webhookUrl"}},

		// Callbacks /rec and /cobr.
		{"callback rec empty", "pix/callback.rec", `{"recs": []}`, []string{"recs"}},
		{"callback rec under rec", "pix/callback.rec", `{"rec": [` + notif + `]}`, []string{"recs"}},
		// RecNotification requires atualizacao (published with a stray quote).
		{"callback rec without atualizacao", "pix/callback.rec", `{"recs": [` + r(notif, `, "atualizacao": [{"status": "APROVADA", "data": "2024-08-22T12:43:53.337Z"}]`, "") + `]}`,
			[]string{"recs.0.atualizacao"}},
		{"callback rec cancelled", "pix/callback.rec", `{"recs": [` + r(notif, `}]}`, `}], "encerramento": {`+cancelRec+`}}`) + `]}`, nil},
		{"callback rec ativacao without tipoJornada", "pix/callback.rec", `{"recs": [` + r(notif, `}]}`, `}], "ativacao": {"dadosJornada": {"txid": "`+txid+`"}}}`) + `]}`,
			[]string{"recs.0.ativacao.tipoJornada"}},
		{"callback rec idRec of 28", "pix/callback.rec", `{"recs": [` + r(notif, "lab77511abf", "lab77511ab") + `]}`, []string{"recs.0.idRec"}},
		{"callback cobr empty", "pix/callback.cobr", `{"cobsr": []}`, []string{"cobsr"}},
		{"callback cobr concluded with pix", "pix/callback.cobr", `{"cobsr": [{"idRec": "RR1234567820240115abcdefghijk", "txid": "3136957d93134f2184b369e8f1c0729d", "status": "CONCLUIDA", "atualizacao": [{"status": "CONCLUIDA", "data": "2024-04-15T10:00:01Z"}], "tentativas": [` +
			r(tentativa, `"AGENDADA", "atualizacao"`, `"PAGA", "atualizacao"`) + `], "pix": [` + pixAuto + `]}]}`, nil},
		{"callback cobr without txid", "pix/callback.cobr", `{"cobsr": [{"idRec": "RR1234567820240115abcdefghijk", "status": "ATIVA", "atualizacao": []}]}`, []string{"cobsr.0.txid"}},
	})
}
