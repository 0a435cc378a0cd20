Feature: Webhook deliveries cannot be turned against the sandbox's network
  A hosted sandbox delivers to partners' webhooks; a partner must not be
  able to make it reach cloud metadata or an internal address. Webhook
  targets are checked when registered and again at every connection,
  after name resolution; a redirect is never followed.

  The scenarios about names need a sandbox started as go test's is
  (harness/sandbox.go) with
  --webhook-allow metadata.homologa.test,internal.homologa.test and
  --webhook-resolve metadata.homologa.test=169.254.169.254,internal.homologa.test=10.0.0.1:
  two allowed names that resolve to addresses no name may admit. They
  ask the sandbox for those settings first, and are not applicable on a
  sandbox without them (a default homologa serve). That sandbox dials
  nothing but loopback: if its guard let something through, the
  harness's own hook would refuse it with another message, and these
  scenarios would fail.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token

  Scenario: An allowed name that resolves to cloud metadata is refused at connect time, with no answer shown
    Given the sandbox was started with --webhook-allow "metadata.homologa.test"
    And the sandbox was started with --webhook-resolve "metadata.homologa.test"
    When I send "PUT" to "/portal/apps/${app.id}/webhook" with JSON:
      """
      {"webhookUrl": "http://metadata.homologa.test/latest/meta-data"}
      """
    Then the response status is 200
    When I send "POST" to "/sandbox/events/ping"
    Then the response status is 202
    And I remember the response field "deliveries.0.id" as "delivery"
    And the response field "deliveries.0.status" is "pending"
    And the response field "deliveries.0.attempts.0.error" is "destino recusado: metadata.homologa.test (resolvido para 169.254.169.254) é um endereço link-local (169.254.0.0/16, onde respondem os metadados de nuvem), que um nome ou * nunca admite: só uma entrada IP ou CIDR de --webhook-allow o permite; nenhuma conexão foi aberta"
    And the response field "deliveries.0.attempts.0.statusCode" is "0"
    And the response field "deliveries.0.attempts.0.response" is ""
    And the response field "deliveries.0.nextAttemptAt" is "2026-01-05T12:01:00Z"
    # Retried on the backoff like any failure, refused each time.
    When I advance the clock by "1m"
    And I send "GET" to "/sandbox/deliveries/${delivery}"
    Then the response field "attempts" has 2 items
    And the response field "attempts.1.error" matches "^destino recusado: metadata.homologa.test \(resolvido para 169.254.169.254\)"
    And the response field "attempts.1.response" is ""
    And the response field "nextAttemptAt" is "2026-01-05T12:06:00Z"
    When I send "POST" to "/sandbox/deliveries/${delivery}/replay"
    Then the response status is 200
    And the response field "attempts.2.replay" is "true"
    And the response field "attempts.2.error" matches "^destino recusado: "
    And the response field "status" is "pending"

  Scenario: An allowed name that resolves to a private address is refused, for Pix callbacks too
    Given the sandbox was started with --webhook-allow "internal.homologa.test"
    And the sandbox was started with --webhook-resolve "internal.homologa.test"
    When I send "PUT" to "/pix/v2/webhook/52998224725" with JSON:
      """
      {"webhookUrl": "http://internal.homologa.test:8080/hooks"}
      """
    Then the response status is 200
    When I send "PUT" to "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f2" with JSON:
      """
      {"valor": {"original": "10.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "7978c0c97ea847e78e8849634473c1f2"}
      """
    Then the response status is 201
    # The callback's first attempt runs as the clock moves past its time.
    When I advance the clock by "1s"
    And I send "GET" to "/sandbox/deliveries"
    Then the response field "deliveries" has 1 item
    And the response field "deliveries.0.url" is "http://internal.homologa.test:8080/hooks/pix"
    And the response field "deliveries.0.status" is "pending"
    And the response field "deliveries.0.attempts.0.error" matches "^destino recusado: internal.homologa.test \(resolvido para 10.0.0.1\) é um endereço privado \(RFC 1918\)"
    And the response field "deliveries.0.attempts.0.statusCode" is "0"
    And the response field "deliveries.0.attempts.0.response" is ""

  Scenario: A receiver's redirect is a failed attempt, never followed
    Given a webhook receiver redirecting with 307 to "http://169.254.169.254/latest/meta-data"
    And the app's webhook points to the receiver
    When I send "POST" to "/sandbox/events/ping"
    Then the response status is 202
    And I remember the response field "deliveries.0.id" as "delivery"
    And the response field "deliveries.0.status" is "pending"
    And the response field "deliveries.0.attempts.0.statusCode" is "307"
    And the response field "deliveries.0.attempts.0.error" is "redirecionamento não seguido: 307 para http://169.254.169.254/latest/meta-data; o webhook deve responder 2xx no endereço cadastrado"
    And the receiver has received 1 request
    When I advance the clock by "1m"
    Then the receiver has received 2 requests
    When I send "GET" to "/sandbox/deliveries/${delivery}"
    Then the response field "status" is "pending"
    And the response field "attempts.1.statusCode" is "307"
    And the response field "attempts.1.error" matches "^redirecionamento não seguido: 307 para http://169.254.169.254/"
    And the response field "nextAttemptAt" is "2026-01-05T12:06:00Z"

  Scenario Outline: Registration refuses internal addresses written literally, on every webhook
    When I send "PUT" to "<path>" with JSON:
      """
      {"webhookUrl": "<url>"}
      """
    Then the response status is 400
    And the response body contains "webhookUrl"
    And the response body contains "<class>"

    Examples:
      | path                           | url                                      | class      |
      | /portal/apps/${app.id}/webhook | http://169.254.169.254/latest/meta-data  | link-local |
      | /portal/apps/${app.id}/webhook | http://[fd00:ec2::254]/latest/meta-data  | ULA        |
      | /portal/apps/${app.id}/webhook | http://10.0.0.1:8080/hooks               | privado    |
      | /pix/v2/webhook/52998224725    | http://169.254.169.254/latest/meta-data  | link-local |
      | /pix/v2/webhookrec             | http://100.100.100.200/hooks             | CGNAT      |

  Scenario: Registration refuses a name the allow-list does not admit
    Given the sandbox does not admit webhooks to "partner.example"
    When I send "PUT" to "/pix/v2/webhookcobr" with JSON:
      """
      {"webhookUrl": "http://partner.example/hooks"}
      """
    Then the response status is 400
    And the response body contains "webhookUrl"
    And the response body contains "não está na lista"

  Scenario: The allow-list adds to loopback: the demo inbox and a loopback receiver still work
    When I send "GET" to "/portal/apps/${app.id}"
    Then the response field "webhookUrl" matches "^http://127\.0\.0\.1:[0-9]+/sandbox/inbox/demo$"
    When I send "POST" to "/sandbox/events/ping"
    Then the response field "deliveries.0.status" is "delivered"
    And the response field "deliveries.0.attempts.0.statusCode" is "200"
    Given a webhook receiver answering 200
    And the app's webhook points to the receiver
    When I send "POST" to "/sandbox/events/ping"
    Then the response field "deliveries.0.status" is "delivered"
    And the receiver gets a "sandbox.ping" event within 5 seconds
    And the event's signature is valid
