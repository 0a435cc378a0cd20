Feature: Insurance as the v2 client generated from the insurer's Swagger calls it
  The operations of the JavaScript client swagger-codegen generated from
  MAG's "API.Seguradora" v2 Swagger (insurance CLIENTS.md: "HK-gen",
  javascript-client/src/api/*.js and src/model/*.js), with only the base URL
  changed: /api/{version}/ and a PascalCase resource, as its paths are
  written (the version is any; these calls use v2). Bodies carry the
  models' wire names (PascalCase where the Swagger has them), and each step
  reads the fields the models declare. Mensagens are strings, as every v2
  envelope model declares them.

  The v2 API has no signature: a signed proposal filed in the GED with the
  client's own DocumentoApi (tipoDocumento PROPOSTA ASSINADA, indexed by the
  customer's CPF) signs the customer's next venda; a venda without one is
  taken, as no v2 client signs, and the missing signature is a finding. The v2
  client sends no capital in a simulation: the partner prices its capital
  as capital ÷ capitalBase × premioBase. The clock is frozen at
  2026-01-05T12:00:00Z.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token with scope "apiseguradora"

  Scenario: From the offer list to implantation: domain, offers, products, questionnaires, simulation, the signed proposal in the GED, venda, and the follow-up calls
    # DominioApi.js:88,107: Valor, read as the apps read it, a list of {Id, Descricao, Auxiliar}
    When I send "GET" to "/api/v2/Dominio/CBO"
    Then the response status is 200
    And the response field "Valor.0.Id" is "241005"
    And the response field "Valor.0.Auxiliar" is "2410-05"
    # ModeloPropostaApi.js:62-67,113: cnpj, completo, canalVenda
    When I send "GET" to "/api/v2/ModeloProposta?cnpj=11222333000181&completo=true&canalVenda=4"
    Then the response status is 200
    And the response field "Mensagens" has 0 items
    And the response field "Valor.6.id" is "YZ"
    And the response field "Valor.6.nome" is "MAG Vida Temporária"
    And the response field "Valor.6.ticketMinimo" is "30"
    And the response field "Valor.6.diasVencimento.0" is "5"
    And the response field "Valor.6.periodicidades.0.id" is "30"
    And the response field "Valor.6.formasPagamento.0.descricao" is "BOLETO"
    And the response field "Valor.6.canalComercializacao.id" is "4"
    # ModeloPropostaApi.js:164-186: one offer, ModeloPropostaReduzido
    When I send "GET" to "/api/v2/ModeloProposta/YZ?cnpj=11222333000181&completo=false"
    Then the response status is 200
    And the response field "Valor.produtos.0.id" is "511"
    And the response field "Valor.produtos.0.dataUltimaAlteracao" exists
    And the response field "Valor.politicaAceitacao.id" is "301"
    And the response field "Valor.questionarios.0.id" is "901"
    # ProdutoApi.js:91-176; M:ProdutoProduto.js, M:ProdutoCobertura.js: capitalFixo and profissoesRecusadas are numbers
    When I send "GET" to "/api/v2/Produto?codigoModeloProposta=YZ"
    Then the response status is 200
    And the response field "Valor.0.id" is "511"
    When I send "GET" to "/api/v2/Produto/511?codigoModeloProposta=YZ"
    Then the response status is 200
    And the response is valid against schema "insurance/produto"
    And the response field "Valor.idadeMinima" is "18"
    And the response field "Valor.idadeMaxima" is "65"
    And the response field "Valor.exigeDPS" is "true"
    And the response field "Valor.profissoesRecusadas.0" is "215305"
    And the response field "Valor.coberturas.0.itemProdutoId" is "1001"
    And the response field "Valor.coberturas.0.obrigatoria" is "true"
    And the response field "Valor.coberturas.0.capitalFixo" is "0"
    And the response field "Valor.coberturas.0.valorFixo" is "0"
    And the response field "Valor.coberturas.0.valorMinimoCapitalContratacao" is "50000"
    And the response field "Valor.coberturas.0.tipo.id" is "3"
    # QuestionarioApi.js:91-180; M:QuestionarioItemQuestionario.js: perguntas with tipo {id, descricao} and ordem
    When I send "GET" to "/api/v2/Questionario?codigoModeloProposta=YZ"
    Then the response status is 200
    And the response field "Valor.0.id" is "901"
    When I send "GET" to "/api/v2/Questionario/901?codigoModeloProposta=YZ&vigencia=2026-01-05"
    Then the response status is 200
    And the response is valid against schema "insurance/questionario"
    And the response field "Valor.perguntas.0.id" is "1"
    And the response field "Valor.perguntas.0.tipo.id" is "1"
    And the response field "Valor.perguntas.0.tipo.descricao" is "PERGUNTA"
    And the response field "Valor.perguntas.8.ordem" is "9"
    # SimulacaoApi.js:63-120; M:SimulacaoSimulacaoProposta.js: no capital; dataNascimento a Date,
    # which JSON.stringify writes as an ISO date-time
    When I send "POST" to "/api/v2/Simulacao?cnpj=11222333000181&codigoModeloProposta=YZ" with JSON:
      """
      {"simulacoes": [{"proponente": {"tipoRelacaoSeguradoId": 1, "nome": "CARLOS PEREIRA", "cpf": "39053344705",
        "dataNascimento": "1980-05-10T00:00:00.000Z", "profissaoCbo": "2521-05", "renda": 12000, "sexoId": 1, "uf": "RJ", "declaracaoIRId": 1,
        "emails": [], "telefones": []},
        "periodicidadeCobrancaId": 30, "prazoCerto": 20}]}
      """
    Then the response status is 200
    And the response is valid against schema "insurance/simulacao"
    And the response field "Mensagens" has 0 items
    # M:SimulacaoSimulacaoProduto.js, M:SimulacaoSimulacaoCobertura.js
    And the response field "Valor.simulacoes.0.produtos.0.idProduto" is "511"
    And the response field "Valor.simulacoes.0.produtos.0.descricaoComercial" is "Vida Temporária MAG"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.id" is "24"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.tipoId" is "3"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.causaId" is "1"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.tipoCapitalBase" is "CAPITAL_SEGURADO"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.capitalBase" is "1000"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.premioBase" is "0.45091638"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.custoFixo" is "0"
    And the response field "Valor.simulacoes.0.produtos.0.coberturas.0.limite" is "2160000"
    # The signed proposal, in the GED: DocumentoApi.js:62-113, M:DocDocumento.js; Valor true
    When I send "POST" to "/api/v2/Documento?cnpj=11222333000181" with JSON:
      """
      {"dataDocumento": "2026-01-05T12:00:00.000Z", "formato": "PDF", "grupoDocumento": "PROPOSTA", "qtdePaginas": 1,
       "tipoDocumento": "PROPOSTA ASSINADA", "nomeArquivo": "proposta-carlos-pereira.pdf",
       "indicesDocumento": [{"valor": "39053344705", "tipoIndice": "CPF"}],
       "pagina": [{"pagina": 1, "dados": ["JVBERi0xLjQKJcOkw7zDtsOfCg=="]}]}
      """
    Then the response status is 201
    And the response is valid against schema "insurance/documento.created"
    And the response field "Valor" is "true"
    # VendaApi.js:68-106; M:PropostaDadosRegistrarVenda.js and the models under it: the Swagger's wire
    # names, the CNPJ and the offer in the body. MORTE at 300,000: 300000 ÷ 1000 × 0.45091638 =
    # 135.274914, sent rounded to the cent.
    When I send "POST" to "/api/v2/venda" with JSON:
      """
      {"CNPJ": "11222333000181", "ModeloProposta": "YZ", "Instituidor": {"Numero": 0, "Nome": ""},
       "DadosProponente": {"Matricula": 0, "Nome": "CARLOS PEREIRA", "DtNascimento": "1980-05-10T00:00:00.000Z", "Idade": 45, "Sexo": "MASCULINO",
         "EstadoCivil": "CASADO", "CPF": "39053344705", "TitularCpf": true, "Email": "carlos@example.com", "ResideBrasil": true, "RendaMensal": 12000,
         "NumFilhos": 1, "PPE": false,
         "Documentos": [{"NaturezaDocumento": "RG", "NumeroDocumento": "112223334", "OrgaoExpeditor": "DETRAN", "DataExpedicao": "2005-03-01T00:00:00.000Z"}],
         "TipoEnderecoCorrespondecia": "RESIDENCIAL",
         "Enderecos": [{"Tipo": "RESIDENCIAL", "Logradouro": "RUA VISCONDE DE PIRAJA", "Numero": "100", "COMPLEMENTO": null, "BAIRRO": "IPANEMA",
           "CIDADE": "RIO DE JANEIRO", "ESTADO": "RJ", "CEP": "22410002"}],
         "Telefones": [{"TipoTelefone": "CELULAR", "DDI": 55, "DDD": 21, "Numero": 977776666}],
         "Profissao": {"Codigo": "2521-05", "Descricao": "ADMINISTRADOR", "Categoria": "EMPREGADO", "NomeEmpresa": "PEREIRA ADM", "EnderecosEmpresa": []},
         "RepresentanteLegal": null, "ParentescoCorretor": {"PossuiParentesco": false, "Parentesco": ""}},
       "Planos": {"VlTotal": 135.27, "Plano": [{"Codigo": 511, "Nome": "VIDA TEMPORÁRIA", "VlApInicial": 0, "VlPortab": 0, "TpTributacao": "NENHUM",
         "DtConcessao": "2026-01-05T00:00:00.000Z", "PrazoCerto": 20, "PrazoDecrescimo": 0, "Fundos": [],
         "Coberturas": [{"Codigo": 1001, "VlContrib": 135.27, "VlCobertura": 300000}]}]},
       "Beneficiarios": [{"Nome": "ANA PEREIRA", "DataNascimento": "1982-09-30T00:00:00.000Z", "Parentesco": "CONJUGE", "Participacao": 100, "CdPlano": 511}],
       "DadosCobranca": {"Periodicidade": "MENSAL", "TipoCobranca": "BOLETO", "DiaVencimento": 15, "CompetenciaDebito": "01/2026", "NumConvenio": "0",
         "IdadePagamentoAntecipado": 0, "TempoPagamentoAntecipado": 0},
       "UsoMongeral": {"ConvAdesao": "0", "AcaoMarketing": "0", "Alternativa": 0, "Sucursal": "RIO", "DirRegional": 0, "GerSucursal": 0,
         "GerComercial": 0, "Agente": 0, "Corretor1": 0, "Corretor2": 0, "AgenteFidelizacao": 0, "ModeloProposta": "YZ", "ModeloPropostaGed": "YZ",
         "TipoComissao": 0},
       "UsoCorretor": {"Nome": "CORRETORA DEMO", "CdSusep": "100000000"},
       "RespostasQuestionario": []}
      """
    # W:SystemInt64.js: Valor is the proposal number
    Then the response status is 201
    And the response is valid against schema "insurance/venda"
    And I remember the response field "Valor" as "numero"
    # PropostaApi.js:130-182; M:PropostaResumoDaProposta.js
    When I send "GET" to "/api/v2/Proposta/${numero}?cnpj=11222333000181"
    Then the response status is 200
    And the response field "Valor.modeloProposta" is "YZ"
    And the response field "Valor.valorProposta" is "135.27"
    And the response field "Valor.formaPagamento" is "BOLETO"
    And the response field "Valor.periodicidadeCobranca" is "MENSAL"
    And the response field "Valor.dataProtocolo" is "2026-01-05T12:00:00Z"
    And the response field "Valor.hierarquia.UnidadeProducao" is "RIO"
    And the response field "Valor.proponente.matricula" is "0"
    And the response field "Valor.proponente.cpf" is "39053344705"
    And the response field "Valor.agendamentosmedicos.situacoes" has 1 item
    And the response field "Valor.mensagens" has 0 items
    # PendenciaApi.js:130-182: both parameters required
    When I send "GET" to "/api/v2/Pendencia?cnpj=11222333000181&numeroProposta=${numero}"
    Then the response status is 200
    And the response field "Valor" has 0 items
    # AgendamentoMedicoApi.js:62-107: the proposal's id, no cnpj
    When I send "GET" to "/api/v2/AgendamentoMedico/${numero}"
    Then the response status is 200
    And the response field "Valor.chamadas" has 0 items
    And the response field "Valor.notificacoes" has 0 items
    And the response field "Valor.situacoes.0.descricao" exists
    # DocumentoApi.js:130-243: the document, by its index and by its id
    When I send "GET" to "/api/v2/Documento?cnpj=11222333000181&indiceDocumento.valor=39053344705&indiceDocumento.tipoIndice=CPF"
    Then the response status is 200
    And the response field "Valor" has 1 item
    And the response field "Valor.0.tipoDocumento" is "PROPOSTA ASSINADA"
    And I remember the response field "Valor.0.id" as "documento"
    When I send "GET" to "/api/v2/Documento/${documento}"
    Then the response status is 200
    And the response is valid against schema "insurance/documento"
    And the response field "Valor.nomeArquivo" is "proposta-carlos-pereira.pdf"
    And the response field "Valor.qtdePaginas" is "1"
    And the response field "Valor.pagina.0.dados" has 0 items
    # The analysis is the sandbox's: it implants the proposal 1h07m later
    When I advance the clock by "2m"
    And I advance the clock by "1h"
    And I advance the clock by "5m"
    And I obtain a token with scope "apiseguradora"
    # TimeLineApi.js:62-114; M:TimeLineTimeLine.js: Data, Status, Usuario, Pendencias in PascalCase
    And I send "GET" to "/api/v2/TimeLine?cnpj=11222333000181&numeroProposta=${numero}"
    Then the response status is 200
    And the response is valid against schema "insurance/timeline.v2"
    And the response field "Valor" has 4 items
    And the response field "Valor.0.Status" is "RECEBIDA"
    And the response field "Valor.0.Data" is "2026-01-05T12:00:00Z"
    And the response field "Valor.0.Usuario" exists
    And the response field "Valor.0.Pendencias" has 0 items
    And the response field "Valor.3.Status" is "IMPLANTADA"
    And the response field "Valor.3.AgendamentosMedicos.chamadas" has 0 items

  Scenario: A pending answered with the Pendencia's id in the body, and a cancellation with the proposal's id in the body
    # 22255588846: analysis raises a DPS pending 30 minutes in (docs/reference/insurance.md, proposal scenarios)
    When I send "POST" to "/api/v2/Documento?cnpj=11222333000181" with JSON:
      """
      {"formato": "PDF", "tipoDocumento": "PROPOSTA ASSINADA", "nomeArquivo": "proposta.pdf",
       "indicesDocumento": [{"valor": "22255588846", "tipoIndice": "CPF"}], "pagina": [{"pagina": 1, "dados": ["JVBERi0xLjQK"]}]}
      """
    And I send "POST" to "/api/v2/venda" with JSON:
      """
      {"CNPJ": "11222333000181", "ModeloProposta": "YZ",
       "DadosProponente": {"Nome": "PAULO DPS", "DtNascimento": "1980-05-10T00:00:00.000Z", "Sexo": "MASCULINO", "CPF": "22255588846", "TitularCpf": true,
         "RendaMensal": 12000, "Enderecos": [{"Tipo": "RESIDENCIAL", "ESTADO": "RJ", "CEP": "22410002"}], "Profissao": {"Codigo": "2521-05"}},
       "Planos": {"VlTotal": 135.27, "Plano": [{"Codigo": 511, "Coberturas": [{"Codigo": 1001, "VlContrib": 135.27, "VlCobertura": 300000}]}]},
       "Beneficiarios": [],
       "DadosCobranca": {"Periodicidade": "MENSAL", "TipoCobranca": "BOLETO", "DiaVencimento": 15}}
      """
    Then the response status is 201
    And I remember the response field "Valor" as "numero"
    When I advance the clock by "2m"
    And I advance the clock by "30m"
    And I send "GET" to "/api/v2/Pendencia?cnpj=11222333000181&numeroProposta=${numero}"
    Then the response status is 200
    # M:PendenciaPendencia.js: id, idProposta, dataPendencia, responsavel, grupo, descricao
    And the response field "Valor.0.idProposta" is "${numero}"
    And the response field "Valor.0.dataPendencia" exists
    And the response field "Valor.0.grupo" exists
    And I remember the response field "Valor.0.id" as "pendencia"
    # PendenciaApi.js:62-113: the Pendencia, its id in the body; its Documento's content in pagina[].dados
    When I send "PUT" to "/api/v2/Pendencia?cnpj=11222333000181" with JSON:
      """
      {"id": ${pendencia}, "idProposta": ${numero}, "dataPendencia": "2026-01-05T12:32:00.000Z", "responsavel": "SUBSCRICAO", "grupo": "DPS",
       "descricao": "Declaração pessoal de saúde", "resposta": "Segue a DPS assinada.", "autor": "CARLOS",
       "documento": {"dataDocumento": "2026-01-05T12:40:00.000Z", "formato": "PDF", "grupoDocumento": "PROPOSTA", "qtdePaginas": 1,
         "tipoDocumento": "DPS", "nomeArquivo": "dps.pdf", "indicesDocumento": [{"valor": "${numero}", "tipoIndice": "PROPOSTA"}],
         "pagina": [{"pagina": 1, "dados": ["JVBERi0xLjQK"]}]}}
      """
    Then the response status is 200
    And the response field "Valor.status" is "RESPONDIDA"
    When I advance the clock by "1h"
    And I advance the clock by "1h"
    And I advance the clock by "5m"
    And I obtain a token with scope "apiseguradora"
    And I send "GET" to "/api/v2/TimeLine?cnpj=11222333000181&numeroProposta=${numero}"
    Then the response field "Valor.2.Status" is "PENDENTE"
    And the response field "Valor.3.Pendencias.0.id" is "${pendencia}"
    And the response body contains "IMPLANTADA"
    # 55588811194: slow analysis (days): the partner withdraws the proposal before
    When I send "POST" to "/api/v2/Documento?cnpj=11222333000181" with JSON:
      """
      {"formato": "PDF", "tipoDocumento": "PROPOSTA_ASSINADA", "nomeArquivo": "proposta.pdf",
       "indicesDocumento": [{"valor": "55588811194", "tipoIndice": "CPF"}], "pagina": [{"pagina": 1, "dados": ["JVBERi0xLjQK"]}]}
      """
    And I send "POST" to "/api/v2/venda" with JSON:
      """
      {"CNPJ": "11222333000181", "ModeloProposta": "YZ",
       "DadosProponente": {"Nome": "LUCAS LENTO", "DtNascimento": "1980-05-10T00:00:00.000Z", "Sexo": "MASCULINO", "CPF": "55588811194", "TitularCpf": true,
         "RendaMensal": 12000, "Enderecos": [{"Tipo": "RESIDENCIAL", "ESTADO": "RJ", "CEP": "22410002"}], "Profissao": {"Codigo": "2521-05"}},
       "Planos": {"VlTotal": 135.274914, "Plano": [{"Codigo": 511, "Coberturas": [{"Codigo": 1001, "VlContrib": 135.274914, "VlCobertura": 300000}]}]},
       "DadosCobranca": {"Periodicidade": "MENSAL", "TipoCobranca": "BOLETO", "DiaVencimento": 15}}
      """
    Then the response status is 201
    And I remember the response field "Valor" as "lento"
    # PropostaApi.js:62-113; M:PropostaStatusProposta.js: {id, motivo, tipoCancelamento}, no id in the path
    When I send "PATCH" to "/api/v2/Proposta?cnpj=11222333000181" with JSON:
      """
      {"id": ${lento}, "motivo": "Desistência do cliente", "tipoCancelamento": 1}
      """
    Then the response status is 200
    And the response field "Valor.id" is "${lento}"
    And the response field "Valor.motivo" is "Desistência do cliente"
    And the response field "Valor.tipoCancelamento" is "1"
    When I send "PATCH" to "/api/v2/Proposta?cnpj=11222333000181" with JSON:
      """
      {"id": ${lento}, "motivo": "De novo", "tipoCancelamento": 1}
      """
    Then the response status is 422
    And the response field "HouveErrosDuranteProcessamento" is "true"
    And the response field "Mensagens.0" matches "^PROPOSTA_NAO_CANCELAVEL: status: a proposta [0-9]+ está CANCELADA"

  Scenario: Without a signature, a venda is accepted as production must, and the missing signature a finding; another company's CNPJ is refused
    # No v2 client has a way to sign (CLIENTS §5) nor files the signed proposal in the GED
    # before POST /venda (CLIENTS §3.8): the sale goes through, and the log says what it lacks
    When I send "POST" to "/api/v2/venda" with JSON:
      """
      {"CNPJ": "11222333000181", "ModeloProposta": "YZ",
       "DadosProponente": {"Nome": "SEM ASSINATURA", "DtNascimento": "1980-05-10T00:00:00.000Z", "Sexo": "MASCULINO", "CPF": "11144477735",
         "RendaMensal": 12000, "Enderecos": [{"ESTADO": "RJ"}], "Profissao": {"Codigo": "2521-05"}},
       "Planos": {"Plano": [{"Codigo": 511, "Coberturas": [{"Codigo": 1001, "VlContrib": 135.27, "VlCobertura": 300000}]}]},
       "DadosCobranca": {"Periodicidade": "MENSAL", "TipoCobranca": "BOLETO", "DiaVencimento": 15}}
      """
    Then the response status is 201
    And the response is valid against schema "insurance/venda"
    When I send "GET" to "/sandbox/interactions?method=POST&path=/insurer/v1/venda"
    Then the response field "interactions.0.findings.0.kind" is "unsigned-sale"
    And the response field "interactions.0.findings.0.field" is "PROPOSTA.ASSINATURA"
    When I send "POST" to "/api/v2/venda" with JSON:
      """
      {"CNPJ": "11444777000161", "ModeloProposta": "YZ", "DadosProponente": {"Nome": "X", "DtNascimento": "1980-05-10", "Sexo": "MASCULINO", "CPF": "11144477735"},
       "Planos": {"Plano": [{"Codigo": 511, "Coberturas": [{"Codigo": 1001, "VlContrib": 1, "VlCobertura": 300000}]}]},
       "DadosCobranca": {"TipoCobranca": "BOLETO", "DiaVencimento": 15}}
      """
    Then the response status is 403
    And the response field "Mensagens.0" matches "^CNPJ_NAO_AUTORIZADO: CNPJ: "

  Scenario: A debit venda with Banco and Agencia as the v2 model nests them
    # M:PropostaDebito.js: Banco {Numero (Number), Nome}, Agencia {Numero, DV}, ContaCorrente {Numero, DV}
    When I send "POST" to "/api/v2/venda" with JSON:
      """
      {"CNPJ": "11222333000181", "ModeloProposta": "YZ", "Instituidor": {"Numero": 0, "Nome": ""},
       "DadosProponente": {"Matricula": 0, "Nome": "CARLOS PEREIRA", "DtNascimento": "1980-05-10T00:00:00.000Z", "Idade": 45, "Sexo": "MASCULINO",
         "EstadoCivil": "CASADO", "CPF": "39053344705", "TitularCpf": true, "Email": "carlos@example.com", "ResideBrasil": true, "RendaMensal": 12000,
         "NumFilhos": 1, "PPE": false,
         "Documentos": [{"NaturezaDocumento": "RG", "NumeroDocumento": "112223334", "OrgaoExpeditor": "DETRAN", "DataExpedicao": "2005-03-01T00:00:00.000Z"}],
         "TipoEnderecoCorrespondecia": "RESIDENCIAL",
         "Enderecos": [{"Tipo": "RESIDENCIAL", "Logradouro": "RUA VISCONDE DE PIRAJA", "Numero": "100", "COMPLEMENTO": null, "BAIRRO": "IPANEMA",
           "CIDADE": "RIO DE JANEIRO", "ESTADO": "RJ", "CEP": "22410002"}],
         "Telefones": [{"TipoTelefone": "CELULAR", "DDI": 55, "DDD": 21, "Numero": 977776666}],
         "Profissao": {"Codigo": "2521-05", "Descricao": "ADMINISTRADOR", "Categoria": "EMPREGADO", "NomeEmpresa": "PEREIRA ADM", "EnderecosEmpresa": []},
         "RepresentanteLegal": null, "ParentescoCorretor": {"PossuiParentesco": false, "Parentesco": ""}},
       "Planos": {"VlTotal": 135.27, "Plano": [{"Codigo": 511, "Nome": "VIDA TEMPORÁRIA", "VlApInicial": 0, "VlPortab": 0, "TpTributacao": "NENHUM",
         "DtConcessao": "2026-01-05T00:00:00.000Z", "PrazoCerto": 20, "PrazoDecrescimo": 0, "Fundos": [],
         "Coberturas": [{"Codigo": 1001, "VlContrib": 135.27, "VlCobertura": 300000}]}]},
       "Beneficiarios": [{"Nome": "ANA PEREIRA", "DataNascimento": "1982-09-30T00:00:00.000Z", "Parentesco": "CONJUGE", "Participacao": 100, "CdPlano": 511}],
       "DadosCobranca": {"Periodicidade": "MENSAL", "TipoCobranca": "DEBITO", "DiaVencimento": 15, "CompetenciaDebito": "01/2026", "NumConvenio": "0",
         "IdadePagamentoAntecipado": 0, "TempoPagamentoAntecipado": 0,
         "Debito": {"CodOrgao": 0, "Banco": {"Numero": 1, "Nome": "BANCO DO BRASIL"}, "Agencia": {"Numero": "1234", "DV": "5"},
           "ContaCorrente": {"Numero": "98765", "DV": "4"}, "Correntista": {"Nome": "CARLOS PEREIRA", "CPF": "39053344705"}}},
       "UsoMongeral": {"ConvAdesao": "0", "AcaoMarketing": "0", "Alternativa": 0, "Sucursal": "RIO", "DirRegional": 0, "GerSucursal": 0,
         "GerComercial": 0, "Agente": 0, "Corretor1": 0, "Corretor2": 0, "AgenteFidelizacao": 0, "ModeloProposta": "YZ", "ModeloPropostaGed": "YZ",
         "TipoComissao": 0},
       "UsoCorretor": {"Nome": "CORRETORA DEMO", "CdSusep": "100000000"},
       "RespostasQuestionario": []}
      """
    Then the response status is 201
    And the response is valid against schema "insurance/venda"
    And I remember the response field "Valor" as "numero"
    When I send "GET" to "/api/v2/Proposta/${numero}?cnpj=11222333000181"
    Then the response field "Valor.formaPagamento" is "DEBITO"
