package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"homologa/simulator/events"
)

// Step is one phrase of the step vocabulary: its pattern, what it does, an
// example, and its implementation over a World. The reference in
// harness/README.md is generated from this table.
type Step struct {
	Pattern string
	Doc     string
	Example string
	Group   string
	Func    func(w *World) any
}

// Steps is the step vocabulary, in the order the reference lists it.
var Steps = []Step{
	// Apps and tokens.
	{Group: "Apps and tokens", Pattern: `^I act as the demo app$`,
		Doc: "Use the demo app's credentials (the default).", Example: `Given I act as the demo app`,
		Func: func(w *World) any { return func() error { w.app = w.Demo; return nil } }},
	{Group: "Apps and tokens", Pattern: `^a company "([^"]*)" with CNPJ "([^"]*)" and an app "([^"]*)"$`,
		Doc:     "Register a company and an app through the portal and act as that app. Remembers company.id, app.id, app.clientId.",
		Example: `Given a company "Corretora Sul" with CNPJ "11444777000161" and an app "backend"`,
		Func:    func(w *World) any { return w.companyAndApp }},
	{Group: "Apps and tokens", Pattern: `^I obtain a token$`,
		Doc: "Run the client-credentials grant with the app's credentials (HTTP Basic); later requests carry the token.", Example: `When I obtain a token`,
		Func: func(w *World) any { return func() error { return w.obtainToken("") } }},
	{Group: "Apps and tokens", Pattern: `^I obtain a token with scope "([^"]*)"$`,
		Doc: "The same, narrowed to the given space-separated scopes.", Example: `When I obtain a token with scope "cob.read cob.write"`,
		Func: func(w *World) any { return w.obtainToken }},
	{Group: "Apps and tokens", Pattern: `^I use the token "([^"]*)"$`,
		Doc: "Send a given bearer token from now on (an empty one sends none).", Example: `Given I use the token "not-a-token"`,
		Func: func(w *World) any {
			return func(tok string) (err error) { w.token, err = w.expand(tok); return err }
		}},

	// The sandbox's settings.
	{Group: "Sandbox settings", Pattern: `^the sandbox was started with (--webhook-allow|--webhook-resolve) "([^"]*)"$`,
		Doc:     "Go on only if the sandbox's index (GET /, its settings) shows the flag with that host: --webhook-allow lists it, or --webhook-resolve pins that name. On a sandbox without it, the scenario is not applicable (counted and named in the report, never failed) and its remaining steps are skipped.",
		Example: `Given the sandbox was started with --webhook-resolve "metadata.homologa.test"`,
		Func:    func(w *World) any { return w.sandboxStartedWith }},
	{Group: "Sandbox settings", Pattern: `^the sandbox was started with (--tls|--mtls)$`,
		Doc: "Go on only if the sandbox serves TLS (or mutual TLS); otherwise the scenario is not applicable.", Example: `Given the sandbox was started with --mtls`,
		Func: func(w *World) any { return func(flag string) error { return w.sandboxStartedWith(flag, "") } }},
	{Group: "Sandbox settings", Pattern: `^the sandbox does not admit webhooks to "([^"]*)"$`,
		Doc: "Go on only if the sandbox's --webhook-allow admits neither the host nor every name (*); otherwise the scenario is not applicable.", Example: `Given the sandbox does not admit webhooks to "partner.example"`,
		Func: func(w *World) any { return w.sandboxRefusesWebhooksTo }},

	// Requests.
	{Group: "Requests", Pattern: `^I set the header "([^"]*)" to "([^"]*)"$`,
		Doc: "Add a header to the next request only (Host too: the request then names that host).", Example: `Given I set the header "Idempotency-Key" to "k-1"`,
		Func: func(w *World) any {
			return func(k, v string) error {
				v, err := w.expand(v)
				w.header.Set(k, v)
				return err
			}
		}},
	{Group: "Apps and tokens", Pattern: `^I log in to the portal as "([^"]*)" with password "([^"]*)"$`,
		Doc: "Log in to the portal (POST /portal/tokens, HTTP Basic): later /portal requests carry that account's token instead of the scenario's demo account's.", Example: `When I log in to the portal as "ana@corretora.com.br" with password "uma-senha-bem-longa"`,
		Func: func(w *World) any { return w.portalLogin }},
	{Group: "Apps and tokens", Pattern: `^I log out of the portal$`,
		Doc: "Later /portal requests carry no portal credential (each scenario starts logged in as its namespace's demo account).", Example: `When I log out of the portal`,
		Func: func(w *World) any { return func() error { w.portal = ""; return nil } }},
	{Group: "Requests", Pattern: `^I send "(GET|POST|PUT|PATCH|DELETE|HEAD)" to "([^"]*)"$`,
		Doc: "Send a request without a body. Paths are relative to the sandbox; ${name} expands. A path starting with http:// or https:// is sent as it is: a Pix location has no scheme, so fetch its payload with \"http://${location}\" (in every send step).", Example: `When I send "GET" to "/portal/apps/${app.id}"`,
		Func: func(w *World) any { return func(m, p string) error { return w.do(m, p, nil, "") } }},
	{Group: "Requests", Pattern: `^I send "(GET|POST|PUT|PATCH|DELETE)" to "([^"]*)" with JSON and get no answer:$`,
		Doc:     "Send the docstring as JSON and expect the connection to end without a response (an injected reset or timeout).",
		Example: "When I send \"PUT\" to \"/pix/v2/cob/${txid}\" with JSON and get no answer:\n  \"\"\"\n  {\"valor\": {\"original\": \"1.00\"}, \"chave\": \"52998224725\"}\n  \"\"\"",
		Func: func(w *World) any {
			return func(m, p string, body *godog.DocString) error {
				b, err := w.expand(body.Content)
				if err != nil {
					return err
				}
				// A fresh connection: on a reused one, net/http itself
				// retries a request that carries an Idempotency-Key.
				saved := w.client
				w.client = &http.Client{Timeout: saved.Timeout, Transport: &http.Transport{DisableKeepAlives: true}}
				err = w.do(m, p, []byte(b), "application/json")
				w.client = saved
				if err == nil {
					return fmt.Errorf("got an answer: %s", w.describe())
				}
				if !isTransport(err) {
					return err
				}
				return nil
			}
		}},
	{Group: "Requests", Pattern: `^I send "(GET|POST|PUT|PATCH|DELETE)" to "([^"]*)" with JSON:$`,
		Doc:     "Send the docstring as an application/json body; ${name} expands in it.",
		Example: "When I send \"POST\" to \"/portal/companies\" with JSON:\n  \"\"\"\n  {\"cnpj\": \"11444777000161\", \"name\": \"Corretora Sul\"}\n  \"\"\"",
		Func: func(w *World) any {
			return func(m, p string, doc *godog.DocString) error {
				b, err := w.expand(doc.Content)
				if err != nil {
					return err
				}
				return w.do(m, p, []byte(b), "application/json")
			}
		}},
	{Group: "Requests", Pattern: `^I send "(GET|POST|PUT|PATCH|DELETE)" to "([^"]*)" with a body of type "([^"]*)":$`,
		Doc:     "Send the docstring verbatim with the given content type (for malformed and non-JSON bodies).",
		Example: "When I send \"POST\" to \"/portal/companies\" with a body of type \"text/plain\":\n  \"\"\"\n  hello\n  \"\"\"",
		Func: func(w *World) any {
			return func(m, p, ct string, doc *godog.DocString) error {
				b, err := w.expand(doc.Content)
				if err != nil {
					return err
				}
				return w.do(m, p, []byte(b), ct)
			}
		}},
	{Group: "Requests", Pattern: `^I send "(POST|PUT|PATCH)" to "([^"]*)" with a JSON body of (\d+) bytes$`,
		Doc: "Send a valid JSON document of about the given size (for body limits).", Example: `When I send "POST" to "/portal/companies" with a JSON body of 2000000 bytes`,
		Func: func(w *World) any {
			return func(m, p string, n int) error {
				pad := strings.Repeat("x", max(0, n-20))
				return w.do(m, p, []byte(`{"name":"`+pad+`"}`), "application/json")
			}
		}},

	// Responses.
	{Group: "Responses", Pattern: `^the response status is (\d+)$`,
		Doc: "The last answer had this HTTP status.", Example: `Then the response status is 201`,
		Func: func(w *World) any { return w.statusIs }},
	{Group: "Responses", Pattern: `^the response header "([^"]*)" is "([^"]*)"$`,
		Doc: "A header of the last answer equals the value.", Example: `Then the response header "Idempotent-Replayed" is "true"`,
		Func: func(w *World) any { return w.headerIs }},
	{Group: "Responses", Pattern: `^the response header "([^"]*)" contains "([^"]*)"$`,
		Doc: "A header of the last answer contains the text.", Example: `Then the response header "WWW-Authenticate" contains "invalid_token"`,
		Func: func(w *World) any { return w.headerContains }},
	{Group: "Responses", Pattern: `^the response header "([^"]*)" matches the response field "([^"]*)"$`,
		Doc: "A header of the last answer equals a field of its body.", Example: `Then the response header "Location" matches the response field "location"`,
		Func: func(w *World) any {
			return func(h, path string) error {
				v, ok, err := w.lookup(path)
				if err != nil {
					return err
				}
				if got := w.resp.Header.Get(h); !ok || got != text(v) {
					return fmt.Errorf("header %s is %q, field %q is %v", h, got, path, v)
				}
				return nil
			}
		}},
	{Group: "Responses", Pattern: `^the response field "([^"]*)" is "([^"]*)"$`,
		Doc:     "A field (dotted path, list indexes as numbers) equals the value; non-strings compare as JSON text.",
		Example: `Then the response field "errors.0.field" is "cnpj"`,
		Func:    func(w *World) any { return w.fieldIs }},
	{Group: "Responses", Pattern: `^the response field "([^"]*)" matches "([^"]*)"$`,
		Doc: "A field matches a regular expression.", Example: `Then the response field "clientId" matches "^hmlg_"`,
		Func: func(w *World) any { return w.fieldMatches }},
	{Group: "Responses", Pattern: `^the response field "([^"]*)" exists$`,
		Doc: "A field is present.", Example: `Then the response field "clientSecret" exists`,
		Func: func(w *World) any { return func(p string) error { return w.fieldPresence(p, true) } }},
	{Group: "Responses", Pattern: `^the response field "([^"]*)" does not exist$`,
		Doc: "A field is absent.", Example: `Then the response field "clientSecret" does not exist`,
		Func: func(w *World) any { return func(p string) error { return w.fieldPresence(p, false) } }},
	{Group: "Responses", Pattern: `^the response field "([^"]*)" has (\d+) items?$`,
		Doc: "A list field has exactly n items.", Example: `Then the response field "deliveries" has 1 item`,
		Func: func(w *World) any { return w.fieldLen }},
	{Group: "Responses", Pattern: `^the response body contains "([^"]*)"$`,
		Doc: "The raw body contains the text; ${name} expands.", Example: `Then the response body contains "line 1, column 9"`,
		Func: func(w *World) any { return w.bodyContains }},
	{Group: "Responses", Pattern: `^the response body does not contain "([^"]*)"$`,
		Doc: "The raw body does not contain the text; ${name} expands.", Example: `Then the response body does not contain "access_token\":\"4"`,
		Func: func(w *World) any {
			return func(s string) error {
				if err := w.mustResponse(); err != nil {
					return err
				}
				s, err := w.expand(s)
				if err != nil {
					return err
				}
				if strings.Contains(string(w.body), s) {
					return fmt.Errorf("body contains %q: %s", s, w.describe())
				}
				return nil
			}
		}},
	{Group: "Responses", Pattern: `^the response is valid against schema "([^"]*)"$`,
		Doc: "The body validates against a schema of schemas/ (name without .json).", Example: `Then the response is valid against schema "platform/app"`,
		Func: func(w *World) any { return w.validSchema }},
	{Group: "Responses", Pattern: `^I remember the response field "([^"]*)" as "([^"]*)"$`,
		Doc: "Keep a field's value for later steps as ${name}.", Example: `And I remember the response field "id" as "company"`,
		Func: func(w *World) any { return w.remember }},

	// Clock. Each scenario's company has a clock of its own: these steps
	// move it and nothing else.
	{Group: "Clock", Pattern: `^my clock is frozen at "([^"]*)"$`,
		Doc: "Freeze the scenario's company clock at an instant (RFC 3339); only the scenario moves it from then on.", Example: `Given my clock is frozen at "2026-01-05T12:00:00Z"`,
		Func: func(w *World) any {
			return func(at string) error {
				return w.control(http.MethodPost, "/sandbox/clock/set", fmt.Sprintf(`{"at":%q,"mode":"frozen"}`, at))
			}
		}},
	{Group: "Clock", Pattern: `^my clock runs at "(real|[0-9]+(?:\.[0-9]+)?x)"$`,
		Doc: "Make the scenario's company clock run in real time, or accelerated (60x: a minute a second).", Example: `Given my clock runs at "60x"`,
		Func: func(w *World) any {
			return func(mode string) error {
				return w.control(http.MethodPost, "/sandbox/clock/set", fmt.Sprintf(`{"mode":%q}`, mode))
			}
		}},
	{Group: "Clock", Pattern: `^the sandbox clock is at "([^"]*)"$`,
		Doc: "Set the scenario's company clock (RFC 3339), keeping its mode.", Example: `Given the sandbox clock is at "2026-03-01T12:00:00Z"`,
		Func: func(w *World) any {
			return func(at string) error {
				return w.control(http.MethodPost, "/sandbox/clock/set", fmt.Sprintf(`{"at":%q}`, at))
			}
		}},
	{Group: "Clock", Pattern: `^I advance the clock by "([^"]*)"$`,
		Doc: "Advance the scenario's company clock; returns after every job of the company due in the window ran, in order.", Example: `When I advance the clock by "36h"`,
		Func: func(w *World) any {
			return func(d string) error {
				return w.control(http.MethodPost, "/sandbox/clock/advance", fmt.Sprintf(`{"by":%q}`, d))
			}
		}},

	{Group: "Clock", Pattern: `^the access tokens of my company expire$`,
		Doc: "End every access token of the scenario's company now (POST /sandbox/tokens/expire): the next call with one answers 401 invalid_token \"token de acesso expirado\". Tokens live on the wall clock, as in production, so advancing the clock never ends them; this step is how a feature tests renewal.", Example: `When the access tokens of my company expire`,
		Func: func(w *World) any {
			return func() error {
				w.vars["tokens.expiredAt"] = time.Now().UTC().Format(time.RFC3339Nano)
				return w.control(http.MethodPost, "/sandbox/tokens/expire", "")
			}
		}},

	// Webhooks.
	{Group: "Webhooks", Pattern: `^a webhook receiver answering (\d+)$`,
		Doc: "Start a real HTTP receiver on a loopback port; ${receiverUrl} is its URL. It keeps every request it gets from then on, which the receiver steps below read; a second such step starts a new, empty receiver at another URL.", Example: `Given a webhook receiver answering 200`,
		Func: func(w *World) any { return w.startReceiver }},
	{Group: "Webhooks", Pattern: `^the receiver starts answering (\d+)$`,
		Doc: "Change the receiver's answer.", Example: `When the receiver starts answering 200`,
		Func: func(w *World) any {
			return func(status int) error {
				if w.receiver == nil {
					return fmt.Errorf("no receiver started")
				}
				w.receiver.SetStatus(status)
				return nil
			}
		}},
	{Group: "Webhooks", Pattern: `^the app's webhook points to the receiver$`,
		Doc: "Set the app's webhook URL to the receiver through the portal.", Example: `Given the app's webhook points to the receiver`,
		Func: func(w *World) any { return w.pointWebhook }},
	{Group: "Webhooks", Pattern: `^the receiver gets an? "([^"]*)" event within (\d+) seconds?$`,
		Doc: "Wait until the receiver holds an event of the type. Every event it got since it started counts, those that arrived before this step included: the step passes at once if one is there, and the oldest of the type becomes the current event, so a second identical step finds the same event (tell events apart with the \"whose\" form below). Its envelope must match platform/event.", Example: `Then the receiver gets a "sandbox.ping" event within 5 seconds`,
		Func: func(w *World) any { return w.receiverGets }},
	{Group: "Webhooks", Pattern: `^the receiver gets an? "([^"]*)" event whose "([^"]*)" is "([^"]*)" within (\d+) seconds?$`,
		Doc: "Wait until the receiver holds an event of the type whose field has the value (${name} expands). As above, every event since the receiver started counts, earlier ones included, and the oldest match becomes the current event: to wait for a new event, match on a field only the new one has (a status, an id).", Example: `Then the receiver gets a "proposta.status" event whose "data.statusAtual" is "EM_ANALISE" within 5 seconds`,
		Func: func(w *World) any {
			return func(typ, path, want string, secs int) error {
				want, err := w.expand(want)
				if err != nil {
					return err
				}
				return w.receiverGetsWhere(typ, secs, func(raw []byte) bool {
					v, ok, _ := field(raw, path)
					return ok && text(v) == want
				})
			}
		}},
	{Group: "Webhooks", Pattern: `^the receiver gets no "([^"]*)" event within (\d+) seconds?$`,
		Doc: "No event of the type reaches the receiver during the window. Only events arriving while the step runs count (those received before it are ignored); the step fails on the first one and otherwise lasts the whole window.", Example: `Then the receiver gets no "comissao.paga" event within 1 second`,
		Func: func(w *World) any { return w.receiverGetsNone }},
	{Group: "Webhooks", Pattern: `^the receiver has received (\d+) requests?$`,
		Doc: "The receiver got exactly n requests (any path, events or not) since it started; it counts at once, without waiting.", Example: `Then the receiver has received 3 requests`,
		Func: func(w *World) any {
			return func(n int) error {
				if w.receiver == nil {
					return fmt.Errorf("no receiver started")
				}
				if got := len(w.receiver.Requests()); got != n {
					return fmt.Errorf("the receiver got %d requests, want %d", got, n)
				}
				return nil
			}
		}},
	{Group: "Webhooks", Pattern: `^the event's signature is valid$`,
		Doc: "The current event's Homologa-Signature verifies with the app's webhook secret, within 5 minutes of now.", Example: `And the event's signature is valid`,
		Func: func(w *World) any { return w.signatureValid }},
	{Group: "Webhooks", Pattern: `^the event's signature is not valid$`,
		Doc: "The current event's Homologa-Signature does not verify with the app's webhook secret (an injected bad_signature fault).", Example: `And the event's signature is not valid`,
		Func: func(w *World) any {
			return func() error {
				if err := w.signatureValid(); err == nil {
					return fmt.Errorf("the signature verifies: %s", w.event.Header.Get(events.SignatureHeader))
				} else if w.event == nil {
					return err
				}
				return nil
			}
		}},
	{Group: "Webhooks", Pattern: `^I remember the event field "([^"]*)" as "([^"]*)"$`,
		Doc: "Keep a field of the current event for later steps as ${name}.", Example: `And I remember the event field "subject.pendenciaId" as "pendencia"`,
		Func: func(w *World) any {
			return func(path, name string) error {
				if w.event == nil {
					return fmt.Errorf("no event received yet")
				}
				v, ok, err := field(w.event.Raw, path)
				if err != nil || !ok {
					return fmt.Errorf("no event field %q: %s", path, w.event.Raw)
				}
				w.vars[name] = text(v)
				return nil
			}
		}},
	{Group: "Webhooks", Pattern: `^the event field "([^"]*)" matches "([^"]*)"$`,
		Doc: "A field of the current event matches the regular expression.", Example: `And the event field "data.motivo" matches "^RISCO"`,
		Func: func(w *World) any {
			return func(path, expr string) error {
				if w.event == nil {
					return fmt.Errorf("no event received yet")
				}
				re, err := regexp.Compile(expr)
				if err != nil {
					return err
				}
				v, ok, _ := field(w.event.Raw, path)
				if !ok || !re.MatchString(text(v)) {
					return fmt.Errorf("event field %q is %v, does not match %q", path, v, expr)
				}
				return nil
			}
		}},
	{Group: "Webhooks", Pattern: `^the event field "([^"]*)" exists$`,
		Doc: "A field of the current event (webhook or stream) is present, whatever its value (null counts: it is there).", Example: `And the event field "data.inscricaoIds.0" exists`,
		Func: func(w *World) any { return w.eventFieldExists }},
	{Group: "Webhooks", Pattern: `^the event field "([^"]*)" is "([^"]*)"$`,
		Doc: "A field of the current event (webhook or stream) equals the value.", Example: `And the event field "data.message" is "hello"`,
		Func: func(w *World) any { return w.eventFieldIs }},

	// Homologation: steps that assert on the partner under test.
	{Group: "Homologation", Pattern: `^the partner has an app of its own$`,
		Doc:     "Register a company and an app for this scenario through the portal (so scenarios run in parallel), its Pix key (the CNPJ, as ${chave}) and its webhook at the partner; the partner is told the app in every action's headers.",
		Example: `Given the partner has an app of its own`,
		Func:    func(w *World) any { return w.partnerApp }},
	{Group: "Homologation", Pattern: `^the partner is asked to "([^"]*)"$`,
		Doc: "Call one of the partner file's actions; its answer's fields become ${partner.<field>}.", Example: `When the partner is asked to "onboard"`,
		Func: func(w *World) any { return func(a string) error { return w.askPartner(a, "") } }},
	{Group: "Homologation", Pattern: `^the partner is asked to "([^"]*)" with:$`,
		Doc:     "Call an action with parameters (a JSON object; ${name} expands), which fill the action's body template.",
		Example: "When the partner is asked to \"create-cob\" with:\n  \"\"\"\n  {\"valor\": \"10.00\", \"chave\": \"${chave}\"}\n  \"\"\"",
		Func: func(w *World) any {
			return func(a string, d *godog.DocString) error { return w.askPartner(a, d.Content) }
		}},
	{Group: "Homologation", Pattern: `^the partner answered (\d+)$`,
		Doc: "The status the partner's action answered: 200 stands for any 2xx (the partner file reference asks actions for a 2xx); another status is matched exactly.", Example: `Then the partner answered 200`,
		Func: func(w *World) any {
			return func(n int) error {
				if w.partnerStatus != n && !(n == http.StatusOK && w.partnerStatus/100 == 2) {
					return fmt.Errorf("the partner answered %d, want %d: %s", w.partnerStatus, n, w.partnerAnswer)
				}
				return nil
			}
		}},
	{Group: "Homologation", Pattern: `^the partner called "([^"]*)" (at least |at most )?(\d+) times? within (\d+) seconds?$`,
		Doc: "Count the partner's calls of an operation (METHOD /path, * for one segment) in the interaction log. \"at least\" passes once reached; \"at most\" and an exact count hold over the whole window, so they never pass before it ends.", Example: `Then the partner called "GET /pix/v2/cob/*" at most 3 times within 10 seconds`,
		Func: func(w *World) any { return w.partnerCalled }},
	{Group: "Homologation", Pattern: `^every "([^"]*)" the partner sent is valid against schema "([^"]*)"$`,
		Doc: "Each recorded request body of the operation (METHOD /path, * for one segment; or \"charge creation\": PUT /cob/{txid} and POST /cob; at least one) validates against a schema of schemas/ — the official request schemas are named *.request.", Example: `Then every "PUT /pix/v2/cob/*" the partner sent is valid against schema "pix/cob.request"`,
		Func: func(w *World) any { return w.sentValid }},
	{Group: "Homologation", Pattern: `^the partner created (\d+) charges? with txids of their own$`,
		Doc: "The partner's PUT /cob calls: n charges created (201), each txid valid and unique, none created twice by a retry with a new txid nor revised by a reused txid.", Example: `Then the partner created 2 charges with txids of their own`,
		Func: func(w *World) any { return w.distinctCharges }},
	{Group: "Homologation", Pattern: `^the partner retried "([^"]*)" after the injected fault with the same (txid|refund id|Idempotency-Key)$`,
		Doc: "After a call that met an injected fault, the partner called the operation again with the same txid (path) or the same Idempotency-Key.", Example: `Then the partner retried "PUT /pix/v2/cob/*" after the injected fault with the same txid`,
		Func: func(w *World) any { return w.retriedSame }},
	{Group: "Homologation", Pattern: `^the partner retried its charge creation after the injected fault, with (\d+) charges? in all$`,
		Doc: "The partner's charge creation (PUT /cob/{txid} or POST /cob, whichever it uses) met the injected fault; its next creation reused the txid or the Idempotency-Key; the sandbox holds n charges.", Example: `Then the partner retried its charge creation after the injected fault, with 1 charge in all`,
		Func: func(w *World) any { return w.retriedCreation }},
	{Group: "Homologation", Pattern: `^the partner waited at least (\d+) ms before retrying its charge creation$`,
		Doc: "Between the end of the answer that carried the injected fault and the partner's next charge creation, at least the time (Retry-After, or a backoff).", Example: `Then the partner waited at least 1900 ms before retrying its charge creation`,
		Func: func(w *World) any { return w.waitedBeforeRecreating }},
	{Group: "Homologation", Pattern: `^the partner does not consider "([^"]*)" paid within (\d+) seconds?$`,
		Doc: "Over the whole window, the partner's state (booked, paid) never counts the charge paid; by its end the payment's /pix notification reached the partner.", Example: `Then the partner does not consider "${partner.txid}" paid within 5 seconds`,
		Func: func(w *World) any { return w.notConsideredPaid }},
	{Group: "Homologation", Pattern: `^the partner does not report the refund "([^"]*)" as done within (\d+) seconds?$`,
		Doc: "Over the whole window, the partner's state (refunded) never counts the refund done.", Example: `Then the partner does not report the refund "${partner.id}" as done within 5 seconds`,
		Func: func(w *World) any { return w.refundNotDone }},
	{Group: "Homologation", Pattern: `^the partner never reused an Idempotency-Key for another proposal$`,
		Doc: "Among the partner's proposals (at least two), no Idempotency-Key went with two different bodies.", Example: `Then the partner never reused an Idempotency-Key for another proposal`,
		Func: func(w *World) any { return w.idempotencyKeysOwn }},
	{Group: "Homologation", Pattern: `^the partner read its proposal again after answering its pending within (\d+) seconds?$`,
		Doc: "After its answer to the proposal's pending (PUT .../pendencia), the partner read the proposal (GET .../proposta/{numero}).", Example: `Then the partner read its proposal again after answering its pending within 10 seconds`,
		Func: func(w *World) any { return w.rereadAfterPending }},
	{Group: "Homologation", Pattern: `^the partner waited at least (\d+) ms before retrying "([^"]*)"$`,
		Doc: "Between the end of the answer that carried an injected fault and the partner's next call of the operation, at least the time (what Retry-After asked, or a backoff).", Example: `Then the partner waited at least 1900 ms before retrying "PUT /pix/v2/cob/*"`,
		Func: func(w *World) any { return w.waitedBeforeRetry }},
	{Group: "Homologation", Pattern: `^the partner configured its Pix webhook before its first charge$`,
		Doc: "In the interaction log, PUT /pix/v2/webhook/{chave} comes before the first PUT /pix/v2/cob.", Example: `Then the partner configured its Pix webhook before its first charge`,
		Func: func(w *World) any { return w.webhookBeforeCharges }},
	{Group: "Homologation", Pattern: `^the partner configured its Pix Automático webhooks before its first recurrence$`,
		Doc: "In the interaction log, PUT /pix/v2/webhookrec and /pix/v2/webhookcobr (2xx) come before the first POST /pix/v2/rec.", Example: `Then the partner configured its Pix Automático webhooks before its first recurrence`,
		Func: func(w *World) any { return w.recWebhooksBeforeRecs }},
	{Group: "Homologation", Pattern: `^the partner charged the approved recurrence "([^"]*)" within (\d+) seconds?$`,
		Doc: "The partner created (201) a recurring charge whose idRec is the recurrence's; its txid becomes ${cobr.txid}.", Example: `Then the partner charged the approved recurrence "${partner.idRec}" within 10 seconds`,
		Func: func(w *World) any { return w.chargedRecurrence }},
	{Group: "Homologation", Pattern: `^the partner acknowledged at least (\d+) notifications?, each within (\d+) ms$`,
		Doc: "The delivery log: every notification to the partner got a 2xx on its first attempt within the time.", Example: `Then the partner acknowledged at least 1 notification, each within 1000 ms`,
		Func: func(w *World) any { return w.acknowledgedWithin }},
	{Group: "Homologation", Pattern: `^the partner refuses a "(/pix|/rec)" callback that is (forged|stale|unsigned)$`,
		Doc:     "The sandbox itself delivers to the URL the partner registered for the callback (its key's webhook for /pix, its webhookrec for /rec; an address only the sandbox may reach) a callback of something the partner never asked for (a Pix of a charge the suite made on its key; the approval of a recurrence the suite made), its first attempt signed with another secret, ten minutes ago, or not at all (the webhook-assinatura-invalida, -antiga and webhook-sem-assinatura faults): the partner must refuse that attempt (4xx), then acknowledge the same callback signed right (a replay, 2xx).",
		Example: `Then the partner refuses a "/rec" callback that is stale`,
		Func:    func(w *World) any { return w.forgedCallback }},
	{Group: "Homologation", Pattern: `^the partner charged the approved recurrence "([^"]*)" once within (\d+) seconds?$`,
		Doc:     "The partner created a recurring charge for the approved recurrence (as the step without once), and over the whole window no second one: a /rec callback delivered twice is charged once.",
		Example: `Then the partner charged the approved recurrence "${partner.idRec}" once within 5 seconds`,
		Func:    func(w *World) any { return w.chargedRecurrenceOnce }},
	{Group: "Homologation", Pattern: `^the partner refuses a notification that is (forged|stale|unsigned)$`,
		Doc: "The same as the partner refuses a \"/pix\" callback that is forged (stale, unsigned).", Example: `Then the partner refuses a notification that is forged`,
		Func: func(w *World) any { return w.forgedNotification }},
	{Group: "Homologation", Pattern: `^the partner booked the payment of "([^"]*)" once within (\d+) seconds?$`,
		Doc: "The partner's state action shows the payment of the txid booked exactly once.", Example: `Then the partner booked the payment of "${partner.txid}" once within 5 seconds`,
		Func: func(w *World) any { return w.bookedOnce }},
	{Group: "Homologation", Pattern: `^the partner reconciled "([^"]*)" within (\d+) seconds?$`,
		Doc: "After the payment notification, the partner fetched the charge (GET /pix/v2/cob/{txid}) or its Pix, in the interaction log.", Example: `Then the partner reconciled "${partner.txid}" within 5 seconds`,
		Func: func(w *World) any { return w.reconciled }},
	{Group: "Homologation", Pattern: `^the partner answered the pending of its (proposal|benefit) within (\d+) seconds?$`,
		Doc: "The partner answered a pending raised on its proposal (PUT /insurer/v1/pendencia/{id}) or benefit (PUT /benefits/v1/beneficio/{id}/pendencias/{pendenciaId}) and the insurer accepted it (200), in the interaction log: bind a scenario that raises one first.", Example: `Then the partner answered the pending of its proposal within 15 seconds`,
		Func: func(w *World) any { return w.pendingAnswered }},
	{Group: "Homologation", Pattern: `^the partner was notified of "([^"]*)" within (\d+) seconds?$`,
		Doc: "The delivery log holds a notification of that event type to the partner, acknowledged 2xx.", Example: `Then the partner was notified of "proposta.implantada" within 10 seconds`,
		Func: func(w *World) any { return w.notifiedOf }},
	{Group: "Homologation", Pattern: `^the partner never sent a card number$`,
		Doc: "No request of the partner to the service's APIs carried card data: the interaction log replaces a card number inside a card object with [redacted card number], and that marker is the evidence. The insurer accepts a card in a proposal's CARTAO (its clients send one) and keeps it masked, but a partner's servers must not see it: the rule is the credit-card widget. The widget's own calls (/sandbox/cartao/…) are the widget's, not the partner's.", Example: `Then the partner never sent a card number`,
		Func: func(w *World) any { return w.noCardNumber }},
	{Group: "Homologation", Pattern: `^the partner asked only for the scopes "([^"]*)"$`,
		Doc: "Every token the partner asked for names scopes, all among the given ones.", Example: `Then the partner asked only for the scopes "cob.read cob.write pix.read pix.write webhook.read webhook.write"`,
		Func: func(w *World) any { return w.onlyNeededScopes }},
	{Group: "Homologation", Pattern: `^the partner asked only for the scopes of its flows$`,
		Doc:     "Every token the partner asked for names scopes, each needed by a flow the partner file declares (flows, FlowCatalogue in harness/flows.go) or by an operation the partner called, as the interaction log shows: least privilege as the partner integrates, never a fixed list. A token without scope gets every scope of the app, and fails.",
		Example: `Then the partner asked only for the scopes of its flows`,
		Func:    func(w *World) any { return w.onlyScopesOfFlows }},
	{Group: "Homologation", Pattern: `^the partner's company may sell the offer "([^"]*)"$`,
		Doc:     "Grant the scenario's company an offer (PUT /sandbox/offers/{offer} with its app's token: in a company's own sandbox it plays the insurer's commercial area), whatever the app mode.",
		Example: `Given the partner's company may sell the offer "EIS"`,
		Func:    func(w *World) any { return w.offerGranted }},
	{Group: "Homologation", Pattern: `^the partner sells the offer "([^"]*)" to the customer "([^"]*)"$`,
		Doc:     "The partner sells as its users do: its request-signature action ({cpf}) has the insurer send the customer a signature code, the customer reads it (the sandbox's outbox) and the partner's sell action ({cpf, codigo, offer}) sells. The sell action's answer is the partner's last (${partner.<field>}, the partner answered …).",
		Example: `When the partner sells the offer "EIS" to the customer "11144477735"`,
		Func:    func(w *World) any { return w.partnerSells }},
	{Group: "Homologation", Pattern: `^the partner got a new token after its token expired, and repeated the call within (\d+) seconds?$`,
		Doc:     "In the interaction log, after the company's tokens were expired (the access tokens of my company expire, first), the partner asked for a new token (POST /oauth/token, 200) and a call of its own then went through (2xx); a failure names the call the sandbox refused with 401 \"token de acesso expirado\".",
		Example: `Then the partner got a new token after its token expired, and repeated the call within 5 seconds`,
		Func:    func(w *World) any { return w.renewedToken }},
	{Group: "Homologation", Pattern: `^the payer sends (\d+) Pix of "([^"]*)" to the partner's key$`,
		Doc:     "The suite credits that many Pix of the amount to the partner's Pix key, none paying a charge (a payer who types the key), as the partner's app. ${pix.inicio} and ${pix.fim} are the period they fall in, on the sandbox's clock: more than 100 need a second page of GET /pix/v2/pix at its default page size.",
		Example: `When the payer sends 101 Pix of "1.00" to the partner's key`,
		Func:    func(w *World) any { return w.payerSendsPix }},
	{Group: "Homologation", Pattern: `^the partner knows every Pix the payer sent$`,
		Doc:     "The partner's state holds each Pix the payer sent, by endToEndId, set aside (unknown) or booked (payments): a reconciliation from the listing reads every page (parametros.paginacao.quantidadeDePaginas), or asks for pages large enough.",
		Example: `Then the partner knows every Pix the payer sent`,
		Func:    func(w *World) any { return w.knowsEverySentPix }},
	{Group: "Homologation", Pattern: `^the payer pays a charge the partner did not create$`,
		Doc:     "The suite creates a charge on the partner's Pix key (as someone else with the key would) and the payer pays it: the partner is notified of a Pix of a txid it never used. ${unknown.txid} and ${unknown.e2eid} name it.",
		Example: `When the payer pays a charge the partner did not create`,
		Func:    func(w *World) any { return w.payUnknownCharge }},
	{Group: "Homologation", Pattern: `^the Pix "([^"]*)" has (\d+) refunds?$`,
		Doc:     "The sandbox holds that many refunds of the Pix (GET /pix/v2/pix/{e2eid}, read by the suite): a refund retried with a new id is a second refund.",
		Example: `Then the Pix "${e2e}" has 1 refund`,
		Func:    func(w *World) any { return w.pixRefunds }},
	{Group: "Homologation", Pattern: `^the charge "([^"]*)" holds "([^"]*)" as "([^"]*)"$`,
		Doc:     "A field (dotted path) of the charge as the sandbox holds it (GET /pix/v2/cob/{txid}, read by the suite, not the partner).",
		Example: `Then the charge "${partner.txid}" holds "devedor.cpf" as "01234567890"`,
		Func:    func(w *World) any { return w.chargeHolds }},
	{Group: "Homologation", Pattern: `^the insurer holds (\d+) proposals? of the partner$`,
		Doc:     "The insurer holds that many proposals of the scenario's app (GET /sandbox/resources?kind=proposta): a retry that registered a proposal twice shows here, with the Idempotency-Keys the partner sent.",
		Example: `Then the insurer holds 1 proposal of the partner`,
		Func:    func(w *World) any { return w.insurerHolds }},
	{Group: "Homologation", Pattern: `^the partner holds its (proposal|benefit)s? as the insurer does within (\d+) seconds?$`,
		Doc:     "The partner's state (proposals or benefits: id and status, in the state action's returns) holds each of its proposals (benefits) in the status the insurer holds, within the window, and still two seconds later: an event delivered late (out of order) must not take a status back.",
		Example: `Then the partner holds its proposal as the insurer does within 10 seconds`,
		Func:    func(w *World) any { return w.partnerHoldsAsInsurer }},
	{Group: "Homologation", Pattern: `^the partner holds its (proposal|benefit) as "([^"]*)" within (\d+) seconds?$`,
		Doc:     "The partner's state holds its newest proposal (benefit) in the status given (the service's word; a partner file maps its own words with values), within the window.",
		Example: `Then the partner holds its benefit as "PAGO" within 15 seconds`,
		Func:    func(w *World) any { return w.partnerHoldsStatus }},
	{Group: "Homologation", Pattern: `^the partner applied each event once within (\d+) seconds?$`,
		Doc:     "Over the whole window, the partner's state (applied: the id of every event applied, once per application; or events: id and times) shows no event applied twice, and the event the sandbox delivered twice (the webhook-duplicado fault) applied exactly once.",
		Example: `Then the partner applied each event once within 5 seconds`,
		Func:    func(w *World) any { return w.appliedOnce }},
	{Group: "Homologation", Pattern: `^the partner refuses an insurer event that is (forged|stale|unsigned)$`,
		Doc:     "Post to the partner's insurer webhook a copy of its proposal's newest event, signed as the sandbox signs (it must be acknowledged 2xx), then a cancellation of the proposal signed with another secret, ten minutes ago, or not at all. The partner passes when it refuses it (4xx), or acknowledges it and does not apply it (its state: the proposal not CANCELADA, the event not applied).",
		Example: `Then the partner refuses an insurer event that is forged`,
		Func:    func(w *World) any { return w.refusesInsurerEvent }},
	{Group: "Homologation", Pattern: `^the customer answers the pending of the partner's benefit in the widget within (\d+) seconds?$`,
		Doc:     "Answer the open pending of the partner's newest benefit as the benefit-pending widget does for the customer (the documents it asks for, under the app's token), as the harness, not the partner: for a partner whose customers answer benefit pendings in the widget (widgets: [pendencia-beneficio]).",
		Example: `When the customer answers the pending of the partner's benefit in the widget within 15 seconds`,
		Func:    func(w *World) any { return w.customerAnswersBenefitPending }},

	// Insurance.
	{Group: "Insurance", Pattern: `^an implanted enrollment of offer "([^"]*)" for the CPF "([^"]*)"(?: paid by "(BOLETO|DEBITO)")?$`,
		Doc:     "Sell the offer through the public APIs (simulation, signature code, proposal), advance the clock through the default analysis (1h07m) and take a new token; ${inscricao} and ${numero} hold the enrollment (the proposal's first) and proposal, and the last response is GET /customer/v1/inscricao?numeroProposta=. The profile: proponent born 1980-01-01, female, income 20000, CBO 2410-05, SP; capital 200000 asked for, the first product with its mandatory coverages only, at the simulated capital and premium (age on the clock's date); monthly billing by BOLETO (or DEBITO), due day 10; two beneficiaries, 60/40. Offer YZ on 2026-01-05 gives one coverage, itemProdutoId 1001, capital 200000, premium (valorContribuicao) 81.98; implanted at 13:07 after a 12:00 sale, its first charge, issued then, is due 2026-02-10. The charge CPFs of the customer cycle (66677788830, 77788899941) apply; an analysis CPF (22255588846, 33366699957, …) leaves the proposal unimplanted after 1h07m and fails the step.",
		Example: `Given an implanted enrollment of offer "YZ" for the CPF "11144477735"`,
		Func:    func(w *World) any { return w.implantEnrollment }},

	// Pix Automático.
	{Group: "Webhooks", Pattern: `^the receiver gets a callback on "(/rec|/cobr|/pix)" whose "([^"]*)" is "([^"]*)" within (\d+) seconds?$`,
		Doc:     "Wait until the receiver holds an official callback (POST {webhookUrl}/rec, /cobr or /pix) on the path whose field has the value (${name} expands). Every callback since the receiver started counts, those that arrived before this step included; the oldest match must match its schema and becomes the current event.",
		Example: `Then the receiver gets a callback on "/rec" whose "recs.0.status" is "APROVADA" within 5 seconds`,
		Func:    func(w *World) any { return w.callbackWhere }},
	{Group: "Webhooks", Pattern: `^the receiver has received (\d+) callbacks? on "(/rec|/cobr|/pix)" whose "([^"]*)" is "([^"]*)"$`,
		Doc: "Exactly n callbacks on the path whose field has the value, among all the receiver got since it started; it counts at once, without waiting (put it after a step that waits or moves the clock).", Example: `Then the receiver has received 12 callbacks on "/cobr" whose "cobsr.0.status" is "CONCLUIDA"`,
		Func: func(w *World) any { return w.countCallbacks }},
	{Group: "Pix Automático", Pattern: `^I charge the recurrence "([^"]*)" every month from "([^"]*)" with "([^"]*)" for (\d+) months$`,
		Doc:     "Act as the partner's monthly billing: for each month PUT /cobr with the month's due date and the amount, then advance the clock past its settlement, taking a new token each time.",
		Example: `When I charge the recurrence "${idRec}" every month from "2026-02-10" with "35.00" for 12 months`,
		Func:    func(w *World) any { return w.chargeMonthly }},

	// Pix.
	{Group: "Pix", Pattern: `^the receiver gets a Pix callback within (\d+) seconds?$`,
		Doc: "Wait until the receiver holds a POST {webhookUrl}/pix. Every /pix callback since the receiver started counts, one that arrived before this step included: the oldest becomes the current event (fields pix.0.…); each must match pix/callback.pix.", Example: `Then the receiver gets a Pix callback within 5 seconds`,
		Func: func(w *World) any { return w.pixCallback }},
	{Group: "Pix", Pattern: `^the receiver gets (\d+) Pix callbacks? within (\d+) seconds?$`,
		Doc: "Wait until the receiver holds at least n /pix callbacks since it started, earlier ones included; each must match pix/callback.pix, and the n-th oldest becomes the current event.", Example: `Then the receiver gets 2 Pix callbacks within 5 seconds`,
		Func: func(w *World) any { return w.pixCallbacks }},
	{Group: "Pix", Pattern: `^the response is a JWS signed with the sandbox's published key$`,
		Doc: "The body is a compact JWS (RS256) whose jku serves the key that verifies it; its payload becomes the response body.", Example: `Then the response is a JWS signed with the sandbox's published key`,
		Func: func(w *World) any { return w.verifyJWS }},
	{Group: "Pix", Pattern: `^the response field "([^"]*)" is a BR Code for the location "([^"]*)"$`,
		Doc: "The field is an EMV BR Code with a valid CRC whose template 26 carries br.gov.bcb.pix and the location.", Example: `Then the response field "pixCopiaECola" is a BR Code for the location "${location}"`,
		Func: func(w *World) any { return w.brCodeFor }},

	// Event stream.
	{Group: "Event stream", Pattern: `^I subscribe to the event stream$`,
		Doc: "Open the websocket /events/ws with the current token.", Example: `When I subscribe to the event stream`,
		Func: func(w *World) any { return func() error { return w.subscribe("") } }},
	{Group: "Event stream", Pattern: `^I subscribe to the event stream with "([^"]*)"$`,
		Doc: "The same, with query parameters (types, subject, since).", Example: `When I subscribe to the event stream with "types=sandbox.*&since=0"`,
		Func: func(w *World) any { return w.subscribe }},
	{Group: "Event stream", Pattern: `^subscribing to the event stream is refused with status (\d+)$`,
		Doc: "The websocket handshake fails with the status.", Example: `Then subscribing to the event stream is refused with status 401`,
		Func: func(w *World) any { return w.subscribeRefused }},
	{Group: "Event stream", Pattern: `^the stream delivers an? "([^"]*)" event within (\d+) seconds?$`,
		Doc: "Read the websocket's events in order, from the oldest no earlier stream step has read (since subscribing), until one of the type: it becomes the current event. Events of other types read on the way are consumed: no later step sees them.", Example: `Then the stream delivers a "sandbox.ping" event within 5 seconds`,
		Func: func(w *World) any { return w.streamDelivers }},
	{Group: "Event stream", Pattern: `^the stream delivers nothing within (\d+) seconds?$`,
		Doc: "No event is read on the websocket for the duration: an event already queued that no earlier stream step has read fails it too.", Example: `Then the stream delivers nothing within 1 second`,
		Func: func(w *World) any { return w.streamQuiet }},

	// Webhook redirects.
	{Group: "Webhook redirects", Pattern: `^a webhook receiver redirecting with (\d+) to "([^"]*)"$`,
		Doc:     "Start a real HTTP receiver on a loopback port that answers every request with the status and a Location header (${name} expands); ${receiverUrl} is its URL.",
		Example: `Given a webhook receiver redirecting with 307 to "http://169.254.169.254/latest/meta-data"`,
		Func:    func(w *World) any { return w.startRedirectingReceiver }},
	// Limits.
	{Group: "Limits", Pattern: `^I send "(POST|PUT|PATCH)" to "([^"]*)" with a body of type "([^"]*)" (\d+) times:$`,
		Doc:     "Send the docstring verbatim with the given content type, the given number of times one after the other; the last answer is kept (for throttling).",
		Example: "When I send \"POST\" to \"/oauth/token\" with a body of type \"application/x-www-form-urlencoded\" 10 times:\n  \"\"\"\n  grant_type=client_credentials&client_id=${app.clientId}&client_secret=wrong\n  \"\"\"",
		Func: func(w *World) any {
			return func(m, p, ct string, n int, doc *godog.DocString) error {
				b, err := w.expand(doc.Content)
				if err != nil {
					return err
				}
				for i := range n {
					if err := w.do(m, p, []byte(b), ct); err != nil {
						return fmt.Errorf("request %d of %d: %w", i+1, n, err)
					}
				}
				return nil
			}
		}},
	{Group: "Limits", Pattern: `^the response arrived within (\d+) ms$`,
		Doc: "The last answer arrived whole within the given time of its request being sent (for inputs that must be refused quickly).", Example: `Then the response arrived within 2000 ms`,
		Func: func(w *World) any {
			return func(ms int) error {
				if err := w.mustResponse(); err != nil {
					return err
				}
				if limit := time.Duration(ms) * time.Millisecond; w.took > limit {
					return fmt.Errorf("the answer took %v, more than %v: %s", w.took.Round(time.Millisecond), limit, w.describe())
				}
				return nil
			}
		}},
}

// Register installs the step vocabulary for one scenario's World.
func Register(sc *godog.ScenarioContext, w *World) {
	for _, s := range Steps {
		sc.Step(s.Pattern, s.Func(w))
	}
}

// Reference writes the step reference in Markdown.
func Reference(out io.Writer) {
	group := ""
	for _, s := range Steps {
		if s.Group != group {
			group = s.Group
			fmt.Fprintf(out, "\n### %s\n\n", group)
		}
		fmt.Fprintf(out, "- `%s`  \n  %s\n\n  ```gherkin\n", strings.TrimSuffix(strings.TrimPrefix(s.Pattern, "^"), "$"), s.Doc)
		for _, line := range strings.Split(s.Example, "\n") {
			fmt.Fprintf(out, "  %s\n", line)
		}
		fmt.Fprintf(out, "  ```\n\n")
	}
}

func (w *World) companyAndApp(name, cnpj, app string) error {
	body, _ := json.Marshal(map[string]string{"cnpj": cnpj, "name": name})
	if err := w.do(http.MethodPost, "/portal/companies", body, "application/json"); err != nil {
		return err
	}
	if w.resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("register company: %s", w.describe())
	}
	var c struct{ ID, CNPJ string }
	json.Unmarshal(w.body, &c)
	body, _ = json.Marshal(map[string]string{"companyId": c.ID, "name": app})
	if err := w.do(http.MethodPost, "/portal/apps", body, "application/json"); err != nil {
		return err
	}
	if w.resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("create app: %s", w.describe())
	}
	var a struct{ ID, ClientID, ClientSecret, WebhookSecret, CNPJ string }
	json.Unmarshal(w.body, &a)
	w.app = Credentials{ID: a.ID, ClientID: a.ClientID, ClientSecret: a.ClientSecret, WebhookSecret: a.WebhookSecret, CNPJ: a.CNPJ}
	w.token = ""
	w.vars["company.id"] = c.ID
	return nil
}

func (w *World) obtainToken(scope string) error {
	form := url.Values{"grant_type": {"client_credentials"}}
	if scope != "" {
		form.Set("scope", scope)
	}
	req, _ := http.NewRequest(http.MethodPost, w.BaseURL+"/oauth/token", strings.NewReader(form.Encode()))
	if w.Namespace != "" {
		req.Header.Set(namespaceHeader, w.Namespace)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(w.app.ClientID), url.QueryEscape(w.app.ClientSecret))
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	w.resp = resp
	w.body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("token request refused: %s", w.describe())
	}
	var t struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(w.body, &t); err != nil || t.AccessToken == "" {
		return fmt.Errorf("token answer has no access_token: %s", w.describe())
	}
	w.token = t.AccessToken
	return nil
}

// control calls the control API and insists on a 2xx.
func (w *World) control(method, path, body string) error {
	w.harnessCall = true
	err := w.do(method, path, []byte(body), "application/json")
	w.harnessCall = false
	if err != nil {
		return err
	}
	if w.resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s", w.describe())
	}
	return nil
}

func (w *World) statusIs(want int) error {
	if err := w.mustResponse(); err != nil {
		return err
	}
	if w.resp.StatusCode != want {
		return fmt.Errorf("status %d, want %d: %s", w.resp.StatusCode, want, w.describe())
	}
	return nil
}

func (w *World) headerIs(k, want string) error {
	if err := w.mustResponse(); err != nil {
		return err
	}
	want, err := w.expand(want)
	if err != nil {
		return err
	}
	if got := w.resp.Header.Get(k); got != want {
		return fmt.Errorf("header %s is %q, want %q", k, got, want)
	}
	return nil
}

func (w *World) headerContains(k, want string) error {
	if err := w.mustResponse(); err != nil {
		return err
	}
	if got := w.resp.Header.Get(k); !strings.Contains(got, want) {
		return fmt.Errorf("header %s is %q, want it to contain %q", k, got, want)
	}
	return nil
}

func (w *World) lookup(path string) (any, bool, error) {
	if err := w.mustResponse(); err != nil {
		return nil, false, err
	}
	path, err := w.expand(path)
	if err != nil {
		return nil, false, err
	}
	return field(w.body, path)
}

func (w *World) fieldIs(path, want string) error {
	v, ok, err := w.lookup(path)
	if err != nil {
		return err
	}
	if want, err = w.expand(want); err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("no field %q: %s", path, w.describe())
	}
	if got := text(v); got != want {
		return fmt.Errorf("field %q is %q, want %q: %s", path, got, want, w.describe())
	}
	return nil
}

func (w *World) fieldMatches(path, pattern string) error {
	v, ok, err := w.lookup(path)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return fmt.Errorf("pattern %q: %v", pattern, err)
	}
	if !ok || !re.MatchString(text(v)) {
		return fmt.Errorf("field %q (%v) does not match %q: %s", path, v, pattern, w.describe())
	}
	return nil
}

func (w *World) fieldPresence(path string, want bool) error {
	_, ok, err := w.lookup(path)
	if err != nil {
		return err
	}
	if ok != want {
		return fmt.Errorf("field %q present=%v, want %v: %s", path, ok, want, w.describe())
	}
	return nil
}

func (w *World) fieldLen(path string, n int) error {
	v, ok, err := w.lookup(path)
	if err != nil {
		return err
	}
	list, isList := v.([]any)
	if !ok || !isList {
		return fmt.Errorf("field %q is not a list: %s", path, w.describe())
	}
	if len(list) != n {
		return fmt.Errorf("field %q has %d items, want %d: %s", path, len(list), n, w.describe())
	}
	return nil
}

func (w *World) bodyContains(s string) error {
	if err := w.mustResponse(); err != nil {
		return err
	}
	s, err := w.expand(s)
	if err != nil {
		return err
	}
	if !strings.Contains(string(w.body), s) {
		return fmt.Errorf("body does not contain %q: %s", s, w.describe())
	}
	return nil
}

func (w *World) validSchema(name string) error {
	if err := w.mustResponse(); err != nil {
		return err
	}
	vs, err := w.Schemas.Validate(name, w.body)
	if err != nil {
		return err
	}
	if len(vs) > 0 {
		return fmt.Errorf("body breaks schema %s: %+v: %s", name, vs, w.describe())
	}
	return nil
}

func (w *World) remember(path, name string) error {
	v, ok, err := w.lookup(path)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("no field %q to remember: %s", path, w.describe())
	}
	w.vars[name] = text(v)
	return nil
}

func (w *World) startReceiver(status int) error {
	rc, err := NewReceiver(status)
	if err != nil {
		return err
	}
	w.receiver = rc
	w.cleanup = append(w.cleanup, func() { rc.Close() })
	return nil
}

func (w *World) startRedirectingReceiver(status int, location string) error {
	location, err := w.expand(location)
	if err != nil {
		return err
	}
	if err := w.startReceiver(status); err != nil {
		return err
	}
	w.receiver.SetRedirect(status, location)
	return nil
}

func (w *World) pointWebhook() error {
	if w.receiver == nil {
		return fmt.Errorf("no receiver started")
	}
	return w.control(http.MethodPut, "/portal/apps/"+w.app.ID+"/webhook", fmt.Sprintf(`{"webhookUrl":%q}`, w.receiver.URL+"/hooks"))
}

func (w *World) receiverGets(typ string, secs int) error {
	return w.receiverGetsWhere(typ, secs, func([]byte) bool { return true })
}

// receiverGetsNone holds over its whole window: it fails on the first new
// event of the type, and passes only when the window has ended.
func (w *World) receiverGetsNone(typ string, secs int) error {
	if w.receiver == nil {
		return fmt.Errorf("no receiver started")
	}
	count := func(rs []Received) int {
		n := 0
		for _, r := range rs {
			var e events.Envelope
			if json.Unmarshal(r.Body, &e) == nil && e.Type == typ {
				n++
			}
		}
		return n
	}
	before := count(w.receiver.Requests())
	if _, got := w.receiver.WaitUntil(time.Duration(secs)*time.Second, func(rs []Received) bool { return count(rs) > before }); got {
		return fmt.Errorf("a %q event reached the receiver within %ds", typ, secs)
	}
	return nil
}

func (w *World) receiverGetsWhere(typ string, secs int, match func(body []byte) bool) error {
	if w.receiver == nil {
		return fmt.Errorf("no receiver started")
	}
	r, ok := w.receiver.WaitFor(time.Duration(secs)*time.Second, func(r Received) bool {
		var e events.Envelope
		return json.Unmarshal(r.Body, &e) == nil && e.Type == typ && match(r.Body)
	})
	if !ok {
		return fmt.Errorf("no %q event reached the receiver within %ds; it got %d requests", typ, secs, len(w.receiver.Requests()))
	}
	if vs, err := w.Schemas.Validate("platform/event", r.Body); err != nil || len(vs) > 0 {
		return fmt.Errorf("event breaks schema platform/event: %v %+v", err, vs)
	}
	var e events.Envelope
	json.Unmarshal(r.Body, &e)
	w.event = &received{Envelope: e, Raw: r.Body, Header: r.Header}
	return nil
}

func (w *World) signatureValid() error {
	if w.event == nil || w.event.Header == nil {
		return fmt.Errorf("no webhook event received yet")
	}
	return events.Verify(w.event.Header.Get(events.SignatureHeader), w.app.WebhookSecret, w.event.Raw, time.Now(), 5*time.Minute)
}

func (w *World) eventFieldExists(path string) error {
	if w.event == nil {
		return fmt.Errorf("no event received yet")
	}
	_, ok, err := field(w.event.Raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("event field %q does not exist: %s", path, w.event.Raw)
	}
	return nil
}

func (w *World) eventFieldIs(path, want string) error {
	if w.event == nil {
		return fmt.Errorf("no event received yet")
	}
	want, err := w.expand(want)
	if err != nil {
		return err
	}
	v, ok, err := field(w.event.Raw, path)
	if err != nil {
		return err
	}
	if !ok || text(v) != want {
		return fmt.Errorf("event field %q is %v, want %q: %s", path, v, want, w.event.Raw)
	}
	return nil
}

func (w *World) subscribe(query string) error {
	resp, err := w.connect(query)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		return fmt.Errorf("websocket refused (status %d): %v", status, err)
	}
	return nil
}

func (w *World) subscribeRefused(status int) error {
	resp, err := w.connect("")
	if err == nil {
		return fmt.Errorf("the websocket handshake succeeded, want status %d", status)
	}
	if resp == nil || resp.StatusCode != status {
		got := 0
		if resp != nil {
			got = resp.StatusCode
		}
		return fmt.Errorf("handshake failed with status %d, want %d: %v", got, status, err)
	}
	return nil
}

func (w *World) streamDelivers(typ string, secs int) error {
	e, err := w.waitStream(typ, time.Duration(secs)*time.Second)
	if err != nil {
		return err
	}
	raw, _ := json.Marshal(e)
	w.event = &received{Envelope: e, Raw: raw}
	return nil
}

func (w *World) streamQuiet(secs int) error {
	// Without a subscription nothing could arrive: the step would hold
	// vacuously, so it fails instead.
	if w.ws == nil {
		return fmt.Errorf("not subscribed to the event stream: subscribe first, or the silence proves nothing")
	}
	e, err := w.waitStream("", time.Duration(secs)*time.Second)
	if err == nil {
		return fmt.Errorf("the stream delivered %s (sequence %d)", e.Type, e.Sequence)
	}
	if strings.Contains(err.Error(), "closed") {
		return err
	}
	return nil
}

// isTransport reports whether err is the connection failing (reset, EOF,
// closed) rather than a step's own complaint.
func isTransport(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}
