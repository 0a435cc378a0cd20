Feature: Platform: onboarding, tokens, errors, idempotency, clock, events
  Every scenario runs against a fresh sandbox: in-memory, clock frozen at
  2026-01-05T12:00:00Z, with the demo app (client id homologa-demo).

  # Onboarding (portal)

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"

  Scenario: A company registers, creates an App/Client and calls with its token
    When I send "POST" to "/portal/companies" with JSON:
      """
      {"cnpj": "11.444.777/0001-61", "name": "Corretora Sul"}
      """
    Then the response status is 201
    And the response is valid against schema "platform/company"
    And the response field "cnpj" is "11444777000161"
    And I remember the response field "id" as "company"
    And the response header "Location" is "/portal/companies/${company}"
    When I send "POST" to "/portal/apps" with JSON:
      """
      {"companyId": "${company}", "name": "backend", "webhookUrl": "http://127.0.0.1:9/hooks"}
      """
    Then the response status is 201
    And the response is valid against schema "platform/app"
    And the response field "clientSecret" exists
    And the response field "environment" is "sandbox"
    And the response field "webhookSecret" matches "^whsec_"
    And I remember the response field "id" as "app"
    When I send "GET" to "/portal/apps/${app}"
    Then the response status is 200
    And the response field "clientSecret" does not exist
    And the response field "webhookUrl" is "http://127.0.0.1:9/hooks"

  Scenario: The alphanumeric CNPJ is accepted, masked or not
    When I send "POST" to "/portal/companies" with JSON:
      """
      {"cnpj": "12.abc.345/01de-35", "name": "Nova Corretora"}
      """
    Then the response status is 201
    And the response field "cnpj" is "12ABC34501DE35"

  Scenario Outline: A bad company is refused naming the field
    When I send "POST" to "/portal/companies" with JSON:
      """
      <body>
      """
    Then the response status is <status>
    And the response header "Content-Type" is "application/problem+json; charset=utf-8"
    And the response is valid against schema "platform/problem"
    And the response field "errors.0.field" is "<field>"

    Examples:
      | body                                                  | status | field |
      | {"cnpj": "11444777000162", "name": "Check digit off"} | 400    | cnpj  |
      | {"cnpj": "12ABC34501DE36", "name": "Alnum digit off"} | 400    | cnpj  |
      | {"cnpj": "11444777000161"}                            | 400    | name  |
      | {"cnpj": "11444777000161", "name": "X", "site": "x"}  | 400    | site  |
      | {"cnpj": 11444777000161, "name": "Number"}            | 400    | cnpj  |

  Scenario: A schema violation names every violated field
    When I send "POST" to "/portal/companies" with JSON:
      """
      {"cnpj": 5, "extra": true}
      """
    Then the response status is 400
    And the response field "errors" has 3 items
    And the response field "errors.0.field" is "cnpj"
    And the response field "errors.1.field" is "extra"
    And the response field "errors.2.field" is "name"

  Scenario: A CNPJ registers once
    When I send "POST" to "/portal/companies" with JSON:
      """
      {"cnpj": "11222333000181", "name": "Again"}
      """
    Then the response status is 409
    And the response body contains "já está cadastrada"

  Scenario Outline: A bad app is refused naming the field
    When I send "POST" to "/portal/apps" with JSON:
      """
      <body>
      """
    Then the response status is 400
    And the response field "errors.0.field" is "<field>"

    Examples:
      | body                                                                                        | field       |
      | {"companyId": "no-such-company", "name": "x"}                                               | companyId   |
      | {"companyId": "11222333000181", "name": "x", "scopes": ["cob.read", "root"]}                | scopes      |
      | {"companyId": "11222333000181", "name": "x", "webhookUrl": "http://10.1.2.3/hook"}          | webhookUrl  |
      | {"companyId": "11222333000181", "name": "x", "webhookUrl": "ftp://127.0.0.1/hook"}          | webhookUrl  |
      | {"companyId": "11222333000181", "name": "x", "environment": "staging"}                      | environment |

  Scenario: Rotating the secret revokes the old secret and its tokens
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "backend"
    And I obtain a token
    And I remember the response field "access_token" as "oldToken"
    When I send "POST" to "/portal/apps/${app.id}/secret"
    Then the response status is 200
    And the response field "clientSecret" exists
    When I use the token "${oldToken}"
    And I send "POST" to "/sandbox/events/ping"
    Then the response status is 401
    When I send "POST" to "/oauth/token" with a body of type "application/x-www-form-urlencoded":
      """
      grant_type=client_credentials&client_id=${app.clientId}&client_secret=${app.clientSecret}
      """
    Then the response status is 401
    And the response field "error" is "invalid_client"

  Scenario: The webhook URL is set and cleared through the portal
    When I send "PUT" to "/portal/apps/homologa-demo/webhook" with JSON:
      """
      {"webhookUrl": "http://localhost:9000/hooks"}
      """
    Then the response status is 200
    And the response field "webhookUrl" is "http://localhost:9000/hooks"
    When I send "PUT" to "/portal/apps/homologa-demo/webhook" with JSON:
      """
      {"webhookUrl": "not a url"}
      """
    Then the response status is 400
    And the response field "errors.0.field" is "webhookUrl"
    When I send "GET" to "/portal/apps/no-such-app"
    Then the response status is 404

  # OAuth2 client credentials

  Scenario: A token by HTTP Basic, with every scope of the app
    When I obtain a token
    Then the response status is 200
    And the response is valid against schema "platform/token"
    And the response field "token_type" is "Bearer"
    And the response field "expires_in" is "3600"
    And the response header "Cache-Control" is "no-store"
    And the response field "scope" matches "cob\.write .*apiseguradora"

  Scenario: A token by form fields, narrowed to the scopes asked for
    When I send "POST" to "/oauth/token" with a body of type "application/x-www-form-urlencoded":
      """
      grant_type=client_credentials&client_id=homologa-demo&client_secret=homologa-demo-secret&scope=cob.read%20cob.write
      """
    Then the response status is 200
    And the response field "scope" is "cob.read cob.write"

  Scenario Outline: A bad token request gets its RFC 6749 error
    When I send "POST" to "/oauth/token" with a body of type "<type>":
      """
      <body>
      """
    Then the response status is <status>
    And the response is valid against schema "platform/oauth-error"
    And the response field "error" is "<error>"

    Examples:
      | type                              | body                                                                                                 | status | error                  |
      | application/x-www-form-urlencoded | grant_type=client_credentials&client_id=homologa-demo&client_secret=wrong                            | 401    | invalid_client         |
      | application/x-www-form-urlencoded | grant_type=client_credentials&client_id=nobody&client_secret=homologa-demo-secret                    | 401    | invalid_client         |
      | application/x-www-form-urlencoded | grant_type=client_credentials                                                                        | 401    | invalid_client         |
      | application/x-www-form-urlencoded | client_id=homologa-demo&client_secret=homologa-demo-secret                                           | 400    | invalid_request        |
      | application/x-www-form-urlencoded | grant_type=password&client_id=homologa-demo&client_secret=homologa-demo-secret                       | 400    | unsupported_grant_type |
      | application/x-www-form-urlencoded | grant_type=client_credentials&client_id=homologa-demo&client_secret=homologa-demo-secret&scope=admin | 400    | invalid_scope          |
      | application/json                  | {"grant_type": "client_credentials"}                                                                 | 401    | invalid_client         |
      | application/json                  | {"grant_type": "client_credentials", "client_id": "homologa-demo", "client_secret": "wrong"}        | 401    | invalid_client         |
      | application/json                  | {"grant_type": 1, "client_id": "homologa-demo", "client_secret": "homologa-demo-secret"}             | 400    | invalid_request        |
      | application/json                  | {"grant_type": "password", "client_id": "homologa-demo", "client_secret": "homologa-demo-secret"}     | 400    | unsupported_grant_type |
      | text/plain                        | grant_type=client_credentials&client_id=homologa-demo&client_secret=homologa-demo-secret             | 400    | invalid_request        |

  Scenario: A PSP SDK's token request: HTTP Basic and a JSON body
    Given I set the header "Authorization" to "Basic aG9tb2xvZ2EtZGVtbzpob21vbG9nYS1kZW1vLXNlY3JldA=="
    When I send "POST" to "/oauth/token" with JSON:
      """
      {"grant_type": "client_credentials", "scope": "cob.read cob.write"}
      """
    Then the response status is 200
    And the response is valid against schema "platform/token"
    And the response header "Content-Type" is "application/json; charset=utf-8"
    And the response field "scope" is "cob.read cob.write"

  Scenario: A wrong client secret is answered with WWW-Authenticate
    When I send "POST" to "/oauth/token" with a body of type "application/x-www-form-urlencoded":
      """
      grant_type=client_credentials&client_id=homologa-demo&client_secret=wrong
      """
    Then the response status is 401
    And the response header "WWW-Authenticate" contains "Basic"

  Scenario: Production credentials are refused by the sandbox
    When I send "POST" to "/portal/apps" with JSON:
      """
      {"companyId": "11222333000181", "name": "live", "environment": "production"}
      """
    Then the response status is 201
    And I remember the response field "clientId" as "liveId"
    And I remember the response field "clientSecret" as "liveSecret"
    When I send "POST" to "/oauth/token" with a body of type "application/x-www-form-urlencoded":
      """
      grant_type=client_credentials&client_id=${liveId}&client_secret=${liveSecret}
      """
    Then the response status is 401
    And the response field "error" is "invalid_client"
    And the response field "error_description" matches "credenciais de production; este sandbox aceita só credenciais de sandbox"

  Scenario: Tokens live on the wall clock: a clock moved ahead keeps them, an expiry ends them
    Given I obtain a token
    Then the response field "expires_in" is "3600"
    When I send "POST" to "/sandbox/events/ping"
    Then the response status is 202
    When I advance the clock by "30d"
    And I send "POST" to "/sandbox/events/ping"
    Then the response status is 202
    When the access tokens of my company expire
    And I send "POST" to "/sandbox/events/ping"
    Then the response status is 401
    And the response header "WWW-Authenticate" contains "invalid_token"
    And the response body contains "expirado"
    When I obtain a token
    And I send "POST" to "/sandbox/events/ping"
    Then the response status is 202

  Scenario: An unknown bearer token is a 401
    Given I use the token "not-a-real-token"
    When I send "POST" to "/sandbox/events/ping"
    Then the response status is 401
    And the response header "WWW-Authenticate" contains "invalid_token"

  # Errors in each API's dialect

  Scenario: Each API answers an unknown route in its own dialect
    When I send "GET" to "/pix/v2/nothing"
    Then the response status is 404
    And the response is valid against schema "pix/problema"
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/NaoEncontrado"
    When I send "GET" to "/insurer/v1/nothing"
    Then the response status is 404
    And the response is valid against schema "platform/insurer-envelope"
    And the response field "HouveErrosDuranteProcessamento" is "true"
    When I send "GET" to "/customer/v1/nothing"
    Then the response is valid against schema "platform/insurer-envelope"
    When I send "GET" to "/portal/nothing"
    Then the response status is 404
    And the response is valid against schema "platform/problem"

  Scenario: A wrong method is a 405 listing the allowed ones
    When I send "DELETE" to "/portal/apps"
    Then the response status is 405
    And the response header "Allow" is "GET, POST"
    When I send "GET" to "/oauth/token"
    Then the response status is 405
    And the response header "Allow" is "POST"
    And the response is valid against schema "platform/oauth-error"
    When I send "DELETE" to "/sandbox/inbox/mine"
    Then the response status is 405
    And the response header "Allow" is "GET, POST"
    When I send "PUT" to "/sandbox/deliveries/x/replay"
    Then the response status is 405
    And the response header "Allow" is "POST"

  Scenario: A body that is not JSON is a 415
    When I send "POST" to "/portal/companies" with a body of type "text/plain":
      """
      cnpj=11444777000161
      """
    Then the response status is 415
    And the response is valid against schema "platform/problem"

  Scenario: A body over the limit is a 413
    When I send "POST" to "/portal/companies" with a JSON body of 1100000 bytes
    Then the response status is 413
    And the response is valid against schema "platform/problem"

  Scenario: Malformed JSON is a 400 with its position
    When I send "POST" to "/portal/companies" with JSON:
      """
      {"cnpj": "11444777000161",
       "name": "Corretora Sul",,}
      """
    Then the response status is 400
    And the response body contains "linha 2, coluna 26"

  Scenario: The request id is echoed, or made up
    Given I set the header "X-Request-Id" to "req-42"
    When I send "GET" to "/portal/nothing"
    Then the response header "X-Request-Id" is "req-42"
    And the response field "requestId" is "req-42"
    When I send "GET" to "/pix/v2/nothing"
    Then the response field "correlationId" matches "^[0-9a-f]{24}$"

  # Idempotency

  Scenario: The same Idempotency-Key replays; with another body it is a 422
    Given I set the header "Idempotency-Key" to "onboard-1"
    When I send "POST" to "/portal/companies" with JSON:
      """
      {"cnpj": "11444777000161", "name": "Corretora Sul"}
      """
    Then the response status is 201
    And I remember the response field "id" as "first"
    Given I set the header "Idempotency-Key" to "onboard-1"
    When I send "POST" to "/portal/companies" with JSON:
      """
      {"cnpj":"11444777000161","name":"Corretora Sul"}
      """
    Then the response status is 201
    And the response header "Idempotent-Replayed" is "true"
    And the response field "id" is "${first}"
    Given I set the header "Idempotency-Key" to "onboard-1"
    When I send "POST" to "/portal/companies" with JSON:
      """
      {"cnpj": "11444777000161", "name": "Another name"}
      """
    Then the response status is 422
    And the response body contains "outra requisição"

  Scenario: Idempotency keys expire after 24 hours of the company's clock
    Given I obtain a token
    And I set the header "Idempotency-Key" to "cob-2"
    When I send "POST" to "/pix/v2/cob" with JSON:
      """
      {"valor": {"original": "5.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    And I remember the response field "txid" as "first"
    When I advance the clock by "24h1s"
    And I obtain a token
    And I set the header "Idempotency-Key" to "cob-2"
    And I send "POST" to "/pix/v2/cob" with JSON:
      """
      {"valor": {"original": "5.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    And the response header "Idempotent-Replayed" is ""
    And the response body does not contain "${first}"

  # Interaction log

  Scenario: Every partner request is in the interaction log, secrets redacted
    Given I obtain a token
    And I set the header "Idempotency-Key" to "log-1"
    When I send "POST" to "/pix/v2/cob" with JSON:
      """
      {"valor": {"original": "7.00"}, "chave": "52998224725", "solicitacaoPagador": "Corretora Sul"}
      """
    And I send "GET" to "/sandbox/interactions?path=/pix/v2/cob"
    Then the response status is 200
    And the response field "interactions" has 1 item
    And the response field "interactions.0.method" is "POST"
    And the response field "interactions.0.status" is "201"
    And the response field "interactions.0.idempotencyKey" is "log-1"
    And the response field "interactions.0.requestBody" matches "Corretora Sul"
    When I send "GET" to "/sandbox/interactions?app=homologa-demo"
    Then the response field "interactions.0.path" is "/oauth/token"
    And the response field "interactions.0.requestHeaders.Authorization" is "Basic [redacted]"
    And the response body does not contain "${token}"
    When I send "GET" to "/sandbox/interactions?since=yesterday"
    Then the response status is 400
    And the response field "errors.0.field" is "since"
    When I send "GET" to "/sandbox/interactions?method=FOO"
    Then the response status is 400
    And the response field "errors.0.field" is "method"
    When I send "GET" to "/sandbox/events?cnpj=123"
    Then the response status is 400
    And the response field "errors.0.field" is "cnpj"

  # Clock

  Scenario: The clock is read, advanced and set
    When I send "GET" to "/sandbox/clock"
    Then the response is valid against schema "platform/clock"
    And the response field "now" is "2026-01-05T12:00:00Z"
    And the response field "mode" is "frozen"
    When I advance the clock by "1d12h"
    Then the response field "now" is "2026-01-07T00:00:00Z"
    Given the sandbox clock is at "2026-03-01T09:30:00Z"
    When I send "GET" to "/sandbox/clock"
    Then the response field "now" is "2026-03-01T09:30:00Z"
    When I send "POST" to "/sandbox/clock/advance" with JSON:
      """
      {"by": "1h30m"}
      """
    Then the response status is 200
    And the response field "now" is "2026-03-01T11:00:00Z"
    When I send "POST" to "/sandbox/clock/set" with JSON:
      """
      {"at": "2026-04-01T08:00:00Z", "mode": "frozen"}
      """
    Then the response status is 200
    And the response field "now" is "2026-04-01T08:00:00Z"
    And the response field "mode" is "frozen"

  Scenario Outline: A bad clock request names the field
    When I send "POST" to "<path>" with JSON:
      """
      <body>
      """
    Then the response status is 400
    And the response field "errors.0.field" is "<field>"

    Examples:
      | path                  | body                 | field |
      | /sandbox/clock/advance | {"by": "soon"}       | by    |
      | /sandbox/clock/advance | {"by": "-1h"}        | by    |
      | /sandbox/clock/advance | {}                   | by    |
      | /sandbox/clock/set     | {"at": "yesterday"}  | at    |
      | /sandbox/clock/advance | {"by": "3 days"}     | by    |

  # Events: webhooks, deliveries, stream

  Scenario: A ping reaches the app's webhook, signed
    Given a webhook receiver answering 200
    And the app's webhook points to the receiver
    And I obtain a token
    When I send "POST" to "/sandbox/events/ping" with JSON:
      """
      {"message": "hello"}
      """
    Then the response status is 202
    And I remember the response field "deliveries.0.id" as "delivery"
    And the response field "deliveries.0.status" is "delivered"
    And the response field "deliveries.0.attempts.0.statusCode" is "200"
    And the receiver gets a "sandbox.ping" event within 5 seconds
    And the event's signature is valid
    And the event field "data.message" is "hello"
    And the event field "cnpj" is "11222333000181"
    And the event field "occurredAt" is "2026-01-05T12:00:00Z"
    When I send "GET" to "/sandbox/deliveries/${delivery}"
    Then the response field "status" is "delivered"
    And the response field "attempts" has 1 item
    And the response field "attempts.0.statusCode" is "200"

  Scenario: A ping names its app by client id, and needs a webhook
    When I send "POST" to "/sandbox/events/ping" with JSON:
      """
      {"clientId": "homologa-demo"}
      """
    Then the response status is 202
    When I send "PUT" to "/portal/apps/homologa-demo/webhook" with JSON:
      """
      {"webhookUrl": ""}
      """
    And I send "POST" to "/sandbox/events/ping" with JSON:
      """
      {"clientId": "homologa-demo"}
      """
    Then the response status is 409
    And the response body contains "não tem URL de webhook"
    When I send "POST" to "/sandbox/events/ping" with JSON:
      """
      {"clientId": "app-de-outra-empresa"}
      """
    Then the response status is 400
    And the response field "errors.0.field" is "clientId"

  Scenario: A failing webhook is retried with backoff on the sandbox clock, then dead-lettered and replayed
    Given a webhook receiver answering 500
    And the app's webhook points to the receiver
    And I obtain a token
    When I send "POST" to "/sandbox/events/ping"
    And I remember the response field "deliveries.0.id" as "delivery"
    Then the receiver gets a "sandbox.ping" event within 5 seconds
    When I send "GET" to "/sandbox/deliveries/${delivery}"
    Then the response field "status" is "pending"
    And the response field "nextAttemptAt" is "2026-01-05T12:01:00Z"
    When I advance the clock by "59s"
    Then the receiver has received 1 request
    When I advance the clock by "1s"
    Then the receiver has received 2 requests
    When I advance the clock by "9h"
    Then the receiver has received 6 requests
    # Nine hours on, the token has long expired: the control API is the
    # company's, and takes a live token like every API.
    When I obtain a token
    And I send "GET" to "/sandbox/deliveries?status=dead"
    Then the response field "deliveries" has 1 item
    And the response field "deliveries.0.attempts" has 6 items
    And the response field "deliveries.0.attempts.5.statusCode" is "500"
    When the receiver starts answering 200
    And I send "POST" to "/sandbox/deliveries/${delivery}/replay"
    Then the response status is 200
    And the response field "status" is "delivered"
    And the response field "attempts.6.replay" is "true"
    When I send "POST" to "/sandbox/deliveries/no-such-delivery/replay"
    Then the response status is 404

  Scenario: Events of one subject wait for the one before
    Given a webhook receiver answering 500
    And the app's webhook points to the receiver
    And I obtain a token
    When I send "POST" to "/sandbox/events/ping"
    And I send "POST" to "/sandbox/events/ping"
    And I send "GET" to "/sandbox/deliveries?status=queued"
    Then the response field "deliveries" has 1 item
    And the response field "deliveries.0.attempts" has 0 items
    When the receiver starts answering 200
    And I advance the clock by "1m"
    And I send "GET" to "/sandbox/deliveries?status=delivered"
    Then the response field "deliveries" has 2 items
    And the receiver has received 3 requests

  Scenario: The event stream delivers live events, filtered, and resumes from a sequence
    Given I obtain a token
    When I subscribe to the event stream
    And I send "POST" to "/sandbox/events/ping" with JSON:
      """
      {"message": "first"}
      """
    Then the stream delivers a "sandbox.ping" event within 5 seconds
    And the event field "sequence" matches "^[1-9][0-9]*$"
    And I remember the event field "sequence" as "first"
    When I subscribe to the event stream with "types=proposta.*"
    And I send "POST" to "/sandbox/events/ping" with JSON:
      """
      {"message": "second"}
      """
    Then the stream delivers nothing within 1 second
    When I subscribe to the event stream with "since=${first}&types=sandbox.*"
    Then the stream delivers a "sandbox.ping" event within 5 seconds
    And the event field "data.message" is "second"

  Scenario: The event stream needs a token and shows only the company's events
    Then subscribing to the event stream is refused with status 401
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "backend"
    And I obtain a token
    When I subscribe to the event stream with "since=0"
    And I act as the demo app
    And I obtain a token
    And I send "POST" to "/sandbox/events/ping"
    Then the response status is 202
    And the stream delivers nothing within 1 second
