@area:seguros
Feature: Homologation of an insurance integration: the sale, its events, pendings and benefits
  Each scenario proves one usage rule of the service on the partner under
  test, with the insurer's own operations and events: the rules that hold
  across the service (signatures, each event once, statuses that never go
  back, one token, least scopes, retries with Retry-After and the same
  Idempotency-Key) are judged here as they are for Pix. Each scenario sells
  funeral assistance (EIS) from a company of its own. The tag flow names
  what the partner must declare for the scenario to apply (flows and
  widgets in its partner file); regra names the usage rule, detects the
  reference partner's defect the scenario catches.

  Background:
    Given the partner has an app of its own
    And the partner's company may sell the offer "EIS"

  @flow:venda @widget:cartao @onboarding:5 @regra:dados-de-cartao @detects:card-number
  Scenario: The partner sells with the card widget's pre-authorisation, never the card number
    When the partner sells the offer "EIS" to the customer "11144477735"
    Then the partner never sent a card number
    And the partner answered 200
    And the partner called "POST /insurer/v1/proposta" 1 time within 5 seconds

  @flow:venda @flow:pendencia-proposta @regra:pendencias @detects:ignore-pendings @detects:no-reread-after-pending
  Scenario: The partner answers the pending analysis raises on its proposal, then reads where the proposal stands
    When I send "POST" to "/sandbox/scenarios/proposta-pendencia-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And the partner sells the offer "EIS" to the customer "52998224725"
    Then the partner answered 200
    And the partner answered the pending of its proposal within 15 seconds
    And the partner read its proposal again after answering its pending within 10 seconds
    And the partner holds its proposal as "IMPLANTADA" within 15 seconds

  @flow:venda @onboarding:6 @regra:confirmar-notificacao @detects:slow-ack
  Scenario: The partner acknowledges each of the insurer's events at once, and processes it after
    When I send "POST" to "/sandbox/scenarios/proposta-implantada-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And the partner sells the offer "EIS" to the customer "85903065180"
    Then the partner answered 200
    And the partner acknowledged at least 3 notifications, each within 1000 ms

  @flow:venda @onboarding:6 @regra:assinatura-webhook @detects:ignore-signature @detects:accept-stale
  Scenario: The partner refuses insurer events it cannot trust, and holds its proposal as it was
    When I send "POST" to "/sandbox/scenarios/proposta-implantada-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And the partner sells the offer "EIS" to the customer "64519821487"
    Then the partner answered 200
    And the partner holds its proposal as "IMPLANTADA" within 15 seconds
    And the partner refuses an insurer event that is forged
    And the partner refuses an insurer event that is stale
    And the partner refuses an insurer event that is unsigned
    And the partner holds its proposal as the insurer does within 5 seconds

  @flow:venda @regra:notificacao-duplicada @detects:process-duplicates
  Scenario: An insurer event delivered twice is applied once
    When I send "POST" to "/sandbox/scenarios/proposta-implantada-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And I send "POST" to "/sandbox/scenarios/webhook-duplicado/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner sells the offer "EIS" to the customer "59028105409"
    Then the partner answered 200
    And the partner applied each event once within 6 seconds
    And the partner holds its proposal as the insurer does within 10 seconds

  # The clock is frozen so that the held event's minute passes at once: the
  # status before the last arrives after it, as a delivery retried late does.
  @flow:venda @regra:ordem-dos-eventos @detects:status-regression
  Scenario: An insurer event that arrives late never takes a proposal's status back
    Given my clock is frozen at "2026-03-02T12:00:00Z"
    When I send "POST" to "/sandbox/scenarios/proposta-implantada-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And I send "POST" to "/sandbox/scenarios/webhook-fora-de-ordem/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner sells the offer "EIS" to the customer "80629446547"
    Then the partner answered 200
    When I advance the clock by "5s"
    And I advance the clock by "2m"
    Then the partner was notified of "proposta.implantada" within 10 seconds
    And the partner holds its proposal as the insurer does within 10 seconds

  @flow:venda @regra:retentativas @detects:no-retry @detects:no-backoff
  Scenario: After a 503 with Retry-After the partner waits as asked, and registers its proposal once
    When I send "POST" to "/sandbox/scenarios/proposta-indisponivel-uma-vez/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner sells the offer "EIS" to the customer "33782929624"
    # The fault answered 503 with Retry-After: 2.
    Then the partner waited at least 1900 ms before retrying "POST /insurer/v1/proposta"
    And the insurer holds 1 proposal of the partner
    And the partner answered 200

  @flow:venda @regra:retentativas @detects:no-retry @detects:no-backoff
  Scenario: After a 429 with Retry-After the partner waits as asked
    When I send "POST" to "/sandbox/scenarios/simulacao-limite-uma-vez/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner sells the offer "EIS" to the customer "86331917411"
    # The fault answered 429 with Retry-After: 2.
    Then the partner waited at least 1900 ms before retrying "POST /insurer/v1/simulacao"
    And the partner answered 200

  # A 504 reaches the partner's own retry code, whatever its HTTP client
  # does by itself with a reset connection.
  @flow:venda @regra:idempotencia @regra:retentativas @detects:no-idempotency-key @detects:new-key-on-retry
  Scenario: When the gateway times out after the insurer registered the proposal, the partner retries with the same Idempotency-Key
    When I send "POST" to "/sandbox/scenarios/proposta-tempo-esgotado/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner sells the offer "EIS" to the customer "61943265739"
    Then the partner retried "POST /insurer/v1/proposta" after the injected fault with the same Idempotency-Key
    And the insurer holds 1 proposal of the partner
    And the partner answered 200

  @flow:venda @regra:idempotencia @detects:no-idempotency-key
  Scenario: When a proposal's answer is lost, the partner retries with the same Idempotency-Key
    When I send "POST" to "/sandbox/scenarios/proposta-resposta-perdida/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner sells the offer "EIS" to the customer "39053344705"
    Then the partner retried "POST /insurer/v1/proposta" after the injected fault with the same Idempotency-Key
    And the insurer holds 1 proposal of the partner
    And the partner answered 200
    And every "POST /insurer/v1/proposta" the partner sent is valid against schema "insurance/proposta.request"

  @flow:venda @regra:idempotencia @detects:reuse-idempotency-key
  Scenario: Each proposal goes with an Idempotency-Key of its own
    When the partner sells the offer "EIS" to the customer "11144477735"
    And the partner sells the offer "EIS" to the customer "52998224725"
    Then the partner never reused an Idempotency-Key for another proposal
    And the insurer holds 2 proposals of the partner

  @flow:venda @onboarding:4 @regra:token @detects:token-per-call
  Scenario: The partner reuses its access token through a sale
    When the partner sells the offer "EIS" to the customer "18767527426"
    Then the partner answered 200
    And the partner called "POST /oauth/token" at most 1 time within 2 seconds

  @flow:venda @onboarding:4 @regra:token @detects:no-token-renewal
  Scenario: When its token expires in the middle of a sale, the partner gets a new one and carries on
    When the partner is asked to "request-signature" with:
      """
      {"cpf": "23244148131"}
      """
    Then the partner answered 200
    When I send "GET" to "/sandbox/outbox?cpf=23244148131"
    And I remember the response field "messages.0.codigo" as "codigo"
    And the access tokens of my company expire
    And the partner is asked to "sell" with:
      """
      {"cpf": "23244148131", "codigo": "${codigo}", "offer": "EIS"}
      """
    Then the partner got a new token after its token expired, and repeated the call within 5 seconds
    And the partner answered 200
    And the insurer holds 1 proposal of the partner

  @flow:venda @onboarding:4 @regra:escopos @detects:broad-scopes @detects:every-scope
  Scenario: The partner asks only for the scopes its flows use
    When the partner sells the offer "EIS" to the customer "98463648576"
    Then the partner answered 200
    And the partner asked only for the scopes of its flows

  @flow:venda @regra:webhooks-desde-o-inicio @detects:polls
  Scenario: The partner waits for the insurer's events instead of reading its proposal again and again
    When the partner sells the offer "EIS" to the customer "97110565262"
    Then the partner answered 200
    And the partner called "GET /insurer/v1/proposta/*" at most 2 times within 5 seconds

  @flow:venda @flow:beneficio @flow:pendencia-beneficio @regra:pendencias @detects:ignore-pendings
  Scenario: The partner gives a benefit notice for its customer and sends the documents regulation asks for
    When I send "POST" to "/sandbox/scenarios/proposta-implantada-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And I send "POST" to "/sandbox/scenarios/beneficio-pendencia-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And the partner sells the offer "EIS" to the customer "86288366757"
    Then the partner answered 200
    And the partner was notified of "proposta.implantada" within 10 seconds
    When the partner is asked to "notify-benefit" with:
      """
      {"numeroProposta": "${partner.numeroProposta}", "cpf": "86288366757"}
      """
    Then the partner answered 200
    And the partner answered the pending of its benefit within 15 seconds
    And the partner was notified of "beneficio.pago" within 15 seconds
    And the partner holds its benefit as "PAGO" within 10 seconds

  # The specification gives the benefit's pending documents to the
  # customer, through the benefit-pending widget: a partner that leaves
  # them there is judged on following the benefit to its end.
  @flow:venda @flow:beneficio @widget:pendencia-beneficio @regra:pendencias
  Scenario: The partner gives a benefit notice and follows it while its customer sends the documents in the widget
    When I send "POST" to "/sandbox/scenarios/proposta-implantada-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And I send "POST" to "/sandbox/scenarios/beneficio-pendencia-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And the partner sells the offer "EIS" to the customer "26575409458"
    Then the partner answered 200
    And the partner was notified of "proposta.implantada" within 10 seconds
    When the partner is asked to "notify-benefit" with:
      """
      {"numeroProposta": "${partner.numeroProposta}", "cpf": "26575409458"}
      """
    Then the partner answered 200
    When the customer answers the pending of the partner's benefit in the widget within 15 seconds
    Then the partner was notified of "beneficio.pago" within 15 seconds
    And the partner holds its benefit as "PAGO" within 10 seconds
