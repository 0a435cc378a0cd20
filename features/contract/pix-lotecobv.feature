Feature: Pix batches of due-date charges (LoteCobV)
  A batch is accepted with 202 and processed in the background; each item
  becomes CRIADA (a cobv) or NEGADA (with the problem). Advancing the clock
  runs the processing.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    When I send "PUT" to "/pix/v2/lotecobv/123" with JSON:
      """
      {"descricao": "Cobranças dos alunos da turma do período da manhã",
       "cobsv": [
         {"txid": "fb2761260e554ad593c7226beb5cb650", "calendario": {"dataDeVencimento": "2026-02-10"},
          "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "100.00"}, "chave": "52998224725"},
         {"txid": "7978c0c97ea847e78e8849634473c1f1", "calendario": {"dataDeVencimento": "2025-12-31"},
          "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "100.00"}, "chave": "52998224725"}
       ]}
      """
    Then the response status is 202
    When I advance the clock by "1s"

  Scenario: Each item is created or denied with its problem
    When I send "GET" to "/pix/v2/lotecobv/123"
    Then the response status is 200
    And the response is valid against schema "pix/lotecobv"
    And the response field "id" is "123"
    And the response field "cobsv.0.status" is "CRIADA"
    And the response field "cobsv.1.status" is "NEGADA"
    And the response field "cobsv.1.problema.type" is "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida"
    And the response field "cobsv.1.problema.violacoes.0.propriedade" is "cobv.calendario.dataDeVencimento"
    When I send "GET" to "/pix/v2/cobv?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z&loteCobVId=123"
    Then the response field "cobs" has 1 item
    And the response field "cobs.0.txid" is "fb2761260e554ad593c7226beb5cb650"
    When I send "GET" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1"
    Then the response status is 404
    When I send "PUT" to "/pix/v2/cobv/7978c0c97ea847e78e8849634473c1f1" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-02-10"}, "devedor": {"cpf": "12345678909", "nome": "F"}, "valor": {"original": "1.00"}, "chave": "52998224725"}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "cobv.txid"
    When I send "GET" to "/pix/v2/lotecobv?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z"
    Then the response is valid against schema "pix/lotecobv.list"
    And the response field "lotes" has 1 item

  Scenario: A re-sent batch names the same charges; a denied one is tried again
    When I send "PUT" to "/pix/v2/lotecobv/123" with JSON:
      """
      {"descricao": "outra", "cobsv": [
         {"txid": "fb2761260e554ad593c7226beb5cb650", "calendario": {"dataDeVencimento": "2026-02-10"},
          "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "100.00"}, "chave": "52998224725"}]}
      """
    Then the response status is 400
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/LoteCobVOperacaoInvalida"
    When I send "PUT" to "/pix/v2/lotecobv/123" with JSON:
      """
      {"descricao": "corrigido", "cobsv": [
         {"txid": "fb2761260e554ad593c7226beb5cb650", "calendario": {"dataDeVencimento": "2026-02-10"},
          "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "110.00"}, "chave": "52998224725"},
         {"txid": "7978c0c97ea847e78e8849634473c1f1", "calendario": {"dataDeVencimento": "2026-02-10"},
          "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "100.00"}, "chave": "52998224725"}]}
      """
    Then the response status is 202
    When I advance the clock by "1s"
    And I send "GET" to "/pix/v2/lotecobv/123"
    Then the response field "descricao" is "corrigido"
    And the response field "cobsv.1.status" is "CRIADA"
    When I send "GET" to "/pix/v2/cobv/fb2761260e554ad593c7226beb5cb650"
    Then the response field "valor.original" is "110.00"
    And the response field "revisao" is "1"

  Scenario: PATCH revises charges of the batch; others cannot join it
    When I send "PATCH" to "/pix/v2/lotecobv/123" with JSON:
      """
      {"cobsv": [{"txid": "fb2761260e554ad593c7226beb5cb650", "valor": {"original": "90.00"}}]}
      """
    Then the response status is 202
    When I send "GET" to "/pix/v2/cobv/fb2761260e554ad593c7226beb5cb650"
    Then the response field "valor.original" is "90.00"
    When I send "PATCH" to "/pix/v2/lotecobv/123" with JSON:
      """
      {"cobsv": [{"txid": "aaaa61260e554ad593c7226beb5cb650", "valor": {"original": "90.00"}}]}
      """
    Then the response status is 400
    When I send "PUT" to "/pix/v2/lotecobv/124" with JSON:
      """
      {"descricao": "x", "cobsv": [
         {"txid": "fb2761260e554ad593c7226beb5cb650", "calendario": {"dataDeVencimento": "2026-02-10"},
          "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "100.00"}, "chave": "52998224725"}]}
      """
    Then the response status is 400
    And the response field "violacoes.0.propriedade" is "loteCobV.cobsv.0.txid"
    When I send "GET" to "/pix/v2/lotecobv/999"
    Then the response status is 404
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/LoteCobVNaoEncontrado"
    When I send "PUT" to "/pix/v2/lotecobv/abc" with JSON:
      """
      {"descricao": "x", "cobsv": []}
      """
    Then the response status is 400
