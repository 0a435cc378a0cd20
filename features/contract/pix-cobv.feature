Feature: Pix due-date charges (cobv): what is owed early, on time, late and after a holiday
  The clock is frozen at 2026-01-05T12:00:00Z (a Monday). Payment dates are
  dates in Brasília (UTC−3). The charge below is 100.00, due 2026-01-20,
  with a 2 % fine (multa modalidade 2), 1 % a month of interest counted in
  calendar days (juros modalidade 3) and a 5.00 discount until 2026-01-15
  (desconto modalidade 1).

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    And a webhook receiver answering 200
    When I send "PUT" to "/pix/v2/webhook/52998224725" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """

  Scenario: A due-date charge is created with its receiver and a cobv location
    When I send "PUT" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-01-20", "validadeAposVencimento": 30},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "100.00", "multa": {"modalidade": 2, "valorPerc": "2.00"},
                 "juros": {"modalidade": 3, "valorPerc": "1.00"},
                 "desconto": {"modalidade": 1, "descontoDataFixa": [{"data": "2026-01-15", "valorPerc": "5.00"}]}},
       "chave": "52998224725"}
      """
    Then the response status is 201
    And the response is valid against schema "pix/cobv"
    And the response field "recebedor.cnpj" is "11222333000181"
    And the response field "loc.tipoCob" is "cobv"
    And the response field "location" matches "/qr/v2/cobv/[0-9a-f]{32}$"
    When I send "GET" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1"
    Then the response is valid against schema "pix/cobv.completa"
    When I send "GET" to "/pix/v2/cobv?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z"
    Then the response is valid against schema "pix/cobv.list"
    And the response field "cobs" has 1 item
    When I send "GET" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1"
    Then the response status is 404
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"valor": {"original": "1.00"}, "chave": "52998224725"}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "cob.txid"
    When I send "PATCH" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-01-22", "validadeAposVencimento": 30},
       "solicitacaoPagador": "Mensalidade de janeiro"}
      """
    Then the response status is 200
    And the response field "calendario.dataDeVencimento" is "2026-01-22"
    And the response field "solicitacaoPagador" is "Mensalidade de janeiro"

  Scenario Outline: The amount depends on the payment date
    When I send "PUT" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-01-20"},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "100.00", "multa": {"modalidade": 2, "valorPerc": "2.00"},
                 "juros": {"modalidade": 3, "valorPerc": "1.00"},
                 "desconto": {"modalidade": 1, "descontoDataFixa": [{"data": "2026-01-15", "valorPerc": "5.00"}]}},
       "chave": "52998224725"}
      """
    And the sandbox clock is at "<paid at>"
    And I obtain a token
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1"}
      """
    Then the response status is 201
    And the response field "valor" is "<valor>"
    And the response field "componentesValor.original.valor" is "100.00"
    And the response field "componentesValor.<component>.valor" is "<component value>"
    And the receiver gets a Pix callback within 5 seconds
    And the event field "pix.0.valor" is "<valor>"

    Examples:
      | paid at              | valor  | component | component value |
      | 2026-01-10T15:00:00Z | 95.00  | desconto  | 5.00            |
      | 2026-01-15T23:00:00Z | 95.00  | desconto  | 5.00            |
      | 2026-01-20T15:00:00Z | 100.00 | original  | 100.00          |
      | 2026-01-22T15:00:00Z | 102.07 | multa     | 2.00            |
      | 2026-01-22T15:00:00Z | 102.07 | juros     | 0.07            |
      | 2026-02-19T15:00:00Z | 103.00 | juros     | 1.00            |

  Scenario Outline: A due date on Carnival Monday moves to Wednesday, and so do fine and interest
    When I send "PUT" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-02-16", "validadeAposVencimento": 0},
       "devedor": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"},
       "valor": {"original": "100.00", "multa": {"modalidade": 2, "valorPerc": "2.00"},
                 "juros": {"modalidade": 3, "valorPerc": "1.00"}},
       "chave": "52998224725"}
      """
    And the sandbox clock is at "<paid at>"
    And I obtain a token
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f1"}
      """
    Then the response status is <status>
    And the response body contains "<text>"

    Examples:
      | paid at              | status | text                     |
      | 2026-02-16T15:00:00Z | 201    | 100.00                   |
      | 2026-02-18T15:00:00Z | 201    | 100.00                   |
      | 2026-02-19T15:00:00Z | 422    | paga até 2026-02-18      |

  Scenario: The payload computes the amount for the payment date it is asked for
    When I send "PUT" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-01-20"},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "100.00", "multa": {"modalidade": 2, "valorPerc": "2.00"},
                 "juros": {"modalidade": 3, "valorPerc": "1.00"}},
       "chave": "52998224725"}
      """
    And I remember the response field "location" as "location"
    And I send "GET" to "http://${location}?codMun=3550308&DPP=2026-01-22"
    Then the response status is 200
    And the response is a JWS signed with the sandbox's published key
    And the response is valid against schema "pix/cobv.payload"
    And the response field "valor.final" is "102.07"
    And the response field "valor.multa" is "2.00"
    And the response field "valor.juros" is "0.07"
    When I send "GET" to "http://${location}?DPP=2026-01-04"
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobPayloadOperacaoInvalida"
    And the response field "violacoes.0.propriedade" is "DPP"
    When I send "GET" to "http://${location}?codMun=123"
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "codMun"
    When I send "GET" to "http://${location}?DPP=2026-03-31"
    Then the response status is 400
    And the response body contains "2026-02-19"

  Scenario Outline: A bad due-date charge is refused with CobVOperacaoInvalida naming the property
    When I send "PUT" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"dataDeVencimento": "<due>", "validadeAposVencimento": <validity>},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "100.00"<extra>},
       "chave": "52998224725"}
      """
    Then the response status is 400
    And the response is valid against schema "pix/problema"
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida"
    And the response field "violacoes.0.propriedade" is "<property>"

    Examples:
      | due        | validity | extra                                                                                     | property                               |
      | 2026-01-04 | 30       |                                                                                           | cobv.calendario.dataDeVencimento       |
      | 2026-01-20 | -1       |                                                                                           | cobv.calendario.validadeAposVencimento |
      | 2026-01-20 | 30       | , "abatimento": {"modalidade": 1, "valorPerc": "100.00"}                                  | cobv.valor.abatimento.valorPerc        |
      | 2026-01-20 | 30       | , "desconto": {"modalidade": 1, "descontoDataFixa": [{"data": "2026-01-25", "valorPerc": "1.00"}]} | cobv.valor.desconto.descontoDataFixa.0.data |
      | 2026-01-20 | 30       | , "desconto": {"modalidade": 1, "valorPerc": "1.00"}                                      | cobv.valor.desconto.descontoDataFixa   |
      | 2026-01-20 | 30       | , "juros": {"modalidade": 9, "valorPerc": "1.00"}                                         | cobv.valor.juros.modalidade            |
      | 20-01-2026 | 30       |                                                                                           | cobv.calendario.dataDeVencimento       |
