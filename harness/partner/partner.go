package partner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Headers of an action request: which sandbox and app it acts for.
const (
	HeaderSandbox       = "X-Homologa-Sandbox"
	HeaderClientID      = "X-Homologa-Client-Id"
	HeaderClientSecret  = "X-Homologa-Client-Secret"
	HeaderWebhookSecret = "X-Homologa-Webhook-Secret"
)

// The defects, each breaking exactly one behaviour.
const (
	NoRetry           = "no-retry"
	NewTxidOnRetry    = "new-txid-on-retry"
	NoIdempotencyKey  = "no-idempotency-key"
	ReuseTxid         = "reuse-txid"
	IgnoreSignature   = "ignore-signature"
	SlowAck           = "slow-ack"
	ProcessDuplicates = "process-duplicates"
	NeverReconcile    = "never-reconcile"
	LateWebhook       = "late-webhook"
	BroadScopes       = "broad-scopes"
	NoBackoff         = "no-backoff"
	// The mistakes real Pix integrations make (issue 17).
	Polls                = "polls"
	TokenPerCall         = "token-per-call"
	RefundOptimistic     = "refund-optimistic"
	BookAnyAmount        = "book-any-amount"
	PunctuatedDocuments  = "punctuated-documents"
	ReuseIdempotencyKey  = "reuse-idempotency-key"
	NoRereadAfterPending = "no-reread-after-pending"
	// The service-wide rules on the insurer's side (issue 34).
	NewKeyOnRetry    = "new-key-on-retry"
	AcceptStale      = "accept-stale"
	StatusRegression = "status-regression"
	EveryScope       = "every-scope"
	NoTokenRenewal   = "no-token-renewal"
	// The situations where integrations break in production.
	RejectUnknown      = "reject-unknown"
	NewRefundIDOnRetry = "new-refund-id-on-retry"
	CPFAsNumber        = "cpf-as-number"
	FirstPageOnly      = "first-page-only"
)

// Defects is every supported defect ("" is the correct partner).
var Defects = []string{
	NoRetry,              // never retries: one attempt per sandbox call, even after a 5xx, 429, timeout or reset
	NoBackoff,            // retries at once, ignoring backoff and Retry-After
	NewTxidOnRetry,       // retries PUT /cob with a NEW txid each time, creating duplicate charges
	NoIdempotencyKey,     // create-cob creates by POST /cob, and it and sell's proposal go without Idempotency-Key (retries still happen)
	ReuseTxid,            // every create-cob of an app PUTs the same txid
	IgnoreSignature,      // accepts any notification: no signature check, never 401
	SlowAck,              // sleeps 3 s before acknowledging an accepted notification
	ProcessDuplicates,    // books a Pix every time it is notified, not once per endToEndId; applies an insurer event, and charges an approval, every time it is delivered
	NeverReconcile,       // never GETs the charge after a notification
	LateWebhook,          // onboard does not configure the webhook; create-cob configures it after creating the charge
	BroadScopes,          // asks for a token without scope, so it gets every scope of the app
	CardNumber,           // sends the card number in the proposal instead of the widget's pre-authorisation code
	IgnorePendings,       // never answers a pending of a proposal or of a benefit
	Polls,                // after create-cob (sell, create-rec), reads the charge (proposal, recurrence) again and again instead of waiting for its notification
	TokenPerCall,         // asks for a new token before every call
	RefundOptimistic,     // counts a refund done as soon as it asked for it (EM_PROCESSAMENTO), whatever its end
	BookAnyAmount,        // books a payment as paid whatever its amount
	PunctuatedDocuments,  // sends the payer's CPF or CNPJ as given, punctuation and all
	ReuseIdempotencyKey,  // sends every proposal of an app with the same Idempotency-Key
	NoRereadAfterPending, // answers a proposal's pending and never reads the proposal again
	NewKeyOnRetry,        // retries a proposal with a new Idempotency-Key each attempt
	AcceptStale,          // checks the signature's HMAC but not its time: a signature of any age is accepted
	StatusRegression,     // applies statuses in the order events arrive: a late one takes a status back
	EveryScope,           // asks for every scope an app may hold, by name, whatever it uses
	NoTokenRenewal,       // keeps its token until expires_in runs out: a 401 before that is a failure, never a new token
	RejectUnknown,        // answers 404 to a genuine Pix callback of a charge it never created, so the PSP retries it for hours
	NewRefundIDOnRetry,   // retries a refund with a new id each attempt
	CPFAsNumber,          // keeps the payer's CPF as a number: a leading zero is lost
	FirstPageOnly,        // reconciles a period from the first page of GET /pix alone
}

// DefectDoc describes each defect in one line.
var DefectDoc = map[string]string{
	NoRetry:              "never retries: one attempt per sandbox call, even after a 5xx, 429, timeout or reset",
	NewTxidOnRetry:       "retries PUT /cob with a new txid each time, creating duplicate charges",
	NoIdempotencyKey:     "create-cob creates by POST /cob, and it and sell's proposal go without Idempotency-Key (retries still happen)",
	ReuseTxid:            "every create-cob of an app PUTs the same txid",
	IgnoreSignature:      "accepts any notification: no signature check, never 401",
	SlowAck:              "sleeps 3 s before acknowledging an accepted notification",
	ProcessDuplicates:    "books a Pix every time it is notified, not once per endToEndId; applies an insurer event, and charges an approval, every time it is delivered",
	NeverReconcile:       "never GETs the charge after a notification",
	LateWebhook:          "onboard does not configure the webhook; create-cob configures it after creating the charge",
	BroadScopes:          "asks for a token without scope, so it gets every scope of the app",
	NoBackoff:            "retries at once, ignoring backoff and Retry-After",
	CardNumber:           "sends the card number in the proposal instead of the widget's pre-authorisation code",
	IgnorePendings:       "never answers a pending of a proposal or of a benefit",
	Polls:                "after create-cob (sell, create-rec), reads the charge (proposal, recurrence) again and again instead of waiting for its notification",
	TokenPerCall:         "asks for a new token before every call",
	RefundOptimistic:     "counts a refund done as soon as it asked for it (EM_PROCESSAMENTO), whatever its end",
	BookAnyAmount:        "books a payment as paid whatever its amount",
	PunctuatedDocuments:  "sends the payer's CPF or CNPJ as given, punctuation and all",
	ReuseIdempotencyKey:  "sends every proposal of an app with the same Idempotency-Key",
	NoRereadAfterPending: "answers a proposal's pending and never reads the proposal again",
	NewKeyOnRetry:        "retries a proposal with a new Idempotency-Key each attempt",
	AcceptStale:          "checks the signature's HMAC but not its time: a signature of any age is accepted",
	StatusRegression:     "applies statuses in the order events arrive: a late one takes a status back",
	EveryScope:           "asks for every scope an app may hold, by name, whatever it uses",
	NoTokenRenewal:       "keeps its token until expires_in runs out: a 401 before that is a failure, never a new token",
	RejectUnknown:        "answers 404 to a genuine Pix callback of a charge it never created, so the PSP retries it for hours",
	NewRefundIDOnRetry:   "retries a refund with a new id each attempt",
	CPFAsNumber:          "keeps the payer's CPF as a number: a leading zero is lost",
	FirstPageOnly:        "reconciles a period from the first page of GET /pix alone",
}

// SlowAckDelay is how long the slow-ack defect waits before answering.
const SlowAckDelay = 3 * time.Second

// SignatureTolerance is how far a notification's signature time may be
// from the partner's wall clock.
const SignatureTolerance = 5 * time.Minute

// Config configures a partner.
type Config struct {
	// Defect is one of Defects, or "" for the correct partner.
	Defect string
	// Log receives one line per sandbox call and notification; nil discards.
	Log io.Writer
	// CreateByPOST makes create-cob create its charges with POST /cob and
	// an Idempotency-Key instead of PUT /cob/{txid}: the other way of
	// meeting the same rules, which the checks must accept.
	CreateByPOST bool
	// Scopes are what it asks the token endpoint for (default: Scopes,
	// what it uses of every product).
	Scopes string
}

// Partner is a running reference partner.
type Partner struct {
	defect string
	byPOST bool
	scopes string
	log    io.Writer
	logMu  sync.Mutex
	client *http.Client

	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	apps   map[string]*app
	used   map[string]bool // every txid and refund id generated
	closed bool
	wg     sync.WaitGroup // notification processing

	ln  net.Listener
	srv *http.Server
	url string
}

// app is what the partner keeps for one client id.
type app struct {
	id string

	mu          sync.Mutex
	sandbox     string
	secret      string
	whSecret    string
	chave       string
	webhookSet  map[string]bool // keys whose webhook this partner configured
	fixedTxid   string          // reuse-txid
	payments    []*Payment
	byE2E       map[string]*Payment
	reconciled  []string
	isReconcile map[string]bool
	notified    int
	rejected    int
	txids       []string
	// pendingsAnswered counts the proposal pendings it answered.
	pendingsAnswered int
	// recHooks: webhookrec and webhookcobr are configured; recValor is
	// the value of each recurrence it created, recCharged the txid of the
	// first charge of each approved one.
	recHooks   bool
	recValor   map[string]string
	recCharged map[string]string
	// charged is each charge's amount as it asked it (by txid);
	// divergent the payments of another amount, not booked as paid;
	// refunds the refunds it asked, by id, with their last status.
	charged   map[string]string
	divergent []string
	// unknown are the Pix of charges it never made: set aside, not booked.
	unknown []string
	refunds map[string]string
	// idemKey is the one key of the reuse-idempotency-key defect.
	idemKey string
	// insurer is what it holds of its proposals and benefits, from the
	// insurer's answers and events.
	insurer insurerState

	tokMu    sync.Mutex // one token request at a time
	token    string
	tokenExp time.Time
}

// Payment is a Pix the partner booked.
type Payment struct {
	TxID       string `json:"txid"`
	EndToEndID string `json:"endToEndId"`
	Valor      string `json:"valor"`
	Times      int    `json:"times"`
}

// State is what the partner recorded for one app (GET /state).
type State struct {
	Payments []Payment `json:"payments"`
	// Reconciled are the txids whose charge it read back CONCLUIDA with
	// the notified Pix in pix[].
	Reconciled []string `json:"reconciled"`
	// Refunded are the refunds it knows done (DEVOLVIDO); Divergent the
	// txids paid another amount than they asked, not booked.
	Refunded  []string `json:"refunded"`
	Divergent []string `json:"divergent"`
	// Unknown are the endToEndIds of Pix of charges it never made.
	Unknown []string `json:"unknown"`
	// Notifications counts the notifications accepted (either path);
	// Rejected those answered 401.
	Notifications int `json:"notifications"`
	Rejected      int `json:"rejected"`
	// Txids is every txid it used, in order: one entry per create-cob (a
	// retry with the same txid adds none; under new-txid-on-retry each
	// retry adds its new one) and the txid of each create-cob-auto.
	Txids []string `json:"txids"`
	// PendingsAnswered counts the proposal pendings it answered.
	PendingsAnswered int `json:"pendingsAnswered"`
	// Proposals and Benefits are what it holds of each, in the service's
	// words; Applied the id of every insurer event it applied, once per
	// application.
	Proposals []Held   `json:"proposals"`
	Benefits  []Held   `json:"benefits"`
	Applied   []string `json:"applied"`
}

// Held is a proposal (numero) or a benefit (id) and its status.
type Held struct {
	Numero int64  `json:"numero,omitempty"`
	ID     int64  `json:"id,omitempty"`
	Status string `json:"status"`
}

// New builds a partner; Start runs it.
func New(cfg Config) *Partner {
	ctx, cancel := context.WithCancel(context.Background())
	log := cfg.Log
	if log == nil {
		log = io.Discard
	}
	return &Partner{
		defect: cfg.Defect,
		byPOST: cfg.CreateByPOST,
		scopes: cmp.Or(cfg.Scopes, Scopes),
		log:    log,
		client: &http.Client{Timeout: CallTimeout},
		ctx:    ctx,
		cancel: cancel,
		apps:   map[string]*app{},
		used:   map[string]bool{},
	}
}

// Start listens on addr (port 0 allowed) and serves in the background.
func (p *Partner) Start(addr string) error {
	if p.defect != "" {
		if _, ok := DefectDoc[p.defect]; !ok {
			return fmt.Errorf("unknown defect %q (known: %s)", p.defect, strings.Join(Defects, ", "))
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	p.ln, p.url = ln, "http://"+net.JoinHostPort(host, port)
	p.srv = &http.Server{
		Handler:           p.routes(),
		ReadHeaderTimeout: 5 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return p.ctx },
	}
	go p.srv.Serve(ln)
	p.logf("partner listening on %s defect=%q", p.url, p.defect)
	return nil
}

// URL is the partner's base URL, "http://127.0.0.1:port".
func (p *Partner) URL() string { return p.url }

// Defect is the active defect ("" for none).
func (p *Partner) Defect() string { return p.defect }

// Close stops serving, cancels work in flight and waits for it.
func (p *Partner) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	var err error
	if p.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = p.srv.Shutdown(ctx)
		cancel()
		if err != nil {
			err = p.srv.Close()
		}
	}
	p.wg.Wait()
	return err
}

func (p *Partner) routes() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("POST /actions/onboard", p.action(p.onboard))
	m.HandleFunc("POST /actions/create-cob", p.action(p.createCob))
	m.HandleFunc("POST /actions/create-cob-auto", p.action(p.createCobAuto))
	m.HandleFunc("POST /actions/create-cobv", p.action(p.createCobv))
	m.HandleFunc("POST /actions/create-lotecobv", p.action(p.createLoteCobv))
	m.HandleFunc("POST /actions/reconcile", p.action(p.reconcilePeriod))
	m.HandleFunc("POST /actions/refund", p.action(p.refund))
	m.HandleFunc("POST /actions/request-signature", p.action(p.requestSignature))
	m.HandleFunc("POST /actions/sell", p.action(p.sell))
	m.HandleFunc("POST /actions/create-rec", p.action(p.createRec))
	m.HandleFunc("POST /actions/notify-benefit", p.action(p.notifyBenefit))
	m.HandleFunc("GET /state", func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(HeaderClientID)
		if id == "" {
			id = r.URL.Query().Get("clientId")
		}
		if id == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "name the app in " + HeaderClientID})
			return
		}
		writeJSON(w, http.StatusOK, p.State(id))
	})
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "defect": p.defect})
	})
	for _, kind := range []string{"pix", "rec", "cobr"} {
		m.HandleFunc("POST /webhooks/{clientId}/"+kind, func(w http.ResponseWriter, r *http.Request) { p.receive(w, r, kind) })
	}
	m.HandleFunc("POST /webhooks/{clientId}", func(w http.ResponseWriter, r *http.Request) { p.receive(w, r, "") })
	return m
}

// app returns the state of a client id, creating it.
func (p *Partner) app(id string) *app {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.apps[id]
	if a == nil {
		a = &app{id: id, webhookSet: map[string]bool{}, byE2E: map[string]*Payment{}, isReconcile: map[string]bool{},
			recValor: map[string]string{}, recCharged: map[string]string{}, charged: map[string]string{}, refunds: map[string]string{},
			insurer: newInsurerState()}
		p.apps[id] = a
	}
	return a
}

// State returns a copy of what the partner recorded for clientID.
func (p *Partner) State(clientID string) State {
	a := p.app(clientID)
	a.mu.Lock()
	defer a.mu.Unlock()
	st := State{Payments: []Payment{}, Reconciled: append([]string{}, a.reconciled...), Refunded: []string{}, Divergent: append([]string{}, a.divergent...), Unknown: append([]string{}, a.unknown...),
		Notifications: a.notified, Rejected: a.rejected, Txids: append([]string{}, a.txids...), PendingsAnswered: a.pendingsAnswered}
	for _, pm := range a.payments {
		st.Payments = append(st.Payments, *pm)
	}
	st.Proposals, st.Benefits, st.Applied = a.insurer.held()
	for id, status := range a.refunds {
		if status == "DEVOLVIDO" || (p.defect == RefundOptimistic && status != "") {
			st.Refunded = append(st.Refunded, id)
		}
	}
	return st
}

// fresh returns a random alphanumeric id of n characters never generated
// before by this partner.
func (p *Partner) fresh(n int) string {
	for {
		id := randomAlnum(n)
		p.mu.Lock()
		if !p.used[id] {
			p.used[id] = true
			p.mu.Unlock()
			return id
		}
		p.mu.Unlock()
	}
}

// newTxid returns a txid never used before: 32 alphanumerics.
func (p *Partner) newTxid() string { return p.fresh(32) }

func (p *Partner) logf(format string, args ...any) {
	p.logMu.Lock()
	defer p.logMu.Unlock()
	fmt.Fprintf(p.log, time.Now().UTC().Format("15:04:05.000")+" "+format+"\n", args...)
}

// actionError is an action's failure with its HTTP status.
type actionError struct {
	status int
	err    error
}

func (e *actionError) Error() string { return e.err.Error() }

func badRequest(format string, args ...any) error {
	return &actionError{http.StatusBadRequest, fmt.Errorf(format, args...)}
}

// action adapts an action: it reads the app context from the headers and
// the JSON body into In, and writes the answer or the error.
func (p *Partner) action(fn func(ctx context.Context, a *app, body []byte) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sandbox := strings.TrimRight(r.Header.Get(HeaderSandbox), "/")
		id, secret := r.Header.Get(HeaderClientID), r.Header.Get(HeaderClientSecret)
		if sandbox == "" || id == "" || secret == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "send " + HeaderSandbox + ", " + HeaderClientID + " and " + HeaderClientSecret})
			return
		}
		if u, err := url.Parse(sandbox); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": HeaderSandbox + " must be an http(s) base URL"})
			return
		}
		a := p.app(id)
		a.mu.Lock()
		changed := a.sandbox != sandbox || a.secret != secret
		a.sandbox, a.secret = sandbox, secret
		if ws := r.Header.Get(HeaderWebhookSecret); ws != "" {
			a.whSecret = ws
		}
		a.mu.Unlock()
		if changed {
			a.tokMu.Lock()
			a.token = ""
			a.tokMu.Unlock()
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		out, err := fn(r.Context(), a, body)
		if err != nil {
			status := http.StatusBadGateway
			var ae *actionError
			if errors.As(err, &ae) {
				status = ae.status
			}
			p.logf("client=%s %s → %d %v", id, r.URL.Path, status, err)
			writeJSON(w, status, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, out)
	}
}

func decodeInput(body []byte, v any) error {
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return badRequest("malformed JSON: %v", err)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
