Feature: Pix Automático: recurrences authorised by each journey, recurring charges and their callbacks
  The official API Pix 2.9.0 tags Rec, SolicRec, CobR, PayloadLocationRec,
  WebhookRec and WebhookCobR under /pix/v2. The payer is simulated by
  scenarios (scenarios/README.md) and by POST /sandbox/pix/rec/{idRec}/…
  The clock is frozen at 2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    And a webhook receiver answering 200
    When I send "PUT" to "/pix/v2/webhookrec" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    Then the response status is 200
    When I send "POST" to "/pix/v2/webhookcobr" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    Then the response status is 200

  Scenario: Journey 1: a confirmation request is accepted; a month's charge is settled; the partner reconciles from the callbacks
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-2026-001", "devedor": {"cpf": "11144477735", "nome": "Maria Souza"}, "objeto": "Seguro de vida"},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"},
       "valor": {"valorRec": "35.00"}, "politicaRetentativa": "NAO_PERMITE", "recebedor": {"convenio": "CONV-01"}}
      """
    Then the response status is 201
    And the response field "idRec" matches "^RN9999900820260105[a-zA-Z0-9]{11}$"
    And the response field "status" is "CRIADA"
    And the response field "ativacao.tipoJornada" is "AGUARDANDO_DEFINICAO"
    And the response field "recebedor.cnpj" is "11222333000181"
    And I remember the response field "idRec" as "idRec"
    When I send "POST" to "/pix/v2/solicrec" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataExpiracaoSolicitacao": "2026-01-10T12:00:00Z"},
       "destinatario": {"conta": "123456", "ispbParticipante": "99999009", "agencia": "0001", "cpf": "11144477735"}}
      """
    Then the response status is 201
    And the response field "idSolicRec" matches "^SC9999900820260105[a-zA-Z0-9]{11}$"
    And the response field "status" is "CRIADA"
    And I remember the response field "idSolicRec" as "solic"
    When I send "POST" to "/pix/v2/solicrec" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataExpiracaoSolicitacao": "2026-01-10T12:00:00Z"},
       "destinatario": {"conta": "123456", "ispbParticipante": "99999009", "cpf": "11144477735"}}
      """
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/SolicRecOperacaoInvalida"
    When I advance the clock by "2m"
    Then the receiver gets a callback on "/rec" whose "recs.0.status" is "APROVADA" within 5 seconds
    And the event field "recs.0.idRec" is "${idRec}"
    And the event field "recs.0.ativacao.tipoJornada" is "JORNADA_1"
    When I send "GET" to "/pix/v2/solicrec/${solic}"
    Then the response field "status" is "ACEITA"
    When I send "GET" to "/pix/v2/rec/${idRec}"
    Then the response field "status" is "APROVADA"
    And the response field "pagador.cpf" is "11144477735"
    And the response field "solicitacao.0.status" is "ACEITA"
    When I send "PUT" to "/pix/v2/cobr/cobrjornada1cobrjornada1cobr01" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataDeVencimento": "2026-02-10"}, "valor": {"original": "35.00"},
       "recebedor": {"conta": "987654", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true, "infoAdicional": "Parcela 1"}
      """
    Then the response status is 201
    And the response field "status" is "CRIADA"
    And the response field "ajusteDiaUtil" is "true"
    When I send "PUT" to "/pix/v2/cobr/cobrjornada1cobrjornada1cobr02" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataDeVencimento": "2026-02-20"}, "valor": {"original": "35.00"},
       "recebedor": {"conta": "987654", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
      """
    Then the response status is 400
    And the response field "violacoes.0.razao" matches "já existe uma cobrança deste ciclo"
    When I advance the clock by "1m"
    Then the receiver gets a callback on "/cobr" whose "cobsr.0.status" is "ATIVA" within 5 seconds
    And the event field "cobsr.0.tentativas.0.status" is "AGENDADA"
    And the event field "cobsr.0.tentativas.0.dataLiquidacao" is "2026-02-10"
    When I advance the clock by "37d"
    Then the receiver gets a callback on "/cobr" whose "cobsr.0.status" is "CONCLUIDA" within 5 seconds
    And the event field "cobsr.0.txid" is "cobrjornada1cobrjornada1cobr01"
    And the event field "cobsr.0.pix.0.valor" is "35.00"
    And the event field "cobsr.0.tentativas.0.status" is "PAGA"
    When I obtain a token
    And I send "GET" to "/pix/v2/cobr/cobrjornada1cobrjornada1cobr01"
    Then the response field "status" is "CONCLUIDA"
    And the response field "pix.0.endToEndId" matches "^E99999009[0-9]{12}[a-zA-Z0-9]{11}$"

  Scenario: Journey 2: the rec's QR from a location, approved by the payer; journey 3: a composite QR paid with its cob
    When I send "POST" to "/pix/v2/locrec"
    Then the response status is 201
    And I remember the response field "id" as "loc"
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-QR", "devedor": {"cpf": "88899900078", "nome": "Pedro"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"},
       "valor": {"valorMinimoRecebedor": "10.00"}, "politicaRetentativa": "PERMITE_3R_7D", "loc": ${loc}}
      """
    Then the response status is 201
    And the response field "idRec" matches "^RR"
    And I remember the response field "idRec" as "idRec"
    When I send "GET" to "/pix/v2/rec/${idRec}"
    Then the response field "dadosQR.jornada" is "JORNADA_2"
    And the response field "loc.idRec" is "${idRec}"
    When I send "GET" to "/pix/v2/locrec/${loc}"
    Then the response field "idRec" is "${idRec}"
    And I remember the response field "location" as "location"
    When I send "GET" to "http://${location}"
    Then the response status is 200
    And the response is a JWS signed with the sandbox's published key
    And the response field "idRec" is "${idRec}"
    And the response field "recebedor.ispbParticipante" is "99999008"
    When I advance the clock by "1m"
    Then the receiver gets a callback on "/rec" whose "recs.0.ativacao.tipoJornada" is "JORNADA_2" within 5 seconds
    When I send "PUT" to "/pix/v2/cob/cobjornada3cobjornada3cobjo01" with JSON:
      """
      {"valor": {"original": "50.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-J3", "devedor": {"cpf": "11144477735", "nome": "Maria"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"},
       "valor": {"valorRec": "50.00"}, "politicaRetentativa": "NAO_PERMITE",
       "ativacao": {"dadosJornada": {"txid": "cobjornada3cobjornada3cobjo01"}}}
      """
    And I remember the response field "idRec" as "j3"
    And I send "POST" to "/pix/v2/locrec"
    And I remember the response field "id" as "loc3"
    And I send "PATCH" to "/pix/v2/rec/${j3}" with JSON:
      """
      {"loc": ${loc3}}
      """
    Then the response status is 200
    When I send "GET" to "/pix/v2/rec/${j3}"
    Then the response field "dadosQR.jornada" is "JORNADA_3"
    When I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "cobjornada3cobjornada3cobjo01", "pagador": {"cpf": "11144477735", "nome": "Maria"}}
      """
    Then the receiver gets a callback on "/rec" whose "recs.0.ativacao.tipoJornada" is "JORNADA_3" within 5 seconds
    And the event field "recs.0.idRec" is "${j3}"

  Scenario: Rejection by the payer, expiry of an unanswered request, cancellation by each side
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-R", "devedor": {"cpf": "12121212108", "nome": "Ana"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"}
      """
    And I remember the response field "idRec" as "rej"
    And I send "POST" to "/pix/v2/solicrec" with JSON:
      """
      {"idRec": "${rej}", "calendario": {"dataExpiracaoSolicitacao": "2026-01-10T12:00:00Z"},
       "destinatario": {"conta": "1", "ispbParticipante": "99999009", "cpf": "12121212108"}}
      """
    And I advance the clock by "2m"
    Then the receiver gets a callback on "/rec" whose "recs.0.status" is "REJEITADA" within 5 seconds
    And the event field "recs.0.encerramento.rejeicao.codigo" is "AP13"
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-E", "devedor": {"cpf": "34343434311", "nome": "Rui"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"}
      """
    And I remember the response field "idRec" as "exp"
    And I send "POST" to "/pix/v2/solicrec" with JSON:
      """
      {"idRec": "${exp}", "calendario": {"dataExpiracaoSolicitacao": "2026-01-06T12:00:00Z"},
       "destinatario": {"conta": "1", "ispbParticipante": "99999009", "cpf": "34343434311"}}
      """
    And I advance the clock by "1d1m"
    Then the receiver gets a callback on "/rec" whose "recs.0.status" is "EXPIRADA" within 5 seconds
    And the event field "recs.0.idRec" is "${exp}"
    When I obtain a token
    And I send "PATCH" to "/pix/v2/rec/${exp}" with JSON:
      """
      {"vinculo": {"devedor": {"nome": "Rui Costa"}}}
      """
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida"
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-C", "devedor": {"cpf": "11144477735", "nome": "Maria"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"}
      """
    And I remember the response field "idRec" as "canc"
    And I send "POST" to "/sandbox/pix/rec/${canc}/aprovar"
    And I send "PATCH" to "/pix/v2/rec/${canc}" with JSON:
      """
      {"status": "CANCELADA"}
      """
    Then the response status is 200
    And the receiver gets a callback on "/rec" whose "recs.0.encerramento.cancelamento.solicitante" is "USUARIO_RECEBEDOR" within 5 seconds
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-P", "devedor": {"cpf": "11144477735", "nome": "Maria"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"}
      """
    And I remember the response field "idRec" as "pag"
    And I send "POST" to "/sandbox/pix/rec/${pag}/aprovar"
    And I send "POST" to "/sandbox/pix/rec/${pag}/cancelar" with JSON:
      """
      {"codigo": "ACCL"}
      """
    Then the response status is 200
    And the receiver gets a callback on "/rec" whose "recs.0.encerramento.cancelamento.solicitante" is "USUARIO_PAGADOR" within 5 seconds
    # The receiver withdraws a confirmation request the payer has not answered.
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-S", "devedor": {"cpf": "11144477735", "nome": "Maria"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"}
      """
    And I remember the response field "idRec" as "sol"
    And I send "POST" to "/pix/v2/solicrec" with JSON:
      """
      {"idRec": "${sol}", "calendario": {"dataExpiracaoSolicitacao": "2026-01-10T12:00:00Z"},
       "destinatario": {"conta": "1", "ispbParticipante": "99999009", "cpf": "11144477735"}}
      """
    And I remember the response field "idSolicRec" as "solic"
    And I send "PATCH" to "/pix/v2/solicrec/${solic}" with JSON:
      """
      {"status": "CANCELADA"}
      """
    Then the response status is 201
    And the response field "status" is "CANCELADA"

  Scenario: A rejected attempt, then a retry under PERMITE_3R_7D; retries refused under NAO_PERMITE; cancellation refused on the attempt date
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-T", "devedor": {"cpf": "11144477735", "nome": "Maria"}},
       "calendario": {"dataInicial": "2026-02-01", "periodicidade": "MENSAL"},
       "valor": {"valorMinimoRecebedor": "5.00"}, "politicaRetentativa": "PERMITE_3R_7D"}
      """
    And I remember the response field "idRec" as "idRec"
    And I send "POST" to "/sandbox/pix/rec/${idRec}/aprovar"
    And I send "PUT" to "/pix/v2/cobr/cobrretentativacobrretentativa1" with JSON:
      """
      {"idRec": "${idRec}", "calendario": {"dataDeVencimento": "2026-02-10"}, "valor": {"original": "6.66"},
       "recebedor": {"conta": "987654", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
      """
    Then the response status is 201
    When I advance the clock by "37d"
    Then the receiver gets a callback on "/cobr" whose "cobsr.0.tentativas.0.status" is "REJEITADA" within 5 seconds
    And the event field "cobsr.0.status" is "ATIVA"
    And the event field "cobsr.0.tentativas.0.rejeicao.codigo" is "AM02"
    When I obtain a token
    And I send "PATCH" to "/pix/v2/cobr/cobrretentativacobrretentativa1" with JSON:
      """
      {"status": "CANCELADA"}
      """
    Then the response status is 400
    And the response field "violacoes.0.razao" matches "primeira tentativa"
    When I send "POST" to "/pix/v2/cobr/cobrretentativacobrretentativa1/retentativa/2026-02-09"
    Then the response status is 400
    When I send "POST" to "/pix/v2/cobr/cobrretentativacobrretentativa1/retentativa/2026-02-13"
    Then the response status is 201
    And the response field "tentativas.1.tipo" is "NTAG"
    And the response field "tentativas.1.status" is "AGENDADA"
    When I send "POST" to "/pix/v2/cobr/cobrretentativacobrretentativa1/retentativa/2026-02-14"
    Then the response status is 400
    And the response field "violacoes.0.razao" matches "tentativa ainda não concluída"
    When I advance the clock by "3d"
    Then the receiver gets a callback on "/cobr" whose "cobsr.0.status" is "CONCLUIDA" within 5 seconds
    And the event field "cobsr.0.tentativas.1.status" is "PAGA"
    When I obtain a token
    And I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-N", "devedor": {"cpf": "11144477735", "nome": "Maria"}},
       "calendario": {"dataInicial": "2026-03-01", "periodicidade": "MENSAL"}, "politicaRetentativa": "NAO_PERMITE"}
      """
    And I remember the response field "idRec" as "nao"
    And I send "POST" to "/sandbox/pix/rec/${nao}/aprovar"
    And I send "PUT" to "/pix/v2/cobr/cobrnaopermitecobrnaopermite01" with JSON:
      """
      {"idRec": "${nao}", "calendario": {"dataDeVencimento": "2026-03-10"}, "valor": {"original": "6.66"},
       "recebedor": {"conta": "987654", "tipoConta": "CORRENTE", "agencia": "0001"}, "ajusteDiaUtil": true}
      """
    And I send "POST" to "/pix/v2/cobr/cobrnaopermitecobrnaopermite01/retentativa/2026-03-12"
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "politicaRetentativa"

  Scenario: A year of monthly charges, every one reconciled from the callbacks alone
    When I send "POST" to "/pix/v2/rec" with JSON:
      """
      {"vinculo": {"contrato": "CTR-ANO", "devedor": {"cpf": "11144477735", "nome": "Maria"}},
       "calendario": {"dataInicial": "2026-02-01", "dataFinal": "2027-01-31", "periodicidade": "MENSAL"},
       "valor": {"valorRec": "35.00"}, "politicaRetentativa": "NAO_PERMITE"}
      """
    And I remember the response field "idRec" as "idRec"
    And I send "POST" to "/sandbox/pix/rec/${idRec}/aprovar"
    When I charge the recurrence "${idRec}" every month from "2026-02-10" with "35.00" for 12 months
    Then the receiver has received 12 callbacks on "/cobr" whose "cobsr.0.status" is "CONCLUIDA"
    And the receiver has received 12 callbacks on "/cobr" whose "cobsr.0.status" is "ATIVA"
    When I send "GET" to "/pix/v2/cobr?inicio=2026-01-01T00:00:00Z&fim=2027-02-01T00:00:00Z&idRec=${idRec}&status=CONCLUIDA"
    Then the response field "cobsr" has 12 items
    And the response field "parametros.paginacao.quantidadeTotalDeItens" is "12"
