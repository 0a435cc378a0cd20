@area:pix-automatico
Feature: Homologation of a Pix Automático integration: webhooks, recurring charges, reconciliation
  The partner creates a monthly recurrence and its confirmation request;
  the suite plays the payer (POST /sandbox/pix/rec/{idRec}/aprovar), and
  the partner must charge the approved recurrence from the /rec callback
  and reconcile the settlement from the /cobr callback.

  Background:
    Given the partner has an app of its own

  @onboarding:6 @regra:webhooks-desde-o-inicio @detects:late-webhook @flow:rec @flow:solicrec @flow:cobr
  Scenario: The partner configures its Pix Automático webhooks before its first recurrence
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-rec" with:
      """
      {"cpf": "11144477735", "valor": "35.00"}
      """
    Then the partner answered 200
    And the partner configured its Pix Automático webhooks before its first recurrence
    And every "POST /pix/v2/rec" the partner sent is valid against schema "pix/rec.request"
    And every "POST /pix/v2/solicrec" the partner sent is valid against schema "pix/solicrec.request"

  @onboarding:6 @regra:conciliacao @detects:never-reconcile @flow:rec @flow:solicrec @flow:cobr
  Scenario: The partner charges an approved recurrence and reconciles its settlement from the callbacks
    When I send "POST" to "/sandbox/scenarios/cobr-paga-rapida/bind" with JSON:
      """
      {"clientId": "${clientId}", "next": true}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-rec" with:
      """
      {"cpf": "11144477735", "valor": "35.00"}
      """
    Then the partner answered 200
    When I send "POST" to "/sandbox/pix/rec/${partner.idRec}/aprovar"
    Then the response status is 200
    And the partner charged the approved recurrence "${partner.idRec}" within 10 seconds
    And the partner reconciled "${cobr.txid}" within 15 seconds
    And the partner booked the payment of "${cobr.txid}" once within 5 seconds
    And the partner acknowledged at least 3 notifications, each within 1000 ms

  # A recurring charge moves money: the partner creates it from the /rec
  # callback, and a fault there is retried after the wait with the same
  # txid (PUT /cobr/{txid}), or the cycle is charged twice.
  @regra:retentativas @detects:no-retry @detects:no-backoff @flow:rec @flow:solicrec @flow:cobr
  Scenario: After a 503 on a recurring charge the partner waits as asked and retries it with the same txid
    When I send "POST" to "/sandbox/scenarios/pix-cobr-indisponivel-uma-vez/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-rec" with:
      """
      {"cpf": "52998224725", "valor": "35.00"}
      """
    Then the partner answered 200
    When I send "POST" to "/sandbox/pix/rec/${partner.idRec}/aprovar"
    Then the response status is 200
    And the partner retried "PUT /pix/v2/cobr/*" after the injected fault with the same txid
    And the partner waited at least 1900 ms before retrying "PUT /pix/v2/cobr/*"

  # The rules that hold across the service, on the Pix Automático flows.

  @onboarding:4 @regra:escopos @detects:broad-scopes @detects:every-scope @flow:rec @flow:solicrec
  Scenario: The partner asks only for the scopes its recurrence flows use
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-rec" with:
      """
      {"cpf": "64519821487", "valor": "35.00"}
      """
    Then the partner answered 200
    And the partner asked only for the scopes of its flows

  @onboarding:4 @regra:token @detects:token-per-call @flow:rec @flow:solicrec
  Scenario: The partner reuses its access token through a recurrence
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-rec" with:
      """
      {"cpf": "59028105409", "valor": "35.00"}
      """
    Then the partner answered 200
    And the partner called "POST /oauth/token" at most 1 time within 2 seconds

  @onboarding:6 @regra:assinatura-webhook @detects:ignore-signature @detects:accept-stale @flow:rec
  Scenario: The partner refuses recurrence callbacks it cannot trust
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    Then the partner refuses a "/rec" callback that is forged
    And the partner refuses a "/rec" callback that is stale
    And the partner refuses a "/rec" callback that is unsigned

  @regra:notificacao-duplicada @detects:process-duplicates @flow:rec @flow:solicrec @flow:cobr
  Scenario: An approval delivered twice is charged once
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-rec" with:
      """
      {"cpf": "80629446547", "valor": "35.00"}
      """
    Then the partner answered 200
    When I send "POST" to "/sandbox/scenarios/webhook-duplicado/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And I send "POST" to "/sandbox/pix/rec/${partner.idRec}/aprovar"
    Then the response status is 200
    And the partner charged the approved recurrence "${partner.idRec}" once within 5 seconds

  @regra:retentativas @regra:idempotencia @detects:no-retry @detects:no-backoff @flow:rec @flow:solicrec
  Scenario: After a 503 with Retry-After the partner waits as asked, and creates its recurrence with the same Idempotency-Key
    When I send "POST" to "/sandbox/scenarios/rec-indisponivel-uma-vez/activate" with JSON:
      """
      {"clientId": "${clientId}"}
      """
    And the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-rec" with:
      """
      {"cpf": "33782929624", "valor": "35.00"}
      """
    # The fault answered 503 with Retry-After: 2.
    Then the partner waited at least 1900 ms before retrying "POST /pix/v2/rec"
    And the partner retried "POST /pix/v2/rec" after the injected fault with the same Idempotency-Key
    And the partner answered 200

  @regra:webhooks-desde-o-inicio @detects:polls @flow:rec @flow:solicrec
  Scenario: The partner waits for the recurrence's callback instead of reading it again and again
    When the partner is asked to "onboard" with:
      """
      {"chave": "${chave}"}
      """
    And the partner is asked to "create-rec" with:
      """
      {"cpf": "86331917411", "valor": "35.00"}
      """
    Then the partner answered 200
    And the partner called "GET /pix/v2/rec/*" at most 1 time within 4 seconds
