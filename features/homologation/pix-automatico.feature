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
