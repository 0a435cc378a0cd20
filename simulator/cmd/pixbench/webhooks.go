package main

// The webhook part of the bench (deliveries in lanes): how long
// a partner waits for a state change, on the real clock, and whether
// another company's slow receiver makes it wait longer.
//
// A fresh sandbox (not the one the table filled with charges, so that
// `-only webhooks` measures what `make bench` does) with two companies,
// each a namespace copy of the demo company: a tenant of its own, with
// its own app, Pix key webhook and lane. Their webhooks are receivers in
// this process on 127.0.0.1. FAST's answers 200 at once; SLOW's holds
// each POST whSlowHold before answering.
//
// FAST creates charges and has the payer pay them (POST
// /sandbox/pix/payments, the state change) at whRate a second, one at a
// time. The latency of one is the instant its receiver got the Pix
// callback (POST {webhookUrl}/pix, matched by txid) minus the instant the
// payment call was SENT: the delivery may reach the receiver before the
// call's answer reaches the bench, so measuring from the answer could go
// negative; from the send it is an upper bound, the payment call included.
// A payment whose callback has not come whWait after the last one is
// missing: an error.
//
// It is measured alone, then again while SLOW has a backlog: whBacklog
// charges paid at once before, and whSlowRate a second during, so SLOW's
// lane is full (4 in flight, each held 2 s) the whole time. A sandbox
// whose lanes did not keep companies apart fails it: built with
// jobs.DefaultLanes = 4, SLOW held every flight and all of FAST's
// callbacks under the backlog were missing.
//
// Where the time goes is split with the sandbox's own delivery log (when
// it wrote each delivery, when the attempt started), so a NOT MET says
// whether the dispatcher, the payment's transaction or the POST was slow.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"homologa/simulator/control"
	"homologa/simulator/server"
)

const (
	whRate      = 100 // FAST's payments a second: a few hundred samples in 5 s
	whSlowHold  = 2 * time.Second
	whBacklog   = 200
	whSlowRate  = 20
	whWait      = 3 * time.Second
	whChave     = "52998224725" // the demo company's CPF key, cobBody's chave
	whTarget    = 20 * time.Millisecond
	whWarmCount = 20
)

// receiver is a partner's webhook: it notes when each txid's callback
// first arrived, and answers 200, at once or after hold.
type receiver struct {
	url     string
	srv     *http.Server
	hold    time.Duration
	release chan struct{} // closed: held requests answer now
	once    sync.Once
	arrived chan struct{} // a token per arrival, for waiters
	posts   atomic.Int64  // callbacks received
	done    atomic.Int64  // callbacks answered 200 (delivered)
	mu      sync.Mutex
	got     map[string]arrival
}

// arrival is a txid's first callback: when it came, and which delivery
// of the sandbox's it was (Homologa-Delivery-Id).
type arrival struct {
	at       time.Time
	delivery string
}

func newReceiver(hold time.Duration) (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + ln.Addr().String() + "/wh", hold: hold, release: make(chan struct{}),
		arrived: make(chan struct{}, 1), got: map[string]arrival{}}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go r.srv.Serve(ln)
	return r, nil
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	at := time.Now() // the headers are in: the sandbox has sent the POST
	if req.Method != http.MethodPost || req.URL.Path != "/wh/pix" {
		http.NotFound(w, req)
		return
	}
	var body struct {
		Pix []struct {
			TxID string `json:"txid"`
		} `json:"pix"`
	}
	if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.posts.Add(1)
	r.mu.Lock()
	for _, p := range body.Pix {
		if _, seen := r.got[p.TxID]; !seen { // at least once: the first counts
			r.got[p.TxID] = arrival{at, req.Header.Get("Homologa-Delivery-Id")}
		}
	}
	r.mu.Unlock()
	select {
	case r.arrived <- struct{}{}:
	default:
	}
	if r.hold > 0 {
		t := time.NewTimer(r.hold)
		select {
		case <-t.C:
		case <-r.release:
		case <-req.Context().Done():
			t.Stop()
			return // the sandbox gave up: not delivered
		}
		t.Stop()
	}
	r.done.Add(1)
	w.WriteHeader(http.StatusOK)
}

// arrival is txid's first callback.
func (r *receiver) arrival(txid string) (arrival, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.got[txid]
	return a, ok
}

// unhold makes held requests, and every later one, answer at once: the
// sandbox's shutdown then has nothing in flight to wait for.
func (r *receiver) unhold() { r.once.Do(func() { close(r.release) }) }

func (r *receiver) close() {
	r.unhold()
	r.srv.Close()
}

// await waits until every txid has arrived, or until deadline.
func (r *receiver) await(txids []string, deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for {
		missing := slices.ContainsFunc(txids, func(id string) bool { _, ok := r.arrival(id); return !ok })
		if !missing {
			return
		}
		select {
		case <-r.arrived:
		case <-t.C:
			return
		}
	}
}

// whClient is a company's app talking to the sandbox: keep-alive
// connections of net/http (at these rates its cost does not matter), the
// company's namespace on every request.
type whClient struct {
	addr, ns, auth string
	hc             *http.Client
}

func (c *whClient) call(method, path, ctype, body string, want int) ([]byte, error) {
	req, err := http.NewRequest(method, "http://"+c.addr+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	if c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if c.ns != "" {
		req.Header.Set(control.NamespaceHeader, c.ns)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != want {
		err = fmt.Errorf("%s %s: %d, want %d: %.300s", method, path, resp.StatusCode, want, b)
	}
	return b, err
}

// login gets a token of the demo app (of c's namespace, when it has one).
func (c *whClient) login() error {
	c.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(server.DemoClientID+":"+server.DemoClientSecret))
	b, err := c.call("POST", "/oauth/token", "application/x-www-form-urlencoded", "grant_type=client_credentials", 200)
	if err != nil {
		return fmt.Errorf("token: %w", err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(b, &tok); err != nil || tok.AccessToken == "" {
		return fmt.Errorf("token: %q %v", b, err)
	}
	c.auth = "Bearer " + tok.AccessToken
	return nil
}

// company makes a company of its own (a namespace copy of the demo
// company) whose Pix key's webhook is url.
func company(demo *whClient, url string) (*whClient, error) {
	b, err := demo.call("POST", "/sandbox/namespaces", "application/json", "{}", 201)
	if err != nil {
		return nil, err
	}
	var ns struct {
		Namespace string `json:"namespace"`
	}
	if err := json.Unmarshal(b, &ns); err != nil || ns.Namespace == "" {
		return nil, fmt.Errorf("namespace: %q %v", b, err)
	}
	c := &whClient{addr: demo.addr, ns: ns.Namespace, hc: demo.hc}
	if err := c.login(); err != nil {
		return nil, err
	}
	_, err = c.call("PUT", "/pix/v2/webhook/"+whChave, "application/json", `{"webhookUrl":"`+url+`"}`, 200)
	return c, err
}

// pay creates a charge and has the payer pay it; sent and answered are
// when the payment call was sent and when its answer was read.
func (c *whClient) pay(prefix string) (txid string, sent, answered time.Time, err error) {
	txid = fmt.Sprintf("%s%0*d", prefix, txidWidth-len(prefix), txidSeq.Add(1))
	if _, err = c.call("PUT", cobPath+txid, "application/json", cobBody, 201); err != nil {
		return
	}
	sent = time.Now()
	_, err = c.call("POST", "/sandbox/pix/payments", "application/json", `{"txid":"`+txid+`"}`, 201)
	return txid, sent, time.Now(), err
}

// whSample is one FAST payment: its txid, and when its call was sent and
// answered.
type whSample struct {
	txid           string
	sent, answered time.Time
}

// whResult is FAST's latencies over one measurement.
type whResult struct {
	n, missing, errors int // payments made, callbacks that never came, payments that failed
	firstErr           error
	p50, p99, maxd     time.Duration // sent → the receiver got the callback
	payP50, payP99     time.Duration // the payment call itself, sent → answered
	early              int           // callbacks that came before the call's answer
	// stages splits the latency, p50 and p99 of each: the payment sent →
	// its delivery written (in the payment's transaction), written → the
	// attempt started (commit, the lanes' dispatcher, loading the
	// delivery), started → the receiver got it (the POST on loopback).
	stages [3][2]time.Duration
}

// stageNames name whResult.stages.
var stageNames = [3]string{"sent → delivery written", "written → attempt started", "attempt → received"}

// sandboxTimes are when the sandbox wrote each delivery and started its
// first attempt, by delivery id.
type sandboxTimes map[string][2]time.Time

// deliveryTimes reads them from the company's delivery log (GET
// /sandbox/deliveries, the newest 1,000: a whole measurement's up to
// -d 10s, the last 1,000 payments' beyond; the split covers those). The written
// time is on the company's clock, which follows the real one from the
// sandbox's start (a monotonic offset from the wall), so it compares with
// this process's wall clock.
func (c *whClient) deliveryTimes() (sandboxTimes, error) {
	b, err := c.call("GET", "/sandbox/deliveries?limit=1000", "", "", 200)
	if err != nil {
		return nil, err
	}
	var log struct {
		Deliveries []struct {
			ID        string
			CreatedAt time.Time
			Attempts  []struct{ WallAt time.Time }
		}
	}
	if err := json.Unmarshal(b, &log); err != nil {
		return nil, fmt.Errorf("deliveries: %w", err)
	}
	out := sandboxTimes{}
	for _, d := range log.Deliveries {
		if len(d.Attempts) > 0 {
			out[d.ID] = [2]time.Time{d.CreatedAt, d.Attempts[0].WallAt}
		}
	}
	return out, nil
}

// paceFast pays FAST charges at whRate a second, one at a time, for dur,
// then waits (whWait at most) for their callbacks.
func paceFast(c *whClient, r *receiver, dur time.Duration) whResult {
	var (
		samples  []whSample
		res      whResult
		deadline = time.Now().Add(dur)
	)
	tick := time.NewTicker(time.Second / whRate)
	for now := range tick.C {
		if now.After(deadline) {
			break
		}
		txid, sent, answered, err := c.pay("whfast")
		if err != nil {
			if res.errors++; res.firstErr == nil {
				res.firstErr = err
			}
			continue
		}
		samples = append(samples, whSample{txid, sent, answered})
	}
	tick.Stop()
	txids := make([]string, len(samples))
	for i, s := range samples {
		txids[i] = s.txid
	}
	r.await(txids, time.Now().Add(whWait))
	times, err := c.deliveryTimes()
	if err != nil && res.firstErr == nil {
		res.firstErr = err // the split is missing; the latencies stand
	}
	return summarise(res, samples, r, times)
}

func summarise(res whResult, samples []whSample, r *receiver, times sandboxTimes) whResult {
	var lat, pay []time.Duration
	var stages [3][]time.Duration
	for _, s := range samples {
		pay = append(pay, s.answered.Sub(s.sent))
		a, ok := r.arrival(s.txid)
		if !ok {
			res.missing++
			continue
		}
		lat = append(lat, a.at.Sub(s.sent))
		if a.at.Before(s.answered) {
			res.early++
		}
		if t, ok := times[a.delivery]; ok {
			for i, d := range [3]time.Duration{t[0].Sub(s.sent), t[1].Sub(t[0]), a.at.Sub(t[1])} {
				stages[i] = append(stages[i], d)
			}
		}
	}
	res.n = len(samples) + res.errors
	res.p50, res.p99, res.maxd = quantiles(lat)
	res.payP50, res.payP99, _ = quantiles(pay)
	for i, st := range stages {
		res.stages[i][0], res.stages[i][1], _ = quantiles(st)
	}
	return res
}

func quantiles(d []time.Duration) (p50, p99, maxd time.Duration) {
	if len(d) == 0 {
		return 0, 0, 0
	}
	slices.Sort(d)
	return d[len(d)/2], d[len(d)*99/100], d[len(d)-1]
}

// ok says whether FAST met the latency target: p99 under whTarget, every
// payment made and every callback come.
func (r whResult) ok() bool {
	return r.n > 0 && r.errors == 0 && r.missing == 0 && r.p99 < whTarget
}

// slowLoad is SLOW's side: payments made, callbacks its receiver got and
// answered.
type slowLoad struct {
	paid, errors     int
	firstErr         error
	received, answer int
}

// backlogged says SLOW really had a backlog: fewer callbacks came than
// it was paid, so its lane was full while FAST was measured.
func (s slowLoad) backlogged() bool { return s.paid > 0 && s.received < s.paid }

// paySlow pays n SLOW charges, conns at a time, or, with n < 0, at
// whSlowRate a second until stop is closed.
func paySlow(c *whClient, n, conns int, stop <-chan struct{}) slowLoad {
	var (
		mu  sync.Mutex
		out slowLoad
		wg  sync.WaitGroup
	)
	one := func() {
		_, _, _, err := c.pay("whslow")
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil:
			out.paid++
		case out.errors == 0:
			out.errors, out.firstErr = 1, err
		default:
			out.errors++
		}
	}
	if n < 0 {
		tick := time.NewTicker(time.Second / whSlowRate)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return out
			case <-tick.C:
				one()
			}
		}
	}
	var next atomic.Int64
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				one()
			}
		}()
	}
	wg.Wait()
	return out
}

// underSlow measures FAST while SLOW has its backlog: whBacklog paid at
// once first, then whSlowRate a second throughout.
func underSlow(fast *whClient, fr *receiver, slow *whClient, sr *receiver, dur time.Duration) (whResult, slowLoad) {
	s := paySlow(slow, whBacklog, 8, nil)
	stop := make(chan struct{})
	during := make(chan slowLoad)
	go func() { during <- paySlow(slow, -1, 1, stop) }()
	res := paceFast(fast, fr, dur)
	close(stop)
	d := <-during
	s.paid += d.paid
	if s.errors += d.errors; s.firstErr == nil {
		s.firstErr = d.firstErr
	}
	s.received, s.answer = int(sr.posts.Load()), int(sr.done.Load())
	return res, s
}

// whFigures is the webhook part's outcome.
type whFigures struct {
	alone, slowed whResult
	slow          slowLoad
}

// webhooks runs the webhook part on a sandbox of its own and prints its
// lines.
func webhooks(cfg config) (whFigures, error) {
	var f whFigures
	sb, err := startSandbox(cfg.homologa)
	if err != nil {
		return f, err
	}
	defer sb.stop()
	fr, err := newReceiver(0)
	if err != nil {
		return f, err
	}
	defer fr.close()
	sr, err := newReceiver(whSlowHold)
	if err != nil {
		return f, err
	}
	defer sr.close()
	// Held requests are let go before the sandbox stops (defers run last
	// first), so its shutdown does not wait out their hold.
	defer sr.unhold()
	load0 := loadavg()
	fast, slow, err := companies(sb.addr, fr.url, sr.url)
	if err != nil {
		return f, err
	}
	// Warm-up: the sandbox's first connections to the receiver, its
	// first statements; not counted.
	paceFast(fast, fr, whWarmCount*time.Second/whRate)
	fmt.Printf("webhooks: Pix callbacks to receivers in this process on 127.0.0.1; FAST pays %d charges/s for %s, one at a time;\n", whRate, cfg.dur)
	fmt.Printf("          latency = the receiver got POST {webhookUrl}/pix − the payment call (POST /sandbox/pix/payments) was sent\n")
	fmt.Printf("%-28s %6s %7s %9s %9s %9s | %-22s\n", "", "paid", "missing", "p50", "p99", "max", "payment call p50/p99")
	f.alone = paceFast(fast, fr, cfg.dur)
	printWh("FAST alone", f.alone)
	f.slowed, f.slow = underSlow(fast, fr, slow, sr, cfg.dur)
	printWh("FAST, SLOW backlogged", f.slowed)
	s := f.slow
	fmt.Printf("SLOW (another company; its receiver holds each POST %s): %d paid (%d at once, then %d/s), %d callbacks received, %d answered\n",
		whSlowHold, s.paid, whBacklog, whSlowRate, s.received, s.answer)
	if s.errors > 0 {
		fmt.Printf("        SLOW: %d payments failed; the first: %v\n", s.errors, s.firstErr)
	}
	fmt.Println("no cross-company delay = FAST under SLOW's backlog meets the same target as alone (p99 < 20 ms, none missing), SLOW received < paid")
	fmt.Printf("load average of the machine (1 min; cores %s): %s before, %s after; above the core count, other processes' turns are in the tails\n",
		cores(), load0, loadavg())
	return f, nil
}

// loadavg is the machine's load average over the last minute, from
// /proc: the two pinned cores are shared with whatever else runs, and a
// tail of milliseconds is then often someone else's time slice.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b) + " ?")[0]
}

// cores names the machine's online cores (this process's own count is
// its pinning's: one).
func cores() string {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// companies gets the demo app's token and makes FAST and SLOW.
func companies(addr, fastURL, slowURL string) (fast, slow *whClient, err error) {
	demo := &whClient{addr: addr, hc: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
	if err := demo.login(); err != nil {
		return nil, nil, err
	}
	if fast, err = company(demo, fastURL); err != nil {
		return nil, nil, fmt.Errorf("FAST: %w", err)
	}
	if slow, err = company(demo, slowURL); err != nil {
		return nil, nil, fmt.Errorf("SLOW: %w", err)
	}
	return fast, slow, nil
}

func printWh(name string, r whResult) {
	fmt.Printf("%-28s %6d %7d %9s %9s %9s | %s / %s\n", name, r.n, r.missing, ms(r.p50), ms(r.p99), ms(r.maxd), ms(r.payP50), ms(r.payP99))
	if came := r.n - r.missing - r.errors; came > 0 {
		fmt.Printf("  its steps, p50 / p99:")
		for i, st := range r.stages {
			fmt.Printf("  %s %s / %s;", stageNames[i], ms(st[0]), ms(st[1]))
		}
		fmt.Printf("  %d of %d came before the payment's answer\n", r.early, came)
	}
	if r.errors > 0 {
		fmt.Printf("        %d payments failed; the first: %v\n", r.errors, r.firstErr)
	} else if r.firstErr != nil {
		fmt.Printf("        %v\n", r.firstErr)
	}
}

// printWebhookTargets prints the webhook targets. No
// cross-company delay means: with SLOW's lane full and backlogged, FAST
// still meets the same target as alone (p99 < 20 ms, nothing missing),
// and SLOW was indeed backlogged (fewer callbacks than payments), or the
// line proves nothing.
func printWebhookTargets(f whFigures) {
	check := func(ok bool) string { return map[bool]string{true: "ok", false: "NOT MET"}[ok] }
	fmt.Printf("  %-55s%s, %d missing  %s\n", "webhook latency p99 < 20 ms (FAST alone):",
		ms(f.alone.p99), f.alone.missing, check(f.alone.ok()))
	fmt.Printf("  %-55s%s (alone %s), %d missing; SLOW backlogged: %d of %d received  %s\n", "no cross-company delay: the same under SLOW's backlog:",
		ms(f.slowed.p99), ms(f.alone.p99), f.slowed.missing, f.slow.received, f.slow.paid, check(f.slowed.ok() && f.slow.backlogged()))
}

// webhooksOnly is `pixbench -only webhooks`: the webhook part alone.
func webhooksOnly(cfg config) error {
	pin := announce(cfg)
	f, err := webhooks(cfg)
	if err != nil {
		return err
	}
	fmt.Println("\ntargets (issue 19)")
	printWebhookTargets(f)
	if !pin {
		fmt.Println("\n(unpinned: not comparable with a pinned run)")
	}
	return nil
}
