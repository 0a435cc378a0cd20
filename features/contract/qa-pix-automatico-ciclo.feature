# Written by a QA engineer from the step reference alone (issue 14 trial).
Feature: A Pix Automático recurrence charged every month for a year

  docs/reference/pix.md, "Pix Automático": a recurrence waits CRIADA for the payer; a
  confirmation request (POST /solicrec) is delivered and accepted within a
  minute by default (the recurrence is APROVADA); each cycle's charge is the
  partner's (PUT /cobr/{txid}), made ATIVA a minute after creation and settled
  on its date (CONCLUIDA). Recurrence changes are POSTed to {webhookrec}/rec,
  charge changes to {webhookcobr}/cobr.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And a webhook receiver answering 200
    And I obtain a token
    When I send "PUT" to "/pix/v2/webhookrec" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    Then the response status is 200
    When I send "PUT" to "/pix/v2/webhookcobr" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    Then the response status is 200

  Scenario: approved through a confirmation request, then twelve monthly charges settled
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"objeto": "Seguro de vida mensal", "contrato": "QA-2026-0001",
                   "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}},
       "calendario": {"dataInicial": "2026-02-10", "dataFinal": "2027-01-10", "periodicidade": "MENSAL"},
       "valor": {"valorRec": "35.00"},
       "politicaRetentativa": "NAO_PERMITE"}
      """
    Then the response status is 201
    And the response field "status" is "CRIADA"
    And I remember the response field "idRec" as "idRec"
    When I send "POST" to "/pix/v2/solicrec" with JSON:
      """
      {"idRec": "${idRec}",
       "calendario": {"dataExpiracaoSolicitacao": "2026-01-10T12:00:00Z"},
       "destinatario": {"cpf": "12345678909", "agencia": "0001", "conta": "123456", "ispbParticipante": "99999009"}}
      """
    Then the response status is 201
    When I advance the clock by "2m"
    Then the receiver gets a callback on "/rec" whose "recs.0.status" is "APROVADA" within 5 seconds
    And the event field "recs.0.idRec" is "${idRec}"
    When I send "GET" to "/pix/v2/rec/${idRec}"
    Then the response status is 200
    And the response field "status" is "APROVADA"

    When I charge the recurrence "${idRec}" every month from "2026-02-10" with "35.00" for 12 months
    Then the receiver has received 12 callbacks on "/cobr" whose "cobsr.0.status" is "CONCLUIDA"
    When I obtain a token
    And I send "GET" to "/pix/v2/cobr?inicio=2026-01-01T00:00:00Z&fim=2027-02-01T00:00:00Z&status=CONCLUIDA"
    Then the response status is 200
    And the response field "cobsr" has 12 items
    And the response field "parametros.paginacao.quantidadeTotalDeItens" is "12"

  Scenario: a charge the payer's PSP rejects with a final code is REJEITADA, and the recurrence goes on
    # cobr valor.original 6.67: "rejects the attempt with a final code (MSUC): the charge is REJEITADA"
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"objeto": "Seguro de vida mensal", "contrato": "QA-2026-0002",
                   "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}},
       "calendario": {"dataInicial": "2026-02-10", "periodicidade": "MENSAL"},
       "valor": {"valorMinimoRecebedor": "5.00"},
       "politicaRetentativa": "NAO_PERMITE"}
      """
    Then the response status is 201
    And I remember the response field "idRec" as "idRec"
    When I send "POST" to "/pix/v2/solicrec" with JSON:
      """
      {"idRec": "${idRec}",
       "calendario": {"dataExpiracaoSolicitacao": "2026-01-10T12:00:00Z"},
       "destinatario": {"cpf": "12345678909", "agencia": "0001", "conta": "123456", "ispbParticipante": "99999009"}}
      """
    Then the response status is 201
    When I advance the clock by "2m"
    Then the receiver gets a callback on "/rec" whose "recs.0.status" is "APROVADA" within 5 seconds
    When I charge the recurrence "${idRec}" every month from "2026-02-10" with "6.67" for 1 months
    Then the receiver gets a callback on "/cobr" whose "cobsr.0.status" is "REJEITADA" within 5 seconds
    When I charge the recurrence "${idRec}" every month from "2026-03-10" with "7.00" for 2 months
    Then the receiver has received 2 callbacks on "/cobr" whose "cobsr.0.status" is "CONCLUIDA"
    When I obtain a token
    And I send "GET" to "/pix/v2/rec/${idRec}"
    Then the response field "status" is "APROVADA"
