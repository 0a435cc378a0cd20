Feature: Scenarios drive resources through their states and inject faults
  YAML scenarios (scenarios/README.md) bound to a new resource by the
  X-Sandbox-Scenario header, a select rule (magic values) or the control
  API, otherwise the kind's default. Faults are activated by the header or
  the control API. The clock is frozen at 2026-01-05T12:00:00Z (a Monday).

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"
    And I obtain a token
    And a webhook receiver answering 200
    When I send "PUT" to "/pix/v2/webhook/52998224725" with JSON:
      """
      {"webhookUrl": "${receiverUrl}"}
      """
    Then the response status is 200

  Scenario: The header binds a scenario; the payer pays after its delay and the partner is notified
    Given I set the header "X-Sandbox-Scenario" to "cob-paga-em-30s"
    When I send "PUT" to "/pix/v2/cob/cenariohdrcenariohdrcenario01" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    When I advance the clock by "29s"
    And I send "GET" to "/pix/v2/cob/cenariohdrcenariohdrcenario01"
    Then the response field "status" is "ATIVA"
    When I advance the clock by "12s"
    Then the receiver gets a Pix callback within 5 seconds
    And the event field "pix.0.txid" is "cenariohdrcenariohdrcenario01"
    And the event field "pix.0.valor" is "25.00"
    # The jitter comes from the scenario's seed and the txid: the same
    # requests pay at the same instant in every sandbox, run after run.
    And the event field "pix.0.horario" is "2026-01-05T12:00:38.521Z"
    When I send "GET" to "/pix/v2/cob/cenariohdrcenariohdrcenario01"
    Then the response field "status" is "CONCLUIDA"
    And the response field "pix" has 1 item
    When I send "GET" to "/sandbox/scenarios/bindings?kind=cob"
    Then the response field "bindings.0.scenario" is "cob-paga-em-30s"
    And the response field "bindings.0.how" is "header"
    And the response field "bindings.0.status" is "done"
    And the response field "bindings.0.log.0.verb" is "pay"
    And the response field "bindings.0.log.0.outcome" matches "^paid 25.00: E99999009"

  Scenario: A header naming no scenario is refused in the Pix dialect, and nothing is created
    Given I set the header "X-Sandbox-Scenario" to "nao-existe"
    When I send "PUT" to "/pix/v2/cob/cenarioinexistentecenario0001" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    Then the response status is 400
    And the response is valid against schema "pix/problema"
    And the response field "violacoes.0.propriedade" is "X-Sandbox-Scenario"
    When I send "GET" to "/pix/v2/cob/cenarioinexistentecenario0001"
    Then the response status is 404

  Scenario: A magic amount selects a scenario: the PSP removes the charge an hour later
    When I send "PUT" to "/pix/v2/cob/cenarioselectcenarioselect001" with JSON:
      """
      {"valor": {"original": "1.02"}, "chave": "52998224725"}
      """
    And I advance the clock by "1h"
    And I obtain a token
    And I send "GET" to "/pix/v2/cob/cenarioselectcenarioselect001"
    Then the response field "status" is "REMOVIDA_PELO_PSP"
    And the response field "revisao" is "0"
    When I send "GET" to "/sandbox/scenarios/bindings?kind=cob"
    Then the response field "bindings.0.how" is "select"
    And the response field "bindings.0.scenario" is "cob-removida-pelo-psp"

  Scenario: The control API binds the app's next charge, or an existing one
    When I send "POST" to "/sandbox/scenarios/cob-expira/bind" with JSON:
      """
      {"clientId": "homologa-demo", "next": true}
      """
    Then the response status is 200
    When I send "PUT" to "/pix/v2/cob/cenariocontrolecenariocontr01" with JSON:
      """
      {"calendario": {"expiracao": 600}, "valor": {"original": "30.00"}, "chave": "52998224725"}
      """
    And I advance the clock by "10m"
    And I send "GET" to "/pix/v2/cob/cenariocontrolecenariocontr01"
    Then the response field "status" is "REMOVIDA_PELO_PSP"
    When I send "PUT" to "/pix/v2/cob/cenariocontrolecenariocontr02" with JSON:
      """
      {"valor": {"original": "30.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/scenarios/cob-paga-em-30s/bind" with JSON:
      """
      {"clientId": "homologa-demo", "txid": "cenariocontrolecenariocontr02"}
      """
    Then the response status is 201
    And the response field "how" is "control"
    When I advance the clock by "40s"
    And I send "GET" to "/pix/v2/cob/cenariocontrolecenariocontr02"
    Then the response field "status" is "CONCLUIDA"

  Scenario: A step that no longer applies stops the binding with the reason
    When I send "PUT" to "/pix/v2/cob/cenarioparadocenarioparado001" with JSON:
      """
      {"valor": {"original": "1.02"}, "chave": "52998224725"}
      """
    And I send "PATCH" to "/pix/v2/cob/cenarioparadocenarioparado001" with JSON:
      """
      {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}
      """
    And I advance the clock by "1h"
    And I obtain a token
    And I send "GET" to "/sandbox/scenarios/bindings?kind=cob"
    Then the response field "bindings.0.status" is "stopped"
    And the response field "bindings.0.log.0.outcome" matches "^stopped: a cobrança cenarioparadocenarioparado001 está REMOVIDA_PELO_USUARIO_RECEBEDOR"

  Scenario: Pay with a divergent amount, then a second Pix on the key: steps pay and create
    When I send "PUT" to "/pix/v2/cob/cenariodivergentecenariodiv1" with JSON:
      """
      {"valor": {"original": "1.03"}, "chave": "52998224725"}
      """
    And I send "PUT" to "/pix/v2/cob/cenarioduasvezescenarioduas1" with JSON:
      """
      {"valor": {"original": "1.04"}, "chave": "52998224725"}
      """
    And I advance the clock by "30s"
    And I send "GET" to "/pix/v2/cob/cenariodivergentecenariodiv1"
    Then the response field "status" is "CONCLUIDA"
    And the response field "pix.0.valor" is "1.02"
    When I advance the clock by "2m"
    And I send "GET" to "/pix/v2/pix?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z"
    Then the response field "pix" has 3 items
    And the response body contains "1.04"

  Scenario: A step waits for a trigger, then emits an event; refunds settle or fail by scenario
    Given the app's webhook points to the receiver
    And I set the header "X-Sandbox-Scenario" to "cob-paga-e-devolvida"
    When I send "PUT" to "/pix/v2/cob/cenariogatilhocenariogatilh01" with JSON:
      """
      {"valor": {"original": "50.00"}, "chave": "52998224725"}
      """
    And I advance the clock by "30s"
    And I send "GET" to "/pix/v2/cob/cenariogatilhocenariogatilh01"
    Then the response field "status" is "CONCLUIDA"
    And I remember the response field "pix.0.endToEndId" as "e2e"
    When I send "GET" to "/sandbox/scenarios/bindings?kind=cob"
    Then the response field "bindings.0.waitingFor" is "refund_requested"
    When I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D1" with JSON:
      """
      {"valor": "0.66"}
      """
    Then the response status is 201
    And the receiver gets a "suporte.devolucao_solicitada" event within 5 seconds
    And the event field "data.origem" is "cenario"
    And the event field "subject.txid" is "cenariogatilhocenariogatilh01"
    When I send "PUT" to "/pix/v2/pix/${e2e}/devolucao/D2" with JSON:
      """
      {"valor": "10.00"}
      """
    And I advance the clock by "5s"
    And I send "GET" to "/pix/v2/pix/${e2e}/devolucao/D1"
    Then the response field "status" is "NAO_REALIZADO"
    And the response field "motivo" is "Conta transacional do pagador encerrada"
    When I send "GET" to "/pix/v2/pix/${e2e}/devolucao/D2"
    Then the response field "status" is "DEVOLVIDO"

  Scenario: A due-date charge is paid at noon of its due date, moved past the weekend
    When I send "PUT" to "/pix/v2/cobv/cenariovencimentocenariovenc1" with JSON:
      """
      {"calendario": {"dataDeVencimento": "2026-01-10"},
       "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"},
       "valor": {"original": "1.01"}, "chave": "52998224725"}
      """
    Then the response status is 201
    When I advance the clock by "8d"
    And I obtain a token
    And I send "GET" to "/pix/v2/cobv/cenariovencimentocenariovenc1"
    Then the response field "status" is "CONCLUIDA"
    And the response field "pix.0.horario" is "2026-01-12T15:00:00.000Z"

  Scenario: A 503 with Retry-After answers the first creation, in the Pix dialect; the retry works
    Given I set the header "X-Sandbox-Scenario" to "pix-indisponivel-uma-vez"
    When I send "PUT" to "/pix/v2/cob/cenariofalhacenariofalha00001" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    Then the response status is 503
    And the response header "Retry-After" is "2"
    And the response is valid against schema "pix/problema"
    And the response field "type" is "https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel"
    Given I set the header "X-Sandbox-Scenario" to "pix-indisponivel-uma-vez"
    When I send "PUT" to "/pix/v2/cob/cenariofalhacenariofalha00001" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    When I send "GET" to "/sandbox/interactions?path=/pix/v2/cob/cenariofalhacenariofalha00001"
    Then the response field "interactions.0.injected" matches "^pix-indisponivel-uma-vez#faults.0 .*respond 503 \(before\)$"
    And the response field "interactions.1.injected" does not exist

  Scenario: A response lost after the work: retrying the txid finds the charge, once
    When I send "POST" to "/sandbox/scenarios/pix-resposta-perdida/activate" with JSON:
      """
      {"clientId": "homologa-demo"}
      """
    Then the response status is 200
    When I send "PUT" to "/pix/v2/cob/cenarioperdidacenarioperdida1" with JSON and get no answer:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I send "PUT" to "/pix/v2/cob/cenarioperdidacenarioperdida1" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    And the response field "revisao" is "0"
    # The lost answer is in the log before the client sees the reset.
    When I send "GET" to "/sandbox/interactions?path=/pix/v2/cob/cenarioperdidacenarioperdida1"
    Then the response field "interactions" has 2 items
    And the response field "interactions.0.status" is "0"
    And the response field "interactions.0.injected" matches "^pix-resposta-perdida#faults.0 .*reset \(after\)$"
    And the response field "interactions.1.status" is "201"

  Scenario: A response lost after the work: the same Idempotency-Key gets the original answer and no duplicate
    When I send "POST" to "/sandbox/scenarios/pix-resposta-perdida/activate" with JSON:
      """
      {"clientId": "homologa-demo"}
      """
    And I set the header "Idempotency-Key" to "cob-retry-1"
    And I send "POST" to "/pix/v2/cob" with JSON and get no answer:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I set the header "Idempotency-Key" to "cob-retry-1"
    And I send "POST" to "/pix/v2/cob" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    Then the response status is 201
    And I remember the response field "txid" as "txid"
    When I send "GET" to "/pix/v2/cob?inicio=2026-01-05T00:00:00Z&fim=2026-01-06T00:00:00Z"
    Then the response field "cobs" has 1 item
    And the response field "cobs.0.txid" is "${txid}"

  Scenario: Latency and timeouts, from an uploaded scenario
    When I send "POST" to "/sandbox/scenarios" with a body of type "application/yaml":
      """
      id: lento-e-mudo
      title: GET cob is slow once, then PUT cob hangs and closes once
      applies_to: pix
      faults:
        - match: {method: GET, path: "/pix/v2/cob/*"}
          times: 1
          latency: 300ms
        - match: {method: PUT, path: "/pix/v2/cob/*"}
          times: 1
          timeout: 200ms
      """
    Then the response status is 201
    When I send "POST" to "/sandbox/scenarios/lento-e-mudo/activate" with JSON:
      """
      {}
      """
    And I send "PUT" to "/pix/v2/cob/cenariomudocenariomudocenari1" with JSON and get no answer:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I send "GET" to "/pix/v2/cob/cenariomudocenariomudocenari1"
    Then the response status is 404
    When I send "GET" to "/sandbox/interactions?path=/pix/v2/cob/cenariomudocenariomudocenari1"
    Then the response field "interactions.0.injected" matches "timeout 200ms"
    And the response field "interactions.1.injected" matches "latency 300ms"
    And the response field "interactions.1.durationMs" matches "^([3-9][0-9]{2}|[0-9]{4,})"
    When I send "GET" to "/sandbox/faults"
    Then the response field "active.0.faults.0.spent" is "true"
    And the response field "active.0.faults.1.spent" is "true"

  Scenario: Webhook faults: duplicated, signed wrong, delayed
    When I send "POST" to "/sandbox/scenarios/webhook-duplicado/activate" with JSON:
      """
      {"clientId": "homologa-demo"}
      """
    And I send "PUT" to "/pix/v2/cob/cenariowebhookcenariowebhook1" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "cenariowebhookcenariowebhook1"}
      """
    Then the receiver gets 2 Pix callbacks within 5 seconds
    When I send "POST" to "/sandbox/scenarios/webhook-assinatura-invalida/activate" with JSON:
      """
      {"clientId": "homologa-demo"}
      """
    And I send "PUT" to "/pix/v2/cob/cenariowebhookcenariowebhook2" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "cenariowebhookcenariowebhook2"}
      """
    Then the receiver gets 3 Pix callbacks within 5 seconds
    And the event's signature is not valid
    When I send "POST" to "/sandbox/scenarios/webhook-atrasado/activate" with JSON:
      """
      {"clientId": "homologa-demo"}
      """
    And I send "PUT" to "/pix/v2/cob/cenariowebhookcenariowebhook3" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "cenariowebhookcenariowebhook3"}
      """
    And I advance the clock by "1s"
    Then the receiver has received 3 requests
    When I advance the clock by "10m"
    Then the receiver gets 4 Pix callbacks within 5 seconds
    And the event field "pix.0.txid" is "cenariowebhookcenariowebhook3"
    When I send "GET" to "/sandbox/deliveries"
    Then the response body contains "webhook-duplicado#faults.0"
    And the response body contains "webhook-assinatura-invalida#faults.0"
    And the response body contains "webhook-atrasado#faults.0"

  Scenario: Webhook faults: dropped, out of order
    When I send "POST" to "/sandbox/scenarios/webhook-perdido/activate" with JSON:
      """
      {}
      """
    And I send "PUT" to "/pix/v2/cob/cenarioperdidowhcenarioperdid1" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "cenarioperdidowhcenarioperdid1"}
      """
    And I advance the clock by "1s"
    And I send "GET" to "/sandbox/deliveries"
    Then the response field "deliveries.0.status" is "dropped"
    And the response field "deliveries.0.injected" matches "^webhook-perdido#faults.0"
    And the receiver has received 0 requests
    When I send "POST" to "/sandbox/scenarios/webhook-fora-de-ordem/activate" with JSON:
      """
      {}
      """
    And I send "PUT" to "/pix/v2/cob/cenarioordemcenarioordemcena01" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I send "PUT" to "/pix/v2/cob/cenarioordemcenarioordemcena02" with JSON:
      """
      {"valor": {"original": "25.00"}, "chave": "52998224725"}
      """
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "cenarioordemcenarioordemcena01"}
      """
    And I advance the clock by "1s"
    And I send "POST" to "/sandbox/pix/payments" with JSON:
      """
      {"txid": "cenarioordemcenarioordemcena02"}
      """
    Then the receiver gets a Pix callback within 5 seconds
    And the event field "pix.0.txid" is "cenarioordemcenarioordemcena02"
    When I advance the clock by "1m"
    Then the receiver gets 2 Pix callbacks within 5 seconds
    And the event field "pix.0.txid" is "cenarioordemcenarioordemcena01"

  Scenario: An invalid upload is refused with file, line and field, and nothing is loaded
    When I send "POST" to "/sandbox/scenarios" with a body of type "application/yaml":
      """
      id: impossivel
      title: Pays a removed charge
      applies_to: cob
      steps:
        - after: 1m
          status: REMOVIDA_PELO_PSP
        - after: -5m
          pay: true
      """
    Then the response status is 400
    And the response is valid against schema "platform/problem"
    And the response body contains "upload:7: steps.1.after: uma duração não pode ser negativa"
    And the response body contains "upload:7: steps.1: transição impossível: cob está REMOVIDA_PELO_PSP, um estado final"
    When I send "GET" to "/sandbox/scenarios/impossivel"
    Then the response status is 404
    When I send "GET" to "/sandbox/scenarios?applies_to=devolucao"
    Then the response field "scenarios" has 2 items
    And the response field "scenarios.1.default" is "true"

  Scenario: The token endpoint can fail too; scenarios are shown, uploaded and removed
    When I send "POST" to "/sandbox/scenarios" with a body of type "application/yaml":
      """
      id: token-indisponivel
      title: The authorisation server answers 503 once
      applies_to: oauth
      faults:
        - match: {method: POST, path: /oauth/token}
          times: 1
          respond: {status: 503, retry_after: 1s}
      """
    Then the response status is 201
    And the response field "trigger" matches "POST /sandbox/scenarios/token-indisponivel/activate"
    When I send "POST" to "/sandbox/scenarios/token-indisponivel/activate" with JSON:
      """
      {}
      """
    And I send "POST" to "/oauth/token" with a body of type "application/x-www-form-urlencoded":
      """
      grant_type=client_credentials&client_id=homologa-demo&client_secret=homologa-demo-secret
      """
    Then the response status is 503
    And the response is valid against schema "platform/oauth-error"
    And the response header "Retry-After" is "1"
    When I obtain a token
    And I send "GET" to "/sandbox/scenarios/token-indisponivel"
    Then the response status is 200
    And the response field "source" matches "^id: token-indisponivel"
    And the response field "scenario.faults.0.line" is "5"
    When I send "DELETE" to "/sandbox/scenarios/token-indisponivel"
    Then the response status is 204
    When I send "GET" to "/sandbox/faults"
    Then the response field "active" has 0 items
    When I send "DELETE" to "/sandbox/scenarios/devolucao-padrao"
    Then the response status is 409
