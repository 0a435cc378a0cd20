# Written by a QA engineer from the step reference alone (issue 14 trial).
Feature: A due-date Pix charge (cobv) paid late owes its fine and interest

  The clock is frozen on Monday 2026-03-02 at noon in Brasília; the charge
  falls due on Thursday 2026-03-05 (no holiday), is worth 100.00, and carries
  a 2 % fine (multa modalidade 2) and interest.
  Interest is simple (docs/reference/pix.md, "Due-date charges"): per month = rate/30 per
  calendar day; in business days, rate/21 per business day.

  Background:
    Given my clock is frozen at "2026-03-02T15:00:00Z"
    And I obtain a token

  Scenario: paid 11 calendar days late, interest in percent a month over calendar days
    # 2026-03-16 is a Monday: 11 days after the due date.
    # multa = 2 % of 100.00 = 2.00; juros = 100.00 x 3 %/30 x 11 = 1.10; total 103.10
    When I send "PUT" to "/pix/v2/cobv/qaCobvAtrasoCorridos0000000001" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-03-05", "validadeAposVencimento": 30},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "100.00",
                 "multa": {"modalidade": 2, "valorPerc": "2.00"},
                 "juros": {"modalidade": 3, "valorPerc": "3.00"}},
       "chave": "52998224725"}
      """
    Then the response status is 201
    And the response field "status" is "ATIVA"
    And the response field "valor.original" is "100.00"
    When I advance the clock by "14d"
    And I obtain a token
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "qaCobvAtrasoCorridos0000000001"}
      """
    Then the response status is 201
    And the response field "txid" is "qaCobvAtrasoCorridos0000000001"
    And the response field "valor" is "103.10"
    And I remember the response field "endToEndId" as "e2e"
    When I send "GET" to "/pix/v2/pix/${e2e}"
    Then the response status is 200
    And the response field "valor" is "103.10"
    When I send "GET" to "/pix/v2/cobv/qaCobvAtrasoCorridos0000000001"
    Then the response status is 200
    And the response field "status" is "CONCLUIDA"
    And the response field "pix.0.valor" is "103.10"

  Scenario: the payload shows the amount owed, in business days
    # 2026-03-16 (Monday) is 7 business days after Thursday 2026-03-05
    # (6, 9, 10, 11, 12, 13, 16 March; no national holiday).
    # multa = 2.00; juros = 100.00 x 2.10 %/21 x 7 = 0.70; total 102.70
    When I send "PUT" to "/pix/v2/cobv/qaCobvAtrasoUteis000000000001" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-03-05", "validadeAposVencimento": 30},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "100.00",
                 "multa": {"modalidade": 2, "valorPerc": "2.00"},
                 "juros": {"modalidade": 7, "valorPerc": "2.10"}},
       "chave": "52998224725"}
      """
    Then the response status is 201
    And I remember the response field "location" as "location"
    When I advance the clock by "14d"
    And I obtain a token
    And I send "GET" to "http://${location}"
    Then the response status is 200
    And the response is a JWS signed with the sandbox's published key
    And the response field "valor.original" is "100.00"
    And the response field "valor.multa" is "2.00"
    And the response field "valor.juros" is "0.70"
    And the response field "valor.final" is "102.70"
    When I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "qaCobvAtrasoUteis000000000001"}
      """
    Then the response status is 201
    And the response field "valor" is "102.70"

  Scenario: past its validity after the due date the charge can no longer be paid
    When I send "PUT" to "/pix/v2/cobv/qaCobvExpirada00000000000001" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-03-05", "validadeAposVencimento": 5},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "100.00", "multa": {"modalidade": 2, "valorPerc": "2.00"}},
       "chave": "52998224725"}
      """
    Then the response status is 201
    When I advance the clock by "14d"
    And I obtain a token
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "qaCobvExpirada00000000000001"}
      """
    Then the response status is 422

  Scenario Outline: a due date on a non-business day moves to the next business day, without fine or interest
    # <why>: the due date <vencimento> moves to <pago> (docs/reference/pix.md: "the due date
    # moved past weekends and national bank holidays (… Good Friday …)").
    When I send "PUT" to "/pix/v2/cobv/<txid>" with JSON:
      """
      {"calendario": {"dataDeVencimento": "<vencimento>", "validadeAposVencimento": 30},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "100.00",
                 "multa": {"modalidade": 2, "valorPerc": "2.00"},
                 "juros": {"modalidade": 3, "valorPerc": "3.00"}},
       "chave": "52998224725"}
      """
    Then the response status is 201
    When I advance the clock by "<avanco>"
    And I obtain a token
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "<txid>"}
      """
    Then the response status is 201
    And the response field "valor" is "<valor>"

    Examples:
      | why                          | txid                          | vencimento | avanco | pago       | valor  |
      | Saturday, paid on Monday     | qaCobvSabado00000000000000001 | 2026-03-07 | 7d     | 2026-03-09 | 100.00 |
      | Good Friday, paid on Monday  | qaCobvSextaSanta0000000000001 | 2026-04-03 | 35d    | 2026-04-06 | 100.00 |
