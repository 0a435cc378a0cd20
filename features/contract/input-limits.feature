Feature: Input limits: bodies, YAML, clock instants, secrets in URLs, token guessing
  A hosted sandbox takes input from anyone with an app. Every input is
  bounded and refused in the dialect of the API that was called, quickly
  and without a 500; secrets sent where they should not be never reach
  the interaction log; guessing a client's secret is slowed down.

  Background:
    Given my clock is frozen at "2026-01-05T12:00:00Z"

  Scenario: A scenario upload past the body limit is a 413
    When I send "POST" to "/sandbox/scenarios" with a JSON body of 2000000 bytes
    Then the response status is 413
    And the response is valid against schema "platform/problem"
    And the response field "type" is "urn:homologa:problem:too_large"
    And the response field "detail" matches "1048576 bytes"

  Scenario: A YAML alias bomb is refused quickly, not expanded
    When I send "POST" to "/sandbox/scenarios" with a body of type "application/yaml":
      """
      id: risos
      title: A billion laughs
      applies_to: pix
      a: &a ["ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha"]
      b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
      c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
      d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
      e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
      f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
      g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
      h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
      i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]
      """
    Then the response status is 400
    And the response arrived within 2000 ms
    And the response is valid against schema "platform/problem"
    And the response body contains "20000"
    When I send "GET" to "/sandbox/scenarios/risos"
    Then the response status is 404

  Scenario: A clock instant past the sandbox's range is a 400 naming the limit
    When I send "POST" to "/sandbox/clock/set" with JSON:
      """
      {"at": "2263-01-01T00:00:00Z"}
      """
    Then the response status is 400
    And the response is valid against schema "platform/problem"
    And the response field "errors.0.field" is "at"
    And the response field "errors.0.reason" matches "2000-01-01 a 2200-01-01"
    When I send "GET" to "/sandbox/clock"
    Then the response field "now" is "2026-01-05T12:00:00Z"

  Scenario: A token in the query string is refused and redacted in the interaction log
    Given I obtain a token
    And I remember the response field "access_token" as "secret"
    When I use the token ""
    And I send "GET" to "/pix/v2/cob?access_token=${secret}&inicio=2026-01-01T00:00:00Z&fim=2026-01-06T00:00:00Z"
    Then the response status is 401
    When I use the token "${secret}"
    And I send "GET" to "/pix/v2/cob?access_token=${secret}&inicio=2026-01-01T00:00:00Z&fim=2026-01-06T00:00:00Z"
    Then the response status is 200
    When I send "GET" to "/sandbox/interactions?path=/pix/v2/cob"
    Then the response status is 200
    And the response field "interactions.0.query" matches "^access_token=\[redacted\]&inicio="
    And the response body does not contain "${secret}"

  Scenario: Repeated wrong secrets for one client are answered 429 with Retry-After
    Given a company "Corretora Cautelosa" with CNPJ "11444777000161" and an app "backend"
    When I send "POST" to "/oauth/token" with a body of type "application/x-www-form-urlencoded" 10 times:
      """
      grant_type=client_credentials&client_id=${app.clientId}&client_secret=errado
      """
    Then the response status is 401
    And the response field "error" is "invalid_client"
    When I send "POST" to "/oauth/token" with a body of type "application/x-www-form-urlencoded":
      """
      grant_type=client_credentials&client_id=${app.clientId}&client_secret=errado
      """
    Then the response status is 429
    And the response is valid against schema "platform/oauth-error"
    And the response field "error" is "temporarily_unavailable"
    And the response header "Retry-After" is "10"
    And the response field "error_description" matches "tente de novo em 10 s"
    # Locked out, even the right secret waits: the lockout is not a hint.
    When I send "POST" to "/oauth/token" with a body of type "application/x-www-form-urlencoded":
      """
      grant_type=client_credentials&client_id=${app.clientId}&client_secret=${app.clientSecret}
      """
    Then the response status is 429
    # The lockout is the client's: another app gets its token.
    Given I act as the demo app
    When I obtain a token
    Then the response status is 200
