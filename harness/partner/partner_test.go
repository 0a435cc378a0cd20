package partner

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"homologa/simulator/browsertest"
	"homologa/simulator/events"
	"homologa/simulator/server"
)

// startPartner runs a partner with defect until the test ends.
func startPartner(t *testing.T, defect string) *Partner {
	t.Helper()
	p := New(Config{Defect: defect, Log: io.Discard})
	if err := p.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// act posts an action as the runner does and decodes the answer.
func act(t *testing.T, p *Partner, sandbox, clientID, secret, whSecret, path string, in any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(in)
	req, _ := http.NewRequest(http.MethodPost, p.URL()+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(HeaderSandbox, sandbox)
	req.Header.Set(HeaderClientID, clientID)
	req.Header.Set(HeaderClientSecret, secret)
	req.Header.Set(HeaderWebhookSecret, whSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func getState(t *testing.T, p *Partner, clientID string) State {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, p.URL()+"/state", nil)
	req.Header.Set(HeaderClientID, clientID)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBackoffSchedule(t *testing.T) {
	for _, tc := range []struct {
		attempt int
		want    time.Duration
	}{
		{0, 0}, {1, 0},
		{2, 200 * time.Millisecond},
		{3, 400 * time.Millisecond},
		{4, 800 * time.Millisecond},
		{5, 0}, // never a fifth attempt
	} {
		if got := Backoff(tc.attempt); got != tc.want {
			t.Errorf("Backoff(%d) = %s, want %s", tc.attempt, got, tc.want)
		}
	}
	if MaxAttempts != 4 {
		t.Errorf("MaxAttempts = %d, want 4", MaxAttempts)
	}
}

func TestRetryAfterAndRetryable(t *testing.T) {
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		v    string
		want time.Duration
	}{
		{"", 0}, {"2", 2 * time.Second}, {"60", MaxRetryAfter}, {"nonsense", 0},
		{now.Add(time.Second).Format(http.TimeFormat), time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
	} {
		h := http.Header{}
		if tc.v != "" {
			h.Set("Retry-After", tc.v)
		}
		if got := retryAfter(h, now); got != tc.want {
			t.Errorf("retryAfter(%q) = %s, want %s", tc.v, got, tc.want)
		}
	}
	withRA := http.Header{"Retry-After": {"1"}}
	for _, tc := range []struct {
		status int
		h      http.Header
		err    error
		want   bool
	}{
		{0, nil, io.ErrUnexpectedEOF, true},
		{500, nil, nil, true}, {502, nil, nil, true}, {503, withRA, nil, true}, {429, nil, nil, true},
		{409, withRA, nil, true}, {409, nil, nil, false},
		{200, nil, nil, false}, {201, nil, nil, false}, {400, nil, nil, false}, {401, nil, nil, false}, {404, nil, nil, false},
	} {
		if got := retryable(tc.status, tc.h, tc.err); got != tc.want {
			t.Errorf("retryable(%d, %v, %v) = %v, want %v", tc.status, tc.h, tc.err, got, tc.want)
		}
	}
}

func TestIDGeneration(t *testing.T) {
	p := New(Config{})
	seen := map[string]bool{}
	chars := map[rune]bool{}
	for range 2000 {
		txid := p.newTxid()
		if len(txid) != 32 || !TxidPattern.MatchString(txid) {
			t.Fatalf("txid %q is not 32 alphanumerics", txid)
		}
		if seen[txid] {
			t.Fatalf("txid %q generated twice", txid)
		}
		seen[txid] = true
		for _, c := range txid {
			chars[c] = true
		}
	}
	if len(chars) != 62 {
		t.Errorf("txids use %d distinct characters, want all 62", len(chars))
	}
	if id := p.fresh(32); !RefundIDPattern.MatchString(id) {
		t.Errorf("refund id %q does not match %s", id, RefundIDPattern)
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if k1, k2 := newUUID(), newUUID(); !uuid.MatchString(k1) || k1 == k2 {
		t.Errorf("idempotency keys %q, %q: want two distinct v4 UUIDs", k1, k2)
	}
	if err := New(Config{Defect: "no-such-defect"}).Start("127.0.0.1:0"); err == nil {
		t.Error("Start accepted an unknown defect")
	}
	for _, d := range Defects {
		if DefectDoc[d] == "" {
			t.Errorf("defect %s has no description", d)
		}
	}
	if len(DefectDoc) != len(Defects) {
		t.Errorf("%d descriptions for %d defects", len(DefectDoc), len(Defects))
	}
}

// fakeSandbox is a scripted Pix API: it records every request and answers
// the first `fail` API calls with 503.
type fakeSandbox struct {
	*httptest.Server
	mu       sync.Mutex
	fail     int
	calls    []fakeCall
	scope    []string // the scope of each token request ("<none>" when absent)
	webhooks []string
}

type fakeCall struct {
	method, path, idemKey string
}

func newFakeSandbox(t *testing.T, fail int) *fakeSandbox {
	f := &fakeSandbox{fail: fail}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/oauth/token" {
			r.ParseForm()
			if id, secret, ok := r.BasicAuth(); !ok || id != "app1" || secret != "s3cret" {
				w.WriteHeader(401)
				return
			}
			sc := "<none>"
			if r.PostForm.Has("scope") {
				sc = r.PostForm.Get("scope")
			}
			f.scope = append(f.scope, sc)
			io.WriteString(w, `{"access_token":"tok","token_type":"Bearer","expires_in":3600}`)
			return
		}
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(401)
			return
		}
		if r.URL.Path == "/pix/v2/webhookrec" || r.URL.Path == "/pix/v2/webhookcobr" {
			return // onboarding's Pix Automático webhooks: not what these tests count
		}
		f.calls = append(f.calls, fakeCall{r.Method, r.URL.Path, r.Header.Get("Idempotency-Key")})
		if strings.HasPrefix(r.URL.Path, "/pix/v2/webhook/") {
			f.webhooks = append(f.webhooks, r.URL.Path)
			return
		}
		if f.fail > 0 {
			f.fail--
			w.WriteHeader(503)
			io.WriteString(w, `{"title":"indisponível"}`)
			return
		}
		switch {
		case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, "/pix/v2/cob/"):
			txid := strings.TrimPrefix(r.URL.Path, "/pix/v2/cob/")
			w.WriteHeader(201)
			io.WriteString(w, `{"txid":"`+txid+`","location":"x/qr/v2/1","pixCopiaECola":"000201"}`)
		case r.Method == http.MethodPost && r.URL.Path == "/pix/v2/cob":
			w.WriteHeader(201)
			io.WriteString(w, `{"txid":"pspchosenpspchosenpspchosen01"}`)
		case r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/devolucao/"):
			w.WriteHeader(201)
			io.WriteString(w, `{"status":"EM_PROCESSAMENTO"}`)
		default:
			w.WriteHeader(404)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeSandbox) snapshot() ([]fakeCall, []string, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeCall(nil), f.calls...), append([]string(nil), f.scope...), append([]string(nil), f.webhooks...)
}

// Retries reuse the txid, the Idempotency-Key and the refund id; each
// defect breaks exactly its own part of that.
func TestRetriesAgainstAFailingSandbox(t *testing.T) {
	for _, tc := range []struct {
		defect string
		action string
		fail   int
		status int
		calls  int  // calls of the action's operation
		same   bool // every call on one path / key
	}{
		{"", "/actions/create-cob", 2, 200, 3, true},
		{"", "/actions/create-cob", 4, 502, 4, true},
		{NoRetry, "/actions/create-cob", 1, 502, 1, true},
		{NewTxidOnRetry, "/actions/create-cob", 2, 200, 3, false},
		{"", "/actions/create-cob-auto", 1, 200, 2, true},
		{NoIdempotencyKey, "/actions/create-cob-auto", 1, 200, 2, true},
		{"", "/actions/refund", 1, 200, 2, true},
	} {
		t.Run(tc.defect+tc.action, func(t *testing.T) {
			f := newFakeSandbox(t, tc.fail)
			p := startPartner(t, tc.defect)
			in := map[string]string{"valor": "10.00", "chave": "52998224725", "e2eid": "E99999009202601051200abcdefghijk"}
			start := time.Now()
			status, out := act(t, p, f.URL, "app1", "s3cret", "wh", tc.action, in)
			elapsed := time.Since(start)
			if status != tc.status {
				t.Fatalf("status %d (%v), want %d", status, out, tc.status)
			}
			calls, scopes, _ := f.snapshot()
			if len(calls) != tc.calls {
				t.Fatalf("%d calls, want %d: %v", len(calls), tc.calls, calls)
			}
			// The pauses follow Backoff: 200 ms + 400 ms + … before each retry.
			var want time.Duration
			for n := 2; n <= len(calls); n++ {
				want += Backoff(n)
			}
			if elapsed < want {
				t.Errorf("took %s, less than the backoff %s", elapsed, want)
			}
			samePath, sameKey := true, true
			for _, c := range calls {
				samePath = samePath && c.path == calls[0].path
				sameKey = sameKey && c.idemKey == calls[0].idemKey
			}
			if tc.action == "/actions/create-cob-auto" {
				if tc.defect == NoIdempotencyKey {
					if calls[0].idemKey != "" {
						t.Errorf("sent Idempotency-Key %q under %s", calls[0].idemKey, tc.defect)
					}
				} else if calls[0].idemKey == "" || !sameKey {
					t.Errorf("Idempotency-Keys %v: want one key on every attempt", calls)
				}
			} else if samePath != tc.same {
				t.Errorf("paths %v: same on every attempt = %v, want %v", calls, samePath, tc.same)
			}
			if tc.action == "/actions/create-cob" {
				st := p.State("app1")
				if want := map[bool]int{true: 1, false: tc.calls}[tc.same]; len(st.Txids) != want {
					t.Errorf("state txids %v, want %d", st.Txids, want)
				}
				if status == 200 && out["txid"] != st.Txids[len(st.Txids)-1] {
					t.Errorf("answered txid %v, state %v", out["txid"], st.Txids)
				}
			}
			if len(scopes) != 1 || scopes[0] != Scopes {
				t.Errorf("token requests with scopes %q, want one with %q", scopes, Scopes)
			}
		})
	}
}

func TestScopesReuseTxidAndLateWebhook(t *testing.T) {
	t.Run("broad-scopes", func(t *testing.T) {
		f := newFakeSandbox(t, 0)
		p := startPartner(t, BroadScopes)
		if status, out := act(t, p, f.URL, "app1", "s3cret", "wh", "/actions/onboard", map[string]string{"chave": "52998224725"}); status != 200 {
			t.Fatalf("onboard: %d %v", status, out)
		}
		if _, scopes, _ := f.snapshot(); len(scopes) != 1 || scopes[0] != "<none>" {
			t.Errorf("scopes %q, want a token request without scope", scopes)
		}
	})
	t.Run("reuse-txid", func(t *testing.T) {
		f := newFakeSandbox(t, 0)
		p := startPartner(t, ReuseTxid)
		for range 2 {
			act(t, p, f.URL, "app1", "s3cret", "wh", "/actions/create-cob", map[string]string{"valor": "1.00", "chave": "52998224725"})
		}
		if st := p.State("app1"); len(st.Txids) != 2 || st.Txids[0] != st.Txids[1] {
			t.Errorf("txids %v, want the same one twice", st.Txids)
		}
	})
	t.Run("late-webhook", func(t *testing.T) {
		f := newFakeSandbox(t, 0)
		p := startPartner(t, LateWebhook)
		act(t, p, f.URL, "app1", "s3cret", "wh", "/actions/onboard", map[string]string{"chave": "52998224725"})
		if _, _, hooks := f.snapshot(); len(hooks) != 0 {
			t.Fatalf("onboard configured %v under late-webhook", hooks)
		}
		act(t, p, f.URL, "app1", "s3cret", "wh", "/actions/create-cob", map[string]string{"valor": "1.00"})
		calls, _, _ := f.snapshot()
		if len(calls) != 2 || calls[0].method != http.MethodPut || !strings.HasPrefix(calls[0].path, "/pix/v2/cob/") ||
			calls[1].path != "/pix/v2/webhook/52998224725" {
			t.Errorf("calls %v, want PUT /cob then PUT /webhook", calls)
		}
	})
}

// The receiver refuses a missing, forged or stale signature with 401 and
// counts it; a good one gets 200.
func TestReceiverSignatures(t *testing.T) {
	const secret = "whsec_test"
	for _, defect := range []string{"", IgnoreSignature} {
		t.Run("defect="+defect, func(t *testing.T) {
			f := newFakeSandbox(t, 0)
			p := startPartner(t, defect)
			// An action teaches the partner the app's webhook secret.
			act(t, p, f.URL, "app1", "s3cret", secret, "/actions/onboard", map[string]string{"chave": "52998224725"})
			body := []byte(`{"pix":[]}`)
			now := time.Now()
			for _, tc := range []struct {
				name, sig string
				want      int
			}{
				{"missing", "", 401},
				{"forged", events.Sign("whsec_wrong", now, body), 401},
				{"stale", events.Sign(secret, now.Add(-6*time.Minute), body), 401},
				{"good", events.Sign(secret, now, body), 200},
			} {
				req, _ := http.NewRequest(http.MethodPost, p.URL()+"/webhooks/app1/pix", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				if tc.sig != "" {
					req.Header.Set(events.SignatureHeader, tc.sig)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				want := tc.want
				if defect == IgnoreSignature {
					want = 200
				}
				if resp.StatusCode != want {
					t.Errorf("%s signature: %d, want %d", tc.name, resp.StatusCode, want)
				}
			}
			st := getState(t, p, "app1")
			if defect == "" && (st.Rejected != 3 || st.Notifications != 1) {
				t.Errorf("rejected %d, notifications %d; want 3 and 1", st.Rejected, st.Notifications)
			}
			if defect == IgnoreSignature && (st.Rejected != 0 || st.Notifications != 4) {
				t.Errorf("rejected %d, notifications %d; want 0 and 4", st.Rejected, st.Notifications)
			}
		})
	}
}

// The whole flow against a real sandbox: onboard, create a charge, pay it,
// and the partner books it once and reconciles it; a replayed delivery is
// not booked twice.
func TestEndToEndWithTheSandbox(t *testing.T) {
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: "frozen", Log: io.Discard, OperatorToken: browsertest.OperatorToken})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	p := startPartner(t, "")
	demo := func(path string, in any) (int, map[string]any) {
		return act(t, p, s.URL(), server.DemoClientID, server.DemoClientSecret, server.DemoWebhookSecret, path, in)
	}
	control := func(method, path string, body string) (int, []byte) {
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}

	status, out := demo("/actions/onboard", map[string]string{"chave": "52998224725"})
	if status != 200 || out["webhookUrl"] != p.URL()+"/webhooks/"+server.DemoClientID {
		t.Fatalf("onboard: %d %v", status, out)
	}
	status, out = demo("/actions/create-cob", map[string]string{"valor": "10.00", "chave": "52998224725"})
	txid, _ := out["txid"].(string)
	if status != 200 || !TxidPattern.MatchString(txid) || out["location"] == "" || out["pixCopiaECola"] == "" {
		t.Fatalf("create-cob: %d %v", status, out)
	}
	if code, b := control(http.MethodPost, "/sandbox/pix/payments", `{"txid":"`+txid+`"}`); code/100 != 2 {
		t.Fatalf("payment: %d %s", code, b)
	}
	var st State
	eventually(t, 10*time.Second, "the payment booked and reconciled", func() bool {
		st = getState(t, p, server.DemoClientID)
		return len(st.Payments) == 1 && len(st.Reconciled) == 1
	})
	pm := st.Payments[0]
	if pm.TxID != txid || pm.Times != 1 || pm.Valor != "10.00" || len(pm.EndToEndID) != 32 || st.Reconciled[0] != txid {
		t.Fatalf("state %+v", st)
	}
	if len(st.Txids) != 1 || st.Txids[0] != txid || st.Notifications != 1 || st.Rejected != 0 {
		t.Fatalf("state %+v", st)
	}

	// The notification comes again: counted, not booked again.
	code, b := control(http.MethodGet, "/sandbox/deliveries?app="+server.DemoClientID, "")
	var list struct {
		Deliveries []struct {
			ID  string `json:"id"`
			URL string `json:"url"`
		} `json:"deliveries"`
	}
	if code != 200 || json.Unmarshal(b, &list) != nil {
		t.Fatalf("deliveries: %d %s", code, b)
	}
	var pixDelivery string
	for _, d := range list.Deliveries {
		if strings.HasSuffix(d.URL, "/webhooks/"+server.DemoClientID+"/pix") {
			pixDelivery = d.ID
		}
	}
	if pixDelivery == "" {
		t.Fatalf("no delivery to the partner's /pix receiver in %s", b)
	}
	if code, b := control(http.MethodPost, "/sandbox/deliveries/"+pixDelivery+"/replay", ""); code/100 != 2 {
		t.Fatalf("replay: %d %s", code, b)
	}
	eventually(t, 10*time.Second, "the replayed notification", func() bool {
		return getState(t, p, server.DemoClientID).Notifications == 2
	})
	p.wg.Wait() // let the processing of the replay finish
	if st := getState(t, p, server.DemoClientID); len(st.Payments) != 1 || st.Payments[0].Times != 1 {
		t.Fatalf("after a duplicate notification: %+v", st)
	}
}
