Feature: Insurance as the 2025 TypeScript client of the v3 APIs calls it
  The calls, bodies and read fields of the 2025 Next.js client of MAG's v3
  APIs (insurance CLIENTS.md: "GB", lib/mag-api/client.ts and processor.ts,
  its server routes, stores and steps), with only the base URL changed:
  /apiseguradora/v3, /api.underwriting/v1, /api.questionario/v2 and
  /gestao-acesso/v1 under the sandbox, tokens from {base}/connect/token as
  the client builds it (one a scope, as the client asks them,
  client_credentials in the form body). Each step reads what the client reads, and only that.

  The client never sends a capital: it prices a coverage itself as
  capital ÷ capitalBase × premioBase (useCoverageStore.ts), starting at the
  larger of capitalBase and valorMinimoCapitalContratacao, and sends the
  result unrounded (VL_CONTRIB) with its sum (VL_TOTAL). It signs through
  access management before the proposal (Step11 → Step12), and answers the
  DPS through the questionnaire service after it, under the number the
  proposal answer returned. The clock is frozen at 2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"

  Scenario: A term life (YZ) with the DPS, signed through access management and paid by card, from the CBO list to implantation
    # lib/mag-api/client.ts:19-33: the token, scope apiseguradora
    When I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora
      """
    Then the response status is 200
    And I remember the response field "access_token" as "seguradora"
    And I use the token "${seguradora}"
    # client.ts:419-420; app/api/professions/route.ts: Valor; services/apiService.ts:43-47: Auxiliar, Descricao
    When I send "GET" to "/apiseguradora/v3/dominio/CBO"
    Then the response status is 200
    And the response is valid against schema "insurance/dominio"
    And the response field "Valor.0.Auxiliar" is "2410-05"
    And the response field "Valor.0.Descricao" is "ADVOGADO"
    # client.ts:435-436; processor.ts:41-61: no capital
    When I send "POST" to "/apiseguradora/v3/simulacao?cnpj=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"tipoRelacaoSeguradoId": 1, "nome": "MARIA SOUZA", "cpf": "11144477735", "dataNascimento": "1986-03-15",
        "profissaoCbo": "2410-05", "renda": 8000, "sexoId": 2, "uf": "SP", "declaracaoIRId": 1},
        "periodicidadeCobrancaId": 30, "prazoCerto": 30, "prazoPagamentoAntecipado": 10, "prazoDecrescimo": 10}]}
      """
    Then the response status is 200
    And the response is valid against schema "insurance/simulacao"
    And the response field "Valor.produtos" does not exist
    # useCoverageStore.ts:80-124: the first product (none is 2096); per coverage
    # id/itemProdutoId, tipoId, capitalBase, premioBase, valorMinimoCapitalContratacao,
    # limite, obrigatoria, numeroProcessoSusep; no valorFixo, so tipo 3 is adjustable
    And the response field "Valor.simulacoes.0.produtos.0.idProduto" is "511"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.itemProdutoId" is "1001"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.tipoId" is "3"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.valorFixo" does not exist
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.capitalBase" is "1000"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premioBase" is "0.21919743"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.valorMinimoCapitalContratacao" is "50000"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.limite" is "1920000"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.obrigatoria" is "true"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.numeroProcessoSusep" is "15414.900101/2019-11"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.2.itemProdutoId" is "1003"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.2.premioBase" is "0.07306581"
    # Step9.tsx:28-38: the DPS is mandatory, and its questionnaire is this one
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.questionariosPorFaixa.0.questionarios.0.idQuestionario" is "901"
    # client.ts:427; app/api/simulation/route.ts:95-119: the texts the coverages show
    When I send "GET" to "/apiseguradora/v3/produto?codigoModeloProposta=YZ"
    Then the response status is 200
    And the response is valid against schema "insurance/produto.list"
    And the response field "Valor.0.id" is "511"
    And the response field "Valor.0.coberturas.0.descricao" is "MORTE"
    And the response field "Valor.0.coberturas.0.descricaoDigitalCurta" is "Morte por qualquer causa"
    And the response field "Valor.0.coberturas.0.descricaoDigitalLonga" exists
    # client.ts:439-443: the reservation, scope apiseguradora apiunderwriting, no body
    When I use the token ""
    And I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora+apiunderwriting
      """
    And I remember the response field "access_token" as "underwriting"
    And I use the token "${underwriting}"
    And I set the header "X-Request-ID" to "SIMULADOR_NEXT_1767614400000"
    And I send "POST" to "/api.underwriting/v1/proposals/YZ/next-number"
    Then the response status is 201
    And the response is valid against schema "insurance/reserva"
    And the response field "proposalReservedNumber" exists
    # client.ts:77; Step9.tsx:43,69, QuestionnaireRenderer.tsx:22-51: the questions, scope api.questionario
    When I use the token ""
    And I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=api.questionario
      """
    And I remember the response field "access_token" as "questionario"
    And I use the token "${questionario}"
    And I send "GET" to "/api.questionario/v2/Questionario/901"
    Then the response status is 200
    And the response is valid against schema "insurance/questionario.servico"
    And the response field "Valor.VersaoQuestionario.0.Perguntas" has 9 items
    And the response field "Valor.VersaoQuestionario.0.Perguntas.0.Id" is "901001"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.0.TipoItem.Id" is "1"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.0.TipoResposta.Id" is "3"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.0.TipoVariacaoResposta.Id" is "10"
    # QuestionnaireRenderer.tsx:178-208: 10 draws the weight input, 11 the height's, in metres (mask 0,00)
    And the response field "Valor.VersaoQuestionario.0.Perguntas.1.Descricao" is "Altura (m)"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.1.TipoVariacaoResposta.Id" is "11"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.3.TipoVariacaoResposta.Id" is "4"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.0.Obrigatorio" is "true"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.0.Perguntas" has 0 items
    And the response field "Valor.VersaoQuestionario.0.Perguntas.7.Opcoes.0.Id" is "1"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.7.Opcoes.0.Descricao" is "NENHUM"
    And the response field "Valor.VersaoQuestionario.0.Perguntas.7.Opcoes.0.SubItens" has 0 items
    When I send "GET" to "/api.questionario/v2/Dominio"
    Then the response status is 200
    And the response is valid against schema "insurance/dominio.servico"
    And the response field "Valor.0.Nome" exists
    And the response field "CondicaoFalha" is "0"
    # Step11.tsx, app/api/signature/request/route.ts:14-44: the user, then the code, scope apicontroleacesso
    When I use the token ""
    And I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apicontroleacesso
      """
    And I remember the response field "access_token" as "acesso"
    And I use the token "${acesso}"
    And I send "GET" to "/gestao-acesso/v1/user/11144477735"
    Then the response status is 404
    When I send "POST" to "/gestao-acesso/v1/user" with JSON:
      """
      {"username": "11144477735", "document": "11144477735", "email": "MARIA@EXAMPLE.COM", "name": "MARIA SOUZA", "cellphone": "11999990000", "active": true}
      """
    Then the response status is 201
    When I send "POST" to "/gestao-acesso/v1/token/user/11144477735/system/6b1e0e52-3c6a-4d1e-9d55-2f1c9a7e4d10" with JSON:
      """
      {"output": "Email", "timeoutInMinutes": "5", "tokenSize": "6"}
      """
    Then the response status is 201
    # The customer reads the code in the e-mail: the sandbox's outbox
    When I send "GET" to "/sandbox/outbox?cpf=11144477735"
    And I remember the response field "messages.0.codigo" as "codigo"
    # client.ts:363-410, app/api/signature/verify/route.ts: the signature; the client logs id
    And I send "POST" to "/gestao-acesso/v1/signature" with JSON:
      """
      {"user": {"username": "11144477735", "document": "11144477735", "email": "MARIA@EXAMPLE.COM", "nameProponente": "MARIA SOUZA", "cellphone": "11999990000"},
       "token": {"tokenCode": "${codigo}", "sendType": "Email", "systemId": "6b1e0e52-3c6a-4d1e-9d55-2f1c9a7e4d10", "tokenType": "ValidacaoCompra"},
       "sender": {"userAgent": "Simulador", "ip": "127.0.0.1", "port": "443", "timezone": "UTC"},
       "description": "Sig"}
      """
    Then the response status is 201
    And the response is valid against schema "insurance/signature"
    And the response field "id" exists
    # processor.ts:91-161, 303-321; Step12.tsx:111-133: the proposal, scope apiseguradora. The customer
    # raised MORTE to 150,000 and took MORTE ACIDENTAL at 100,000: 150000 / 1000 × 0.21919743 =
    # 32.8796145 and 100000 / 1000 × 0.07306581 = 7.306581, sent unrounded, VL_TOTAL their sum.
    # The card is the customer's, typed in the app (CreditCardForm.tsx): NUM_PRE_AUTORIZACAO 0.
    When I use the token "${seguradora}"
    And I send "POST" to "/apiseguradora/v3/proposta?empresa=11222333000181" with JSON:
      """
      {"PROPOSTA": {"NUMERO": 0, "DT_PROTOCOLO": "2026-01-05", "DT_ASSINATURA": "2026-01-05", "DT_INDEXACAO": "2026-01-05",
        "DADOS_PROPONENTE": {"MATRICULA": 0, "NOME": "MARIA SOUZA", "DT_NASCIMENTO": "1986-03-15", "IDADE": 39, "SEXO": "FEMININO",
          "ESTADO_CIVIL": "SOLTEIRO", "CPF": "11144477735", "TITULAR_CPF": true, "RECEBE_INFO_EMAIL": true, "EMAIL": "MARIA@EXAMPLE.COM",
          "RESIDE_BRASIL": true, "RENDA_MENSAL": 8000, "NUM_FILHOS": 0, "PPE": false,
          "DOCUMENTOS": {"DOCUMENTO": [{"NATUREZA_DOC": "RG", "DOCUMENTO": "123456789", "ORGAO_EXPEDIDOR": "SSP", "DATA_EXPEDICAO": "2010-02-01"}]},
          "ENDERECOS": {"TP_CORRESPONDENCIA": "RESIDENCIAL", "ENDERECO": [{"TIPO": "RESIDENCIAL", "LOGRADOURO": "AV PAULISTA", "NUMERO": "1000",
            "COMPLEMENTO": "", "BAIRRO": "BELA VISTA", "CIDADE": "SAO PAULO", "ESTADO": "SP", "CEP": 1310100}]},
          "TELEFONES": {"TELEFONE": [{"TIPO": "CELULAR", "DDI": 55, "DDD": 11, "NUMERO": 999990000}]},
          "PROFISSAO": {"CODIGO": "2410-05", "DESCRICAO": "PROFISSÃO DECLARADA", "CATEGORIA": "EMPREGADO", "EMPRESA": {"NOME": "ESCRITORIO SOUZA"}}},
        "PLANOS": {"VL_TOTAL": 40.1861955, "PLANO": [{"CODIGO": "511", "NOME": "PRODUTO 511", "VL_AP_INICIAL": 0, "VL_PORTAB": 0,
          "TP_TRIBUTACAO": "NENHUM", "DT_CONCESSAO": "1900-01-01", "PRAZO_CERTO": 0, "PRAZO_DECRESCIMO": 0,
          "COBERTURAS": {"COBERTURA": [{"CODIGO": 1001, "VL_CONTRIB": 32.8796145, "VL_COBERTURA": 150000},
                                       {"CODIGO": 1003, "VL_CONTRIB": 7.306581, "VL_COBERTURA": 100000}]}}]},
        "BENEFICIARIOS": {"BENEFICIARIO": [{"NOME": "JOAO SOUZA", "NASCIMENTO": "1984-08-02", "PARENTESCO": "CONJUGE", "PARTICIPACAO": 100, "CD_PLANO": "511"}]},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "DIA_VENCIMENTO": 10, "COMP_DEBITO": "01/2026", "NUM_CONVENIO": "0", "TIPO_COBRANCA": "CARTAO",
          "CARTAO": {"NUMERO": "5555555555554444", "VALIDADE": "2029-08-31", "BANDEIRA": "MASTERCARD", "PARCELA": 1, "NUM_PRE_AUTORIZACAO": 0,
            "PORTADOR": {"NOME": "MARIA SOUZA", "TIPO_PESSOA": "FISICA", "DOCUMENTO": "11144477735"}}},
        "USO_MONGERAL": {"CONV_ADESAO": "0", "ACAO_MARKETING": "0", "ALTERNATIVA": 0, "SUCURSAL": "0", "DIR_REGIONAL": 0, "GER_SUCURSAL": 0,
          "GER_COMERCIAL": 0, "AGENTE": 0, "CORRETOR1": 0, "CORRETOR2": 0, "AGENTE_FIDELIZACAO": 0, "MODELO_PROPOSTA": "YZ",
          "MODELO_PROPOSTA_GED": "YZ", "TIPO_COMISSAO": 0}}}
      """
    # app/api/proposal/route.ts:89-105: numeroProposta at the top level
    Then the response status is 201
    And the response is valid against schema "insurance/proposta.created"
    And I remember the response field "numeroProposta" as "numero"
    And the response body does not contain "5555555555554444"
    # Read as the insurer must, and recorded: the v2 model, the only published, declares CEP a
    # String, PLANO.CODIGO and CD_PLANO Numbers (processor.ts:89,124,207,263)
    When I send "GET" to "/sandbox/interactions?method=POST&path=/insurer/v1/proposta"
    Then the response field "interactions.0.findings.0.field" is "PROPOSTA.DADOS_PROPONENTE.ENDERECOS.ENDERECO.0.CEP"
    And the response field "interactions.0.findings.0.kind" is "type-mismatch"
    And the response field "interactions.0.findings.1.field" is "PROPOSTA.PLANOS.PLANO.0.CODIGO"
    And the response field "interactions.0.findings.2.field" is "PROPOSTA.BENEFICIARIOS.BENEFICIARIO.0.CD_PLANO"
    # client.ts:209-221, questionnaireUtils.ts, Step12.tsx:184-199: the DPS answered after the
    # proposal, under its number: the questionnaire as GET answered it, with Resposta written in
    # as QuestionnaireRenderer.tsx writes it: the weight's digits, the height in metres "1,72",
    # Sim/Nao, an option's Descricao, a date masked 00/00/0000
    When I use the token "${questionario}"
    And I send "POST" to "/api.questionario/v2/Resposta" with JSON:
      """
      {"Localizador":{"IdentificadorExterno":"${numero}","Origem":"Venda"},"Resposta":"{\"DataUltimaAlteracao\":\"2025-01-20T00:00:00\",\"Descricao\":\"Declaração Pessoal de Saúde (DPS) - Vida Temporária\",\"Id\":901,\"VersaoQuestionario\":[{\"Id\":901,\"Perguntas\":[{\"Descricao\":\"Peso (kg)\",\"Id\":901001,\"Obrigatorio\":true,\"Opcoes\":[],\"Ordem\":1,\"Perguntas\":[],\"Resposta\":\"68\",\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":3,\"Sigla\":\"VALOR\"},\"TipoVariacaoResposta\":{\"Id\":10,\"Sigla\":\"DIGITACAO_PESO\"}},{\"Descricao\":\"Altura (m)\",\"Id\":901002,\"Obrigatorio\":true,\"Opcoes\":[],\"Ordem\":2,\"Perguntas\":[],\"Resposta\":\"1,72\",\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":3,\"Sigla\":\"VALOR\"},\"TipoVariacaoResposta\":{\"Id\":11,\"Sigla\":\"DIGITACAO_ALTURA\"}},{\"Descricao\":\"Você fuma ou fumou nos últimos 24 meses?\",\"Id\":901003,\"Obrigatorio\":true,\"Opcoes\":[{\"Descricao\":\"Sim\",\"Id\":1,\"SubItens\":[]},{\"Descricao\":\"Não\",\"Id\":2,\"SubItens\":[]}],\"Ordem\":3,\"Perguntas\":[],\"Resposta\":\"Nao\",\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":1,\"Sigla\":\"SIM_NAO\"},\"TipoVariacaoResposta\":{\"Id\":1,\"Sigla\":\"SELECAO_UNICA\"}},{\"Descricao\":\"Se fuma, quantos cigarros por dia?\",\"Id\":901004,\"Obrigatorio\":false,\"Opcoes\":[],\"Ordem\":4,\"Perguntas\":[],\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":3,\"Sigla\":\"VALOR\"},\"TipoVariacaoResposta\":{\"Id\":4,\"Sigla\":\"DIGITACAO_${numero}_TEXTO\"}},{\"Descricao\":\"Tem ou já teve câncer, doença do coração, AVC, diabetes, hipertensão, doença renal, hepática ou pulmonar crônica, HIV ou doença neurológica?\",\"Id\":901005,\"Obrigatorio\":true,\"Opcoes\":[{\"Descricao\":\"Sim\",\"Id\":1,\"SubItens\":[]},{\"Descricao\":\"Não\",\"Id\":2,\"SubItens\":[]}],\"Ordem\":5,\"Perguntas\":[],\"Resposta\":\"Nao\",\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":1,\"Sigla\":\"SIM_NAO\"},\"TipoVariacaoResposta\":{\"Id\":1,\"Sigla\":\"SELECAO_UNICA\"}},{\"Descricao\":\"Se sim, descreva a doença, o tratamento e a data do diagnóstico.\",\"Id\":901006,\"Obrigatorio\":false,\"Opcoes\":[],\"Ordem\":6,\"Perguntas\":[],\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":2,\"Sigla\":\"TEXTO\"},\"TipoVariacaoResposta\":{\"Id\":4,\"Sigla\":\"DIGITACAO_COMUM\"}},{\"Descricao\":\"Nos últimos 5 anos esteve internado, fez cirurgia ou ficou afastado do trabalho por mais de 15 dias?\",\"Id\":901007,\"Obrigatorio\":true,\"Opcoes\":[{\"Descricao\":\"Sim\",\"Id\":1,\"SubItens\":[]},{\"Descricao\":\"Não\",\"Id\":2,\"SubItens\":[]}],\"Ordem\":7,\"Perguntas\":[],\"Resposta\":\"Nao\",\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":1,\"Sigla\":\"SIM_NAO\"},\"TipoVariacaoResposta\":{\"Id\":1,\"Sigla\":\"SELECAO_UNICA\"}},{\"Descricao\":\"Pratica algum esporte ou atividade de risco?\",\"Id\":901008,\"Obrigatorio\":true,\"Opcoes\":[{\"Descricao\":\"NENHUM\",\"Id\":1,\"SubItens\":[]},{\"Descricao\":\"MERGULHO\",\"Id\":2,\"SubItens\":[]},{\"Descricao\":\"PARAQUEDISMO OU VOO LIVRE\",\"Id\":3,\"SubItens\":[]},{\"Descricao\":\"AUTOMOBILISMO OU MOTOCICLISMO\",\"Id\":4,\"SubItens\":[]},{\"Descricao\":\"ALPINISMO OU ESCALADA\",\"Id\":5,\"SubItens\":[]},{\"Descricao\":\"OUTRO\",\"Id\":6,\"SubItens\":[]}],\"Ordem\":8,\"Perguntas\":[],\"Resposta\":\"NENHUM\",\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":4,\"Sigla\":\"DOMINIO\"},\"TipoVariacaoResposta\":{\"Id\":1,\"Sigla\":\"SELECAO_UNICA\"}},{\"Descricao\":\"Data do último check-up médico\",\"Id\":901009,\"Obrigatorio\":false,\"Opcoes\":[],\"Ordem\":9,\"Perguntas\":[],\"Resposta\":\"20/11/2025\",\"TipoItem\":{\"Id\":1,\"Sigla\":\"PERGUNTA\"},\"TipoResposta\":{\"Id\":6,\"Sigla\":\"DATA\"},\"TipoVariacaoResposta\":{\"Id\":6,\"Sigla\":\"DATA_PADRAO\"}}],\"Versao\":1}]}"}
      """
    Then the response status is 201
    And the response is valid against schema "insurance/resposta.servico"
    # What follows is the sandbox's, not the client's: analysis implants the proposal
    When I advance the clock by "2m"
    And I advance the clock by "1h"
    And I advance the clock by "5m"
    And I use the token ""
    And I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora
      """
    And I remember the response field "access_token" as "seguradora"
    And I use the token "${seguradora}"
    And I send "GET" to "/apiseguradora/v3/proposta/${numero}"
    Then the response field "Valor.status" is "IMPLANTADA"
    And the response field "Valor.valorProposta" is "40.19"
    And the response field "Valor.formaPagamento" is "CARTAO"
    And the response field "Valor.inscricoes" has 1 item
    And the response body does not contain "5555555555554444"
    When I send "GET" to "/insurer/v1/proposta/${numero}/questionario/901"
    Then the response field "Valor.situacao" is "RESPONDIDO"
    And the response field "Valor.respostas.0.valor" is "68"
    When I send "GET" to "/sandbox/interactions?path=/insurer/v1/proposta"
    Then the response body does not contain "5555555555554444"
    And the response field "interactions.0.sentPath" is "/apiseguradora/v3/proposta"

  Scenario: A funeral plan (EIS) of fixed value, paid by debit: the client sends premioBase as the premium
    When I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora
      """
    And I remember the response field "access_token" as "seguradora"
    And I use the token "${seguradora}"
    When I send "POST" to "/apiseguradora/v3/simulacao?cnpj=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"simulacoes": [{"proponente": {"tipoRelacaoSeguradoId": 1, "nome": "JOSE LIMA", "cpf": "52998224725", "dataNascimento": "1970-06-20",
        "profissaoCbo": "5211-10", "renda": 4500, "sexoId": 1, "uf": "MG", "declaracaoIRId": 1},
        "periodicidadeCobrancaId": 30, "prazoCerto": 30, "prazoPagamentoAntecipado": 10, "prazoDecrescimo": 10}]}
      """
    Then the response status is 200
    # useCoverageStore.ts:99-160: tipo 1 is not adjustable: the premium is premioBase, the capital
    # the larger of capitalBase and valorMinimoCapitalContratacao; no DPS (questionariosPorFaixa empty)
    And the response field "Valor.simulacoes.0.produtos.0.idProduto" is "530"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.tipoId" is "1"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.capitalBase" is "7000"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.valorMinimoCapitalContratacao" is "7000"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premioBase" is "69.37131066"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.questionariosPorFaixa" has 0 items
    When I use the token ""
    And I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apicontroleacesso
      """
    And I remember the response field "access_token" as "acesso"
    And I use the token "${acesso}"
    # The user exists already (a 409 is ok for the client); the code by SMS is forced to Email by the route
    When I send "POST" to "/gestao-acesso/v1/user" with JSON:
      """
      {"username": "52998224725", "document": "52998224725", "email": "JOSE@EXAMPLE.COM", "name": "JOSE LIMA", "cellphone": "31988887777", "active": true}
      """
    And I send "POST" to "/gestao-acesso/v1/user" with JSON:
      """
      {"username": "52998224725", "document": "52998224725", "email": "JOSE@EXAMPLE.COM", "name": "JOSE LIMA", "cellphone": "31988887777", "active": true}
      """
    Then the response status is 409
    When I send "GET" to "/gestao-acesso/v1/user/52998224725"
    Then the response status is 200
    When I send "POST" to "/gestao-acesso/v1/token/user/52998224725/system/6b1e0e52-3c6a-4d1e-9d55-2f1c9a7e4d10" with JSON:
      """
      {"output": "Email", "timeoutInMinutes": "5", "tokenSize": "6"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=52998224725"
    And I remember the response field "messages.0.codigo" as "codigo"
    # A code the customer mistyped: 400, "Token inválido", which the client shows as an invalid code
    And I send "POST" to "/gestao-acesso/v1/signature" with JSON:
      """
      {"user": {"username": "52998224725", "document": "52998224725", "email": "JOSE@EXAMPLE.COM", "nameProponente": "JOSE LIMA", "cellphone": "31988887777"},
       "token": {"tokenCode": "000000", "sendType": "Email", "systemId": "6b1e0e52-3c6a-4d1e-9d55-2f1c9a7e4d10", "tokenType": "ValidacaoCompra"},
       "sender": {"userAgent": "Simulador", "ip": "127.0.0.1", "port": "443", "timezone": "UTC"}, "description": "Sig"}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Descricao" matches "^Token inválido"
    When I send "POST" to "/gestao-acesso/v1/signature" with JSON:
      """
      {"user": {"username": "52998224725", "document": "52998224725", "email": "JOSE@EXAMPLE.COM", "nameProponente": "JOSE LIMA", "cellphone": "31988887777"},
       "token": {"tokenCode": "${codigo}", "sendType": "Email", "systemId": "6b1e0e52-3c6a-4d1e-9d55-2f1c9a7e4d10", "tokenType": "ValidacaoCompra"},
       "sender": {"userAgent": "Simulador", "ip": "127.0.0.1", "port": "443", "timezone": "UTC"}, "description": "Sig"}
      """
    Then the response status is 201
    And the response field "id" exists
    # processor.ts:325-353: DEBITO, the account's holder the insured (PROPRIO)
    When I use the token "${seguradora}"
    And I send "POST" to "/apiseguradora/v3/proposta?empresa=11222333000181" with JSON:
      """
      {"PROPOSTA": {"NUMERO": 0, "DT_PROTOCOLO": "2026-01-05", "DT_ASSINATURA": "2026-01-05", "DT_INDEXACAO": "2026-01-05",
        "DADOS_PROPONENTE": {"MATRICULA": 0, "NOME": "JOSE LIMA", "DT_NASCIMENTO": "1970-06-20", "IDADE": 55, "SEXO": "MASCULINO",
          "ESTADO_CIVIL": "CASADO", "CPF": "52998224725", "TITULAR_CPF": true, "RECEBE_INFO_EMAIL": false, "EMAIL": "JOSE@EXAMPLE.COM",
          "RESIDE_BRASIL": true, "RENDA_MENSAL": 4500, "NUM_FILHOS": 2, "PPE": false, "DOCUMENTOS": {"DOCUMENTO": []},
          "ENDERECOS": {"TP_CORRESPONDENCIA": "RESIDENCIAL", "ENDERECO": [{"TIPO": "RESIDENCIAL", "LOGRADOURO": "RUA DA BAHIA", "NUMERO": "500",
            "COMPLEMENTO": "", "BAIRRO": "CENTRO", "CIDADE": "BELO HORIZONTE", "ESTADO": "MG", "CEP": 30160011}]},
          "TELEFONES": {"TELEFONE": [{"TIPO": "CELULAR", "DDI": 55, "DDD": 31, "NUMERO": 988887777}]},
          "PROFISSAO": {"CODIGO": "5211-10", "DESCRICAO": "PROFISSÃO DECLARADA", "CATEGORIA": "EMPREGADO", "EMPRESA": {"NOME": "LOJA LIMA"}}},
        "PLANOS": {"VL_TOTAL": 69.37131066, "PLANO": [{"CODIGO": "530", "NOME": "PRODUTO 530", "VL_AP_INICIAL": 0, "VL_PORTAB": 0,
          "TP_TRIBUTACAO": "NENHUM", "DT_CONCESSAO": "1900-01-01", "PRAZO_CERTO": 0, "PRAZO_DECRESCIMO": 0,
          "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": 69.37131066, "VL_COBERTURA": 7000}]}}]},
        "BENEFICIARIOS": {"BENEFICIARIO": []},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "DIA_VENCIMENTO": 10, "COMP_DEBITO": "01/2026", "NUM_CONVENIO": "0", "TIPO_COBRANCA": "DEBITO",
          "CONTA_CORRENTE": {"BANCO": "001", "AGENCIA": "1234", "CONTA": "56789", "DIGITO_CONTA": "0",
            "TITULAR": {"NOME": "JOSE LIMA", "CPF": "52998224725", "PARENTESCO": "PROPRIO", "AUTORIZA_DEBITO": true}}},
        "USO_MONGERAL": {"CONV_ADESAO": "0", "ACAO_MARKETING": "0", "ALTERNATIVA": 0, "SUCURSAL": "0", "DIR_REGIONAL": 0, "GER_SUCURSAL": 0,
          "GER_COMERCIAL": 0, "AGENTE": 0, "CORRETOR1": 0, "CORRETOR2": 0, "AGENTE_FIDELIZACAO": 0, "MODELO_PROPOSTA": "EIS",
          "MODELO_PROPOSTA_GED": "EIS", "TIPO_COMISSAO": 0}}}
      """
    Then the response status is 201
    And I remember the response field "numeroProposta" as "numero"
    When I advance the clock by "2m"
    And I advance the clock by "1h"
    And I advance the clock by "5m"
    And I use the token ""
    And I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora
      """
    And I remember the response field "access_token" as "seguradora"
    And I use the token "${seguradora}"
    And I send "GET" to "/apiseguradora/v3/proposta/${numero}"
    Then the response field "Valor.status" is "IMPLANTADA"
    And the response field "Valor.valorProposta" is "69.37"
    And the response field "Valor.formaPagamento" is "DEBITO"

  Scenario: Errors come as the client reads them, Mensagens[0].Descricao, and paths match in any case
    When I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora
      """
    And I remember the response field "access_token" as "seguradora"
    And I use the token "${seguradora}"
    When I send "GET" to "/APISEGURADORA/V3/Produto?codigoModeloProposta=YZ"
    Then the response status is 200
    When I send "POST" to "/apiseguradora/v3/proposta?empresa=11222333000181" with JSON:
      """
      {"PROPOSTA": {"NUMERO": 0, "DADOS_PROPONENTE": {"NOME": "MARIA SOUZA", "DT_NASCIMENTO": "1986-03-15", "SEXO": "FEMININO", "CPF": "11144477736", "TITULAR_CPF": true},
        "PLANOS": {"VL_TOTAL": 10.9598715, "PLANO": [{"CODIGO": "511", "COBERTURAS": {"COBERTURA": [{"CODIGO": 1001, "VL_CONTRIB": 10.9598715, "VL_COBERTURA": 50000}]}}]},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "DIA_VENCIMENTO": 10, "TIPO_COBRANCA": "BOLETO"},
        "USO_MONGERAL": {"MODELO_PROPOSTA": "YZ"}}}
      """
    # Step12.tsx:209-221 maps a text with "cpf" to its screen
    Then the response status is 422
    And the response field "numeroProposta" does not exist
    And the response field "Mensagens.0.Descricao" matches "CPF"

  Scenario: The token under every base URL of the insurer's APIs, as the client builds it from its base
    # client.ts:19-33: POST {BASE}/connect/token, the form body; it reads access_token, and on a
    # failure error_description or error
    When I send "POST" to "/apiseguradora/v3/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora
      """
    Then the response status is 200
    And the response field "access_token" exists
    When I send "POST" to "/api.questionario/v2/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=api.questionario
      """
    Then the response status is 200
    When I send "POST" to "/gestao-acesso/v1/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apicontroleacesso
      """
    Then the response status is 200
    When I send "POST" to "/api.underwriting/v1/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora+apiunderwriting
      """
    Then the response status is 200
    And the response field "scope" is "apiseguradora apiunderwriting"
    When I send "POST" to "/insurer/v1/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora
      """
    Then the response status is 200
    When I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=errado&grant_type=client_credentials
      """
    Then the response status is 401
    And the response field "error" is "invalid_client"
    And the response field "error_description" exists

  Scenario: The DPS refused names the question by the Id the client holds
    When I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&grant_type=client_credentials&scope=apiseguradora+apiunderwriting+api.questionario
      """
    And I remember the response field "access_token" as "todos"
    And I use the token "${todos}"
    And I send "POST" to "/api.underwriting/v1/proposals/YZ/next-number"
    And I remember the response field "proposalReservedNumber" as "reservado"
    # The height in centimetres where the question asks metres, and a mandatory question left unanswered
    And I send "POST" to "/api.questionario/v2/Resposta" with JSON:
      """
      {"Localizador":{"IdentificadorExterno":"${reservado}","Origem":"Venda"},"Resposta":"{\"Id\":901,\"VersaoQuestionario\":[{\"Id\":901,\"Perguntas\":[{\"Id\":901001,\"Resposta\":\"80\"},{\"Id\":901002,\"Resposta\":\"172\"},{\"Id\":901003,\"Resposta\":\"Nao\"},{\"Id\":901005,\"Resposta\":\"Nao\"},{\"Id\":901008,\"Resposta\":\"NENHUM\"}]}]}"}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Campo" is "Perguntas[Id=901002]"
    And the response field "Mensagens.0.Descricao" matches "metros"
    And the response field "Mensagens.1.Campo" is "Perguntas[Id=901007]"
    And the response field "Mensagens.1.Descricao" matches "901007"
