Feature: Insurance sale cycle: offer, simulation, signature token, proposal, analysis, implantation
  The insurer API (/insurer/v1) and the access-management API
  (/access/v1), in the insurer's envelope {Valor, Mensagens,
  HouveErrosDuranteProcessamento}. The demo company (CNPJ 11222333000181)
  may sell every offer of the catalogue. The clock is frozen at
  2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    And a webhook receiver answering 200
    And the app's webhook points to the receiver

  Scenario: From the offer list to implantation, every event of the cycle signed
    When I send "GET" to "/insurer/v1/modeloproposta?cnpj=11222333000181&completo=false&canalVenda=4"
    Then the response status is 200
    And the response field "HouveErrosDuranteProcessamento" is "false"
    And the response field "Valor.0.id" is "105"
    When I send "GET" to "/insurer/v1/modeloproposta/YZ?cnpj=11222333000181&completo=true"
    Then the response status is 200
    And the response field "Valor.produtos.0.id" is "511"
    And the response field "Valor.produtos.0.coberturas.0.itemProdutoId" is "1001"
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"tipoRelacaoSeguradoId": 1, "nome": "Maria Souza", "cpf": "11144477735",
        "dataNascimento": "1986-03-15", "profissaoCbo": "2410-05", "renda": 8000, "sexoId": 2, "uf": "SP", "declaracaoIRId": 1},
        "periodicidadeCobrancaId": 30, "capitalSegurado": 200000}]}
      """
    Then the response status is 200
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.itemProdutoId" is "1001"
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premio"
    When I send "POST" to "/access/v1/token/user" with JSON:
      """
      {"cpf": "11144477735", "output": "Email", "email": "maria@example.com", "timeoutInMinutes": "5", "tokenSize": "6"}
      """
    Then the response status is 201
    And the response field "Valor.channel" is "Email"
    When I send "GET" to "/sandbox/outbox?cpf=11144477735"
    Then the response field "messages.0.destino" is "maria@example.com"
    And I remember the response field "messages.0.codigo" as "codigo"
    When I subscribe to the event stream
    And I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "0", "DT_ASSINATURA": "2026-01-05",
        "DADOS_PROPONENTE": {"NOME": "Maria Souza", "DT_NASCIMENTO": "1986-03-15", "SEXO": "FEMININO", "CPF": "11144477735",
          "EMAIL": "maria@example.com", "RENDA_MENSAL": 8000,
          "ENDERECOS": {"ENDERECO": [{"TIPO": "RESIDENCIAL", "LOGRADOURO": "Rua A", "NUMERO": "10", "CIDADE": "São Paulo", "ESTADO": "SP", "CEP": "01310100"}]},
          "PROFISSAO": {"CODIGO": "2410-05", "DESCRICAO": "Advogada"}},
        "PLANOS": {"VL_TOTAL": ${premio}, "PLANO": [{"CODIGO": 511, "NOME": "VIDA TEMPORÁRIA",
          "COBERTURAS": {"COBERTURA": [{"CODIGO": 1001, "VL_CONTRIB": ${premio}, "VL_COBERTURA": 200000}]}}]},
        "BENEFICIARIOS": {"BENEFICIARIO": [{"NOME": "João Souza", "PARENTESCO": "CONJUGE", "PARTICIPACAO": 60},
                                           {"NOME": "Ana Souza", "PARENTESCO": "FILHA", "PARTICIPACAO": 40}]},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "TOKEN", "TOKEN": "${codigo}"}}}
      """
    Then the response status is 201
    And the response field "Valor.status" is "RECEBIDA"
    And I remember the response field "Valor.numeroProposta" as "numero"
    And the receiver gets a "proposta.status" event within 5 seconds
    And the event's signature is valid
    And the event field "data.statusAtual" is "RECEBIDA"
    And the stream delivers a "proposta.status" event within 5 seconds
    And the event field "subject.numeroProposta" is "${numero}"
    When I advance the clock by "2m"
    Then the receiver gets a "proposta.status" event whose "data.statusAtual" is "EM_ANALISE" within 5 seconds
    And the event field "data.statusAnterior" is "RECEBIDA"
    When I advance the clock by "1h"
    And I advance the clock by "5m"
    Then the receiver gets a "proposta.implantada" event within 5 seconds
    And the event field "data.statusAtualCodigo" is "8"
    And the event field "subject.numeroProposta" is "${numero}"
    And I obtain a token
    When I send "GET" to "/insurer/v1/proposta/${numero}"
    Then the response field "Valor.status" is "IMPLANTADA"
    And the response field "Valor.inscricoes" has 1 item
    When I send "GET" to "/insurer/v1/inscricao?numeroProposta=${numero}"
    Then the response field "Valor.0.status" is "ATIVA"
    And the response field "Valor.0.coberturas.0.capitalSegurado" is "200000"
    When I send "GET" to "/insurer/v1/proposta/${numero}/timeline"
    Then the response field "Valor" has 4 items
    And the response field "Valor.3.status" is "IMPLANTADA"

  Scenario: An offer carries what the forms widget renders; the reduced list only refs
    When I send "GET" to "/insurer/v1/modeloproposta/YZ"
    Then the response status is 200
    And the response field "Valor.questionario.perguntas.0.tipoResposta" matches "^(SIM_NAO|TEXTO|VALOR|DOMINIO|DATA)$"
    And the response field "Valor.politicaAceitacao.imcMaximoRecusa" exists
    And the response field "Valor.formasPagamento" has 4 items
    When I send "GET" to "/insurer/v1/modeloproposta?completo=false"
    Then the response field "Valor.0.produtos.0.dataUltimaAlteracao" exists
    And the response field "Valor.0.produtos.0.coberturas" does not exist
    When I send "GET" to "/insurer/v1/questionario?codigoModeloProposta=YZ"
    Then the response field "Valor.0.perguntas" exists
    When I send "GET" to "/insurer/v1/modeloproposta?completo=talvez"
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "completo"

  Scenario: A profile outside the offer's limits is told which limit, not a 500
    When I send "POST" to "/insurer/v1/simulacao?codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"dataNascimento": "1940-01-01", "sexoId": 1, "renda": 3000, "profissaoCbo": "2153-05", "uf": "SP"},
        "periodicidadeCobrancaId": 30, "capitalSegurado": 10000000}]}
      """
    Then the response status is 200
    And the response field "Valor.simulacoes.0.produtos" has 0 items
    And the response body contains "IDADE_FORA_DO_LIMITE"
    And the response field "Mensagens.0.Campo" matches "^simulacoes\.0\."
    When I send "POST" to "/insurer/v1/simulacao?codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"dataNascimento": "ontem", "sexoId": 1}}]}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "simulacoes.0.proponente.dataNascimento"
    When I send "POST" to "/insurer/v1/simulacao" with JSON:
      """
      {"simulacoes": [{"proponente": {"dataNascimento": "1980-01-01", "sexoId": 1}}]}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "codigoModeloProposta"
    When I send "POST" to "/insurer/v1/simulacao?codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"sexoId": 3}}]}
      """
    Then the response status is 400
    And the response body contains "dataNascimento"
