Feature: Benefit cycle: who is paid, and the notices the insurer refuses to take
  A notice must name an enrollment of the caller's company, the insured's
  CPF, a cause one of its coverages pays and an occurrence between the
  start of cover and now; every broken rule is a 422 naming its field,
  every malformed input a 400 naming its field. Pedro's enrollment
  insures 200 000 for death by any cause and 200 000 for total disability
  by accident; his proposal names no beneficiary. The clock is frozen at
  2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    And a webhook receiver answering 200
    And the app's webhook points to the receiver
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"cpf": "11144477735", "dataNascimento": "1986-03-15", "profissaoCbo": "2410-05", "renda": 8000, "sexoId": 1, "uf": "SP"},
        "periodicidadeCobrancaId": 30, "capitalSegurado": 200000}]}
      """
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premioMorte"
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.1.premio" as "premioInvalidez"
    And I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "0",
        "DADOS_PROPONENTE": {"NOME": "Pedro Alves", "DT_NASCIMENTO": "1986-03-15", "SEXO": "MASCULINO", "CPF": "11144477735", "RENDA_MENSAL": 8000,
          "ENDERECOS": {"ENDERECO": [{"TIPO": "RESIDENCIAL", "ESTADO": "SP", "CEP": "01310100"}]}, "PROFISSAO": {"CODIGO": "2410-05"}},
        "PLANOS": {"PLANO": [{"CODIGO": 511, "COBERTURAS": {"COBERTURA": [
          {"CODIGO": 1001, "VL_CONTRIB": ${premioMorte}, "VL_COBERTURA": 200000},
          {"CODIGO": 1002, "VL_CONTRIB": ${premioInvalidez}, "VL_COBERTURA": 200000}]}}]},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "DEBITO", "DIA_VENCIMENTO": 10,
          "CONTA_CORRENTE": {"BANCO": "341", "AGENCIA": "0001", "CONTA": "12345", "DIGITO_CONTA": "6"}},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-2026-0201"}}}
      """
    Then the response status is 201
    And I remember the response field "Valor.numeroProposta" as "numero"
    When I advance the clock by "1h7m"
    Then the receiver gets a "proposta.implantada" event within 5 seconds
    And I remember the event field "data.inscricaoIds.0" as "inscricao"
    And I obtain a token

  Scenario: By default a death is regulated in three days and paid to the legal heirs when the proposal named no beneficiary
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 201
    And I remember the response field "Valor.beneficioId" as "beneficio"
    When I advance the clock by "1h"
    Then the receiver gets a "beneficio.status" event whose "data.statusAtual" is "EM_REGULACAO" within 5 seconds
    When I advance the clock by "2d"
    Then the receiver gets a "beneficio.status" event whose "data.statusAtual" is "APROVADO" within 5 seconds
    When I advance the clock by "1d"
    Then the receiver gets a "beneficio.pago" event within 5 seconds
    And the event field "data.valor" is "200000"
    And the event field "data.beneficiarios.0.nome" is "HERDEIROS LEGAIS"
    And the event field "data.beneficiarios.0.percentual" is "100"
    And the event field "data.beneficiarios.0.valor" is "200000"
    When I obtain a token
    And I send "GET" to "/benefits/v1/beneficio?cpf=111.444.777-35&status=PAGO"
    Then the response field "Valor" has 1 item
    And the response field "Valor.0.dataPagamento" is "2026-01-08"
    And the response field "Valor.0.beneficiarios.0.cpf" does not exist
    When I send "GET" to "/sandbox/scenarios/bindings?kind=beneficio"
    Then the response field "bindings.0.scenario" is "beneficio-padrao"
    And the response field "bindings.0.status" is "done"

  Scenario: A disability is paid to the insured, whose enrollment stays in force; a retried notice is answered once
    Given I set the header "Idempotency-Key" to "aviso-invalidez-1"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"numeroProposta": "${numero}", "cpfSegurado": "11144477735", "causa": "INVALIDEZ_TOTAL_POR_ACIDENTE", "itemProdutoId": 1002,
        "dataOcorrencia": "2026-01-05T09:00:00", "horaOcorrencia": "09:00",
        "comunicante": {"nome": "Pedro Alves", "tipoDocumento": "CPF", "documento": "11144477735", "relacao": "SEGURADO"},
        "documentos": [{"tipo": "LAUDO_MEDICO", "nomeArquivo": "laudo.pdf", "conteudoBase64": "JVBERi0xLjQK"}]}
      """
    Then the response status is 201
    And I remember the response field "Valor.beneficioId" as "beneficio"
    Given I set the header "Idempotency-Key" to "aviso-invalidez-1"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"numeroProposta": "${numero}", "cpfSegurado": "11144477735", "causa": "INVALIDEZ_TOTAL_POR_ACIDENTE", "itemProdutoId": 1002,
        "dataOcorrencia": "2026-01-05T09:00:00", "horaOcorrencia": "09:00",
        "comunicante": {"nome": "Pedro Alves", "tipoDocumento": "CPF", "documento": "11144477735", "relacao": "SEGURADO"},
        "documentos": [{"tipo": "LAUDO_MEDICO", "nomeArquivo": "laudo.pdf", "conteudoBase64": "JVBERi0xLjQK"}]}
      """
    Then the response status is 201
    And the response header "Idempotent-Replayed" is "true"
    And the response field "Valor.beneficioId" is "${beneficio}"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "INVALIDEZ_TOTAL_POR_ACIDENTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Pedro Alves", "tipoDocumento": "CPF", "documento": "11144477735", "relacao": "SEGURADO"}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "BENEFICIO_JA_AVISADO"
    And the response field "Mensagens.0.Campo" is "causa"
    And the response is valid against schema "platform/insurer-envelope"
    When I advance the clock by "1h"
    And I advance the clock by "2d"
    And I advance the clock by "1d"
    Then the receiver gets a "beneficio.pago" event within 5 seconds
    And the event field "data.beneficiarios.0.cpf" is "11144477735"
    And the event field "data.beneficiarios.0.nome" is "Pedro Alves"
    And the event field "data.beneficiarios.0.valor" is "200000"
    When I obtain a token
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}"
    Then the response field "Valor.itemProdutoId" is "1002"
    And the response field "Valor.horaOcorrencia" is "09:00"
    And the response field "Valor.coberturas.0.descricao" is "INVALIDEZ PERMANENTE TOTAL POR ACIDENTE"
    When I send "GET" to "/insurer/v1/inscricao/${inscricao}"
    Then the response field "Valor.status" is "ATIVA"

  Scenario Outline: A notice that breaks a rule of the enrollment is refused naming the field
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {<enrollment>, "cpfSegurado": "<cpf>", "causa": "<causa>", <item> "dataOcorrencia": "<data>", "horaOcorrencia": "<hora>",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 422
    And the response field "HouveErrosDuranteProcessamento" is "true"
    And the response field "Mensagens.0.Codigo" is "<codigo>"
    And the response field "Mensagens.0.Campo" is "<campo>"
    And the response is valid against schema "platform/insurer-envelope"
    Examples:
      | enrollment                   | cpf         | causa                        | item                    | data       | hora     | codigo                       | campo          |
      | "inscricaoId": ${inscricao}  | 11144477735 | DOENCA_GRAVE                 |                         | 2026-01-05 | 10:00    | CAUSA_NAO_COBERTA            | causa          |
      | "inscricaoId": ${inscricao}  | 11144477735 | MORTE_ACIDENTAL              | "itemProdutoId": 1003,  | 2026-01-05 | 10:00    | COBERTURA_NAO_CONTRATADA     | itemProdutoId  |
      | "inscricaoId": ${inscricao}  | 11144477735 | INVALIDEZ_TOTAL_POR_ACIDENTE | "itemProdutoId": 1001,  | 2026-01-05 | 10:00    | CAUSA_NAO_COBERTA            | causa          |
      | "inscricaoId": ${inscricao}  | 11144477735 | MORTE                        |                         | 2026-01-04 | 10:00    | OCORRENCIA_ANTES_DA_VIGENCIA | dataOcorrencia |
      | "inscricaoId": ${inscricao}  | 11144477735 | MORTE                        |                         | 2026-01-06 | 10:00    | OCORRENCIA_FUTURA            | dataOcorrencia |
      | "inscricaoId": ${inscricao}  | 11144477735 | MORTE                        |                         | 2026-01-05 | 23:00:00 | OCORRENCIA_FUTURA            | horaOcorrencia |
      | "inscricaoId": ${inscricao}  | 52998224725 | MORTE                        |                         | 2026-01-05 | 10:00    | CPF_DIVERGENTE               | cpfSegurado    |
      | "inscricaoId": 99999         | 11144477735 | MORTE                        |                         | 2026-01-05 | 10:00    | INSCRICAO_NAO_ENCONTRADA     | inscricaoId    |
      | "numeroProposta": 999999     | 11144477735 | MORTE                        |                         | 2026-01-05 | 10:00    | PROPOSTA_NAO_ENCONTRADA      | numeroProposta |
      | "inscricaoId": ${inscricao}, "numeroProposta": 999999 | 11144477735 | MORTE           |                         | 2026-01-05 | 10:00    | PROPOSTA_DIVERGENTE          | numeroProposta |
      | "inscricaoId": ${inscricao}  | 11144477735 | INTERNACAO_HOSPITALAR        |                         | 2026-01-05 | 10:00    | CAUSA_NAO_COBERTA            | causa          |

  Scenario: Several broken rules are all named; a proposal not yet implanted has nothing to claim
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "52998224725", "causa": "DOENCA_GRAVE", "dataOcorrencia": "2026-01-01",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 422
    And the response field "Mensagens" has 3 items
    And the response field "Mensagens.0.Codigo" is "AVISO_DE_BENEFICIO_INVALIDO"
    And the response body contains "cpfSegurado"
    And the response body contains "dataOcorrencia"
    And the response body contains "CAUSA_NAO_COBERTA"
    When I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "0",
        "DADOS_PROPONENTE": {"NOME": "Pedro Alves", "DT_NASCIMENTO": "1986-03-15", "SEXO": "MASCULINO", "CPF": "11144477735", "RENDA_MENSAL": 8000,
          "ENDERECOS": {"ENDERECO": [{"TIPO": "RESIDENCIAL", "ESTADO": "SP", "CEP": "01310100"}]}, "PROFISSAO": {"CODIGO": "2410-05"}},
        "PLANOS": {"PLANO": [{"CODIGO": 511, "COBERTURAS": {"COBERTURA": [{"CODIGO": 1001, "VL_CONTRIB": ${premioMorte}, "VL_COBERTURA": 200000}]}}]},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 10},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-2026-0202"}}}
      """
    And I remember the response field "Valor.numeroProposta" as "outra"
    And I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"numeroProposta": ${outra}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "PROPOSTA_NAO_IMPLANTADA"
    And the response field "Mensagens.0.Campo" is "numeroProposta"

  Scenario: Malformed notices are 400s naming the field
    When I send "POST" to "/benefits/v1/beneficio" with a body of type "application/json":
      """
      {"inscricaoId": ${inscricao}, "causa":
      """
    Then the response status is 400
    And the response field "HouveErrosDuranteProcessamento" is "true"
    And the response is valid against schema "platform/insurer-envelope"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "ABDUCAO", "dataOcorrencia": "2026-01-05", "sinistro": 1,
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "causa"
    And the response field "Mensagens.1.Campo" is "sinistro"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "inscricaoId"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477736", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "cpfSegurado"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "ontem",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "dataOcorrencia"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"},
        "documentos": [{"tipo": "CERTIDAO_OBITO", "nomeArquivo": "c.pdf", "conteudoBase64": "não é base64"}]}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "documentos.0.conteudoBase64"
    When I send "POST" to "/benefits/v1/beneficio?cnpj=11444777000161" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 403
    And the response field "Mensagens.0.Codigo" is "CNPJ_NAO_AUTORIZADO"
    When I send "GET" to "/benefits/v1/beneficio?cpf=123"
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "cpf"
    When I send "GET" to "/benefits/v1/beneficio/424242"
    Then the response status is 404
    And the response field "Mensagens.0.Codigo" is "BENEFICIO_NAO_ENCONTRADO"
    When I obtain a token with scope "apiseguradora"
    And I send "GET" to "/benefits/v1/beneficio"
    Then the response status is 403

  Scenario: Pendings and reopening refuse what does not apply
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    And I remember the response field "Valor.beneficioId" as "beneficio"
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}/pendencias"
    Then the response status is 200
    And the response field "Valor" has 0 items
    When I send "PUT" to "/benefits/v1/beneficio/${beneficio}/pendencias/1" with JSON:
      """
      {"resposta": "segue"}
      """
    Then the response status is 404
    And the response field "Mensagens.0.Codigo" is "PENDENCIA_NAO_ENCONTRADA"
    When I send "PUT" to "/benefits/v1/beneficio/${beneficio}/pendencias/1" with JSON:
      """
      {}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "resposta"
    When I send "POST" to "/benefits/v1/beneficio/${beneficio}/reabertura" with JSON:
      """
      {"justificativa": "Queremos reabrir"}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "BENEFICIO_NAO_REABRIVEL"
    And the response field "Mensagens.0.Campo" is "status"
    When I send "POST" to "/benefits/v1/beneficio/${beneficio}/reabertura" with JSON:
      """
      {}
      """
    Then the response status is 400
    And the response field "Mensagens.0.Campo" is "justificativa"

  Scenario: Another company's enrollment and benefits are as unknown as missing ones
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    And I remember the response field "Valor.beneficioId" as "beneficio"
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "backend"
    And I obtain a token
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "INSCRICAO_NAO_ENCONTRADA"
    And the response field "Mensagens.0.Campo" is "inscricaoId"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"numeroProposta": ${numero}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Clara Alves", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "CONJUGE"}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "PROPOSTA_NAO_ENCONTRADA"
    When I send "GET" to "/benefits/v1/beneficio/${beneficio}"
    Then the response status is 404
    When I send "GET" to "/benefits/v1/beneficio"
    Then the response field "Valor" has 0 items
    When I send "POST" to "/benefits/v1/beneficio/${beneficio}/reabertura" with JSON:
      """
      {"justificativa": "Não é nosso"}
      """
    Then the response status is 404
