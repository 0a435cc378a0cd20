Feature: Insurance sale cycle: analysis with pendings, refusal and cancellation
  Magic CPFs select what analysis does (scenarios/README.md):
  222.555.888-46 gets a health-declaration pending, 444.777.000-83 has its
  first answer rejected, 333.666.999-57 is refused. The clock is frozen at
  2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    And a webhook receiver answering 200
    And the app's webhook points to the receiver

  Scenario Outline: A proposal whose pending is answered is implanted
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"simulacoes": [{"proponente": {"cpf": "<cpf>", "dataNascimento": "1970-07-01", "sexoId": 1, "renda": 4000, "uf": "RJ", "profissaoCbo": "2410-05"},
        "periodicidadeCobrancaId": 30, "capitalSegurado": 7000}]}
      """
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premio"
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.itemProdutoId" as "item"
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.capital" as "capital"
    And I send "POST" to "/access/v1/token/user/<cpf>/system/7b1e0e4a-0000-4000-8000-000000000001" with JSON:
      """
      {"output": "SMS", "cellphone": "11999990000"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=<cpf>"
    And I remember the response field "messages.0.codigo" as "codigo"
    And I send "POST" to "/insurer/v1/proposta/EIS?empresa=11222333000181" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "0",
        "DADOS_PROPONENTE": {"NOME": "Carlos Lima", "DT_NASCIMENTO": "01-07-1970", "SEXO": "MASCULINO", "CPF": "<cpf>", "RENDA_MENSAL": "4000.00",
          "ENDERECOS": {"ENDERECO": {"ESTADO": "RJ", "CEP": 20040002}}, "PROFISSAO": {"CODIGO": "2410-05"}},
        "PLANOS": {"PLANO": {"CODIGO": 530, "COBERTURAS": {"COBERTURA": {"CODIGO": ${item}, "VL_CONTRIB": "${premio}", "VL_COBERTURA": ${capital}}}}},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "DEBITO", "DIA_VENCIMENTO": 5,
          "CONTA_CORRENTE": {"BANCO": "341", "AGENCIA": "0001", "CONTA": "12345", "DIGITO_CONTA": "6"}},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 201
    And I remember the response field "Valor.numeroProposta" as "numero"
    When I advance the clock by "32m"
    Then the receiver gets a "proposta.pendencia" event within 5 seconds
    And the event field "data.codigo" is "<pendencia>"
    And I remember the event field "subject.pendenciaId" as "pendencia"
    And the receiver gets a "proposta.status" event whose "data.statusAtual" is "PENDENTE" within 5 seconds
    When I send "GET" to "/insurer/v1/pendencia?numeroProposta=${numero}&status=ABERTA"
    Then the response field "Valor" has 1 item
    And the response field "Valor.0.grupo" is "<grupo>"
    When I send "PUT" to "/insurer/v1/pendencia/${pendencia}" with JSON:
      """
      {"resposta": "Segue o documento pedido.", "documento": {"nomeArquivo": "doc.pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQK"}}
      """
    Then the response status is 200
    And the response field "Valor.status" is "RESPONDIDA"
    And the response field "Valor.documento.tamanho" is "9"
    And the receiver gets a "proposta.pendencia_respondida" event within 5 seconds
    When I send "PUT" to "/insurer/v1/pendencia/${pendencia}" with JSON:
      """
      {"resposta": "de novo"}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "PENDENCIA_NAO_ABERTA"
    When I advance the clock by "1h"
    And I obtain a token
    And I send "GET" to "/insurer/v1/pendencia?numeroProposta=${numero}"
    Then the response field "Valor.0.status" is "<depois>"
    When I send "GET" to "/insurer/v1/pendencia?numeroProposta=${numero}&status=ABERTA"
    Then the response field "Valor" has <abertas> item
    Examples:
      | cpf         | pendencia | grupo      | depois    | abertas |
      | 22255588846 | DPS       | SAUDE      | RESOLVIDA | 0       |
      | 44477700083 | RENDA     | FINANCEIRO | REJEITADA | 1       |

  Scenario: The whole pending path ends in implantation, and the timeline shows every step
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"simulacoes": [{"proponente": {"dataNascimento": "1970-07-01", "sexoId": 1}, "periodicidadeCobrancaId": 30}]}
      """
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premio"
    And I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "22255588846"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=22255588846"
    And I remember the response field "messages.0.codigo" as "codigo"
    And I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Carlos Lima", "DT_NASCIMENTO": "1970-07-01", "SEXO": "MASCULINO", "CPF": "22255588846"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "FOLHA", "CONSIGNACAO": {"MATRICULA": "88123", "ORGAO": "SEFAZ-RJ"}},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 201
    And I remember the response field "Valor.numeroProposta" as "numero"
    When I advance the clock by "32m"
    And I send "GET" to "/insurer/v1/pendencia?numeroProposta=${numero}"
    And I remember the response field "Valor.0.id" as "pendencia"
    And I send "PUT" to "/insurer/v1/pendencia/${pendencia}" with JSON:
      """
      {"resposta": "DPS assinada em anexo"}
      """
    And I advance the clock by "1h"
    And I advance the clock by "1h"
    And I advance the clock by "5m"
    Then the receiver gets a "proposta.implantada" event within 5 seconds
    When I obtain a token
    And I send "GET" to "/insurer/v1/timeline?numeroProposta=${numero}"
    Then the response status is 200
    And the response field "Valor.0.status" is "RECEBIDA"
    And the response field "Valor.1.status" is "EM_ANALISE"
    And the response field "Valor.2.status" is "PENDENTE"
    And the response field "Valor.3.pendencias.0.codigo" is "DPS"
    And the response field "Valor.4.descricao" is "Pendência respondida"
    And the response field "Valor.5.status" is "EM_ANALISE"
    And the response field "Valor.6.status" is "APROVADA"
    And the response field "Valor.7.status" is "IMPLANTADA"

  Scenario: A refused proposal says why, and cannot be cancelled afterwards
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"simulacoes": [{"proponente": {"dataNascimento": "1970-07-01", "sexoId": 1}, "periodicidadeCobrancaId": 30}]}
      """
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premio"
    And I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "33366699957"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=33366699957"
    And I remember the response field "messages.0.codigo" as "codigo"
    And I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Pedro Alves", "DT_NASCIMENTO": "1970-07-01", "SEXO": "MASCULINO", "CPF": "33366699957"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 15},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-2026-0001"}}}
      """
    Then the response status is 201
    And I remember the response field "Valor.numeroProposta" as "numero"
    When I advance the clock by "2h5m"
    Then the receiver gets a "proposta.status" event whose "data.statusAtual" is "RECUSADA" within 5 seconds
    And the event field "data.motivo" matches "^RISCO_AGRAVADO"
    And the event field "data.statusAtualCodigo" is "9"
    When I obtain a token
    And I send "PATCH" to "/insurer/v1/proposta/${numero}" with JSON:
      """
      {"motivo": "Desistência do cliente", "tipoCancelamento": "SOLICITACAO_CLIENTE"}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "PROPOSTA_NAO_CANCELAVEL"

  Scenario: The partner cancels a proposal in analysis; its scenario stops
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"simulacoes": [{"proponente": {"dataNascimento": "1970-07-01", "sexoId": 1}, "periodicidadeCobrancaId": 30}]}
      """
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premio"
    And I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Pedro Alves", "DT_NASCIMENTO": "1970-07-01", "SEXO": "MASCULINO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 15},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-2026-0002"}}}
      """
    And I remember the response field "Valor.numeroProposta" as "numero"
    And I advance the clock by "2m"
    And I send "PATCH" to "/insurer/v1/proposta/${numero}" with JSON:
      """
      {"motivo": "Desistência do cliente", "tipoCancelamento": "SOLICITACAO_CLIENTE"}
      """
    Then the response status is 200
    And the response field "Valor.status" is "CANCELADA"
    And the receiver gets a "proposta.status" event whose "data.statusAtual" is "CANCELADA" within 5 seconds
    When I advance the clock by "2h"
    And I obtain a token
    And I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response field "Valor.status" is "CANCELADA"
    And the response field "Valor.motivo" is "Desistência do cliente"
    When I send "GET" to "/sandbox/scenarios/bindings?kind=proposta"
    Then the response field "bindings.0.status" is "stopped"
