Feature: Customer cycle: changes of billing method and registration data, value reduction, cancellation
  The customer API (/customer/v1) on an enrollment the partner sold. The
  clock is frozen at 2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And a webhook receiver answering 200
    And the app's webhook points to the receiver
    And an implanted enrollment of offer "YZ" for the CPF "11144477735"

  Scenario: The billing method changes, checked as a proposal's
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/forma-cobranca" with JSON:
      """
      {"TIPO_COBRANCA": "DEBITO", "DIA_VENCIMENTO": 5, "CONTA_CORRENTE": {"BANCO": "001", "AGENCIA": "1234", "CONTA": "99999", "DIGITO_CONTA": "0"}}
      """
    Then the response status is 200
    And the response field "Valor.formaCobranca" is "DEBITO"
    And the response field "Valor.diaVencimento" is "5"
    And the receiver gets a "inscricao.forma_cobranca_alterada" event within 5 seconds
    And the event field "data.formaAnterior" is "BOLETO"
    And the event field "data.formaAtual" is "DEBITO"
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/forma-cobranca" with JSON:
      """
      {"TIPO_COBRANCA": "DEBITO", "DIA_VENCIMENTO": 5}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Campo" is "CONTA_CORRENTE.BANCO"
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/forma-cobranca" with JSON:
      """
      {"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 11}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Campo" is "DIA_VENCIMENTO"
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/forma-cobranca" with JSON:
      """
      {"TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10, "CARTAO": {"NUMERO": "4111111111111111"}}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Codigo" is "DADOS_DE_CARTAO_PROIBIDOS"
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/forma-cobranca" with JSON:
      """
      {"TIPO_COBRANCA": "PIX"}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "TIPO_COBRANCA"

  Scenario: Registration data changes say what changed
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/dados-cadastrais" with JSON:
      """
      {"email": "nova@example.com", "telefone": {"ddd": "11", "numero": "988887777", "tipo": "CELULAR"}}
      """
    Then the response status is 200
    And the response field "Valor.dadosCadastrais.email" is "nova@example.com"
    And the receiver gets a "inscricao.dados_cadastrais_alterados" event within 5 seconds
    And the event field "data.camposAlterados.0" is "email"
    And the event field "data.camposAlterados.1" is "telefone"
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/dados-cadastrais" with JSON:
      """
      {"email": "sem-arroba"}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "email"
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/dados-cadastrais" with JSON:
      """
      {"endereco": {"logradouro": "Rua B", "cidade": "Recife", "uf": "PE", "cep": "5000"}}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "endereco.cep"
    When I send "PUT" to "/customer/v1/inscricao/${inscricao}/dados-cadastrais" with JSON:
      """
      {}
      """
    Then the response status is 400

  Scenario: A value reduction lowers capital and premium, never below the offer's minimums
    When I send "GET" to "/customer/v1/inscricao/${inscricao}"
    Then I remember the response field "Valor.valorContribuicao" as "antes"
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/reducao" with JSON:
      """
      {"coberturas": [{"itemProdutoId": 1001, "capitalSeguradoNovo": 100000}], "motivo": "Orçamento apertado"}
      """
    Then the response status is 200
    And the response field "Valor.coberturas.0.capitalSegurado" is "100000"
    And the receiver gets a "inscricao.valor_pago_alterado" event within 5 seconds
    And the event field "data.motivo" is "REDUCAO"
    And the event field "data.valorAnterior" is "${antes}"
    And the event field "data.capitalAnterior" is "200000"
    And the event field "data.capitalNovo" is "100000"
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/reducao" with JSON:
      """
      {"coberturas": [{"itemProdutoId": 1001, "capitalSeguradoNovo": 10000}]}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Campo" is "coberturas.0.capitalSeguradoNovo"
    And the response field "Mensagens.0.Descricao" matches "abaixo do mínimo"
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/reducao" with JSON:
      """
      {"coberturas": [{"itemProdutoId": 1001, "capitalSeguradoNovo": 300000}]}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Descricao" matches "deve diminuir"
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/reducao" with JSON:
      """
      {"coberturas": [{"itemProdutoId": 9999, "capitalSeguradoNovo": 1000}]}
      """
    Then the response status is 422
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/reducao" with JSON:
      """
      {"valorContribuicaoNovo": 1.00}
      """
    Then the response status is 422
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/reducao" with JSON:
      """
      {"valorContribuicaoNovo": 10, "coberturas": [{"itemProdutoId": 1001, "capitalSeguradoNovo": 90000}]}
      """
    Then the response status is 400

  Scenario: A cancellation inside the chargeback window cancels open charges and reverses commissions
    When I advance the clock by "56d"
    Then the receiver gets a "comissao.paga" event within 5 seconds
    And I remember the event field "subject.comissaoId" as "comissao"
    When I obtain a token
    And I send "POST" to "/customer/v1/inscricao/${inscricao}/cancelamento" with JSON:
      """
      {"motivo": "Pedido do cliente", "tipoCancelamento": "SOLICITACAO_CLIENTE",
       "solicitante": {"tipoDocumento": "CPF", "documento": "11144477735"}}
      """
    Then the response status is 202
    And the response field "Valor.status" is "CANCELAMENTO_SOLICITADO"
    And the response field "Valor.protocolo" matches "^CAN-"
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/cancelamento" with JSON:
      """
      {"motivo": "de novo"}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "INSCRICAO_NAO_CANCELAVEL"
    When I advance the clock by "5m"
    Then the receiver gets a "inscricao.valor_pago_alterado" event whose "data.motivo" is "CANCELAMENTO" within 5 seconds
    And the event field "data.valorNovo" is "0"
    And the receiver gets a "comissao.estornada" event whose "subject.comissaoId" is "${comissao}" within 5 seconds
    And the event field "data.valor" matches "^-"
    When I send "GET" to "/customer/v1/inscricao/${inscricao}/cobrancas?status=EMITIDA"
    Then the response field "Valor" has 0 items
    When I send "GET" to "/customer/v1/inscricao/${inscricao}"
    Then the response field "Valor.status" is "CANCELADA"
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/reducao" with JSON:
      """
      {"valorContribuicaoNovo": 10}
      """
    Then the response status is 422

  Scenario: Another company's or an unknown enrollment is not found
    When I send "GET" to "/customer/v1/inscricao/999999"
    Then the response status is 404
    And the response field "Mensagens.0.Codigo" is "INSCRICAO_NAO_ENCONTRADA"
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "sul"
    And I obtain a token
    When I send "GET" to "/customer/v1/inscricao/${inscricao}"
    Then the response status is 404
    When I send "POST" to "/customer/v1/inscricao/${inscricao}/cancelamento" with JSON:
      """
      {"motivo": "não é meu"}
      """
    Then the response status is 404
