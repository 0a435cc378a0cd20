package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"homologa/simulator/events"
	"homologa/simulator/httpx"
)

// cnpjSeq makes the companies of isolated scenarios unique. It starts at a
// random point so that a second run against the same long-running sandbox
// does not meet the first run's companies (partnerApp also moves on when
// a CNPJ is taken).
var cnpjSeq = func() *atomic.Int64 {
	var n atomic.Int64
	n.Store(rand.Int64N(80_000_000))
	return &n
}()

// nextCNPJ returns a valid CNPJ not used before in this process.
func nextCNPJ() string {
	n := 10000000 + cnpjSeq.Add(1)
	base := fmt.Sprintf("%08d0001", n)
	d := make([]int, 0, 14)
	for _, c := range base {
		d = append(d, int(c-'0'))
	}
	check := func(weights []int) int {
		s := 0
		for i, w := range weights {
			s += d[i] * w
		}
		if r := s % 11; r >= 2 {
			return 11 - r
		}
		return 0
	}
	d = append(d, check([]int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}))
	d = append(d, check([]int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}))
	var sb strings.Builder
	for _, x := range d {
		sb.WriteByte(byte('0' + x))
	}
	return sb.String()
}

// partnerApp gives the scenario the app the partner acts as: in the
// per-scenario mode an app of its own, registered through the portal
// like a partner's, with a Pix key (its CNPJ), and the partner started
// for it when the file says how; in the fixed mode the partner's own.
// ${chave} is the key, ${clientId} the app.
func (w *World) partnerApp() error {
	if w.Partner == nil {
		return fmt.Errorf("no partner under test: run with a partner file")
	}
	if w.Partner.App.Mode == Fixed {
		w.vars["chave"], w.vars["clientId"] = w.Partner.App.Chave, w.app.ClientID
		return w.fixedApp()
	}
	cnpj, err := w.registerPartnerApp()
	if err != nil {
		return err
	}
	if w.Partner.Start != nil {
		proc, err := startPartner(w.runContext(), w.Partner, map[string]string{"app.clientId": w.app.ClientID, "app.clientSecret": w.app.ClientSecret,
			"app.webhookSecret": w.app.WebhookSecret, "app.chave": cnpj, "sandbox.url": w.BaseURL})
		if err != nil {
			return setupError{fmt.Errorf("the suite could not start the partner for the scenario's app (not a check): %w", err)}
		}
		w.proc = proc
		w.cleanup = append(w.cleanup, proc.stop)
	}
	if hook := w.partnerWebhook(); hook != "" {
		body, _ := json.Marshal(map[string]string{"webhookUrl": hook})
		if err := w.do(http.MethodPut, "/portal/apps/"+w.app.ID+"/webhook", body, "application/json"); err != nil {
			return err
		}
		if w.resp.StatusCode/100 != 2 {
			return fmt.Errorf("set the app's webhook: %s", w.describe())
		}
		w.vars["partner.webhook"] = hook
	}
	w.vars["chave"], w.vars["clientId"] = cnpj, w.app.ClientID
	return nil
}

// fixedApp reads the partner's own app (GET /sandbox/app, with its
// token: the suite holds no portal login for it) for ${company.id} and
// ${app.id}, and points the app's webhook at the partner's receiver when
// the partner file names one, as the per-scenario mode does through the
// portal.
func (w *World) fixedApp() error {
	code, body, err := w.asHarness(http.MethodGet, "/sandbox/app", nil)
	if err != nil {
		return err
	}
	var a struct {
		ID         string `json:"id"`
		CompanyID  string `json:"companyId"`
		CNPJ       string `json:"cnpj"`
		WebhookURL string `json:"webhookUrl"`
	}
	if code != http.StatusOK || json.Unmarshal(body, &a) != nil || a.CompanyID == "" {
		return fmt.Errorf("the suite could not read the partner's app (GET /sandbox/app answered %d: %.300s)", code, body)
	}
	w.vars["company.id"], w.vars["app.id"] = a.CompanyID, a.ID
	w.app.ID, w.app.CNPJ = a.ID, a.CNPJ
	hook := w.partnerWebhook()
	if hook == "" {
		return nil
	}
	req, _ := json.Marshal(map[string]string{"webhookUrl": hook})
	if code, body, err = w.asHarness(http.MethodPut, "/sandbox/app/webhook", req); err != nil {
		return err
	}
	if code != http.StatusOK {
		return fmt.Errorf("the suite could not point the app's webhook at the partner (%s): PUT /sandbox/app/webhook answered %d: %.300s", hook, code, body)
	}
	w.vars["partner.webhook"] = hook
	// The app is the partner's own: its webhook goes back to where it
	// pointed when the scenario ends.
	restore, _ := json.Marshal(map[string]string{"webhookUrl": a.WebhookURL})
	w.cleanup = append(w.cleanup, func() { w.asHarness(http.MethodPut, "/sandbox/app/webhook", restore) })
	return nil
}

// registerPartnerApp registers the scenario's company and app and its Pix
// key (the CNPJ), moving on to another CNPJ when one is taken.
func (w *World) registerPartnerApp() (string, error) {
	var cnpj string
	for attempt := 1; ; attempt++ {
		cnpj = nextCNPJ()
		err := w.companyAndApp("Parceiro "+cnpj, cnpj, w.Partner.Name)
		if err == nil {
			break
		}
		if w.resp == nil || w.resp.StatusCode != http.StatusConflict || attempt == 20 {
			return "", setupError{fmt.Errorf("the suite could not set up the scenario's app (not a partner failure): %w", err)}
		}
	}
	body, _ := json.Marshal(map[string]string{"chave": cnpj})
	if err := w.do(http.MethodPost, "/portal/apps/"+w.app.ID+"/pix-keys", body, "application/json"); err != nil {
		return "", err
	}
	if w.resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("register the app's Pix key: %s", w.describe())
	}
	return cnpj, nil
}

// partnerWebhook is where the insurer's events for the scenario's app go:
// {url}/webhooks/{clientId} for a version 1 partner, {url}{webhook} for a
// version 2 one that names a receiver ("" when it names none: a Pix
// partner registers its Pix webhook itself).
func (w *World) partnerWebhook() string {
	base := strings.TrimSuffix(w.partnerURL(), "/")
	switch {
	case w.Partner.Version == 1:
		return base + "/webhooks/" + w.app.ClientID
	case w.Partner.Webhook != "":
		return base + w.Partner.Webhook
	}
	return ""
}

// partnerURL is the base of the partner's actions: the scenario's own
// process, the run's, or the file's url.
func (w *World) partnerURL() string {
	switch {
	case w.proc != nil:
		return w.proc.url
	case w.partnerBase != "":
		return w.partnerBase
	}
	return w.Partner.URL
}

// runContext is the run's context (a run the sandbox makes ends with it).
func (w *World) runContext() context.Context {
	if w.ctx != nil {
		return w.ctx
	}
	return context.Background()
}

// askPartner calls one of the partner's actions with params (a JSON
// object, ${name} expanded); the answer's fields (or those the action's
// returns maps) become ${partner.<name>}. A partner of the per-scenario
// mode that serves every app at once is told the scenario's app in
// headers.
func (w *World) askPartner(action string, params string) error {
	a, ok := w.Partner.Actions[action]
	if !ok {
		var names []string
		for n := range w.Partner.Actions {
			names = append(names, n)
		}
		slices.Sort(names)
		return fmt.Errorf("the partner file declares no action %q (it has: %s)", action, strings.Join(names, ", "))
	}
	vals := map[string]any{}
	if strings.TrimSpace(params) != "" {
		expanded, err := w.expand(params)
		if err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(expanded), &vals); err != nil {
			return fmt.Errorf("action parameters: %w", err)
		}
	}
	var body any = vals
	if a.Body != nil {
		body, _ = fill(a.Body, vals)
	}
	raw, _ := json.Marshal(body)
	u := a.Path
	if !strings.HasPrefix(u, "http") {
		u = strings.TrimSuffix(w.partnerURL(), "/") + a.Path
	}
	req, err := http.NewRequest(a.Method, u, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if w.Partner.servesEveryApp() {
		req.Header.Set("X-Homologa-Sandbox", w.BaseURL)
		req.Header.Set("X-Homologa-Client-Id", w.app.ClientID)
		req.Header.Set("X-Homologa-Client-Secret", w.app.ClientSecret)
		req.Header.Set("X-Homologa-Webhook-Secret", w.app.WebhookSecret)
	}
	resp, err := w.partnerClient().Do(req)
	if err != nil {
		return fmt.Errorf("the partner's action %s (%s %s): %w", action, a.Method, u, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	w.partnerAnswer, w.partnerStatus = answer, resp.StatusCode
	for k, v := range a.answerFields(answer) {
		w.vars["partner."+k] = text(v)
	}
	return nil
}

// interaction is what the assertions read from the interaction log.
type interaction struct {
	ID             int64             `json:"id"`
	At             time.Time         `json:"at"`
	WallAt         time.Time         `json:"wallAt"`
	Method         string            `json:"method"`
	Path           string            `json:"path"`
	Query          string            `json:"query"`
	Status         int               `json:"status"`
	RequestBody    string            `json:"requestBody"`
	RequestHeaders map[string]string `json:"requestHeaders"`
	ResponseBody   string            `json:"responseBody"`
	// ResponseHeaders are the answer's headers as the log keeps them.
	ResponseHeaders map[string]string `json:"responseHeaders"`
	IdempotencyKey  string            `json:"idempotencyKey"`
	Injected        string            `json:"injected"`
	DurationMS      float64           `json:"durationMs"`
	// Findings are what the sandbox accepted beyond the specification,
	// as production does: the report's leniency section.
	Findings []httpx.Finding `json:"findings,omitempty"`
}

// interactions lists the scenario app's requests whose method and path
// match (path: a regular expression), oldest first.
func (w *World) interactions(method, pathRE string) ([]interaction, error) {
	re, err := regexp.Compile("^" + pathRE + "$")
	if err != nil {
		return nil, err
	}
	req, _ := http.NewRequest(http.MethodGet, w.BaseURL+"/sandbox/interactions?limit=1000&app="+w.app.ClientID, nil)
	resp, err := w.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Interactions []interaction `json:"interactions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	var list []interaction
	for _, it := range out.Interactions {
		// The harness's own requests (its control tokens) are not the
		// partner's doing.
		if it.RequestHeaders["User-Agent"] == HarnessAgent {
			continue
		}
		if (method == "" || it.Method == method) && re.MatchString(it.Path) {
			list = append(list, it)
		}
	}
	return list, nil
}

// eventually retries check until it passes or secs elapse: the partner
// works at its own pace.
func eventually(secs int, check func() error) error {
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	for {
		err := check()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// opRE turns "PUT /pix/v2/cob/*" into a method and a path expression
// where * is one segment.
func opRE(op string) (string, string, error) {
	method, path, ok := strings.Cut(strings.TrimSpace(op), " ")
	if !ok {
		return "", "", fmt.Errorf("operation %q: write METHOD /path, * for one segment", op)
	}
	return method, strings.ReplaceAll(regexp.QuoteMeta(path), `\*`, `[^/]+`), nil
}

// partnerCalled checks how often the partner called an operation within
// a window: "at least n" passes as soon as n calls are seen; "n" and "at
// most n" hold over the whole window (a partner that calls late, or keeps
// calling, fails), so they never pass before it ends.
func (w *World) partnerCalled(op, cmp string, n, secs int) error {
	method, path, err := opRE(op)
	if err != nil {
		return err
	}
	count := func() (int, error) {
		list, err := w.interactions(method, path)
		return len(list), err
	}
	if cmp == "at least " {
		return eventually(secs, func() error {
			got, err := count()
			if err == nil && got < n {
				err = fmt.Errorf("the partner called %s %d times within %d s, want at least %d", op, got, secs, n)
			}
			return err
		})
	}
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	for {
		got, err := count()
		if err != nil {
			return err
		}
		if got > n {
			return fmt.Errorf("the partner called %s %d times within %d s, want %s%d: %s", op, got, secs, cmp, n, callAdvice(op))
		}
		if time.Now().After(deadline) {
			if cmp == "" && got != n {
				return fmt.Errorf("the partner called %s %d times within %d s, want %d: %s", op, got, secs, n, callAdvice(op))
			}
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// callAdvice says what to fix when a partner calls an operation too often
// (or not as often as it should).
func callAdvice(op string) string {
	switch {
	case strings.HasPrefix(op, "POST /oauth/token"):
		return "reuse the access token for its lifetime (expires_in) and ask for a new one only when it expires or is refused"
	case strings.HasPrefix(op, "GET /pix/v2/cob"):
		return "wait for the charge's notification (your Pix webhook) instead of reading the charge in a loop; read it once after the notification to reconcile"
	case strings.HasPrefix(op, "GET /insurer/v1/proposta"):
		return "wait for the proposal's events (your webhook) instead of reading the proposal in a loop; read it once after an event that changes it"
	}
	return "call it as the step says: once per what it does, retrying only failures"
}

var txidRE = regexp.MustCompile(`^[a-zA-Z0-9]{26,35}$`)

// distinctCharges checks the charges the partner created: n of them in
// the sandbox, and, where it chose its txids (PUT /cob/{txid}), each valid
// and of its own: no charge created twice for one request (a retry with
// a new txid) nor revised by reusing a txid. A partner that lets the PSP
// choose (POST /cob) gets txids of their own by construction.
func (w *World) distinctCharges(n int) error {
	return eventually(3, func() error {
		list, err := w.interactions(http.MethodPut, `/pix/v2/cob/[^/]+`)
		if err != nil {
			return err
		}
		// cleanly is set when the txid's last call was answered: a new PUT
		// of it is then another charge on a used txid, not a retry.
		cleanly := map[string]bool{}
		var problems []string
		for _, it := range list {
			txid := it.Path[strings.LastIndex(it.Path, "/")+1:]
			if !txidRE.MatchString(txid) {
				problems = append(problems, "txid "+txid+" breaks [a-zA-Z0-9]{26,35}")
			}
			if it.Status == http.StatusOK && cleanly[txid] {
				problems = append(problems, "txid "+txid+" was used again after its charge was created: each charge needs a txid of its own")
			}
			cleanly[txid] = it.Injected == "" && it.Status/100 == 2
		}
		got, err := w.chargesCreated()
		if err != nil {
			return err
		}
		if got != n {
			problems = append(problems, fmt.Sprintf("%d charges were created, want %d: a retry must reuse its txid (or Idempotency-Key), and a new charge needs a new txid", got, n))
		}
		if len(problems) > 0 {
			return fmt.Errorf("%s", strings.Join(problems, "; "))
		}
		return nil
	})
}

// retriedSame checks that after an injected fault the partner repeated
// the operation with the same txid (same path) or the same Idempotency-Key.
func (w *World) retriedSame(op, what string) error {
	return w.afterFault(op, "retry 5xx, timeouts and lost answers with backoff", func(i int, it, next interaction) error {
		switch what {
		case "txid", "refund id":
			if next.Path != it.Path {
				return fmt.Errorf("the partner retried with another %s (%s, then %s) after the injected fault (%s): a retry must reuse it, or it creates a second one", what, it.Path, next.Path, faultSeen(it))
			}
		case "Idempotency-Key":
			switch {
			case it.IdempotencyKey == "":
				return fmt.Errorf("the partner sent %s without an Idempotency-Key, so its retry after the injected fault (%s) cannot be told from a new one: send a key on every creating POST and repeat it on retries", op, faultSeen(it))
			case next.IdempotencyKey != it.IdempotencyKey:
				return fmt.Errorf("the partner retried without the same Idempotency-Key: the key changed between attempts %d and %d of %s (%q, then %q) after the injected fault (%s): repeat the first attempt's key on every retry", i+1, i+2, op, it.IdempotencyKey, next.IdempotencyKey, faultSeen(it))
			}
		}
		return nil
	})
}

// afterFault runs check on the first call of op that met an injected
// fault and the partner's next call of op (its retry), the i-th of the
// list, until it passes or the wait ends; a fault with no call after it
// is the partner's not retrying, which advice says how to fix.
func (w *World) afterFault(op, advice string, check func(i int, failed, next interaction) error) error {
	method, path, err := opRE(op)
	if err != nil {
		return err
	}
	return eventually(6, func() error {
		list, err := w.interactions(method, path)
		if err != nil {
			return err
		}
		for i, it := range list {
			if it.Injected == "" {
				continue
			}
			if i+1 >= len(list) {
				return fmt.Errorf("the partner did not retry %s after the injected fault (%s): %s", op, faultSeen(it), advice)
			}
			return check(i, it, list[i+1])
		}
		return fmt.Errorf("no call to %s met an injected fault", op)
	})
}

// webhookBeforeCharges checks the partner configured its Pix webhook
// before it created its first charge (onboarding step 6).
func (w *World) webhookBeforeCharges() error {
	hooks, err := w.interactions(http.MethodPut, `/pix/v2/webhook/[^/]+`)
	if err != nil {
		return err
	}
	cobs, err := w.creationCalls()
	if err != nil {
		return err
	}
	if len(cobs) == 0 {
		return fmt.Errorf("the partner created no charge (neither PUT /pix/v2/cob/{txid} nor POST /pix/v2/cob)")
	}
	if len(hooks) == 0 || hooks[0].ID > cobs[0].ID {
		return fmt.Errorf("the partner created a charge before configuring its Pix webhook (PUT /pix/v2/webhook/{chave}): configure webhooks at onboarding, or the first payments are never notified")
	}
	return nil
}

// delivery is what the assertions read from the delivery log.
type delivery struct {
	ID        string `json:"id"`
	EventID   string `json:"eventId"`
	EventType string `json:"eventType"`
	URL       string `json:"url"`
	Status    string `json:"status"`
	Injected  string `json:"injected"`
	Attempts  []struct {
		StatusCode int     `json:"statusCode"`
		LatencyMS  float64 `json:"latencyMs"`
		Error      string  `json:"error"`
	} `json:"attempts"`
}

func (w *World) deliveries() ([]delivery, error) {
	resp, err := w.client.Get(w.BaseURL + "/sandbox/deliveries?app=" + w.app.ClientID)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Deliveries []delivery `json:"deliveries"`
	}
	return out.Deliveries, json.NewDecoder(resp.Body).Decode(&out)
}

// acknowledgedWithin checks every notification to the partner was answered
// 2xx on its first attempt within ms milliseconds.
func (w *World) acknowledgedWithin(n, ms int) error {
	return eventually(10, func() error {
		ds, err := w.deliveries()
		if err != nil {
			return err
		}
		seen := 0
		for _, d := range ds {
			if len(d.Attempts) == 0 {
				continue
			}
			seen++
			a := d.Attempts[0]
			switch {
			case a.StatusCode == 0:
				return fmt.Errorf("no acknowledgement of the %s notification at %s within %d ms (%s): acknowledge first, then process", d.EventType, d.URL, ms, a.Error)
			case a.StatusCode == http.StatusNotFound && strings.HasSuffix(strings.TrimSuffix(d.URL, "/pix"), "/pix"):
				return fmt.Errorf("%s answered 404 to the %s notification: a Pix callback goes to the registered webhook URL + /pix; register the base URL (without /pix), or serve %s", d.URL, d.EventType, d.URL)
			case a.StatusCode/100 != 2:
				return fmt.Errorf("%s answered %d to the %s notification (%s): acknowledge with 2xx once it is verified", d.URL, a.StatusCode, d.EventType, a.Error)
			}
			if a.LatencyMS > float64(ms) {
				return fmt.Errorf("the partner took %.0f ms to acknowledge the %s notification (limit %d ms): acknowledge first, then process", a.LatencyMS, d.EventType, ms)
			}
		}
		if seen < n {
			return fmt.Errorf("%d notifications attempted, want at least %d", seen, n)
		}
		return nil
	})
}

// forgedNotification posts a Pix callback signed wrong (or too old, or
// not at all) to the webhook the partner registered with the sandbox
// (PUT /pix/v2/webhook/{chave}, read back), and checks it was refused
// with a 4xx. The same receiver must first acknowledge a genuine
// notification: a refusal means nothing from a URL that refuses
// everything (a 404 for a route the partner never served).
func (w *World) forgedNotification(kind string) error { return w.forgedCallback("/pix", kind) }

// signatureFaults are the scenarios that sign the sandbox's next
// delivery wrong, by the kind of wrong.
var signatureFaults = map[string]string{"forged": "webhook-assinatura-invalida", "stale": "webhook-assinatura-antiga", "unsigned": "webhook-sem-assinatura"}

// forgedCallback has the sandbox itself deliver to the URL the partner
// registered for the callback (/pix: its key's webhook; /rec: its
// webhookrec), whatever address only the sandbox reaches it at, a callback
// of something the partner never asked for, its first attempt signed with
// another secret, ten minutes ago, or not at all (the webhook-assinatura
// faults). The partner must refuse that attempt (4xx) and acknowledge the
// same callback signed right (a replay): a refusal means nothing from a
// receiver that refuses everything.
func (w *World) forgedCallback(path, kind string) error {
	scenario := signatureFaults[kind]
	body, _ := json.Marshal(map[string]string{"clientId": w.app.ClientID})
	if code, answer, err := w.asHarness(http.MethodPost, "/sandbox/scenarios/"+scenario+"/activate", body); err != nil || code/100 != 2 {
		return fmt.Errorf("activate %s: %d %.300s %v", scenario, code, answer, err)
	}
	var trigger func() error
	switch path {
	case "/pix":
		trigger = w.payUnknownCharge
	case "/rec":
		trigger = w.approveUnknownRecurrence
	default:
		return fmt.Errorf("the callbacks the suite can send are /pix and /rec, not %s", path)
	}
	if err := trigger(); err != nil {
		return err
	}
	var d delivery
	err := eventually(10, func() error {
		ds, err := w.deliveries()
		if err != nil {
			return err
		}
		for _, x := range ds {
			if strings.HasSuffix(x.URL, path) && strings.Contains(x.Injected, scenario) && len(x.Attempts) > 0 {
				d = x
				return nil
			}
		}
		return fmt.Errorf("the sandbox delivered no %s callback to the partner within 10 s: register the webhook (%s) at onboarding", path, map[string]string{"/pix": "PUT /pix/v2/webhook/{chave}", "/rec": "PUT /pix/v2/webhookrec"}[path])
	})
	if err != nil {
		return err
	}
	first := d.Attempts[0]
	switch {
	case first.StatusCode/100 == 2:
		return fmt.Errorf("the partner answered %d to a %s callback at %s (%s): verify %s over the raw body with the app's webhook secret, refuse a t older than 5 minutes, and answer 4xx", first.StatusCode, kind, d.URL, signatureWhat[kind], events.SignatureHeader)
	case first.StatusCode/100 != 4:
		return fmt.Errorf("the partner answered %d to a %s callback at %s (%s): refuse it with 4xx (%s)", first.StatusCode, kind, d.URL, signatureWhat[kind], cmpOr(first.Error, "a 5xx asks the sender to try again"))
	}
	code, answer, err := w.asHarness(http.MethodPost, "/sandbox/deliveries/"+d.ID+"/replay", nil)
	if err != nil {
		return err
	}
	var replay delivery
	json.Unmarshal(answer, &replay)
	if code != http.StatusOK || len(replay.Attempts) == 0 || replay.Attempts[len(replay.Attempts)-1].StatusCode/100 != 2 {
		return fmt.Errorf("the partner refused the %s callback signed right (a replay of the one it refused; %d): acknowledge with 2xx every callback that verifies, even of something you do not know", path, code)
	}
	return nil
}

// signatureWhat says what was wrong with a callback's signature.
var signatureWhat = map[string]string{"forged": "signed with another secret", "stale": "signed ten minutes ago", "unsigned": "without Homologa-Signature"}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// approveUnknownRecurrence has the payer approve a recurrence the partner
// never created: the suite creates it with the app's token, as another
// system of the partner's company would, and approves it; the partner's
// /rec webhook hears of it. ${unknown.idRec} names it.
func (w *World) approveUnknownRecurrence() error {
	code, answer, err := w.asHarness(http.MethodGet, "/sandbox/clock", nil)
	var clk struct {
		Now time.Time `json:"now"`
	}
	if err != nil || code != http.StatusOK || json.Unmarshal(answer, &clk) != nil {
		return fmt.Errorf("read the company's clock: %d %v", code, err)
	}
	start := clk.Now.In(time.FixedZone("BRT", -3*3600)).AddDate(0, 0, 2).Format(time.DateOnly)
	rec, _ := json.Marshal(map[string]any{
		"vinculo":             map[string]any{"contrato": "VERIFICACAO-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 10), "devedor": map[string]string{"cpf": "11144477735", "nome": "Pagador de verificação"}, "objeto": "Verificação"},
		"calendario":          map[string]string{"dataInicial": start, "periodicidade": "MENSAL"},
		"valor":               map[string]string{"valorRec": "1.00"},
		"politicaRetentativa": "NAO_PERMITE",
	})
	code, answer, err = w.asHarness(http.MethodPost, "/pix/v2/rec", rec)
	var out struct {
		IDRec string `json:"idRec"`
	}
	if err != nil || code != http.StatusCreated || json.Unmarshal(answer, &out) != nil {
		return fmt.Errorf("the suite could not create a recurrence: %d %.300s %v", code, answer, err)
	}
	if code, answer, err = w.asHarness(http.MethodPost, "/sandbox/pix/rec/"+out.IDRec+"/aprovar", []byte(`{}`)); err != nil || code/100 != 2 {
		return fmt.Errorf("the payer could not approve %s: %d %.300s %v", out.IDRec, code, answer, err)
	}
	w.vars["unknown.idRec"] = out.IDRec
	return nil
}

// faultSeen says what an injected fault answered: its status and the
// Retry-After it asked, or that the connection ended without an answer.
func faultSeen(it interaction) string {
	if it.Status == 0 {
		return "a connection that ended without an answer"
	}
	if ra := it.ResponseHeaders["Retry-After"]; ra != "" {
		return fmt.Sprintf("the %d answer that asked Retry-After: %s", it.Status, ra)
	}
	return fmt.Sprintf("the %d answer", it.Status)
}

// isTimeout reports an error of a request that ran out of time.
func isTimeout(err error) bool { return errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err) }

// bookedOnce checks the partner booked the payment of txid exactly once.
func (w *World) bookedOnce(txid string, secs int) error {
	txid, err := w.expand(txid)
	if err != nil {
		return err
	}
	return eventually(secs, func() error {
		l, err := w.partnerLedger()
		if err != nil {
			return err
		}
		n := l.booked[txid]
		if n == 0 {
			return fmt.Errorf("the partner did not book the payment of %s", txid)
		}
		// A ledger of payments tells its bookings apart: two Pix may pay
		// one charge, but one Pix is booked once.
		for e2eid, times := range l.bookedE2E[txid] {
			if times > 1 {
				return fmt.Errorf("the partner booked the Pix %s of %s %d times: a notification can arrive twice; book each endToEndId once", e2eid, txid, times)
			}
		}
		if len(l.bookedE2E[txid]) == 0 && n > 1 {
			return fmt.Errorf("the partner booked the payment of %s %d times: a notification can arrive twice; book each endToEndId once", txid, n)
		}
		return nil
	})
}

// reconciled checks, from the sandbox's log, that after the payment
// notification the partner fetched the charge (or the Pix).
func (w *World) reconciled(txid string, secs int) error {
	txid, err := w.expand(txid)
	if err != nil {
		return err
	}
	return eventually(secs, func() error {
		gets, err := w.interactions(http.MethodGet, `/pix/v2/((cob|cobv|cobr)/`+regexp.QuoteMeta(txid)+`|pix/[^/]+|pix)`)
		if err != nil {
			return err
		}
		ds, err := w.deliveries()
		if err != nil {
			return err
		}
		notified := false
		for _, d := range ds {
			if (strings.HasSuffix(d.URL, "/pix") || strings.HasSuffix(d.URL, "/cobr")) && len(d.Attempts) > 0 {
				notified = true
			}
		}
		if !notified {
			return fmt.Errorf("the payment of %s was not notified to the partner yet", txid)
		}
		if len(gets) == 0 {
			return fmt.Errorf("the partner never fetched charge %s after its payment notification: reconcile (GET /cob/{txid}, /cobv/{txid} or /cobr/{txid}) before delivering the goods", txid)
		}
		return nil
	})
}

// onlyNeededScopes checks every token the partner asked for names its
// scopes, all of them among the needed ones.
func (w *World) onlyNeededScopes(needed string) error {
	list, err := w.interactions(http.MethodPost, `/oauth/token`)
	if err != nil {
		return err
	}
	// A partner with a fixed app reuses its token across scenarios, and
	// the reset between them empties the log: its earlier requests count.
	list = append(w.run.tokenRequests(), list...)
	if len(list) == 0 {
		return fmt.Errorf("the partner asked for no token")
	}
	allowed := map[string]bool{}
	for _, s := range strings.Fields(needed) {
		allowed[s] = true
	}
	for _, it := range list {
		scope := ""
		for _, kv := range strings.Split(it.RequestBody, "&") {
			if k, v, _ := strings.Cut(kv, "="); k == "scope" {
				scope = strings.ReplaceAll(v, "+", " ")
				scope = strings.ReplaceAll(scope, "%20", " ")
			}
		}
		if strings.TrimSpace(scope) == "" {
			return fmt.Errorf("the partner asked for a token without scope (it gets every scope): ask only for the scopes your integration uses (%s)", needed)
		}
		for _, s := range strings.Fields(scope) {
			if !allowed[s] {
				return fmt.Errorf("the partner asked for the scope %s, which its integration does not use", s)
			}
		}
	}
	return nil
}

// noCardNumber checks no request of the partner to the service's APIs
// carried a card number. The recorder has already replaced any it found
// inside a card object with a marker (PCI: the log must not keep it), so
// the marker is the evidence; the widget's own calls under /sandbox/cartao
// legitimately carry the number and are not the partner's.
func (w *World) noCardNumber() error {
	list, err := w.interactions("", `.*`)
	if err != nil {
		return err
	}
	for _, it := range list {
		if strings.HasPrefix(it.Path, "/sandbox/") {
			continue
		}
		if strings.Contains(it.RequestBody, "[redacted card number]") {
			return fmt.Errorf("the partner sent a card number in %s %s (answered %d): capture the card in the credit-card widget and send only DADOS_COBRANCA.CARTAO.NUM_PRE_AUTORIZACAO; card data must never reach your servers", it.Method, it.Path, it.Status)
		}
	}
	return nil
}

// pendingAnswered checks the partner answered a pending of its proposal
// or benefit: a PUT the insurer accepted.
func (w *World) pendingAnswered(of string, secs int) error {
	path, how := `/insurer/v1/pendencia/[0-9]+`, "on a proposta.pendencia event (or GET /insurer/v1/pendencia?status=ABERTA), answer with PUT /insurer/v1/pendencia/{id}"
	if of == "benefit" {
		path, how = `/benefits/v1/beneficio/[0-9]+/pendencias/[0-9]+`, "on a beneficio.pendencia event (or GET /benefits/v1/beneficio/{id}/pendencias), send the documents asked with PUT /benefits/v1/beneficio/{id}/pendencias/{pendenciaId}"
	}
	return eventually(secs, func() error {
		list, err := w.interactions(http.MethodPut, path)
		if err != nil {
			return err
		}
		for _, it := range list {
			if it.Status == http.StatusOK {
				return nil
			}
		}
		if len(list) > 0 {
			return fmt.Errorf("the partner tried to answer the pending of its %s %d times, and the insurer refused every answer (last: %d): read Mensagens of the answer", of, len(list), list[len(list)-1].Status)
		}
		return fmt.Errorf("the partner did not answer the pending raised on its %s within %d s: %s", of, secs, how)
	})
}

// notifiedOf checks the partner was notified of an event type and
// acknowledged it.
func (w *World) notifiedOf(eventType string, secs int) error {
	return eventually(secs, func() error {
		ds, err := w.deliveries()
		if err != nil {
			return err
		}
		for _, d := range ds {
			if d.EventType == eventType && len(d.Attempts) > 0 && d.Attempts[len(d.Attempts)-1].StatusCode/100 == 2 {
				return nil
			}
		}
		return fmt.Errorf("no %s notification to the partner was acknowledged within %d s", eventType, secs)
	})
}

// recWebhooksBeforeRecs checks the partner configured the webhooks of
// recurrences and of recurring charges before its first recurrence: the
// payer's approval and every settlement arrive only through them.
func (w *World) recWebhooksBeforeRecs() error {
	recs, err := w.interactions(http.MethodPost, `/pix/v2/rec`)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("the partner created no recurrence")
	}
	for _, hook := range []string{"webhookrec", "webhookcobr"} {
		list, err := w.interactions("", `/pix/v2/`+hook)
		if err != nil {
			return err
		}
		first := int64(-1)
		for _, it := range list {
			if (it.Method == http.MethodPut || it.Method == http.MethodPost) && it.Status/100 == 2 {
				first = it.ID
				break
			}
		}
		if first < 0 || first > recs[0].ID {
			return fmt.Errorf("the partner created a recurrence before configuring PUT /pix/v2/%s: configure the Pix Automático webhooks at onboarding, or the payer's approval and the settlements are never notified", hook)
		}
	}
	return nil
}

// chargedRecurrence checks the partner created the recurring charge of an
// approved recurrence (after its /rec callback) and remembers its txid as
// ${cobr.txid}.
func (w *World) chargedRecurrence(idRec string, secs int) error {
	idRec, err := w.expand(idRec)
	if err != nil {
		return err
	}
	return eventually(secs, func() error {
		list, err := w.interactions("", `/pix/v2/cobr(/[^/]+)?`)
		if err != nil {
			return err
		}
		for _, it := range list {
			if it.Method != http.MethodPut && it.Method != http.MethodPost || it.Status != http.StatusCreated {
				continue
			}
			var body struct {
				IDRec string `json:"idRec"`
			}
			if json.Unmarshal([]byte(it.RequestBody), &body) == nil && body.IDRec == idRec {
				w.vars["cobr.txid"] = strings.TrimPrefix(it.Path, "/pix/v2/cobr/")
				return nil
			}
		}
		return fmt.Errorf("the partner created no recurring charge for the approved recurrence %s: on the /rec callback with status APROVADA, create the cycle's charge (PUT /pix/v2/cobr/{txid})", idRec)
	})
}

// sentValid validates every recorded request body of an operation against
// a schema: the partner's requests, as the sandbox received them.
func (w *World) sentValid(op, name string) error {
	var list []interaction
	var err error
	if op == "charge creation" {
		// PUT /cob/{txid} or POST /cob: the official request schema is the
		// same for both (CobSolicitada).
		list, err = w.creationCalls()
	} else {
		method, path, rerr := opRE(op)
		if rerr != nil {
			return rerr
		}
		list, err = w.interactions(method, path)
	}
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return fmt.Errorf("the partner never called %s", op)
	}
	for _, it := range list {
		vs, err := w.Schemas.Validate(name, []byte(it.RequestBody))
		if err != nil {
			return fmt.Errorf("%s %s: the body is not JSON the schema can read: %v", it.Method, it.Path, err)
		}
		if len(vs) > 0 {
			return fmt.Errorf("the partner's %s %s breaks schema %s: %v: send the fields the official API names, with their types and patterns", it.Method, it.Path, name, vs)
		}
	}
	return nil
}

// waitedBeforeRetry checks the pause between the call that met an
// injected fault and the partner's next call of the operation: from the
// end of the failed answer to the start of the retry, at least ms (what
// the fault's Retry-After asks, or a backoff).
func (w *World) waitedBeforeRetry(ms int, op string) error {
	return w.afterFault(op, "retry 5xx, 429, timeouts and lost answers with backoff, never sooner than Retry-After asks", func(_ int, it, next interaction) error {
		// Wall-clock times: the sandbox clock may be frozen.
		end := it.WallAt.Add(time.Duration(it.DurationMS * float64(time.Millisecond)))
		if gap := next.WallAt.Sub(end); gap < time.Duration(ms)*time.Millisecond {
			return fmt.Errorf("the partner retried %s %d ms after %s, want at least %d ms: back off between attempts, never sooner than Retry-After asks", op, gap.Milliseconds(), faultSeen(it), ms)
		}
		return nil
	})
}

// partnerClient carries the scenario's requests to the partner's actions.
func (w *World) partnerClient() *http.Client {
	if w.partnerRT == nil {
		return w.client
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: partnerTransport{w: w, base: w.partnerRT},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// partnerTransport is the guarded transport of a run the sandbox makes,
// ending with the run.
type partnerTransport struct {
	w    *World
	base http.RoundTripper
}

func (t partnerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.w.ctx != nil {
		req = req.WithContext(t.w.ctx)
	}
	return t.base.RoundTrip(req)
}
