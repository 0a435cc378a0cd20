Feature: Insurance sale cycle: signature tokens, card data, offers a company may not sell, and bad proposals
  Every refusal is in the insurer's envelope with HouveErrosDuranteProcessamento
  true and each violated field named in Mensagens[].Campo. The clock is
  frozen at 2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"simulacoes": [{"proponente": {"dataNascimento": "1980-01-01", "sexoId": 2}, "periodicidadeCobrancaId": 30}]}
      """
    Then I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premio"

  Scenario: A signature code expires, is single-use, and belongs to one CPF
    When I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "11144477735", "timeoutInMinutes": 5}
      """
    Then the response status is 201
    And the response field "Valor.expiresAt" is "2026-01-05T12:05:00Z"
    When I send "GET" to "/sandbox/outbox?cpf=11144477735"
    And I remember the response field "messages.0.codigo" as "codigo"
    And I advance the clock by "6m"
    And I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 422
    And the response is valid against schema "platform/insurer-envelope"
    And the response field "HouveErrosDuranteProcessamento" is "true"
    And the response field "Mensagens.0.Codigo" is "ASSINATURA_INVALIDA"
    And the response field "Mensagens.0.Campo" is "PROPOSTA.ASSINATURA.TOKEN"
    And the response field "Mensagens.0.Descricao" matches "^token expirado"
    When I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "11144477735"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=11144477735"
    And I remember the response field "messages.0.codigo" as "codigo"
    And I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Outra Pessoa", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "12345678909"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Descricao" matches "nenhum código .* para o CPF 12345678909"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 201
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Descricao" matches "^token já utilizado"

  Scenario: A card in CARTAO is authorised and kept masked; a security code is refused; the widget's pre-authorisation code is the other way
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10,
          "CARTAO": {"NUMERO": "4111111111111111", "VALIDADE": "2030-12-31", "BANDEIRA": "VISA", "CVV": "123"}},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Codigo" is "DADOS_DE_CARTAO_PROIBIDOS"
    And the response field "Mensagens.0.Campo" is "PROPOSTA.DADOS_COBRANCA.CARTAO.CVV"
    And the response body does not contain "4111111111111111"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10,
          "CARTAO": {"NUMERO": "4000000000000002", "VALIDADE": "2030-12-31", "NUM_PRE_AUTORIZACAO": 0}},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "PRE_AUTORIZACAO_NEGADA"
    And the response field "Mensagens.0.Campo" is "PROPOSTA.DADOS_COBRANCA.CARTAO.NUMERO"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10,
          "CARTAO": {"NUMERO": "4111111111111111", "VALIDADE": "2025-12-31", "NUM_PRE_AUTORIZACAO": 0}},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "PROPOSTA.DADOS_COBRANCA.CARTAO.VALIDADE"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10,
          "CARTAO": {"NUMERO": "4111111111111111", "VALIDADE": "2030-12-31", "BANDEIRA": "VISA", "PARCELA": 1, "NUM_PRE_AUTORIZACAO": 0,
            "PORTADOR": {"NOME": "MARIA", "TIPO_PESSOA": "FISICA", "DOCUMENTO": "11144477735"}}},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 201
    And the response body does not contain "4111111111111111"
    And I remember the response field "numeroProposta" as "numero"
    When I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response status is 200
    And the response field "Valor.formaPagamento" is "CARTAO"
    And the response body does not contain "4111111111111111"
    When I send "GET" to "/sandbox/interactions?path=/insurer/v1/proposta"
    Then the response body does not contain "4111111111111111"
    And the response body contains "[redacted card number]"
    When I send "POST" to "/sandbox/cartao/preautorizacao" with JSON:
      """
      {"cpf": "11144477735", "valor": 100, "numero": "4111111111111111", "validade": "12/2030"}
      """
    Then the response status is 201
    And the response field "Valor.Final" is "1111"
    And I remember the response field "Valor.CodigoPreAutorizacao" as "preauth"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10, "CARTAO": {"NUM_PRE_AUTORIZACAO": "${preauth}", "BANDEIRA": "VISA"}},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 201
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10, "CARTAO": {"NUM_PRE_AUTORIZACAO": "${preauth}"}},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Descricao" matches "já foi usada pela proposta"
    When I send "POST" to "/sandbox/cartao/preautorizacao" with JSON:
      """
      {"cpf": "11144477735", "valor": 100, "numero": "4000000000000002"}
      """
    Then the response status is 422
    And the response field "type" is "urn:homologa:problem:PRE_AUTORIZACAO_NEGADA"

  Scenario: An offer the company may not sell, or another company's CNPJ, is refused
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "sul"
    And I obtain a token
    When I send "GET" to "/insurer/v1/modeloproposta?cnpj=11444777000161"
    Then the response status is 200
    And the response field "Valor" has 2 items
    When I send "GET" to "/insurer/v1/modeloproposta/A75?cnpj=11444777000161"
    Then the response status is 404
    And the response field "Mensagens.0.Codigo" is "MODELO_PROPOSTA_NAO_ENCONTRADO"
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11444777000161&codigoModeloProposta=A75" with JSON:
      """
      {"simulacoes": [{"proponente": {"dataNascimento": "1980-01-01", "sexoId": 2}}]}
      """
    Then the response status is 404
    When I send "GET" to "/insurer/v1/modeloproposta?cnpj=11222333000181"
    Then the response status is 403
    And the response field "Mensagens.0.Codigo" is "CNPJ_NAO_AUTORIZADO"
    When I send "PUT" to "/portal/companies/11444777000161/offers/A75"
    Then the response status is 200
    When I send "GET" to "/insurer/v1/modeloproposta?cnpj=11444777000161"
    Then the response field "Valor" has 3 items
    When I send "DELETE" to "/portal/companies/11444777000161/offers/YZ"
    And I send "GET" to "/insurer/v1/modeloproposta/YZ"
    Then the response status is 404

  Scenario Outline: A proposal breaking a rule is refused naming the field, and nothing is created
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "<nascimento>", "SEXO": "FEMININO", "CPF": "<cpf>"},
        "PLANOS": {"VL_TOTAL": <total>, "PLANO": [{"CODIGO": <produto>, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": <premio>, "VL_COBERTURA": 7000}]}}]},
        "BENEFICIARIOS": {"BENEFICIARIO": [{"NOME": "A", "PARTICIPACAO": <part>}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "<cobranca>", "DIA_VENCIMENTO": <dia>},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is <status>
    And the response is valid against schema "platform/insurer-envelope"
    And the response field "Mensagens.0.Campo" is "<campo>"
    When I send "GET" to "/insurer/v1/proposta/100001"
    Then the response status is 404
    Examples:
      | nascimento | cpf         | total     | produto | premio    | part | cobranca | dia | status | campo                                                  |
      | 1980-01-01 | 11144477736 | ${premio} | 530     | ${premio} | 100  | BOLETO   | 10  | 422    | PROPOSTA.DADOS_PROPONENTE.CPF                          |
      | 1980-01-01 | 11144477735 | ${premio} | 999     | ${premio} | 100  | BOLETO   | 10  | 422    | PROPOSTA.PLANOS.PLANO.0.CODIGO                        |
      | 1980-01-01 | 11144477735 | 1.00      | 530     | 1.00      | 100  | BOLETO   | 10  | 422    | PROPOSTA.PLANOS.PLANO.0.COBERTURAS.COBERTURA.0.VL_CONTRIB |
      | 1980-01-01 | 11144477735 | 999.99    | 530     | ${premio} | 100  | BOLETO   | 10  | 422    | PROPOSTA.PLANOS.VL_TOTAL                               |
      | 1980-01-01 | 11144477735 | ${premio} | 530     | ${premio} | 90   | BOLETO   | 10  | 422    | PROPOSTA.BENEFICIARIOS.BENEFICIARIO                    |
      | 1980-01-01 | 11144477735 | ${premio} | 530     | ${premio} | 100  | BOLETO   | 11  | 422    | PROPOSTA.DADOS_COBRANCA.DIA_VENCIMENTO                 |
      | 1980-01-01 | 11144477735 | ${premio} | 530     | ${premio} | 100  | DEBITO   | 10  | 422    | PROPOSTA.DADOS_COBRANCA.CONTA_CORRENTE.BANCO           |
      | 1930-01-01 | 11144477735 | ${premio} | 530     | ${premio} | 100  | BOLETO   | 10  | 422    | PROPOSTA.PLANOS.PLANO.0.COBERTURAS.COBERTURA.0.VL_COBERTURA |
      | 1980-13-01 | 11144477735 | ${premio} | 530     | ${premio} | 100  | BOLETO   | 10  | 400    | PROPOSTA.DADOS_PROPONENTE.DT_NASCIMENTO                |
      | 1980-01-01 | 11144477735 | "dez"     | 530     | ${premio} | 100  | BOLETO   | 10  | 400    | PROPOSTA.PLANOS.VL_TOTAL                               |
      | 1980-01-01 | 11144477735 | ${premio} | 530     | ${premio} | 100  | PIX      | 10  | 400    | PROPOSTA.DADOS_COBRANCA.TIPO_COBRANCA                  |

  Scenario: A reserved number and an Idempotency-Key make a retry safe
    When I send "POST" to "/insurer/v1/proposals/EIS/next-number"
    Then the response status is 201
    And I remember the response field "proposalReservedNumber" as "reservado"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "${reservado}", "DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 201
    And the response field "Valor.numeroProposta" is "${reservado}"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "${reservado}", "DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 200
    And the response field "Valor.numeroProposta" is "${reservado}"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "999999", "DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "NUMERO_NAO_RESERVADO"
    Given I set the header "Idempotency-Key" to "venda-1"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 201
    And I remember the response field "Valor.numeroProposta" as "primeira"
    Given I set the header "Idempotency-Key" to "venda-1"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=EIS" with JSON:
      """
      {"PROPOSTA": {"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
        "PLANOS": {"PLANO": [{"CODIGO": 530, "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 7000}]}}]},
        "DADOS_COBRANCA": {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-1"}}}
      """
    Then the response status is 201
    And the response field "Valor.numeroProposta" is "${primeira}"

  Scenario: Bad signature-token requests and unknown proposals are refused clearly
    When I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "11144477736"}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "cpf"
    When I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "11144477735", "timeoutInMinutes": "999"}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "timeoutInMinutes"
    When I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "11144477735", "output": "Pombo"}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "output"
    When I send "GET" to "/insurer/v1/proposta/424242"
    Then the response status is 404
    And the response field "Mensagens.0.Codigo" is "PROPOSTA_NAO_ENCONTRADA"
    When I send "PUT" to "/insurer/v1/pendencia/9999" with JSON:
      """
      {"resposta": "x"}
      """
    Then the response status is 404

  Scenario: The forms widget's answers are typed by their question, named when wrong, and read back
    When I send "POST" to "/insurer/v1/proposals/YZ/next-number"
    Then the response status is 201
    And I remember the response field "proposalReservedNumber" as "reservado"
    When I send "PUT" to "/insurer/v1/proposta/${reservado}/questionario/901" with JSON:
      """
      {"respostas": [{"perguntaId": 1, "valor": "setenta"}, {"perguntaId": 99, "valor": true}]}
      """
    Then the response status is 422
    And the response field "HouveErrosDuranteProcessamento" is "true"
    And the response field "Mensagens.0.Codigo" is "RESPOSTAS_INVALIDAS"
    And the response body contains "respostas.0.valor"
    And the response body contains "respostas.1.perguntaId"
    And the response body contains "respostas[perguntaId=3]"
    When I send "GET" to "/insurer/v1/proposta/${reservado}/questionario/901"
    Then the response status is 200
    And the response field "Valor.situacao" is "NAO_RESPONDIDO"
    When I send "PUT" to "/insurer/v1/proposta/${reservado}/questionario/901" with JSON:
      """
      {"respostas": [{"perguntaId": 1, "valor": 72.5}, {"perguntaId": 2, "valor": 1.75}, {"perguntaId": 3, "valor": false},
        {"perguntaId": 5, "valor": false}, {"perguntaId": 7, "valor": false}, {"perguntaId": 8, "valor": 1}, {"perguntaId": 9, "valor": "2025-11-03"}]}
      """
    Then the response status is 200
    When I send "GET" to "/insurer/v1/proposta/${reservado}/questionario/901"
    Then the response field "Valor.situacao" is "RESPONDIDO"
    And the response field "Valor.modeloProposta" is "YZ"
    And the response field "Valor.respostas.5.descricaoOpcao" is "NENHUM"
    And the response field "Valor.respostas.6.valor" is "2025-11-03"
