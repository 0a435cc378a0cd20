# Written by a QA engineer from the step reference alone (issue 14 trial).
Feature: A proposal with a health-declaration pending is answered and moves on over time

  CPF 22255588846 (docs/reference/insurance.md, magic CPFs): a DPS pending 30 minutes into analysis;
  an hour after the answer the insurer accepts it (EM_ANALISE), APROVADA an
  hour later, IMPLANTADA 5 minutes after. Analysis starts 2 minutes after the
  proposal (the default). Access tokens live an hour on the sandbox clock.
  On 2026-01-05 the proponent, born 1986-03-15, is 39.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And a webhook receiver answering 200
    And the app's webhook points to the receiver
    And I obtain a token

  Scenario: the DPS pending is answered and the proposal is implanted
    # Price the profile
    When I send "POST" to "/insurer/v1/simulacao?codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"cpf": "22255588846", "dataNascimento": "1986-03-15", "sexoId": 2,
         "renda": 8000, "profissaoCbo": "2410-05", "uf": "SP"},
        "periodicidadeCobrancaId": 30, "capitalSegurado": 200000}]}
      """
    Then the response status is 200
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premio"
    # The customer's signature code
    When I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "22255588846", "output": "Email", "timeoutInMinutes": 30, "tokenSize": 6}
      """
    Then the response status is 201
    When I send "GET" to "/sandbox/outbox?cpf=22255588846"
    Then the response status is 200
    And I remember the response field "messages.0.codigo" as "codigo"
    # The proposal
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "0",
        "DADOS_PROPONENTE": {"NOME": "Ana Pendente", "DT_NASCIMENTO": "1986-03-15", "SEXO": "FEMININO", "CPF": "22255588846",
          "RENDA_MENSAL": 8000, "ENDERECOS": {"ENDERECO": [{"ESTADO": "SP", "CEP": "01310100"}]},
          "PROFISSAO": {"CODIGO": "2410-05"}},
        "PLANOS": {"PLANO": [{"CODIGO": 511,
          "COBERTURAS": {"COBERTURA": [{"CODIGO": 1001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 200000}]}}]},
        "BENEFICIARIOS": {"BENEFICIARIO": [{"NOME": "João Souza", "PARENTESCO": "CONJUGE", "PARTICIPACAO": 100}]},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 201
    And the response field "Valor.status" is "RECEBIDA"
    And I remember the response field "Valor.numeroProposta" as "numero"

    # 2 minutes: analysis starts
    When I advance the clock by "2m"
    Then the receiver gets a "proposta.status" event whose "data.statusAtual" is "EM_ANALISE" within 5 seconds
    And the event field "subject.numeroProposta" is "${numero}"
    And the event field "data.statusAnterior" is "RECEBIDA"
    And the event field "data.statusAtualCodigo" is "2"
    And the event's signature is valid

    # 30 minutes into analysis: the DPS pending
    When I advance the clock by "29m"
    Then the receiver gets no "proposta.pendencia" event within 1 second
    When I advance the clock by "1m"
    Then the receiver gets a "proposta.pendencia" event within 5 seconds
    And the event field "subject.numeroProposta" is "${numero}"
    And I remember the event field "subject.pendenciaId" as "pendencia"
    And the receiver gets a "proposta.status" event whose "data.statusAtual" is "PENDENTE" within 5 seconds
    And the event field "data.statusAtualCodigo" is "3"
    When I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response status is 200
    And the response field "Valor.status" is "PENDENTE"
    When I send "GET" to "/insurer/v1/pendencia?numeroProposta=${numero}&status=ABERTA"
    Then the response status is 200
    And the response body contains "${pendencia}"

    # The customer answers (the token taken at 12:00 is still valid at 12:32)
    When I send "PUT" to "/insurer/v1/pendencia/${pendencia}" with JSON:
      """
      {"resposta": "Declaração de saúde preenchida e assinada.",
       "documento": {"nomeArquivo": "dps.pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQKJcOkw7zDtsOfCg=="}}
      """
    Then the response status is 200
    And the receiver gets a "proposta.pendencia_respondida" event within 5 seconds
    And the event field "subject.numeroProposta" is "${numero}"
    When I send "GET" to "/insurer/v1/pendencia?numeroProposta=${numero}&status=ABERTA"
    Then the response status is 200
    And the response body does not contain "${pendencia}"

    # An hour after the answer: back in analysis
    When I advance the clock by "59m"
    Then the receiver gets no "proposta.status" event within 1 second
    When I advance the clock by "1m"
    # (matching on statusAnterior: the first EM_ANALISE event, at 12:02, also matches statusAtual)
    Then the receiver gets a "proposta.status" event whose "data.statusAnterior" is "PENDENTE" within 5 seconds
    And the event field "data.statusAtual" is "EM_ANALISE"
    And the event field "occurredAt" is "2026-01-05T13:32:00Z"
    # An hour later: approved
    When I advance the clock by "1h"
    Then the receiver gets a "proposta.status" event whose "data.statusAtual" is "APROVADA" within 5 seconds
    And the event field "data.statusAtualCodigo" is "4"
    # 5 minutes later: implanted
    When I advance the clock by "5m"
    Then the receiver gets a "proposta.implantada" event within 5 seconds
    And the event field "subject.numeroProposta" is "${numero}"
    And the event field "data.statusAtualCodigo" is "8"

    # Tokens live on the wall clock, as in production: two sandbox hours
    # later the token still works, until it expires
    When I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response status is 200
    When the access tokens of my company expire
    And I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response status is 401
    And the response header "WWW-Authenticate" contains "Bearer"
    When I obtain a token
    And I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response status is 200
    And the response field "Valor.status" is "IMPLANTADA"
    When I send "GET" to "/insurer/v1/inscricao?numeroProposta=${numero}"
    Then the response status is 200
    And the response body contains "${numero}"

  Scenario: the first answer to the pending is rejected, the second accepted, then the proposal is implanted
    # CPF 44477700083 (docs/reference/insurance.md): "a pending whose first answer is rejected (a new
    # pending), the second accepted". The reference gives no timings for this path,
    # so the clock moves in generous steps.
    When I send "POST" to "/insurer/v1/simulacao?codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"cpf": "44477700083", "dataNascimento": "1986-03-15", "sexoId": 2,
         "renda": 8000, "profissaoCbo": "2410-05", "uf": "SP"},
        "periodicidadeCobrancaId": 30, "capitalSegurado": 200000}]}
      """
    Then the response status is 200
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" is "43.84"
    When I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "44477700083", "output": "SMS", "timeoutInMinutes": 10, "tokenSize": 6}
      """
    Then the response status is 201
    When I send "GET" to "/sandbox/outbox?cpf=44477700083"
    Then the response status is 200
    And I remember the response field "messages.0.codigo" as "codigo"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "0",
        "DADOS_PROPONENTE": {"NOME": "Bia Rejeitada", "DT_NASCIMENTO": "1986-03-15", "SEXO": "FEMININO", "CPF": "44477700083",
          "RENDA_MENSAL": 8000, "ENDERECOS": {"ENDERECO": {"ESTADO": "SP", "CEP": "01310100"}},
          "PROFISSAO": {"CODIGO": "2410-05"}},
        "PLANOS": {"VL_TOTAL": 43.84, "PLANO": {"CODIGO": 511,
          "COBERTURAS": {"COBERTURA": {"CODIGO": 1001, "VL_CONTRIB": 43.84, "VL_COBERTURA": 200000}}}},
        "BENEFICIARIOS": {"BENEFICIARIO": {"NOME": "João Souza", "PARENTESCO": "CONJUGE", "PARTICIPACAO": 100}},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 201
    And I remember the response field "Valor.numeroProposta" as "numero"

    When I advance the clock by "50m"
    Then the receiver gets a "proposta.pendencia" event within 5 seconds
    And I remember the event field "subject.pendenciaId" as "primeira"
    When I send "PUT" to "/insurer/v1/pendencia/${primeira}" with JSON:
      """
      {"resposta": "Segue o comprovante de renda."}
      """
    Then the response status is 200

    # The insurer rejects the first answer and raises a new pending
    When I advance the clock by "2h"
    And I obtain a token
    When I send "GET" to "/insurer/v1/pendencia?numeroProposta=${numero}&status=ABERTA"
    Then the response status is 200
    And the response field "Valor" has 1 item
    And I remember the response field "Valor.0.id" as "segunda"
    And the receiver gets a "proposta.pendencia" event whose "subject.pendenciaId" is "${segunda}" within 5 seconds
    When I send "PUT" to "/insurer/v1/pendencia/${segunda}" with JSON:
      """
      {"resposta": "Segue o comprovante de renda legível.",
       "documento": {"nomeArquivo": "renda.pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQKJcOkw7zDtsOfCg=="}}
      """
    Then the response status is 200

    # The second answer is accepted; the proposal goes on to implantation
    When I advance the clock by "1d"
    Then the receiver gets a "proposta.implantada" event within 5 seconds
    And the event field "subject.numeroProposta" is "${numero}"
    When I obtain a token
    And I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response field "Valor.status" is "IMPLANTADA"
