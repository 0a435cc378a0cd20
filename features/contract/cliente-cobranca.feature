Feature: Customer cycle: charges, commissions, suspension and a year of time travel
  After implantation each enrollment is charged every period on the sandbox
  clock, by the charge's scenario: by default paid on time (RECEBIDA at noon
  of the due date, PAGA the next day), which issues the partner's
  commission, paid in the next month's batch. Magic CPFs: 666.777.888-30's
  charges are refused, 777.888.999-41's are paid ten days late. The clock
  is frozen at 2026-01-05T12:00:00Z; the default analysis implants at
  13:07, and the first charge, issued then, is due on 2026-02-10.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And a webhook receiver answering 200
    And the app's webhook points to the receiver

  Scenario: A charge is issued, received, paid; the commission is issued and paid in the monthly batch
    Given an implanted enrollment of offer "YZ" for the CPF "11144477735"
    Then the receiver gets a "cobranca.emitida" event within 5 seconds
    And the event's signature is valid
    And the event field "subject.inscricaoId" is "${inscricao}"
    And the event field "data.parcela" is "1"
    And the event field "data.dataVencimento" is "2026-02-10"
    And the event field "data.formaCobranca" is "BOLETO"
    And I remember the event field "subject.cobrancaId" as "cobranca"
    And I remember the event field "data.valor" as "valor"
    When I advance the clock by "38d"
    Then the receiver gets a "cobranca.recebida" event whose "subject.cobrancaId" is "${cobranca}" within 5 seconds
    And the receiver gets a "cobranca.paga" event whose "subject.cobrancaId" is "${cobranca}" within 5 seconds
    And the event field "data.valorPago" is "${valor}"
    And the receiver gets a "comissao.emitida" event within 5 seconds
    And the event field "data.percentual" is "25"
    And the receiver gets no "comissao.paga" event within 1 second
    When I advance the clock by "18d"
    Then the receiver gets a "comissao.paga" event within 5 seconds
    And the event field "data.lote" is "2026-03"
    When I obtain a token
    And I send "GET" to "/customer/v1/inscricao/${inscricao}/cobrancas"
    Then the response status is 200
    And the response field "Valor.0.status" is "PAGA"
    And the response field "Valor.1.status" is "EMITIDA"
    And the response field "Valor.1.dataVencimento" is "2026-03-10"
    When I send "GET" to "/customer/v1/cobranca/${cobranca}"
    Then the response field "Valor.status" is "PAGA"
    When I send "GET" to "/customer/v1/comissao?inscricaoId=${inscricao}"
    Then the response field "Valor.0.status" is "PAGA"
    When I send "GET" to "/customer/v1/regracomissao?codigoModeloProposta=YZ"
    Then the response field "Valor.comissionamentos.0.percentual" is "25"

  Scenario: Refused charges suspend the enrollment, and the grace period cancels it
    Given an implanted enrollment of offer "EIS" for the CPF "66677788830"
    When I advance the clock by "37d"
    Then the receiver gets a "cobranca.recusada" event within 5 seconds
    And the event field "data.motivoRecusa" is "SALDO_INSUFICIENTE"
    And the event field "data.descricaoRecusa" is "Conta sem saldo na data do débito"
    When I obtain a token
    And I send "GET" to "/customer/v1/inscricao/${inscricao}"
    Then the response field "Valor.status" is "SUSPENSA"
    When I advance the clock by "61d"
    Then the receiver gets a "inscricao.valor_pago_alterado" event within 5 seconds
    And the event field "data.motivo" is "INADIMPLENCIA"
    And the event field "data.valorNovo" is "0"
    When I obtain a token
    And I send "GET" to "/customer/v1/inscricao/${inscricao}"
    Then the response field "Valor.status" is "CANCELADA"
    When I send "GET" to "/customer/v1/inscricao/${inscricao}/cobrancas?status=EMITIDA"
    Then the response field "Valor" has 0 items

  Scenario: A late payment lifts the suspension
    Given an implanted enrollment of offer "EIS" for the CPF "77788899941"
    When I advance the clock by "37d"
    And I obtain a token
    And I send "GET" to "/customer/v1/inscricao/${inscricao}"
    Then the response field "Valor.status" is "SUSPENSA"
    When I advance the clock by "10d"
    And I obtain a token
    And I send "GET" to "/customer/v1/inscricao/${inscricao}"
    Then the response field "Valor.status" is "ATIVA"
    And the receiver gets a "cobranca.recebida" event within 5 seconds
    And the event field "occurredAt" is "2026-02-20T15:00:00Z"

  Scenario: A year of time travel produces every charge, commission and the readjustment, in order
    Given an implanted enrollment of offer "YZ" for the CPF "11144477735" paid by "DEBITO"
    When I send "PUT" to "/sandbox/indices/IPCA-IBGE" with JSON:
      """
      {"2026-01": 0.5, "2026-02": 0.5, "2026-03": 0.5, "2026-04": 0.5, "2026-05": 0.5, "2026-06": 0.5,
       "2026-07": 0.5, "2026-08": 0.5, "2026-09": 0.5, "2026-10": 0.5, "2026-11": 0.5, "2026-12": 0.5}
      """
    Then the response status is 200
    When I advance the clock by "365d"
    Then the receiver gets a "inscricao.valor_pago_alterado" event whose "data.motivo" is "REAJUSTE_ANUAL" within 5 seconds
    And the event field "data.indice" is "IPCA-IBGE"
    And the event field "data.percentual" is "6.1678"
    When I obtain a token
    And I send "GET" to "/customer/v1/inscricao/${inscricao}/cobrancas?status=PAGA"
    Then the response field "Valor" has 11 items
    When I send "GET" to "/customer/v1/inscricao/${inscricao}/cobrancas"
    Then the response field "Valor" has 13 items
    And the response field "Valor.12.parcela" is "13"
    When I send "GET" to "/customer/v1/comissao?inscricaoId=${inscricao}&status=PAGA"
    Then the response field "Valor" has 11 items
    When I send "GET" to "/customer/v1/inscricao/${inscricao}"
    Then the response field "Valor.competenciaReajuste" is "01/2028"
