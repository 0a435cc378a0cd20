Feature: Pix immediate charges (cob), locations, received Pix, refunds and webhooks per key
  The official API Pix 2.9.0 under /pix/v2. The demo app owns one key of
  each DICT type: 52998224725 (CPF), 11222333000181 (CNPJ),
  cobranca@demo.homologa.test, +5511999990001 and
  7d9f0335-8dcc-4054-9bf9-0dbd61d36906 (EVP). The clock is frozen at
  2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token

  Scenario: A charge created with PUT is read back complete, with a location and a BR Code
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"expiracao": 3600},
       "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"},
       "valor": {"original": "37.00", "modalidadeAlteracao": 1},
       "chave": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
       "solicitacaoPagador": "Serviço realizado.",
       "infoAdicionais": [{"nome": "Campo 1", "valor": "Informação Adicional1 do PSP-Recebedor"}]}
      """
    Then the response status is 201
    And the response is valid against schema "pix/cob"
    And the response field "status" is "ATIVA"
    And the response field "revisao" is "0"
    And the response field "calendario.criacao" is "2026-01-05T12:00:00.000Z"
    And the response field "loc.tipoCob" is "cob"
    And the response field "loc.txid" is "7978c0c97ea847e78e8849634473c1f1"
    And I remember the response field "location" as "location"
    And the response field "location" matches "^127\.0\.0\.1:[0-9]+/qr/v2/[0-9a-f]{32}$"
    And the response field "pixCopiaECola" is a BR Code for the location "${location}"
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1"
    Then the response status is 200
    And the response is valid against schema "pix/cob.completa"
    And the response field "devedor.nome" is "Empresa de Serviços SA"
    And the response field "infoAdicionais.0.nome" is "Campo 1"

  Scenario: The seed's POST /cob/{txid} behaves as PUT, and POST /cob chooses the txid
    When I send "POST" to "/pix/v2/cob/a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    And the response field "calendario.expiracao" is "86400"
    When I send "POST" to "/pix/v2/cob" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    And the response is valid against schema "pix/cob"
    And the response field "txid" matches "^[a-zA-Z0-9]{26,35}$"

  Scenario Outline: A bad charge is refused with CobOperacaoInvalida naming the property
    When I send "PUT" to "/pix/v2/cob/<txid>" with JSON:
      """
      <body>
      """
    Then the response status is 400
    And the response is valid against schema "pix/problema"
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida"
    And the response field "violacoes.0.propriedade" is "<property>"

    Examples:
      | txid                                  | body                                                                                                 | property                  |
      | short                                 | {"valor": {"original": "1.00"}, "chave": "52998224725"}                                              | cob.txid                  |
      | 7978c0c97ea847e78e8849634473c1f1abcde | {"valor": {"original": "1.00"}, "chave": "52998224725"}                                              | cob.txid                  |
      | 7978c0c97ea847e78e8849634473c1f1      | {"calendario": {"expiracao": 0}, "valor": {"original": "1.00"}, "chave": "52998224725"}              | cob.calendario.expiracao  |
      | 7978c0c97ea847e78e8849634473c1f1      | {"valor": {"original": "0.00"}, "chave": "52998224725"}                                              | cob.valor.original        |
      | 7978c0c97ea847e78e8849634473c1f1      | {"valor": {"original": "1.0"}, "chave": "52998224725"}                                               | cob.valor.original        |
      | 7978c0c97ea847e78e8849634473c1f1      | {"valor": {"original": "1.00"}, "chave": "+5511988887777"}                                           | cob.chave                 |
      | 7978c0c97ea847e78e8849634473c1f1      | {"valor": {"original": "1.00"}, "chave": "52998224725", "devedor": {"cpf": "12345678900", "nome": "X"}} | cob.devedor.cpf         |
      | 7978c0c97ea847e78e8849634473c1f1      | {"valor": {"original": "1.00"}}                                                                      | cob.chave                 |

  Scenario: A member the spec does not declare is ignored, never echoed back, and a finding of the request in the log
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "1.00"}, "chave": "52998224725", "vencimento": "2026-01-01"}
      """
    Then the response status is 201
    And the response field "vencimento" does not exist
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1"
    Then the response field "vencimento" does not exist
    When I send "GET" to "/sandbox/interactions?method=PUT&path=/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1"
    Then the response field "interactions.0.findings.0.kind" is "unknown-member"
    And the response field "interactions.0.findings.0.field" is "vencimento"

  Scenario: Malformed JSON is a RequisicaoInvalida
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with a body of type "application/json":
      """
      {"valor": {"original": "1.00"},
      """
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida"

  Scenario: revisao counts changes but not a change of location, and old revisions stay readable
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    Then the response field "revisao" is "0"
    When I send "PATCH" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "12.50"}, "solicitacaoPagador": "Novo valor"}
      """
    Then the response status is 200
    And the response is valid against schema "pix/cob"
    And the response field "revisao" is "1"
    When I send "POST" to "/pix/v2/loc" with JSON:
      """
      {"tipoCob": "cob"}
      """
    Then the response status is 201
    And the response is valid against schema "pix/loc"
    And I remember the response field "id" as "loc"
    When I send "PATCH" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"loc": {"id": ${loc}}}
      """
    Then the response field "revisao" is "1"
    And the response field "loc.id" is "${loc}"
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "15.00"}, "chave": "52998224725", "loc": {"id": ${loc}}}
      """
    Then the response status is 201
    And the response field "revisao" is "2"
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1?revisao=0"
    Then the response status is 200
    And the response field "valor.original" is "10.00"
    And the response field "revisao" is "0"
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1?revisao=1"
    Then the response field "valor.original" is "12.50"
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1?revisao=3"
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida"

  Scenario: Location rules: tipoCob must match, one charge per location, unlink
    When I send "POST" to "/pix/v2/loc" with JSON:
      """
      {"tipoCob": "cobv"}
      """
    Then the response header "Location" matches the response field "location"
    And I remember the response field "id" as "cobvLoc"
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725", "loc": {"id": ${cobvLoc}}}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "cob.loc.id"
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    And I remember the response field "loc.id" as "loc"
    And I send "PUT" to "/pix/v2/cob/8978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725", "loc": {"id": ${loc}}}
      """
    Then the response status is 400
    And the response body contains "em uso"
    When I send "PUT" to "/pix/v2/cob/9978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725", "loc": {"id": 999999}}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "cob.loc.id"
    When I send "GET" to "/pix/v2/loc/${loc}"
    Then the response field "txid" is "7978c0c97ea847e78e8849634473c1f1"
    When I send "DELETE" to "/pix/v2/loc/${loc}/txid"
    Then the response status is 200
    And the response field "txid" does not exist
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1"
    Then the response field "status" is "ATIVA"
    And the response field "location" does not exist
    When I send "GET" to "/pix/v2/loc/424242"
    Then the response status is 404
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/PayloadLocationNaoEncontrado"
    When I send "GET" to "/pix/v2/loc?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T00:00:00Z&tipoCob=cobv"
    Then the response is valid against schema "pix/loc.list"
    And the response field "loc" has 1 item

  Scenario: A removed charge is final
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    And I send "PATCH" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR", "valor": {"original": "11.00"}}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "cob.status"
    When I send "PATCH" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}
      """
    Then the response status is 200
    And the response field "status" is "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    And the response field "revisao" is "1"
    When I send "PATCH" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"solicitacaoPagador": "again"}
      """
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida"
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    Then the response status is 400
    When I send "PATCH" to "/pix/v2/cob/0000c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}
      """
    Then the response status is 404
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado"

  Scenario: A paid charge is notified on the key's webhook, signed, and reconciles
    Given a webhook receiver answering 200
    When I send "PUT" to "/pix/v2/webhook/52998224725" with JSON:
      """
      {"webhookUrl": "${receiverUrl}/hooks"}
      """
    Then the response status is 200
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "123.45"}, "chave": "52998224725", "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1", "pagador": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "infoPagador": "pedido 42"}
      """
    Then the response status is 201
    And the response is valid against schema "pix/pix"
    And the response field "endToEndId" matches "^E99999009202601051200[a-zA-Z0-9]{11}$"
    And I remember the response field "endToEndId" as "e2e"
    And the receiver gets a Pix callback within 5 seconds
    And the event's signature is valid
    And the event field "pix.0.endToEndId" is "${e2e}"
    And the event field "pix.0.txid" is "7978c0c97ea847e78e8849634473c1f1"
    And the event field "pix.0.valor" is "123.45"
    And the event field "pix.0.infoPagador" is "pedido 42"
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1"
    Then the response is valid against schema "pix/cob.completa"
    And the response field "status" is "CONCLUIDA"
    And the response field "pix.0.endToEndId" is "${e2e}"
    When I send "GET" to "/pix/v2/pix/${e2e}"
    Then the response status is 200
    And the response field "componentesValor.original.valor" is "123.45"
    When I send "GET" to "/pix/v2/pix?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&cpf=12345678909"
    Then the response is valid against schema "pix/pix.list"
    And the response field "pix" has 1 item
    When I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1"}
      """
    Then the response status is 422
    And the response body contains "CONCLUIDA"

  Scenario: An expired charge cannot be paid, and a wrong amount only on purpose
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"expiracao": 60}, "valor": {"original": "50.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1", "valor": "49.99"}
      """
    Then the response status is 422
    And the response body contains "valorDivergente"
    When I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1", "valor": "49.99", "valorDivergente": true}
      """
    Then the response status is 201
    And the response field "valor" is "49.99"
    When I send "PUT" to "/pix/v2/cob/8978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"expiracao": 60}, "valor": {"original": "50.00"}, "chave": "52998224725"}
      """
    And I advance the clock by "61s"
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "8978c0c97ea847e78e8849634473c1f1"}
      """
    Then the response status is 422
    And the response body contains "expirou"
    When I send "GET" to "/pix/v2/cob/8978c0c97ea847e78e8849634473c1f1"
    Then the response field "status" is "ATIVA"

  Scenario: A Pix without txid is listed but not notified
    Given a webhook receiver answering 200
    When I send "PUT" to "/pix/v2/webhook/52998224725" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"chave": "52998224725", "valor": "15.00"}
      """
    Then the response status is 201
    And the response field "txid" does not exist
    When I send "GET" to "/pix/v2/pix?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&txIdPresente=false"
    Then the response field "pix" has 1 item
    When I send "GET" to "/pix/v2/pix?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&txIdPresente=true"
    Then the response field "pix" has 0 items
    And the receiver has received 0 requests

  Scenario: Lists require inicio and fim and page with the literal paginacao parameters
    When I send "PUT" to "/pix/v2/cob/a0000000000000000000000000000001" with JSON:
      """
      {"valor": {"original": "1.00"}, "chave": "52998224725", "devedor": {"cpf": "12345678909", "nome": "A"}}
      """
    And I send "PUT" to "/pix/v2/cob/a0000000000000000000000000000002" with JSON:
      """
      {"valor": {"original": "2.00"}, "chave": "52998224725"}
      """
    And I send "PUT" to "/pix/v2/cob/a0000000000000000000000000000003" with JSON:
      """
      {"valor": {"original": "3.00"}, "chave": "52998224725"}
      """
    And I send "GET" to "/pix/v2/cob?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&paginacao.itensPorPagina=2"
    Then the response status is 200
    And the response is valid against schema "pix/cob.list"
    And the response field "cobs" has 2 items
    And the response field "parametros.paginacao.quantidadeDePaginas" is "2"
    And the response field "parametros.paginacao.quantidadeTotalDeItens" is "3"
    When I send "GET" to "/pix/v2/cob?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&paginacao.itensPorPagina=2&paginacao.paginaAtual=1"
    Then the response field "cobs" has 1 item
    And the response field "cobs.0.txid" is "a0000000000000000000000000000003"
    When I send "GET" to "/pix/v2/cob?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&cpf=12345678909"
    Then the response field "cobs" has 1 item
    When I send "GET" to "/pix/v2/cob?inicio=2026-01-06T00:00:00Z&fim=2026-01-07T00:00:00Z"
    Then the response field "cobs" has 0 items
    And the response field "parametros.paginacao.quantidadeDePaginas" is "1"

  Scenario Outline: A bad list query is a ConsultaInvalida naming the parameter
    When I send "GET" to "<path>"
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/<type>"
    And the response field "violacoes.0.propriedade" is "<param>"

    Examples:
      | path                                                                                                | type                | param                     |
      | /pix/v2/cob?fim=2026-01-06T00:00:00Z                                                                | CobConsultaInvalida | inicio                    |
      | /pix/v2/cob?inicio=2026-01-06T00:00:00Z&fim=2026-01-05T00:00:00Z                                    | CobConsultaInvalida | fim                       |
      | /pix/v2/cob?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&cpf=12345678909&cnpj=12345678000195 | CobConsultaInvalida | cnpj                      |
      | /pix/v2/cob?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&paginacao.itensPorPagina=0         | CobConsultaInvalida | paginacao.itensPorPagina  |
      | /pix/v2/cob?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&paginacao.paginaAtual=-1           | CobConsultaInvalida | paginacao.paginaAtual     |
      | /pix/v2/cob?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&status=PAGA                        | CobConsultaInvalida | status                    |
      | /pix/v2/pix?inicio=ontem&fim=2026-01-06T00:00:00Z                                                   | PixConsultaInvalida | inicio                    |

  Scenario: Refunds settle after a short delay and are notified; their limits hold
    Given a webhook receiver answering 200
    When I send "PUT" to "/pix/v2/webhook/52998224725" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    And I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "100.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1"}
      """
    And I remember the response field "endToEndId" as "e2e"
    And I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D1" with JSON:
      """
      {"valor": "60.00", "descricao": "Devolução parcial"}
      """
    Then the response status is 201
    And the response is valid against schema "pix/devolucao"
    And the response field "status" is "EM_PROCESSAMENTO"
    And the response field "natureza" is "ORIGINAL"
    And the response field "rtrId" matches "^D99999008202601051200[a-zA-Z0-9]{11}$"
    When I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D1" with JSON:
      """
      {"valor": "1.00"}
      """
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida"
    When I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D2" with JSON:
      """
      {"valor": "40.01"}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "valor"
    When I advance the clock by "5s"
    Then the receiver gets 2 Pix callbacks within 5 seconds
    And the event field "pix.0.devolucoes.0.status" is "DEVOLVIDO"
    When I send "GET" to "/pix/v2/pix/${e2e}/devolucao/D1"
    Then the response field "status" is "DEVOLVIDO"
    And the response field "horario.liquidacao" is "2026-01-05T12:00:05.000Z"
    When I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D2" with JSON:
      """
      {"valor": "40.00"}
      """
    Then the response status is 201
    When I send "POST" to "/sandbox/pix/refunds/${e2e}/D2" with JSON:
      """
      {"status": "NAO_REALIZADO", "motivo": "Conta do pagador encerrada"}
      """
    Then the response status is 200
    And the response field "status" is "NAO_REALIZADO"
    And the receiver gets 3 Pix callbacks within 5 seconds
    And the event field "pix.0.devolucoes.1.motivo" is "Conta do pagador encerrada"
    When I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D3" with JSON:
      """
      {"valor": "40.00"}
      """
    Then the response status is 201
    When I send "PUT" to "/pix/v2/pix/E00000000202601051200aaaaaaaaaaa/devolucao/D1" with JSON:
      """
      {"valor": "1.00"}
      """
    Then the response status is 404
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/NaoEncontrado"

  Scenario: A refund after 90 days is refused
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "100.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1"}
      """
    And I remember the response field "endToEndId" as "e2e"
    And I advance the clock by "91d"
    And I obtain a token
    And I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D1" with JSON:
      """
      {"valor": "1.00"}
      """
    Then the response status is 400
    And the response body contains "90 dias"

  Scenario: Webhooks per key are registered, read, listed and removed
    Given a webhook receiver answering 200
    When I send "PUT" to "/pix/v2/webhook/cobranca@demo.homologa.test" with JSON:
      """
      {"webhookUrl": "${receiverUrl}/pix-hooks"}
      """
    Then the response status is 200
    When I send "GET" to "/pix/v2/webhook/cobranca@demo.homologa.test"
    Then the response is valid against schema "pix/webhook"
    And the response field "chave" is "cobranca@demo.homologa.test"
    And the response field "cnpj" is "11222333000181"
    When I send "GET" to "/pix/v2/webhook"
    Then the response is valid against schema "pix/webhook.list"
    And the response field "webhooks" has 1 item
    When I send "DELETE" to "/pix/v2/webhook/cobranca@demo.homologa.test"
    Then the response status is 204
    When I send "GET" to "/pix/v2/webhook/cobranca@demo.homologa.test"
    Then the response status is 404
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/WebhookNaoEncontrado"
    When I send "PUT" to "/pix/v2/webhook/+5511988887777" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida"
    And the response field "violacoes.0.propriedade" is "chave"
    When I send "PUT" to "/pix/v2/webhook/52998224725" with JSON:
      """
      {"webhookUrl": "https://10.0.0.1/hooks"}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "webhookUrl"

  Scenario: The location serves the charge's payload as a JWS signed with a published key
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    And I remember the response field "location" as "location"
    And I send "GET" to "http://${location}"
    Then the response status is 200
    And the response is a JWS signed with the sandbox's published key
    And the response is valid against schema "pix/cob.payload"
    And the response field "txid" is "7978c0c97ea847e78e8849634473c1f1"
    And the response field "calendario.apresentacao" is "2026-01-05T12:00:00.000Z"
    When I send "PATCH" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}
      """
    And I send "GET" to "http://${location}"
    Then the response status is 410
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobPayloadNaoEncontrado"

  Scenario: Scopes and tenants are enforced
    Given I obtain a token with scope "cob.read"
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    Then the response status is 403
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/AcessoNegado"
    Given I obtain a token
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "backend"
    And I obtain a token
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1"
    Then the response status is 404
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "cob.chave"

  Scenario: A receiver that was down gets the /pix callback again, from the delivery log
    Given a webhook receiver answering 503
    When I send "PUT" to "/pix/v2/webhook/52998224725" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    And I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1"}
      """
    Then the receiver gets a Pix callback within 5 seconds
    When the receiver starts answering 200
    And I advance the clock by "1m"
    Then the receiver gets 2 Pix callbacks within 5 seconds
    And the event's signature is valid
    And the event field "pix.0.txid" is "7978c0c97ea847e78e8849634473c1f1"
    When I send "GET" to "/sandbox/deliveries?type=pix.recebido"
    Then the response field "deliveries.0.status" is "delivered"
    And the response field "deliveries.0.attempts" has 2 items
    And the response field "deliveries.0.url" is "${receiverUrl}/pix"

  Scenario: Keys added in the portal can receive charges; keys must be DICT keys, one app's in a company
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "backend"
    When I send "POST" to "/portal/apps/${app.id}/pix-keys" with JSON:
      """
      {"chave": "11444777000161"}
      """
    Then the response status is 201
    And the response field "tipo" is "CNPJ"
    When I send "POST" to "/portal/apps/${app.id}/pix-keys" with JSON:
      """
      {"chave": "not a key"}
      """
    Then the response status is 400
    And the response field "errors.0.field" is "chave"
    # A key the demo company holds is another company's world: nobody's
    # key is kept from its owner by whoever registered it first.
    When I send "POST" to "/portal/apps/${app.id}/pix-keys" with JSON:
      """
      {"chave": "52998224725"}
      """
    Then the response status is 201
    # Within one company, a key belongs to one app.
    When I send "POST" to "/portal/apps" with JSON:
      """
      {"companyId": "${company.id}", "name": "outro"}
      """
    Then the response status is 201
    And I remember the response field "id" as "outro"
    When I send "POST" to "/portal/apps/${outro}/pix-keys" with JSON:
      """
      {"chave": "11444777000161"}
      """
    Then the response status is 409
    When I send "GET" to "/portal/apps/${app.id}/pix-keys"
    Then the response field "chaves" has 2 items
    When I obtain a token
    And I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "11444777000161"}
      """
    Then the response status is 201

  Scenario: A Pix Saque refunds its purchase and its withdrawal separately
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "0.00", "retirada": {"saque": {"valor": "50.00", "modalidadeAgente": "AGPSS", "prestadorDoServicoDeSaque": "12345678"}}},
       "chave": "52998224725"}
      """
    Then the response status is 201
    When I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1"}
      """
    Then the response field "valor" is "50.00"
    And the response field "componentesValor.saque.valor" is "50.00"
    And I remember the response field "endToEndId" as "e2e"
    When I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D1" with JSON:
      """
      {"valor": "1.00", "natureza": "ORIGINAL"}
      """
    Then the response status is 400
    When I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D2" with JSON:
      """
      {"valor": "50.00", "natureza": "RETIRADA"}
      """
    Then the response status is 201
    And the response field "natureza" is "RETIRADA"
