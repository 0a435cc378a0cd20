Feature: The portal and the control API belong to their owners
  A hosted sandbox is shared by many companies, and reachable by pages of
  any site a developer visits. The portal takes a person's login, the
  control API a company's credential; a form of another site, a page under
  another name, a report a client makes up, another company's token: none
  of them gets anything. (Issue 15's findings, each closed here.)

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"

  Scenario: A person registers, logs in and sees only their own
    When I log out of the portal
    And I send "GET" to "/portal/apps"
    Then the response status is 401
    When I send "POST" to "/portal/accounts" with JSON:
      """
      {"email": "ana@corretora.com.br", "password": "uma-senha-bem-longa",
       "company": {"cnpj": "11.444.777/0001-61", "name": "Corretora Sul"}}
      """
    Then the response status is 201
    And the response field "companies.0.cnpj" is "11444777000161"
    When I log in to the portal as "ana@corretora.com.br" with password "uma-senha-bem-longa"
    And I send "POST" to "/portal/apps" with JSON:
      """
      {"name": "backend"}
      """
    Then the response status is 201
    And the response field "clientSecret" exists
    And the response field "webhookSecret" matches "^whsec_"
    And I remember the response field "id" as "anaApp"
    # Secrets are shown once.
    When I send "GET" to "/portal/apps/${anaApp}"
    Then the response field "webhookSecret" does not exist
    And the response field "clientSecret" does not exist
    # Ana sees her app and company, not the demo account's.
    When I send "GET" to "/portal/apps"
    Then the response field "apps" has 1 item
    When I send "GET" to "/portal/apps/homologa-demo"
    Then the response status is 404
    When I send "POST" to "/portal/apps/homologa-demo/secret"
    Then the response status is 404
    # Her own app takes her pages' origins and a client certificate, and
    # she makes herself a token for CI.
    When I send "PUT" to "/portal/apps/${anaApp}/widget-origins" with JSON:
      """
      {"origins": ["https://corretora-sul.example"]}
      """
    Then the response status is 200
    And the response field "widgetOrigins.0" is "https://corretora-sul.example"
    When I send "POST" to "/portal/apps/${anaApp}/certificates" with JSON:
      """
      {"format": "pem"}
      """
    Then the response status is 201
    And the response body contains "BEGIN CERTIFICATE"
    When I send "POST" to "/portal/tokens" with JSON:
      """
      {"name": "ci"}
      """
    Then the response status is 201
    And the response field "name" is "ci"
    When I send "POST" to "/portal/login" with JSON:
      """
      {"email": "ana@corretora.com.br", "password": "uma-senha-bem-longa"}
      """
    Then the response status is 200
    And the response field "account.email" is "ana@corretora.com.br"

  Scenario: A cross-site form cannot rotate an app's secret
    When I log out of the portal
    And I set the header "Origin" to "http://evil.example"
    And I send "POST" to "/portal/apps/homologa-demo/secret" with a body of type "application/x-www-form-urlencoded":
      """
      confirm=1
      """
    Then the response status is 415
    When I set the header "Origin" to "http://evil.example"
    And I send "POST" to "/portal/apps/homologa-demo/secret"
    Then the response status is 401

  Scenario: A page under a name of its own reads nothing (DNS rebinding)
    When I set the header "Host" to "attacker.example"
    And I send "GET" to "/portal/apps"
    Then the response status is 421
    And the response body does not contain "homologa-demo"
    When I set the header "Host" to "attacker.example:8080"
    And I obtain a token
    And I set the header "Host" to "attacker.example:8080"
    And I send "GET" to "/sandbox/deliveries"
    Then the response status is 421

  Scenario: A report a client makes up opens nothing: only the sandbox's own runs gate publishing
    When I send "POST" to "/sandbox/homologation/reports" with JSON:
      """
      {"clientId": "homologa-demo", "ready": true, "summary": "PRONTO PARA PRODUÇÃO", "passed": 99}
      """
    Then the response status is 404
    When I send "POST" to "/portal/apps/homologa-demo/publish"
    Then the response status is 409
    And the response body contains "ainda não tem homologação feita pelo sandbox"

  Scenario: Another company can neither activate my faults nor replay my deliveries
    Given a webhook receiver answering 200
    And the app's webhook points to the receiver
    And I obtain a token
    When I send "POST" to "/sandbox/events/ping"
    Then the response status is 202
    And I remember the response field "deliveries.0.id" as "delivery"
    When I send "POST" to "/sandbox/scenarios" with a body of type "application/yaml":
      """
      id: minhas-falhas
      title: Falhas só minhas
      applies_to: pix
      faults:
        - match: {path: /pix/v2/cob}
          times: 1
          respond: {status: 503}
      """
    Then the response status is 201
    Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "backend"
    And I obtain a token
    When I send "POST" to "/sandbox/deliveries/${delivery}/replay"
    Then the response status is 404
    When I send "GET" to "/sandbox/deliveries/${delivery}"
    Then the response status is 404
    When I send "POST" to "/sandbox/scenarios/minhas-falhas/activate" with JSON:
      """
      {}
      """
    Then the response status is 404
    When I send "POST" to "/sandbox/scenarios/pix-indisponivel-uma-vez/activate" with JSON:
      """
      {"clientId": "homologa-demo"}
      """
    Then the response status is 400
    And the response body contains "na sua empresa"
    When I send "GET" to "/sandbox/resources"
    Then the response body does not contain "homologa-demo"
