Feature: Pix Automático: the operations' rules, in the official Problema
  Every refusal has the official type URI and names the property. The
  clock is frozen at 2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token

  Scenario Outline: A bad recurrence is refused with RecOperacaoInvalida naming the property
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      <body>
      """
    Then the response status is 400
    And the response is valid against schema "pix/problema"
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida"
    And the response field "violacoes.0.propriedade" is "<property>"
    Examples:
      | body                                                                                                                                                                                                       | property              |
      | {"vinculo": {"contrato": "C", "devedor": {"cpf": "11144477736", "nome": "A"}}, "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"}               | vinculo.devedor.cpf   |
      | {"vinculo": {"contrato": "C", "devedor": {"cpf": "11144477735", "nome": "A"}}, "calendario": {"dataInicial": "2025-12-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"}               | calendario.dataInicial |
      | {"vinculo": {"contrato": "C", "devedor": {"cpf": "11144477735", "nome": "A"}}, "calendario": {"dataInicial": "2026-02-01", "dataFinal": "2026-01-20", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"} | calendario.dataFinal |
      | {"vinculo": {"contrato": "C", "devedor": {"cpf": "11144477735", "nome": "A"}}, "calendario": {"dataInicial": "2026-02-01", "periodicidade": "QUINZENAL"}, "politicaRetentativa": "NAO_PERMITE"}            | calendario.periodicidade |
      | {"vinculo": {"contrato": "C", "devedor": {"cpf": "11144477735", "nome": "A"}}, "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "loc": 999}    | loc                   |
      | {"vinculo": {"contrato": "C", "devedor": {"cpf": "11144477735", "nome": "A"}}, "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "SEMPRE"}                    | politicaRetentativa   |
      | {"vinculo": {"contrato": "C", "devedor": {"cpf": "11144477735", "nome": "A"}}, "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE", "ativacao": {"dadosJornada": {"txid": "naoexistenaoexistenaoexiste01"}}} | ativacao.dadosJornada.txid |

  Scenario: Recurring charges follow their recurrence; lists need inicio and fim
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "C1", "devedor": {"cpf": "11144477735", "nome": "A"}},
       "calendario": {"dataInicial": "2026-02-01", "dataFinal": "2026-12-31", "periodicidade": "MENSAL"},
       "valor": {"valorRec": "20.00"}, "politicaRetentativa": "NAO_PERMITE"}
      """
    And I remember the response field "idRec" as "idRec"
    And I send "PUT" to "/pix/v2/cobr/cobrregrascobrregrascobrregr01" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataDeVencimento": "2026-02-10"}, "valor": {"original": "20.00"},
       "recebedor": {"conta": "1", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
      """
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida"
    And the response field "violacoes.0.propriedade" is "idRec"
    When I send "POST" to "/sandbox/pix/rec/${idRec}/aprovar"
    And I send "PUT" to "/pix/v2/cobr/cobrregrascobrregrascobrregr01" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataDeVencimento": "2026-02-10"}, "valor": {"original": "21.00"},
       "recebedor": {"conta": "1", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "valor.original"
    When I send "PUT" to "/pix/v2/cobr/cobrregrascobrregrascobrregr01" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataDeVencimento": "2027-01-10"}, "valor": {"original": "20.00"},
       "recebedor": {"conta": "1", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "calendario.dataDeVencimento"
    When I send "PUT" to "/pix/v2/cobr/curto" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataDeVencimento": "2026-02-10"}, "valor": {"original": "20.00"},
       "recebedor": {"conta": "1", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "txid"
    When I send "PUT" to "/pix/v2/cobr/cobrregrascobrregrascobrregr01" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataDeVencimento": "2026-02-07"}, "valor": {"original": "20.00"},
       "recebedor": {"conta": "1", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
      """
    Then the response status is 201
    And the response field "calendario.criacao" is "2026-01-05"
    When I send "GET" to "/pix/v2/cobr/cobrregrascobrregrascobrregr01"
    Then the response field "status" is "CRIADA"
    When I advance the clock by "1m"
    And I send "GET" to "/pix/v2/cobr/cobrregrascobrregrascobrregr01"
    Then the response field "tentativas.0.dataLiquidacao" is "2026-02-09"
    When I send "PATCH" to "/pix/v2/cobr/cobrregrascobrregrascobrregr01" with JSON:
      """
      {"status": "CONCLUIDA"}
      """
    Then the response status is 400
    When I send "PATCH" to "/pix/v2/cobr/cobrregrascobrregrascobrregr01" with JSON:
      """
      {"status": "CANCELADA"}
      """
    Then the response status is 200
    And the response field "encerramento.cancelamento.codigo" is "SLCR"
    When I send "GET" to "/pix/v2/cobr?fim=2026-02-01T00:00:00Z"
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/CobRConsultaInvalida"
    And the response field "violacoes.0.propriedade" is "inicio"
    When I send "GET" to "/pix/v2/rec?inicio=2026-01-01T00:00:00Z&fim=2026-02-01T00:00:00Z&status=VIVA"
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida"
    When I send "GET" to "/pix/v2/rec?inicio=2026-01-01T00:00:00Z&fim=2026-02-01T00:00:00Z&cpf=11144477735"
    Then the response status is 200
    And the response field "recs" has 1 item
    When I send "GET" to "/pix/v2/rec/RN9999900820260105naoexiste0"
    Then the response status is 404

  Scenario: Journey 4: a composite QR with a due-date charge, paid
    When I send "PUT" to "/pix/v2/cobv/cobvjornada4cobvjornada4cobv01" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-01-20"}, "devedor": {"cpf": "11144477735", "nome": "Maria"},
       "valor": {"original": "80.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/pix/v2/locrec"
    And I remember the response field "id" as "loc"
    And I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-J4", "devedor": {"cpf": "11144477735", "nome": "Maria"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "valor": {"valorRec": "80.00"},
       "politicaRetentativa": "NAO_PERMITE", "loc": ${loc}, "ativacao": {"dadosJornada": {"txid": "cobvjornada4cobvjornada4cobv01"}}}
      """
    And I remember the response field "idRec" as "idRec"
    And I send "GET" to "/pix/v2/rec/${idRec}"
    Then the response field "dadosQR.jornada" is "JORNADA_4"
    And the response field "dadosQR.pixCopiaECola" matches "80[0-9]{2}0014br.gov.bcb.pix25"
    When I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "cobvjornada4cobvjornada4cobv01"}
      """
    And I send "GET" to "/pix/v2/rec/${idRec}"
    Then the response field "status" is "APROVADA"
    And the response field "ativacao.tipoJornada" is "JORNADA_4"
