@area:seguros
Feature: Homologation of an insurance sale: card data and pendings
  A partner that sells the insurer's offers captures the card in the
  credit-card widget (its servers never see the number) and answers the
  pendings analysis raises, from the proposta.pendencia event. Each
  scenario sells one funeral-assistance (EIS) proposal from a company of
  its own, granted the offer through the portal.

  Background:
    Given the partner has an app of its own
    And I send "PUT" to "/portal/companies/${company.id}/offers/EIS"

  @onboarding:5 @regra:dados-de-cartao @detects:card-number
  Scenario: The partner sells with the card widget's pre-authorisation, never the card number
    When the partner is asked to "request-signature" with:
      """
      {"cpf": "11144477735"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=11144477735"
    And I remember the response field "messages.0.codigo" as "codigo"
    And the partner is asked to "sell" with:
      """
      {"cpf": "11144477735", "codigo": "${codigo}", "offer": "EIS"}
      """
    Then the partner never sent a card number
    And the partner answered 200
    And the partner called "POST /insurer/v1/proposta" 1 time within 5 seconds

  @regra:pendencias @detects:ignore-pendings @detects:no-reread-after-pending
  Scenario: The partner answers the pending analysis raises on its proposal, then reads where the proposal stands
    When I send "POST" to "/sandbox/scenarios/proposta-pendencia-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And the partner is asked to "request-signature" with:
      """
      {"cpf": "52998224725"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=52998224725"
    And I remember the response field "messages.0.codigo" as "codigo"
    And the partner is asked to "sell" with:
      """
      {"cpf": "52998224725", "codigo": "${codigo}", "offer": "EIS"}
      """
    Then the partner answered 200
    And the partner answered the pending of its proposal within 15 seconds
    And the partner read its proposal again after answering its pending within 10 seconds
    And the partner acknowledged at least 3 notifications, each within 1000 ms

  @regra:pendencias @detects:ignore-pendings
  Scenario: The partner gives a benefit notice for its customer and sends the documents regulation asks for
    When I send "POST" to "/sandbox/scenarios/proposta-implantada-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And I send "POST" to "/sandbox/scenarios/beneficio-pendencia-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And the partner is asked to "request-signature" with:
      """
      {"cpf": "86288366757"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=86288366757"
    And I remember the response field "messages.0.codigo" as "codigo"
    And the partner is asked to "sell" with:
      """
      {"cpf": "86288366757", "codigo": "${codigo}", "offer": "EIS"}
      """
    Then the partner answered 200
    And the partner was notified of "proposta.implantada" within 10 seconds
    When the partner is asked to "notify-benefit" with:
      """
      {"numeroProposta": "${partner.numeroProposta}", "cpf": "86288366757"}
      """
    Then the partner answered 200
    And the partner answered the pending of its benefit within 15 seconds
    And the partner was notified of "beneficio.pago" within 15 seconds

  @regra:idempotencia @detects:no-idempotency-key
  Scenario: When a proposal's answer is lost, the partner retries with the same Idempotency-Key
    When I send "POST" to "/sandbox/scenarios/proposta-resposta-perdida/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "request-signature" with:
      """
      {"cpf": "39053344705"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=39053344705"
    And I remember the response field "messages.0.codigo" as "codigo"
    And the partner is asked to "sell" with:
      """
      {"cpf": "39053344705", "codigo": "${codigo}", "offer": "EIS"}
      """
    Then the partner answered 200
    And the partner retried "POST /insurer/v1/proposta" after the injected fault with the same Idempotency-Key
    And every "POST /insurer/v1/proposta" the partner sent is valid against schema "insurance/proposta.request"

  @regra:idempotencia @detects:reuse-idempotency-key
  Scenario: Each proposal goes with an Idempotency-Key of its own
    When the partner is asked to "request-signature" with:
      """
      {"cpf": "11144477735"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=11144477735"
    And I remember the response field "messages.0.codigo" as "codigo1"
    And the partner is asked to "sell" with:
      """
      {"cpf": "11144477735", "codigo": "${codigo1}", "offer": "EIS"}
      """
    And the partner is asked to "request-signature" with:
      """
      {"cpf": "52998224725"}
      """
    And I send "GET" to "/sandbox/outbox?cpf=52998224725"
    And I remember the response field "messages.0.codigo" as "codigo2"
    And the partner is asked to "sell" with:
      """
      {"cpf": "52998224725", "codigo": "${codigo2}", "offer": "EIS"}
      """
    Then the partner never reused an Idempotency-Key for another proposal
