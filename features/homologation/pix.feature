@area:pix
Feature: Homologation of a Pix integration: charges, retries, webhooks, reconciliation
  Each scenario proves one usage rule of the service, or one onboarding
  step, on the partner under test. The partner gets an app of its own per
  scenario, so scenarios run in parallel against one sandbox. The tag
  regra names the usage rule, onboarding the onboarding step, detects the
  reference partner's defect the scenario catches.

  Background:
    Given the partner has an app of its own

  @onboarding:4 @regra:escopos @detects:broad-scopes @flow:cob
  Scenario: The partner authenticates asking only for the scopes it uses
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    Then the partner answered 200
    And the partner asked only for the scopes of its flows

  @onboarding:6 @regra:webhooks-desde-o-inicio @detects:late-webhook @flow:cob
  Scenario: The partner configures its Pix webhook before its first charge
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    Then the partner answered 200
    And the partner configured its Pix webhook before its first charge

  @regra:rastreabilidade-txid @detects:reuse-txid @flow:cob
  Scenario: Every charge has a valid txid of its own
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "12.00", "chave": "${chave}"}
      """
    Then the partner created 2 charges with txids of their own
    And every "charge creation" the partner sent is valid against schema "pix/cob.request"

  @regra:retentativas @detects:no-retry @detects:no-backoff @flow:cob
  Scenario: After a 503 the partner retries with backoff, and creates the charge once
    When I send "POST" to "/sandbox/scenarios/pix-cobranca-indisponivel-uma-vez/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    Then the partner retried its charge creation after the injected fault, with 1 charge in all
    # The fault answered 503 with Retry-After: 2 (scenarios/pix-cobranca-indisponivel-uma-vez.yaml).
    And the partner waited at least 1900 ms before retrying its charge creation
    And the partner answered 200
    # A retry reuses the token it has.
    And the partner called "POST /oauth/token" at most 1 time within 1 second

  # A partner may create by PUT /cob/{txid} (a retry reuses the txid) or by
  # POST /cob (a retry repeats its Idempotency-Key): the rule is the safe
  # retry, not the operation.
  @regra:retentativas @regra:idempotencia @regra:rastreabilidade-txid @detects:new-txid-on-retry @detects:no-idempotency-key @flow:cob
  Scenario: After a lost answer the partner retries safely, and no charge is duplicated
    When I send "POST" to "/sandbox/scenarios/pix-resposta-perdida/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    Then the partner retried its charge creation after the injected fault, with 1 charge in all
    And the partner answered 200
    And the partner called "POST /oauth/token" at most 1 time within 1 second

  # A due-date charge (cobv) moves money as an immediate one does, and the
  # API Pix creates it only by PUT /cobv/{txid}: the txid is what makes a
  # retry safe. These run for a partner whose file declares the cobv flow.
  @regra:retentativas @detects:no-retry @detects:no-backoff @flow:cobv
  Scenario: After a 503 on a due-date charge the partner waits as asked and retries it
    When I send "POST" to "/sandbox/scenarios/pix-cobv-indisponivel-uma-vez/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cobv" with:
      """
      {"valor": "10.00", "chave": "${chave}", "vencimento": "2030-12-31", "devedor": {"cpf": "12345678909", "nome": "Fulano de Tal"}}
      """
    # The fault answered 503 with Retry-After: 2 (scenarios/pix-cobv-indisponivel-uma-vez.yaml).
    Then the partner retried "PUT /pix/v2/cobv/*" after the injected fault with the same txid
    And the partner waited at least 1900 ms before retrying "PUT /pix/v2/cobv/*"
    And the partner answered 200

  @regra:retentativas @regra:idempotencia @regra:rastreabilidade-txid @detects:new-txid-on-retry @flow:cobv
  Scenario: After a lost answer on a due-date charge the partner retries with the same txid
    When I send "POST" to "/sandbox/scenarios/pix-cobv-resposta-perdida/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cobv" with:
      """
      {"valor": "10.00", "chave": "${chave}", "vencimento": "2030-12-31", "devedor": {"cpf": "12345678909", "nome": "Fulano de Tal"}}
      """
    Then the partner retried "PUT /pix/v2/cobv/*" after the injected fault with the same txid
    And the partner answered 200

  # A batch of due-date charges is sent with an id of the partner's (PUT
  # /lotecobv/{id}); sent again with the same id and txids it is the same
  # batch. These run for a partner whose file declares the lotecobv flow.
  @regra:retentativas @detects:no-retry @detects:no-backoff @flow:lotecobv
  Scenario: After a 503 on a batch of due-date charges the partner waits as asked and sends it again
    When I send "POST" to "/sandbox/scenarios/pix-lotecobv-indisponivel-uma-vez/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-lotecobv" with:
      """
      {"chave": "${chave}", "vencimento": "2030-12-31", "cobrancas": [
        {"valor": "10.00", "devedor": {"cpf": "12345678909", "nome": "Fulano de Tal"}},
        {"valor": "20.00", "devedor": {"cpf": "52998224725", "nome": "Beltrana de Tal"}}]}
      """
    # The fault answered 503 with Retry-After: 2 (scenarios/pix-lotecobv-indisponivel-uma-vez.yaml).
    Then the partner retried "PUT /pix/v2/lotecobv/*" after the injected fault with the same txid
    And the partner waited at least 1900 ms before retrying "PUT /pix/v2/lotecobv/*"
    And the partner answered 200

  @regra:retentativas @regra:idempotencia @detects:new-txid-on-retry @flow:lotecobv
  Scenario: After a lost answer on a batch of due-date charges the partner sends the same batch again
    When I send "POST" to "/sandbox/scenarios/pix-lotecobv-resposta-perdida/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-lotecobv" with:
      """
      {"chave": "${chave}", "vencimento": "2030-12-31", "cobrancas": [
        {"valor": "10.00", "devedor": {"cpf": "12345678909", "nome": "Fulano de Tal"}},
        {"valor": "20.00", "devedor": {"cpf": "52998224725", "nome": "Beltrana de Tal"}}]}
      """
    Then the partner retried "PUT /pix/v2/lotecobv/*" after the injected fault with the same txid
    And the partner answered 200

  # A partner that reconciles a period from the listing (the conciliacao
  # flow) meets more Pix than one page holds: GET /pix answers 100 a page
  # unless asked for more. No webhook is configured here, so only the
  # listing tells the partner of them.
  @regra:conciliacao @detects:first-page-only @flow:conciliacao
  Scenario: A reconciliation from the listing reads every page
    When the payer sends 101 Pix of "1.00" to the partner's key
    And the partner is asked to "reconcile" with:
      """
      {"inicio": "${pix.inicio}", "fim": "${pix.fim}"}
      """
    Then the partner answered 200
    And the partner knows every Pix the payer sent

  @onboarding:6 @regra:assinatura-webhook @detects:ignore-signature @detects:accept-stale @flow:cob
  Scenario: The partner refuses notifications it cannot trust
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    Then the partner refuses a "/pix" callback that is forged
    And the partner refuses a "/pix" callback that is stale
    And the partner refuses a "/pix" callback that is unsigned

  @onboarding:6 @regra:confirmar-notificacao @detects:slow-ack @flow:cob
  Scenario: The partner acknowledges each notification quickly
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "${partner.txid}"}
      """
    Then the partner acknowledged at least 1 notification, each within 1000 ms

  @onboarding:6 @regra:conciliacao @detects:never-reconcile @flow:cob
  Scenario: After a payment notification the partner reconciles the charge
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "${partner.txid}"}
      """
    Then the partner reconciled "${partner.txid}" within 5 seconds

  @regra:notificacao-duplicada @detects:process-duplicates @flow:cob
  Scenario: A notification delivered twice is booked once
    When I send "POST" to "/sandbox/scenarios/webhook-duplicado/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "${partner.txid}"}
      """
    Then the partner acknowledged at least 1 notification, each within 1000 ms
    And the partner booked the payment of "${partner.txid}" once within 5 seconds

  # The mistakes real Pix integrations make (issue 17): each scenario fails
  # the reference partner's matching defect.

  @regra:webhooks-desde-o-inicio @detects:polls @flow:cob
  Scenario: The partner waits for the notification instead of reading the charge again and again
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    Then the partner answered 200
    And the partner called "GET /pix/v2/cob/*" at most 1 time within 4 seconds

  @onboarding:4 @detects:token-per-call @flow:cob
  Scenario: The partner reuses its access token for its lifetime
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "11.00", "chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "12.00", "chave": "${chave}"}
      """
    Then the partner answered 200
    And the partner called "POST /oauth/token" at most 1 time within 2 seconds

  @regra:conciliacao @detects:book-any-amount @flow:cob
  Scenario: A Pix of another amount than the charge asks is not booked as paid
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "${partner.txid}", "valor": "9.99", "valorDivergente": true}
      """
    Then the response status is 201
    And the partner does not consider "${partner.txid}" paid within 4 seconds

  @regra:conciliacao @detects:refund-optimistic @flow:cob @flow:devolucao
  Scenario: A refund is done only when it ends DEVOLVIDO
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "${partner.txid}"}
      """
    And I remember the response field "endToEndId" as "e2e"
    And the partner is asked to "refund" with:
      """
      {"e2eid": "${e2e}", "valor": "10.00"}
      """
    Then the partner answered 200
    When I send "POST" to "/sandbox/pix/refunds/${e2e}/${partner.id}" with JSON:
      """
      {"status": "NAO_REALIZADO"}
      """
    Then the response status is 200
    And the partner does not report the refund "${partner.id}" as done within 4 seconds

  @regra:dados-validos @detects:punctuated-documents @flow:cob
  Scenario: The payer's documents go as the API takes them, digits only
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}", "devedor": {"cpf": "123.456.789-09", "nome": "Francisco da Silva"}}
      """
    Then every "charge creation" the partner sent is valid against schema "pix/cob.request"
    And the partner answered 200

  # The situations where integrations break in production: an expired
  # token, a payment nobody expected, a refund whose answer is lost,
  # values at the edge of what the API takes.

  @onboarding:4 @regra:token @detects:no-token-renewal @flow:cob
  Scenario: When its token expires between two calls, the partner gets a new one and carries on
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the access tokens of my company expire
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    Then the partner got a new token after its token expired, and repeated the call within 5 seconds
    And the partner answered 200

  @onboarding:6 @regra:confirmar-notificacao @detects:reject-unknown @flow:cob
  Scenario: A genuine notification of a charge the partner never created is acknowledged all the same
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the payer pays a charge the partner did not create
    Then the partner acknowledged at least 1 notification, each within 1000 ms

  @regra:retentativas @regra:idempotencia @detects:new-refund-id-on-retry @flow:cob @flow:devolucao
  Scenario: When a refund's answer is lost, the partner retries with the same refund id and refunds once
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "10.00", "chave": "${chave}"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "${partner.txid}"}
      """
    And I remember the response field "endToEndId" as "e2e"
    And I send "POST" to "/sandbox/scenarios/devolucao-resposta-perdida/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "refund" with:
      """
      {"e2eid": "${e2e}", "valor": "1.00"}
      """
    Then the partner retried "PUT /pix/v2/pix/*/devolucao/*" after the injected fault with the same refund id
    And the Pix "${e2e}" has 1 refund
    And the partner answered 200

  @regra:dados-validos @detects:cpf-as-number @detects:punctuated-documents @flow:cob
  Scenario: Values at the edge of what the API takes go as the customer gave them
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-cob" with:
      """
      {"valor": "1234567.89", "chave": "${chave}", "devedor": {"cpf": "012.345.678-90", "nome": "João D'Ávila da Conceição Ñúñez"}}
      """
    Then every "charge creation" the partner sent is valid against schema "pix/cob.request"
    And the partner answered 200
    And the charge "${partner.txid}" holds "devedor.cpf" as "01234567890"
    And the charge "${partner.txid}" holds "valor.original" as "1234567.89"
    And the charge "${partner.txid}" holds "devedor.nome" as "João D'Ávila da Conceição Ñúñez"
