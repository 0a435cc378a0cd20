Feature: Every company its own world
  Companies share one sandbox and never each other's time or data. Each
  scenario here runs as the demo company's copy (company A); it registers
  a second company (B) beside it. A freezes its clock and moves a year
  ahead; B stays on the sandbox's real clock.

  Scenario: A moves a year: its proposal implants, its charges bill; B does not move, and neither sees the other's
    # Company B: an app of its own, a Pix key, a charge, on the real clock.
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "backend"
    And I send "POST" to "/portal/apps/${app.id}/pix-keys" with JSON:
      """
      {"chave": "11444777000161"}
      """
    And I obtain a token
    And I remember the response field "access_token" as "tokenB"
    When I send "GET" to "/sandbox/clock"
    Then the response field "own" is "false"
    And the response field "scope" is "company"
    When I send "PUT" to "/pix/v2/cob/tenancybtenancybtenancybtena01" with JSON:
      """
      {"calendario": {"expiracao": 3600}, "valor": {"original": "10.00"}, "chave": "11444777000161"}
      """
    Then the response status is 201

    # Company A: the demo copy, frozen, with an implanted enrollment and a charge.
    When I act as the demo app
    And my clock is frozen at "2026-01-05T12:00:00Z"
    And a webhook receiver answering 200
    And the app's webhook points to the receiver
    And I obtain a token
    And I remember the response field "access_token" as "tokenA"
    And an implanted enrollment of offer "EIS" for the CPF "11144477735"
    And I send "PUT" to "/pix/v2/cob/tenancyatenancyatenancyatena01" with JSON:
      """
      {"calendario": {"expiracao": 3600}, "valor": {"original": "20.00"}, "chave": "52998224725"}
      """
    When I advance the clock by "365d"
    Then the receiver gets a "cobranca.emitida" event whose "data.parcela" is "12" within 10 seconds
    And the receiver gets a "inscricao.valor_pago_alterado" event within 10 seconds
    # The token A held before the year still works: credentials live on
    # the wall clock. A's tokens end when A ends them, B's stay.
    When I use the token "${tokenA}"
    And I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response status is 200
    When the access tokens of my company expire
    And I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response status is 401
    When I obtain a token
    And I send "GET" to "/sandbox/clock"
    Then the response field "now" is "2027-01-05T13:07:00Z"
    When I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response field "Valor.status" is "IMPLANTADA"
    When I send "GET" to "/customer/v1/inscricao/${inscricao}/cobrancas"
    Then the response field "Valor" has 13 items

    # B's clock, token and charge did not move; B sees nothing of A's.
    When I use the token "${tokenB}"
    And I send "GET" to "/sandbox/clock"
    Then the response field "own" is "false"
    And the response field "now" matches "^2026-"
    When I send "GET" to "/pix/v2/cob/tenancybtenancybtenancybtena01"
    Then the response status is 200
    And the response field "status" is "ATIVA"
    When I send "GET" to "/sandbox/events?limit=1000"
    Then the response body contains "tenancybtenancybtenancybtena01"
    And the response body does not contain "tenancyatenancyatenancyatena01"
    And the response body does not contain "cobranca.emitida"
    When I send "GET" to "/sandbox/deliveries?limit=1000"
    Then the response body does not contain "cobranca"
    When I send "GET" to "/pix/v2/cob/tenancyatenancyatenancyatena01"
    Then the response status is 404

    # And A sees nothing of B's.
    When I act as the demo app
    And I obtain a token
    And I send "GET" to "/sandbox/events?limit=1000"
    Then the response body does not contain "tenancybtenancybtenancybtena01"
    When I send "GET" to "/pix/v2/cob/tenancybtenancybtenancybtena01"
    Then the response status is 404
