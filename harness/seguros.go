package harness

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"homologa/simulator/events"
)

// The checks of an insurance integration: the service-wide rules (the
// signature of the insurer's events, applying each event once, never
// letting a status go back, token reuse, least scopes, retries) judged on
// the insurer's own events and operations, and what the partner holds of
// its proposals and benefits, read from its state action.

// asHarness makes a call of the harness's own, as the scenario's app: it
// is not the partner's doing (the interaction log's readers leave out the
// harness's user agent).
func (w *World) asHarness(method, path string, body []byte) (int, []byte, error) {
	for renew := false; ; renew = true {
		tok, err := w.controlToken(renew)
		if err != nil {
			return 0, nil, err
		}
		req, _ := http.NewRequest(method, w.BaseURL+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("User-Agent", HarnessAgent)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := w.client.Do(req)
		if err != nil {
			return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || renew {
			return resp.StatusCode, b, nil
		}
	}
}

// insurerResource is one resource as GET /sandbox/resources lists it.
type insurerResource struct {
	Kind      string    `json:"kind"`
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	ClientID  string    `json:"clientId"`
	CreatedAt time.Time `json:"createdAt"`
}

// resourcesOf lists the scenario app's resources of a kind (proposta,
// beneficio), oldest first.
func (w *World) resourcesOf(kind string) ([]insurerResource, error) {
	code, body, err := w.asHarness(http.MethodGet, "/sandbox/resources?limit=1000&kind="+url.QueryEscape(kind), nil)
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		return nil, fmt.Errorf("GET /sandbox/resources?kind=%s answered %d: %.300s", kind, code, body)
	}
	var out struct {
		Resources []insurerResource `json:"resources"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("GET /sandbox/resources: %w", err)
	}
	var mine []insurerResource
	for _, r := range out.Resources {
		if r.ClientID == w.app.ClientID && r.Kind == kind {
			mine = append(mine, r)
		}
	}
	slices.SortFunc(mine, func(a, b insurerResource) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return mine, nil
}

// offerGranted lets the scenario's company sell an offer, whatever the
// app mode: PUT /sandbox/offers/{offer} with the app's own token.
func (w *World) offerGranted(offer string) error {
	return w.control(http.MethodPut, "/sandbox/offers/"+url.PathEscape(offer), "")
}

// insurerHolds checks how many proposals of the partner the insurer holds.
func (w *World) insurerHolds(n int) error {
	return eventually(3, func() error {
		list, err := w.resourcesOf("proposta")
		if err != nil {
			return err
		}
		if len(list) == n {
			return nil
		}
		keys, _ := w.proposalKeys()
		return fmt.Errorf("the insurer holds %d proposals of the partner, want %d (Idempotency-Keys sent: %s): a retry must repeat the first attempt's key, which answers the original proposal; a new key registers it again",
			len(list), n, strings.Join(keys, ", "))
	})
}

// proposalKeys lists the Idempotency-Key of each proposal the partner
// sent, in order ("none" for a request without one).
func (w *World) proposalKeys() ([]string, error) {
	list, err := w.interactions(http.MethodPost, proposalPath)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, it := range list {
		k := it.IdempotencyKey
		if k == "" {
			k = "none"
		}
		keys = append(keys, fmt.Sprintf("%q (%d)", k, it.Status))
	}
	return keys, nil
}

// proposalPath is every path a proposal is sent to: the native one and
// the insurer's clients' (v2, v3, the sale by venda).
const proposalPath = `(?i)(/insurer/v1|/apiseguradora/v[23]|/api/[^/]+)/(proposta(/[^/]+)?|venda)`

// kindOf is the resource kind, record name and what the insurer's
// statuses are called, of what the partner follows.
func kindOf(what string) (kind, record, noun string) {
	if what == "benefit" {
		return "beneficio", "benefits", "benefit"
	}
	return "proposta", "proposals", "proposal"
}

// partnerHoldsAsInsurer checks that what the partner holds of each of its
// proposals (or benefits) is what the insurer holds, and stays so: an
// event delivered late carries an older status, which must not overwrite
// a newer one.
func (w *World) partnerHoldsAsInsurer(what string, secs int) error {
	kind, record, noun := kindOf(what)
	check := func() error {
		mine, err := w.resourcesOf(kind)
		if err != nil {
			return err
		}
		if len(mine) == 0 {
			return fmt.Errorf("the partner has no %s in the insurer", noun)
		}
		l, err := w.partnerLedger()
		if err != nil {
			return err
		}
		if !l.known[record] {
			return fmt.Errorf("the partner's state says nothing of its %ss: map %s (%s and status) in the state action's returns", noun, record, ledgerRecords[record])
		}
		for _, r := range mine {
			got, ok := l.status[record][r.ID]
			switch {
			case !ok:
				return fmt.Errorf("the partner's state has no %s %s, which the insurer holds as %s", noun, r.ID, r.Status)
			case got != r.Status:
				return fmt.Errorf("the partner holds %s %s as %s, the insurer as %s: an event delivered late carries an older status; apply a status only when it is newer (the envelope's sequence, or the order of the statuses), or read the %s again after an event",
					noun, r.ID, got, r.Status, noun)
			}
		}
		return nil
	}
	if err := eventually(secs, check); err != nil {
		return err
	}
	// And it stays so: a late event processed after the check would
	// still overwrite it.
	return holds(2, func(bool) error { return check() })
}

// partnerHoldsStatus checks the partner holds its latest proposal (or
// benefit) in the status given, within the window.
func (w *World) partnerHoldsStatus(what, status string, secs int) error {
	kind, record, noun := kindOf(what)
	return eventually(secs, func() error {
		mine, err := w.resourcesOf(kind)
		if err != nil {
			return err
		}
		if len(mine) == 0 {
			return fmt.Errorf("the partner has no %s in the insurer", noun)
		}
		last := mine[len(mine)-1]
		l, err := w.partnerLedger()
		if err != nil {
			return err
		}
		if !l.known[record] {
			return fmt.Errorf("the partner's state says nothing of its %ss: map %s (%s and status) in the state action's returns", noun, record, ledgerRecords[record])
		}
		if got := l.status[record][last.ID]; got != status {
			return fmt.Errorf("the partner holds %s %s as %q within %d s, want %s (the insurer holds it as %s)", noun, last.ID, got, secs, status, last.Status)
		}
		return nil
	})
}

// insurerDeliveries lists the deliveries of the insurer's events to the
// partner's webhook (not the Pix callbacks), oldest first.
func (w *World) insurerDeliveries() ([]delivery, error) {
	ds, err := w.deliveries()
	if err != nil {
		return nil, err
	}
	var out []delivery
	for i := len(ds) - 1; i >= 0; i-- {
		d := ds[i]
		if strings.HasPrefix(d.EventType, "proposta.") || strings.HasPrefix(d.EventType, "beneficio.") || strings.HasPrefix(d.EventType, "inscricao.") || strings.HasPrefix(d.EventType, "cobranca.") || strings.HasPrefix(d.EventType, "comissao.") {
			out = append(out, d)
		}
	}
	return out, nil
}

// appliedOnce checks the partner applied each event it was sent at most
// once, and the one delivered twice (an injected duplicate) exactly once,
// over the whole window.
func (w *World) appliedOnce(secs int) error {
	var dup string
	err := eventually(secs, func() error {
		ds, err := w.insurerDeliveries()
		if err != nil {
			return err
		}
		for _, d := range ds {
			if strings.Contains(d.Injected, "duplicate") && len(d.Attempts) >= 2 && d.Attempts[0].StatusCode/100 == 2 {
				dup = d.EventID
				return nil
			}
		}
		return fmt.Errorf("no event was delivered twice to the partner yet (the duplicate fault waits for the partner's next event)")
	})
	if err != nil {
		return err
	}
	return holds(secs, func(last bool) error {
		l, err := w.partnerLedger()
		if err != nil {
			return err
		}
		if !l.known["applied"] {
			return fmt.Errorf("the partner's state says nothing of the events it applied: map applied (every event id applied, once per application) or events (id, times) in the state action's returns")
		}
		for id, n := range l.applied {
			if n > 1 {
				return fmt.Errorf("the partner applied the event %s %d times: a delivery can come twice (the same Homologa-Event-Id); apply each event id once", id, n)
			}
		}
		if last && l.applied[dup] != 1 {
			return fmt.Errorf("the partner never applied the event %s, which it acknowledged (twice): apply it once", dup)
		}
		return nil
	})
}

// refusesInsurerEvent posts to the partner's insurer webhook a copy of the
// newest event of its proposal, first as the sandbox signs it (it must be
// acknowledged), then as a cancellation of the proposal that is forged
// (another secret), stale (signed ten minutes ago) or unsigned. The
// partner passes when it refuses it (4xx), or answers 2xx and does not
// apply it: its state, and the proposal's status in it, stay as they were.
func (w *World) refusesInsurerEvent(kind string) error {
	target := w.partnerWebhook()
	if target == "" {
		return fmt.Errorf("the partner file names no webhook for the insurer's events (webhook:)")
	}
	if w.app.WebhookSecret == "" {
		return fmt.Errorf("the suite does not know the app's webhook secret (app.webhookSecret in the partner file), so it cannot sign a genuine event")
	}
	env, err := w.latestProposalEvent()
	if err != nil {
		return err
	}
	genuine, _ := json.Marshal(env)
	code, err := w.postSigned(target, genuine, w.app.WebhookSecret, time.Now())
	if err != nil {
		return err
	}
	if code/100 != 2 {
		return fmt.Errorf("the partner answered %d to a genuine, signed insurer event at %s (a repeat of one it had): acknowledge with 2xx every event that verifies, even a repeat", code, target)
	}
	forged := forgeCancellation(env)
	body, _ := json.Marshal(forged)
	secret, at := w.app.WebhookSecret, time.Now()
	switch kind {
	case "forged":
		secret = "whsec_not_the_partners_secret"
	case "stale":
		at = at.Add(-10 * time.Minute)
	case "unsigned":
		secret = ""
	}
	code, err = w.postSigned(target, body, secret, at)
	if err != nil {
		return err
	}
	switch {
	case code/100 == 4:
		return nil
	case code/100 != 2:
		return fmt.Errorf("the partner answered %d to a %s insurer event at %s: refuse it with 4xx (a 5xx asks the sender to try again)", code, kind, target)
	}
	// 2xx: acknowledged, but was it applied?
	numero := text(env.Subject["numeroProposta"])
	return holds(2, func(bool) error {
		l, err := w.partnerLedger()
		if err != nil {
			return err
		}
		if !l.known["proposals"] && !l.known["applied"] {
			return fmt.Errorf("the partner answered %d to a %s insurer event at %s: verify %s with the app's webhook secret, refuse a signature older than 5 minutes, and answer 4xx (or map proposals or applied in the state action, so the suite can see it did not apply the event)", code, kind, target, events.SignatureHeader)
		}
		if l.applied[forged.ID] > 0 || l.status["proposals"][numero] == "CANCELADA" {
			return fmt.Errorf("the partner applied a %s insurer event (a cancellation of proposal %s it answered %d to): verify %s over the raw body with the app's webhook secret, refuse a t older than 5 minutes, and answer 4xx", kind, numero, code, events.SignatureHeader)
		}
		return nil
	})
}

// latestProposalEvent is the newest event of the partner's newest
// proposal, from the event log.
func (w *World) latestProposalEvent() (events.Envelope, error) {
	mine, err := w.resourcesOf("proposta")
	if err != nil {
		return events.Envelope{}, err
	}
	if len(mine) == 0 {
		return events.Envelope{}, fmt.Errorf("the partner has no proposal in the insurer: sell one first")
	}
	numero := mine[len(mine)-1].ID
	code, body, err := w.asHarness(http.MethodGet, "/sandbox/events?limit=1000", nil)
	if err != nil {
		return events.Envelope{}, err
	}
	if code != http.StatusOK {
		return events.Envelope{}, fmt.Errorf("GET /sandbox/events answered %d: %.300s", code, body)
	}
	var out struct {
		Events []events.Envelope `json:"events"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return events.Envelope{}, fmt.Errorf("GET /sandbox/events: %w", err)
	}
	var found *events.Envelope
	for i := range out.Events {
		e := &out.Events[i]
		if strings.HasPrefix(e.Type, "proposta.") && text(e.Subject["numeroProposta"]) == numero && (found == nil || e.Sequence > found.Sequence) {
			found = e
		}
	}
	if found == nil {
		return events.Envelope{}, fmt.Errorf("no event of proposal %s yet: the suite needs one to copy", numero)
	}
	return *found, nil
}

// forgeCancellation is a Status de Proposta event that cancels the
// proposal of env: what an attacker would post.
func forgeCancellation(env events.Envelope) events.Envelope {
	f := env
	id := make([]byte, 16)
	rand.Read(id)
	f.ID = hex.EncodeToString(id)
	f.Type, f.Name = "proposta.status", "Status de Proposta"
	f.Sequence = env.Sequence + 1_000_000
	f.OccurredAt = time.Now().UTC()
	data, _ := env.Data.(map[string]any)
	prev, _ := data["statusAtual"].(string)
	f.Data = map[string]any{"statusAnterior": prev, "statusAtual": "CANCELADA", "statusAtualCodigo": "10", "motivo": "CANCELADA_PELO_CLIENTE"}
	return f
}

// postSigned posts body to target, signed with secret at the instant at
// (unsigned when secret is ""). It answers the status, 0 on a timeout.
func (w *World) postSigned(target string, body []byte, secret string, at time.Time) (int, error) {
	req, _ := http.NewRequest(http.MethodPost, target, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	var env struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}
	json.Unmarshal(body, &env)
	req.Header.Set("Homologa-Event-Id", env.ID)
	req.Header.Set("Homologa-Event-Type", env.Type)
	if secret != "" {
		req.Header.Set(events.SignatureHeader, events.Sign(secret, at, body))
	}
	resp, err := w.partnerClient().Do(req)
	if err != nil {
		if isTimeout(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("post an event to the partner's webhook %s: %w", target, err)
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// customerAnswersBenefitPending answers the open pending of the partner's
// benefit as the benefit-pending widget does for the customer: with the
// documents it asks for, under the app's token (the widget runs on the
// partner's page with it), as the harness, not as the partner.
func (w *World) customerAnswersBenefitPending(secs int) error {
	return eventually(secs, func() error {
		mine, err := w.resourcesOf("beneficio")
		if err != nil {
			return err
		}
		if len(mine) == 0 {
			return fmt.Errorf("the partner gave no benefit notice")
		}
		id := mine[len(mine)-1].ID
		code, body, err := w.asHarness(http.MethodGet, "/benefits/v1/beneficio/"+id+"/pendencias?status=ABERTA", nil)
		if err != nil {
			return err
		}
		var out struct {
			Valor []struct {
				ID                 json.Number `json:"id"`
				DocumentosExigidos []string    `json:"documentosExigidos"`
			} `json:"Valor"`
		}
		if code != http.StatusOK || json.Unmarshal(body, &out) != nil || len(out.Valor) == 0 {
			return fmt.Errorf("benefit %s has no open pending yet (%d)", id, code)
		}
		p := out.Valor[0]
		docs := []any{}
		for _, t := range p.DocumentosExigidos {
			docs = append(docs, map[string]any{"tipo": t, "nomeArquivo": strings.ToLower(t) + ".pdf", "formato": "PDF", "conteudoBase64": "JVBERi0xLjQK"})
		}
		answer, _ := json.Marshal(map[string]any{"resposta": "Seguem os documentos pedidos.", "documentos": docs})
		code, body, err = w.asHarness(http.MethodPut, "/benefits/v1/beneficio/"+id+"/pendencias/"+p.ID.String(), answer)
		if err != nil {
			return err
		}
		if code != http.StatusOK {
			return fmt.Errorf("the widget's answer to the pending of benefit %s answered %d: %.300s", id, code, body)
		}
		return nil
	})
}

// onlyScopesOfFlows checks every token the partner asked for names its
// scopes, each needed by a flow the partner declares or by an operation
// it called (the interaction log shows which): least privilege as the
// partner integrates, never against a fixed list.
func (w *World) onlyScopesOfFlows() error {
	list, err := w.interactions(http.MethodPost, `/oauth/token`)
	if err != nil {
		return err
	}
	list = append(w.run.tokenRequests(), list...)
	if len(list) == 0 {
		return fmt.Errorf("the partner asked for no token")
	}
	allowed := w.Partner.scopesAllowed()
	calls, err := w.interactions("", ".*")
	if err != nil {
		return err
	}
	for sc := range scopesCalled(calls) {
		allowed[sc] = true
	}
	for _, it := range list {
		scope := tokenScope(it)
		if strings.TrimSpace(scope) == "" {
			return fmt.Errorf("the partner asked for a token without scope, so it got every scope of the app: ask only for the scopes your flows use (%s)", strings.Join(sortedKeys(allowed), " "))
		}
		for _, s := range strings.Fields(scope) {
			if !allowed[s] {
				return fmt.Errorf("the partner asked for the scope %s, which neither its flows (%s) nor any call it made needs: ask only for the scopes your integration uses",
					s, strings.Join(w.Partner.Flows, ", "))
			}
		}
	}
	return nil
}

// tokenScope reads the scope a token request asked for: in its form
// body, or its query string.
func tokenScope(it interaction) string {
	for _, src := range []string{it.RequestBody, it.Query} {
		if v, err := url.ParseQuery(src); err == nil && v.Get("scope") != "" {
			return v.Get("scope")
		}
	}
	var body struct {
		Scope string `json:"scope"`
	}
	if json.Unmarshal([]byte(it.RequestBody), &body) == nil {
		return body.Scope
	}
	return ""
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// partnerSells has the partner sell an offer to a customer as its users
// do: the partner asks the insurer to send the customer a signature code
// (its request-signature action), the customer reads it (the sandbox's
// outbox, as the harness) and types it, and the partner sells (its sell
// action). The sell action's answer is the partner's last answer.
func (w *World) partnerSells(offer, cpf string) error {
	params, _ := json.Marshal(map[string]string{"cpf": cpf})
	if err := w.askPartner("request-signature", string(params)); err != nil {
		return err
	}
	if w.partnerStatus/100 != 2 {
		return fmt.Errorf("the partner's request-signature action answered %d: %.300s", w.partnerStatus, w.partnerAnswer)
	}
	var code string
	err := eventually(5, func() error {
		status, body, err := w.asHarness(http.MethodGet, "/sandbox/outbox?cpf="+url.QueryEscape(cpf), nil)
		if err != nil {
			return err
		}
		var out struct {
			Messages []struct {
				Codigo string `json:"codigo"`
			} `json:"messages"`
		}
		if status != http.StatusOK || json.Unmarshal(body, &out) != nil || len(out.Messages) == 0 || out.Messages[0].Codigo == "" {
			return fmt.Errorf("no signature code reached the customer %s (the outbox answered %d): the partner's request-signature must ask POST /access/v1/token/user", cpf, status)
		}
		code = out.Messages[0].Codigo
		return nil
	})
	if err != nil {
		return err
	}
	params, _ = json.Marshal(map[string]string{"cpf": cpf, "codigo": code, "offer": offer})
	return w.askPartner("sell", string(params))
}

// renewedToken checks that after the company's tokens were expired (the
// access tokens of my company expire), the partner asked for a new token
// and carried on: a call of its own answered 2xx after the new token. The
// call the sandbox refused (401 "token de acesso expirado") is named when
// the log has it; a refusal on a route outside the log (the card widget's)
// leaves only the new token to see.
func (w *World) renewedToken(secs int) error {
	expiredAt, err := time.Parse(time.RFC3339Nano, w.vars["tokens.expiredAt"])
	if err != nil {
		return fmt.Errorf("expire the tokens first (the access tokens of my company expire)")
	}
	return eventually(secs, func() error {
		list, err := w.interactions("", ".*")
		if err != nil {
			return err
		}
		var refused *interaction
		renewed := false
		for i, it := range list {
			if it.WallAt.Before(expiredAt) {
				continue
			}
			switch {
			case it.Status == http.StatusUnauthorized && strings.Contains(it.ResponseBody, "expirado") && refused == nil:
				refused = &list[i]
			case it.Method == http.MethodPost && it.Path == "/oauth/token" && it.Status == http.StatusOK:
				renewed = true
			case renewed && it.Path != "/oauth/token" && it.Status/100 == 2:
				return nil
			}
		}
		switch {
		case refused != nil && !renewed:
			return fmt.Errorf("the sandbox answered %s %s 401 \"token de acesso expirado\" and the partner asked for no new token: on a 401 invalid_token, get a new token and repeat the call (a token may end before its expires_in)", refused.Method, refused.Path)
		case !renewed:
			return fmt.Errorf("the company's tokens expired and the partner asked for no new token, nor made a call that went through")
		}
		return fmt.Errorf("after its token expired the partner got a new one but no call of its own went through with it")
	})
}

// chargedRecurrenceOnce checks, over the whole window, that the partner
// created exactly one recurring charge for the approved recurrence: its
// /rec callback may arrive twice, and each approval is charged once.
func (w *World) chargedRecurrenceOnce(idRec string, secs int) error {
	idRec, err := w.expand(idRec)
	if err != nil {
		return err
	}
	if err := w.chargedRecurrence(idRec, secs); err != nil {
		return err
	}
	return holds(secs, func(last bool) error {
		list, err := w.interactions("", `/pix/v2/cobr(/[^/]+)?`)
		if err != nil {
			return err
		}
		// Each charge the partner set out to create: a txid of its own
		// (a retry repeats it), or a POST (a retry repeats its key),
		// whatever the PSP answered.
		charges := map[string]int{}
		for _, it := range list {
			if it.Method != http.MethodPut && it.Method != http.MethodPost {
				continue
			}
			var body struct {
				IDRec string `json:"idRec"`
			}
			if json.Unmarshal([]byte(it.RequestBody), &body) != nil || body.IDRec != idRec {
				continue
			}
			id := strings.TrimPrefix(it.Path, "/pix/v2/cobr/")
			if it.Method == http.MethodPost {
				id = "POST " + it.IdempotencyKey
			}
			charges[id] = it.Status
		}
		if len(charges) > 1 {
			var seen []string
			for id, status := range charges {
				seen = append(seen, fmt.Sprintf("%s (%d)", id, status))
			}
			slices.Sort(seen)
			return fmt.Errorf("the partner set out to create %d recurring charges for the approved recurrence %s (%s): its /rec callback can arrive twice; charge each approval once", len(charges), idRec, strings.Join(seen, ", "))
		}
		return nil
	})
}

// payUnknownCharge has the payer pay a charge the partner did not create:
// the harness creates it on the partner's key (as someone else with
// access to the key would) and pays it; the partner hears of a Pix of a
// txid it never used. ${unknown.txid} and ${unknown.e2eid} name it.
func (w *World) payUnknownCharge() error {
	txid := "desconhecida" + strings.ToLower(hex.EncodeToString(randomBytes(8)))
	body, _ := json.Marshal(map[string]any{"calendario": map[string]int{"expiracao": 3600}, "valor": map[string]string{"original": "7.77"}, "chave": w.vars["chave"]})
	code, answer, err := w.asHarness(http.MethodPut, "/pix/v2/cob/"+txid, body)
	if err != nil {
		return err
	}
	if code != http.StatusCreated {
		return fmt.Errorf("the suite could not create a charge on the partner's key %s: %d %.300s", w.vars["chave"], code, answer)
	}
	pay, _ := json.Marshal(map[string]string{"txid": txid})
	code, answer, err = w.asHarness(http.MethodPost, "/sandbox/pix/payments", pay)
	if err != nil {
		return err
	}
	var out struct {
		EndToEndID string `json:"endToEndId"`
	}
	if code != http.StatusCreated || json.Unmarshal(answer, &out) != nil {
		return fmt.Errorf("the payer could not pay %s: %d %.300s", txid, code, answer)
	}
	w.vars["unknown.txid"], w.vars["unknown.e2eid"] = txid, out.EndToEndID
	return nil
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// pixRefunds checks how many refunds a Pix has in the sandbox.
func (w *World) pixRefunds(e2eid string, n int) error {
	e2eid, err := w.expand(e2eid)
	if err != nil {
		return err
	}
	return eventually(3, func() error {
		code, body, err := w.asHarness(http.MethodGet, "/pix/v2/pix/"+url.PathEscape(e2eid), nil)
		if err != nil {
			return err
		}
		var px struct {
			Devolucoes []struct {
				ID    string `json:"id"`
				Valor string `json:"valor"`
			} `json:"devolucoes"`
		}
		if code != http.StatusOK || json.Unmarshal(body, &px) != nil {
			return fmt.Errorf("GET /pix/v2/pix/%s answered %d: %.300s", e2eid, code, body)
		}
		if len(px.Devolucoes) != n {
			var ids []string
			for _, d := range px.Devolucoes {
				ids = append(ids, d.ID+" ("+d.Valor+")")
			}
			return fmt.Errorf("the Pix %s has %d refunds, want %d (%s): a refund retried with a new id is a second refund; retry with the id of the first attempt", e2eid, len(px.Devolucoes), n, strings.Join(ids, ", "))
		}
		return nil
	})
}

// chargeHolds checks a field of a charge as the sandbox holds it (GET
// /pix/v2/cob/{txid}, read by the harness, not the partner).
func (w *World) chargeHolds(txid, path, want string) error {
	txid, err := w.expand(txid)
	if err != nil {
		return err
	}
	if want, err = w.expand(want); err != nil {
		return err
	}
	code, body, err := w.asHarness(http.MethodGet, "/pix/v2/cob/"+url.PathEscape(txid), nil)
	if err != nil {
		return err
	}
	if code != http.StatusOK {
		return fmt.Errorf("GET /pix/v2/cob/%s answered %d: %.300s", txid, code, body)
	}
	got, ok, err := field(body, path)
	if err != nil {
		return err
	}
	if !ok || text(got) != want {
		return fmt.Errorf("the partner's charge %s holds %s = %s, want %q: send what your customer gave, as the API takes it (a CPF is text: its leading zeros count)", txid, path, text(got), want)
	}
	return nil
}
