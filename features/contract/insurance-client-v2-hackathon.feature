Feature: Insurance as the 2019 hackathon app calls it
  The calls of the 2019 hackathon app (insurance CLIENTS.md: "HK-app",
  scripts/apiClient.js, index.html and simulacao.html), with only the base
  URL changed: /apiseguradora/v2/ and a lower-case resource, a token from
  the host's /connect/token (apiClient.js:2-5) with the form body the app posts
  (scope apiseguradora), a client_id header on every call (a gateway key,
  ignored by the sandbox). The app reads the offers and their products,
  the CBO list and one simulation, and shows a premium it computes itself:
  custoFixo when it is above 0, else capital ÷ capitalBase × premioBase,
  for a capital that starts at R$ 10,000 and moves by 1,000. It sends
  sexoId as the radio's string and renda as the masked text of its income
  field: the sandbox reads both, and records each as a finding.

  The app itself makes no proposal (contratacao.html calls nothing): the
  sale goes on in the same path style, with the UPPER_SNAKE proposal every
  other client sends, signed with the sandbox's ASSINATURA block (a code
  from access management). The clock is frozen at 2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    # scripts/apiClient.js:2-10: the token; only access_token is read
    When I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&scope=apiseguradora&grant_type=client_credentials
      """
    Then the response status is 200
    And I remember the response field "access_token" as "seguradora"
    And I use the token "${seguradora}"

  Scenario: From the offer list to implantation: offers, CBO, the simulation the app shows, and the sale in the same style
    # apiClient.js:37; index.html:12-24
    Given I set the header "client_id" to "chave-do-gateway"
    When I send "GET" to "/apiseguradora/v2/modeloproposta?cnpj=11222333000181&completo=true"
    Then the response status is 200
    And the response is valid against schema "insurance/modeloproposta.list"
    And the response field "Valor" has 7 items
    And the response field "Valor.0.id" is "105"
    And the response field "Valor.0.nome" is "MAG Previdência PGBL"
    And the response field "Valor.0.produtos" has 1 item
    And the response field "Valor.0.produtos.0.descricao" is "PGBL"
    # apiClient.js:19; simulacao.html:21-22: the options' value is Auxiliar, their label Descricao
    Given I set the header "client_id" to "chave-do-gateway"
    When I send "GET" to "/apiseguradora/v2/dominio/CBO"
    Then the response status is 200
    And the response field "Valor.3.Auxiliar" is "2124-05"
    And the response field "Valor.3.Descricao" is "ANALISTA DE DESENVOLVIMENTO DE SISTEMAS"
    # apiClient.js:53-68 (the doubled && as the app writes it); simulacao.html:26-30: sexoId the radio's
    # string, renda the masked text, dataNascimento DD/MM/YYYY rewritten as YYYY-MM-DD; nothing else
    Given I set the header "client_id" to "chave-do-gateway"
    When I send "POST" to "/apiseguradora/v2/simulacao?cnpj=11222333000181&&codigoModeloProposta=105" with JSON:
      """
      {"simulacoes": [{"proponente": {"nome": "Teste", "cpf": "86288366757", "dataNascimento": "1990-07-01", "profissaoCbo": "2124-05",
        "renda": "8.000,00", "sexoId": "2", "uf": "SP"}}]}
      """
    Then the response status is 200
    And the response field "Mensagens" has 0 items
    # simulacao.html:37-58: each product's idProduto and descricao, and its first coverage's
    # custoFixo (a number: the app calls toFixed on it), capitalBase and premioBase
    And the response field "Valor.simulacoes.0.produtos.0.idProduto" is "560"
    And the response field "Valor.simulacoes.0.produtos.0.descricao" is "PGBL"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.custoFixo" is "0"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.capitalBase" is "1000"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premioBase" is "1000"
    # Read as the insurer must, and each recorded: the model declares both Number
    When I send "GET" to "/sandbox/interactions?method=POST&path=/insurer/v1/simulacao"
    Then the response field "interactions.0.findings.0.kind" is "type-mismatch"
    And the response field "interactions.0.findings.0.field" is "simulacoes.0.proponente.sexoId"
    And the response field "interactions.0.findings.1.kind" is "masked-value"
    And the response field "interactions.0.findings.1.field" is "simulacoes.0.proponente.renda"
    # The app shows 10000 ÷ 1000 × 1000 = 10,000 a month; the customer presses − eight times:
    # a contribution of 2,000, 2000 ÷ 1000 × 1000 = 2,000 (simulacao.html:55,65-87).
    # The sale goes on as the other clients sell: the signature code, then the proposal.
    When I use the token ""
    And I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&scope=apicontroleacesso&grant_type=client_credentials
      """
    And I remember the response field "access_token" as "acesso"
    And I use the token "${acesso}"
    And I send "POST" to "/gestao-acesso/v1/token/user/86288366757/system/hackathon" with JSON:
      """
      {"output": "SMS", "cellphone": "11988887777", "timeoutInMinutes": "10", "tokenSize": "6"}
      """
    Then the response status is 201
    When I send "GET" to "/sandbox/outbox?cpf=86288366757"
    And I remember the response field "messages.0.codigo" as "codigo"
    And I use the token "${seguradora}"
    And I send "POST" to "/apiseguradora/v2/proposta?empresa=11222333000181&codigoModeloProposta=105" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "0", "DT_PROTOCOLO": "2026-01-05", "DT_ASSINATURA": "2026-01-05",
        "DADOS_PROPONENTE": {"NOME": "Teste", "DT_NASCIMENTO": "01-07-1990", "SEXO": "FEMININO", "CPF": "86288366757", "TITULAR_CPF": "S",
          "RENDA_MENSAL": "8.000,00", "ENDERECOS": {"ENDERECO": {"TIPO": "RESIDENCIAL", "ESTADO": "SP", "CEP": "04538133"}},
          "PROFISSAO": {"CODIGO": "2124-05"}},
        "PLANOS": {"VL_TOTAL": "2000.00", "PLANO": {"CODIGO": 560, "NOME": "PGBL", "TP_TRIBUTACAO": "REGRESSIVA",
          "COBERTURAS": {"COBERTURA": {"CODIGO": 6001, "VL_CONTRIB": "2000.00", "VL_COBERTURA": 2000}}}},
        "BENEFICIARIOS": {"BENEFICIARIO": {"NOME": "Herdeira Teste", "PARENTESCO": "FILHA", "PARTICIPACAO": 100, "CD_PLANO": 560}},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": "5"},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 201
    And the response field "Mensagens" has 0 items
    And the response field "Valor.status" is "RECEBIDA"
    And the response field "Valor.valorTotal" is "2000"
    And I remember the response field "numeroProposta" as "numero"
    When I advance the clock by "2m"
    And I advance the clock by "1h"
    And I advance the clock by "5m"
    And I use the token ""
    And I send "POST" to "/connect/token" with a body of type "application/x-www-form-urlencoded":
      """
      client_id=${app.clientId}&client_secret=${app.clientSecret}&scope=apiseguradora&grant_type=client_credentials
      """
    And I remember the response field "access_token" as "seguradora"
    And I use the token "${seguradora}"
    And I send "GET" to "/apiseguradora/v2/proposta/${numero}"
    Then the response field "Valor.status" is "IMPLANTADA"
    And the response field "Valor.inscricoes" has 1 item
    When I send "GET" to "/apiseguradora/v2/timeline?cnpj=11222333000181&numeroProposta=${numero}"
    Then the response is valid against schema "insurance/timeline.v2"
    And the response field "Valor.3.Status" is "IMPLANTADA"

  Scenario: The app's profile outside an offer's limits: no products, and Mensagens as strings
    Given I set the header "client_id" to "chave-do-gateway"
    When I send "POST" to "/apiseguradora/v2/simulacao?cnpj=11222333000181&&codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"nome": "Teste", "cpf": "86288366757", "dataNascimento": "1940-01-01", "profissaoCbo": "2124-05",
        "renda": "3.500,00", "sexoId": "1", "uf": "SP"}}]}
      """
    Then the response status is 200
    And the response field "HouveErrosDuranteProcessamento" is "false"
    And the response field "Valor.simulacoes.0.produtos" has 0 items
    And the response field "Mensagens.0" matches "^IDADE_FORA_DO_LIMITE_DO_PRODUTO: simulacoes.0.proponente.dataNascimento: idade de 86 anos"
    When I send "POST" to "/apiseguradora/v2/simulacao?cnpj=11222333000181&&codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"nome": "Teste", "dataNascimento": "1990-07-01", "sexoId": "3"}}]}
      """
    Then the response status is 400
    And the response field "Mensagens.0" matches "^REQUISICAO_INVALIDA: simulacoes.0.proponente.sexoId: "
