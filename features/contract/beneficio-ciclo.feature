Feature: Benefit cycle: notice, regulation with pendings, payment, refusal and reopening
  The benefits API (/benefits/v1, scope apibeneficio) in the insurer's
  envelope. Magic CPFs of the communicant (comunicante.documento) select
  what regulation does (scenarios/README.md): 666.111.444-47 gets a
  documents pending, 777.222.555-58 has its first answer rejected,
  888.333.666-69 is refused (and paid if the partner reopens it),
  999.444.777-70 is refused and reopened by the insurer. Maria's
  enrollment insures 200 000 for death by any cause and 200 000 more for
  accidental death; her proposal names João (60%) and Ana (40%). The
  clock is frozen at 2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    And a webhook receiver answering 200
    And the app's webhook points to the receiver
    When I send "POST" to "/insurer/v1/simulacao?cnpj=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"cpf": "11144477735", "dataNascimento": "1986-03-15", "profissaoCbo": "2410-05", "renda": 8000, "sexoId": 2, "uf": "SP"},
        "periodicidadeCobrancaId": 30, "capitalSegurado": 200000}]}
      """
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premio" as "premioMorte"
    And I remember the response field "Valor.simulacoes.0.produtos.0.coberturas.2.premio" as "premioAcidental"
    And I send "POST" to "/insurer/v1/proposta?empresa=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"PROPOSTA": {"NUMERO": "0",
        "DADOS_PROPONENTE": {"NOME": "Maria Souza", "DT_NASCIMENTO": "1986-03-15", "SEXO": "FEMININO", "CPF": "11144477735", "RENDA_MENSAL": 8000,
          "ENDERECOS": {"ENDERECO": [{"TIPO": "RESIDENCIAL", "ESTADO": "SP", "CEP": "01310100"}]}, "PROFISSAO": {"CODIGO": "2410-05"}},
        "PLANOS": {"PLANO": [{"CODIGO": 511, "COBERTURAS": {"COBERTURA": [
          {"CODIGO": 1001, "VL_CONTRIB": ${premioMorte}, "VL_COBERTURA": 200000},
          {"CODIGO": 1003, "VL_CONTRIB": ${premioAcidental}, "VL_COBERTURA": 200000}]}}]},
        "BENEFICIARIOS": {"BENEFICIARIO": [{"NOME": "João Souza", "PARENTESCO": "CONJUGE", "PARTICIPACAO": 60},
                                           {"NOME": "Ana Souza", "PARENTESCO": "FILHA", "PARTICIPACAO": 40}]},
        "DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "DEBITO", "DIA_VENCIMENTO": 10,
          "CONTA_CORRENTE": {"BANCO": "341", "AGENCIA": "0001", "CONTA": "12345", "DIGITO_CONTA": "6"}},
        "ASSINATURA": {"TIPO": "DOCUMENTO", "ID_DOCUMENTO": "GED-2026-0101"}}}
      """
    Then the response status is 201
    And I remember the response field "Valor.numeroProposta" as "numero"
    When I advance the clock by "1h7m"
    Then the receiver gets a "proposta.implantada" event within 5 seconds
    And the event field "data.inscricaoIds.0" exists
    And I remember the event field "data.inscricaoIds.0" as "inscricao"
    And I obtain a token

  Scenario: A death notice goes through a documents pending to payment split among the beneficiaries; the enrollment ends
    When I send "POST" to "/benefits/v1/beneficio?cnpj=11222333000181" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "111.444.777-35", "causa": "MORTE",
        "dataOcorrencia": "2026-01-05", "horaOcorrencia": "09:30:00", "descricaoOcorrencia": "Infarto agudo do miocárdio em casa",
        "comunicante": {"nome": "João Souza", "tipoDocumento": "CPF", "documento": "666.111.444-47", "relacao": "CONJUGE",
          "email": "joao@example.com", "telefone": "11999990000"},
        "documentos": [{"tipo": "DOCUMENTO_IDENTIFICACAO", "nomeArquivo": "rg.pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQK"}]}
      """
    Then the response status is 201
    And the response field "Valor.status" is "AVISADO"
    And the response field "Valor.numeroProposta" is "${numero}"
    And the response field "Valor.protocolo" matches "^20260105\d{6}$"
    And I remember the response field "Valor.beneficioId" as "beneficio"
    And the receiver gets a "beneficio.avisado" event within 5 seconds
    And the event's signature is valid
    And the event field "subject.beneficioId" is "${beneficio}"
    And the event field "subject.inscricaoId" is "${inscricao}"
    And the event field "subject.numeroProposta" is "${numero}"
    And the event field "data.causa" is "MORTE"
    And the event field "data.dataOcorrencia" is "2026-01-05"
    When I advance the clock by "1h"
    Then the receiver gets a "beneficio.status" event whose "data.statusAtual" is "EM_REGULACAO" within 5 seconds
    And the event field "data.statusAnterior" is "AVISADO"
    And the event field "data.statusOpin" is "AVALIACAO_INICIAL"
    When I advance the clock by "2h"
    Then the receiver gets a "beneficio.pendencia" event within 5 seconds
    And the event field "data.codigo" is "DOCUMENTOS_SINISTRO"
    And the event field "data.documentosExigidos.0" is "CERTIDAO_OBITO"
    And the event field "subject.beneficioId" is "${beneficio}"
    And I remember the event field "subject.pendenciaId" as "pendencia"
    And the receiver gets a "beneficio.status" event whose "data.statusAtual" is "PENDENTE" within 5 seconds
    When I obtain a token
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}/pendencias?status=ABERTA"
    Then the response status is 200
    And the response field "Valor" has 1 item
    And the response field "Valor.0.documentosExigidos" has 2 items
    When I send "PUT" to "/benefits/v1/beneficio/${beneficio}/pendencias/${pendencia}" with JSON:
      """
      {"resposta": "Seguem a certidão e o documento.", "documentos": [
        {"tipo": "CERTIDAO_OBITO", "nomeArquivo": "certidao.pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQK"},
        {"tipo": "DOCUMENTO_IDENTIFICACAO", "nomeArquivo": "rg.pdf", "conteudoBase64": "JVBERi0xLjQK"}]}
      """
    Then the response status is 200
    And the response field "Valor.status" is "RESPONDIDA"
    And the response field "Valor.documentos.0.tamanho" is "9"
    And the receiver gets a "beneficio.pendencia_respondida" event within 5 seconds
    And the event field "subject.pendenciaId" is "${pendencia}"
    And the event field "data.resposta" is "Seguem a certidão e o documento."
    And the event field "data.documentos.0.tipo" is "CERTIDAO_OBITO"
    When I send "PUT" to "/benefits/v1/beneficio/${beneficio}/pendencias/${pendencia}" with JSON:
      """
      {"resposta": "de novo"}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "PENDENCIA_NAO_ABERTA"
    And the response field "Mensagens.0.Campo" is "pendenciaId"
    When I send "PUT" to "/benefits/v1/beneficio/${beneficio}/pendencias/99999" with JSON:
      """
      {"resposta": "qual pendência?"}
      """
    Then the response status is 404
    And the response field "Mensagens.0.Codigo" is "PENDENCIA_NAO_ENCONTRADA"
    When I advance the clock by "1h"
    Then the receiver gets a "beneficio.status" event whose "data.statusAnterior" is "PENDENTE" within 5 seconds
    And the event field "data.statusAtual" is "EM_REGULACAO"
    When I advance the clock by "1d"
    Then the receiver gets a "beneficio.status" event whose "data.statusAtual" is "APROVADO" within 5 seconds
    When I advance the clock by "1d"
    Then the receiver gets a "beneficio.status" event whose "data.statusAtual" is "PAGO" within 5 seconds
    And the event field "data.statusOpin" is "ENCERRADO_COM_INDENIZACAO"
    And the receiver gets a "beneficio.pago" event within 5 seconds
    And the event field "data.valor" is "200000"
    And the event field "data.dataPagamento" is "2026-01-07"
    And the event field "data.beneficiarios.0.nome" is "João Souza"
    And the event field "data.beneficiarios.0.percentual" is "60"
    And the event field "data.beneficiarios.0.valor" is "120000"
    And the event field "data.beneficiarios.1.nome" is "Ana Souza"
    And the event field "data.beneficiarios.1.valor" is "80000"
    When I obtain a token
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}"
    Then the response status is 200
    And the response field "Valor.status" is "PAGO"
    And the response field "Valor.valor" is "200000"
    And the response field "Valor.coberturas" has 1 item
    And the response field "Valor.coberturas.0.itemProdutoId" is "1001"
    And the response field "Valor.pendencias.0.status" is "RESOLVIDA"
    And the response field "Valor.comunicante.documento" is "66611144447"
    And the response field "Valor.documentos.0.nomeArquivo" is "rg.pdf"
    When I send "GET" to "/insurer/v1/inscricao/${inscricao}"
    Then the response field "Valor.status" is "ENCERRADA"
    When I send "GET" to "/benefits/v1/beneficio/${beneficio}/timeline"
    Then the response status is 200
    And the response field "Valor.0.status" is "AVISADO"
    And the response field "Valor.1.status" is "EM_REGULACAO"
    And the response field "Valor.2.status" is "PENDENTE"
    And the response field "Valor.3.pendencias.0.codigo" is "DOCUMENTOS_SINISTRO"
    And the response field "Valor.4.descricao" is "Pendência respondida"
    And the response field "Valor.5.status" is "EM_REGULACAO"
    And the response field "Valor.6.status" is "APROVADO"
    And the response field "Valor.7.status" is "PAGO"
    When I send "GET" to "/benefits/v1/beneficio?inscricaoId=${inscricao}"
    Then the response field "Valor" has 1 item
    And the response field "Valor.0.beneficiarios.1.percentual" is "40"
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "Ana Souza", "tipoDocumento": "CPF", "documento": "52998224725", "relacao": "FILHO"}}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "INSCRICAO_ENCERRADA"
    And the response field "Mensagens.0.Campo" is "inscricaoId"

  Scenario: A pending whose first answer is rejected gets a new pending; the second answer is accepted
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"numeroProposta": ${numero}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "05-01-2026",
        "comunicante": {"nome": "João Souza", "tipoDocumento": "CPF", "documento": "77722255558", "relacao": "CONJUGE"}}
      """
    Then the response status is 201
    And the response field "Valor.inscricaoId" is "${inscricao}"
    And I remember the response field "Valor.beneficioId" as "beneficio"
    When I advance the clock by "3h"
    Then the receiver gets a "beneficio.pendencia" event whose "data.codigo" is "LAUDO_MEDICO" within 5 seconds
    And I remember the event field "subject.pendenciaId" as "primeira"
    When I obtain a token
    And I send "PUT" to "/benefits/v1/beneficio/${beneficio}/pendencias/${primeira}" with JSON:
      """
      {"documentos": [{"tipo": "LAUDO_MEDICO", "nomeArquivo": "laudo.jpg", "conteudoBase64": "/9j/4AAQ"}]}
      """
    Then the response status is 200
    And the response field "Valor.autor" is "${app.clientId}"
    When I advance the clock by "1h"
    Then the receiver gets a "beneficio.pendencia" event whose "data.codigo" is "LAUDO_MEDICO_LEGIVEL" within 5 seconds
    And I remember the event field "subject.pendenciaId" as "segunda"
    When I obtain a token
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}/pendencias"
    Then the response field "Valor.0.status" is "REJEITADA"
    And the response field "Valor.1.status" is "ABERTA"
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}"
    And the response field "Valor.status" is "PENDENTE"
    When I send "PUT" to "/benefits/v1/beneficio/${beneficio}/pendencias/${segunda}" with JSON:
      """
      {"resposta": "Laudo assinado, em boa resolução", "documentos": [{"tipo": "LAUDO_MEDICO", "nomeArquivo": "laudo.pdf", "conteudoBase64": "JVBERi0xLjQK"}]}
      """
    Then the response status is 200
    When I advance the clock by "1h"
    Then the receiver gets a "beneficio.status" event whose "data.statusAnterior" is "PENDENTE" within 5 seconds
    And the event field "data.statusAtual" is "EM_REGULACAO"
    When I obtain a token
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}/pendencias"
    Then the response field "Valor.0.status" is "REJEITADA"
    And the response field "Valor.1.status" is "RESOLVIDA"

  Scenario: A refused benefit says why; the partner reopens it and it is paid
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": "${inscricao}", "cpfSegurado": "11144477735", "causa": "MORTE_ACIDENTAL", "dataOcorrencia": "2026-01-05",
        "descricaoOcorrencia": "Acidente de trânsito",
        "comunicante": {"nome": "João Souza", "tipoDocumento": "CPF", "documento": "888.333.666-69", "relacao": "CONJUGE"}}
      """
    Then the response status is 201
    And I remember the response field "Valor.beneficioId" as "beneficio"
    When I advance the clock by "1h"
    And I advance the clock by "1d"
    Then the receiver gets a "beneficio.recusado" event within 5 seconds
    And the event field "data.motivoRecusa" is "SEM_DOCUMENTACAO"
    And the event field "subject.beneficioId" is "${beneficio}"
    And the receiver gets a "beneficio.status" event whose "data.statusAtual" is "RECUSADO" within 5 seconds
    And the event field "data.statusOpin" is "ENCERRADO_SEM_INDENIZACAO"
    When I obtain a token
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}"
    Then the response field "Valor.status" is "RECUSADO"
    And the response field "Valor.motivoRecusa" is "SEM_DOCUMENTACAO"
    And the response field "Valor.valor" does not exist
    When I send "POST" to "/benefits/v1/beneficio/${beneficio}/reabertura" with JSON:
      """
      {"justificativa": "Documentos obtidos no cartório; pedimos nova análise"}
      """
    Then the response status is 200
    And the response field "Valor.status" is "REABERTO"
    And the response field "Valor.statusOpin" is "REABERTO"
    And the response field "Valor.motivoRecusa" does not exist
    And the receiver gets a "beneficio.status" event whose "data.statusAtual" is "REABERTO" within 5 seconds
    And the event field "data.motivo" is "Documentos obtidos no cartório; pedimos nova análise"
    When I send "POST" to "/benefits/v1/beneficio/${beneficio}/reabertura" with JSON:
      """
      {"justificativa": "De novo, por favor"}
      """
    Then the response status is 422
    And the response field "Mensagens.0.Codigo" is "BENEFICIO_NAO_REABRIVEL"
    When I advance the clock by "1h"
    Then the receiver gets a "beneficio.status" event whose "data.statusAnterior" is "REABERTO" within 5 seconds
    And the event field "data.statusAtual" is "EM_REGULACAO"
    When I advance the clock by "1d"
    And I advance the clock by "1d"
    Then the receiver gets a "beneficio.pago" event within 5 seconds
    And the event field "data.valor" is "400000"
    And the event field "data.beneficiarios.0.valor" is "240000"
    And the event field "data.beneficiarios.1.valor" is "160000"
    When I obtain a token
    And I send "GET" to "/benefits/v1/beneficio/${beneficio}"
    Then the response field "Valor.coberturas" has 2 items
    When I send "GET" to "/benefits/v1/beneficio/${beneficio}/timeline"
    Then the response field "Valor.2.status" is "RECUSADO"
    And the response field "Valor.2.descricao" matches "^Benefício RECUSADO: SEM_DOCUMENTACAO"
    And the response field "Valor.3.status" is "REABERTO"
    And the response field "Valor.3.usuario" is "${app.clientId}"

  Scenario: The insurer reopens a refusal by itself and pays it
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "João Souza", "tipoDocumento": "CPF", "documento": "99944477770", "relacao": "CONJUGE"}}
      """
    Then the response status is 201
    When I advance the clock by "1h"
    And I advance the clock by "1d"
    Then the receiver gets a "beneficio.recusado" event within 5 seconds
    And the event field "data.motivoRecusa" is "DOCUMENTACAO_INCOMPLETA"
    And the event field "data.descricao" is "Falta o laudo do IML"
    When I advance the clock by "2d"
    Then the receiver gets a "beneficio.status" event whose "data.statusAtual" is "REABERTO" within 5 seconds
    And the event field "data.motivo" is "Revisão da regulação com o laudo do IML recebido"
    When I advance the clock by "1h"
    Then the receiver gets a "beneficio.status" event whose "data.statusAnterior" is "REABERTO" within 5 seconds
    When I advance the clock by "1d"
    And I advance the clock by "1d"
    Then the receiver gets a "beneficio.pago" event within 5 seconds
    And the event field "data.valor" is "200000"

  Scenario: A partner's reopening before the insurer's own is regulated by the reopening scenario
    When I send "POST" to "/benefits/v1/beneficio" with JSON:
      """
      {"inscricaoId": ${inscricao}, "cpfSegurado": "11144477735", "causa": "MORTE", "dataOcorrencia": "2026-01-05",
        "comunicante": {"nome": "João Souza", "tipoDocumento": "CPF", "documento": "99944477770", "relacao": "CONJUGE"}}
      """
    And I remember the response field "Valor.beneficioId" as "beneficio"
    And I advance the clock by "1h"
    And I advance the clock by "1d"
    Then the receiver gets a "beneficio.recusado" event within 5 seconds
    When I obtain a token
    And I send "POST" to "/benefits/v1/beneficio/${beneficio}/reabertura" with JSON:
      """
      {"justificativa": "Enviamos o laudo do IML"}
      """
    Then the response status is 200
    When I send "GET" to "/sandbox/scenarios/bindings?kind=beneficio&key=${beneficio}"
    Then the response field "bindings.0.scenario" is "beneficio-regulacao-apos-reabertura"
    And the response field "bindings.0.how" is "control"
    And the response field "bindings.1.scenario" is "beneficio-reaberto"
    And the response field "bindings.1.status" is "stopped"
    When I advance the clock by "1h"
    Then the receiver gets a "beneficio.status" event whose "data.statusAnterior" is "REABERTO" within 5 seconds
    When I advance the clock by "1d"
    And I advance the clock by "1d"
    Then the receiver gets a "beneficio.pago" event within 5 seconds
