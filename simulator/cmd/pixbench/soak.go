package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"homologa/simulator/server"
)

// The soak (-soak DURATION, `make soak`): homologa with a database file
// and small retention, so that the plateau comes within a minute where the
// defaults (sized for a real sandbox) would take hours; a steady load over
// soakCompanies companies (the demo company and copies of it in
// namespaces): soakCreates charges a second that expire after a minute,
// as many GETs of recent ones, and soakPays payments a second, each
// notified to the company's webhook (the sandbox's inbox). Every
// soakSample it reads homologa's RSS and the size of its database files;
// after the first third (the warm-up) neither may grow by more than
// soakFlat, and no request may fail.
var soakRetention = []string{"--retention-rows", "2000", "--retention-log", "3000", "--retention-every", "5s"}

const (
	soakCompanies = 3
	soakCreates   = 100
	soakReads     = 100
	soakPays      = 10
	soakSample    = 10 * time.Second
	soakFlat      = 0.10
	// soakConns bounds the requests in flight: a sandbox slower than the
	// rate shows as requests behind, not as a pile of connections.
	soakConns = 32
)

// soakCob is a charge of the soak: a minute to live, so that unpaid ones
// expire and retention may take them.
const soakCob = `{"calendario":{"expiracao":60},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"123.45"},"chave":"52998224725","solicitacaoPagador":"Mensalidade de março, pedido 4521."}`

// soakCompany is one company of the soak: its token, and its charges
// recent enough to read and waiting to be paid.
type soakCompany struct {
	token  string
	mu     sync.Mutex
	recent []string
	toPay  []string
}

// soakLoad is the load's state: the companies and what the requests
// answered.
type soakLoad struct {
	addr      string
	client    *http.Client
	companies []*soakCompany
	created   atomic.Int64
	ok, fails atomic.Int64
	behind    atomic.Int64
	mu        sync.Mutex
	firstErrs []string
	latencies []time.Duration
}

// soakRow is one sample.
type soakRow struct {
	at       time.Duration
	requests int64
	errors   int64
	rss, db  float64
}

func soak(cfg config) error {
	if pin, why := pinning(); !pin {
		fmt.Printf("pixbench: WARNING: %s\n", why)
	}
	dir, err := os.MkdirTemp("", "pixbench-soak")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "soak.db")
	if cfg.soakMemory {
		db = "" // in RSS: sampled as nothing, judged by RSS
	}
	p, logPath, err := startSoakSandbox(cfg.homologa, dir, db)
	if err != nil {
		return err
	}
	defer p.stop()
	load := &soakLoad{addr: p.addr, client: &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: soakConns, MaxConnsPerHost: soakConns}}}
	if err := load.prepare(); err != nil {
		return err
	}
	where := "a database file"
	if db == "" {
		where = "in memory (the database and the interaction log in RSS)"
	}
	fmt.Printf("pixbench soak: %s; %d charges/s (a minute to live), %d reads/s and %d payments/s over %d companies; homologa %s, %s\n",
		cfg.soak, soakCreates, soakReads, soakPays, soakCompanies, strings.Join(soakRetention, " "), where)
	fmt.Printf("%8s %10s %7s %9s %9s\n", "t", "requests", "errors", "RSS MiB", "DB MiB")
	ctx, cancel := context.WithTimeout(context.Background(), cfg.soak)
	defer cancel()
	done := load.run(ctx)
	rows := sampleSoak(ctx, p, db, load)
	<-done
	return soakVerdict(rows, load, logPath)
}

// startSoakSandbox starts homologa with the database file db (in memory
// when "") and the soak's retention, its log in dir.
func startSoakSandbox(homologa, dir, db string) (*proc, string, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, "", err
	}
	logPath := filepath.Join(dir, "homologa.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, "", err
	}
	args := []string{"serve", "--addr", addr}
	if db != "" {
		args = append(args, "--db", db)
	}
	args = append(args, soakRetention...)
	cmd := serverCmd(nil, homologa, args...)
	cmd.Stderr = logf
	p, err := startServer(cmd, addr, "/")
	return p, logPath, err
}

// prepare makes the companies: the demo company and copies of it in
// namespaces, each with a token and a webhook on its key that the
// sandbox's inbox receives.
func (l *soakLoad) prepare() error {
	for i := range soakCompanies {
		ns := ""
		if i > 0 {
			var out struct{ Namespace string }
			if err := l.call(l.companies[0].token, "", http.MethodPost, "/sandbox/namespaces", "", 201, &out); err != nil {
				return err
			}
			ns = out.Namespace
		}
		basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(server.DemoClientID+":"+server.DemoClientSecret))
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		if err := l.call(basic, ns, http.MethodPost, "/oauth/token", "grant_type=client_credentials", 200, &tok); err != nil {
			return err
		}
		c := &soakCompany{token: "Bearer " + tok.AccessToken}
		l.companies = append(l.companies, c)
		hook := fmt.Sprintf(`{"webhookUrl":"http://%s/sandbox/inbox/soak%d"}`, l.addr, i)
		if err := l.call(c.token, "", http.MethodPut, "/pix/v2/webhook/52998224725", hook, 200, nil); err != nil {
			return err
		}
	}
	return nil
}

// call sends one request and wants status; out, when not nil, gets the
// JSON answer.
func (l *soakLoad) call(auth, ns, method, path, body string, want int, out any) error {
	req, err := http.NewRequest(method, "http://"+l.addr+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", auth)
	if ns != "" {
		req.Header.Set("X-Homologa-Namespace", ns)
	}
	switch {
	case strings.HasPrefix(body, "{"):
		req.Header.Set("Content-Type", "application/json")
	case body != "":
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d, want %d: %.200s", method, path, resp.StatusCode, want, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// run drives the three kinds of requests at their rates until ctx ends;
// the channel closes when every request has finished.
func (l *soakLoad) run(ctx context.Context) <-chan struct{} {
	sem := make(chan struct{}, soakConns)
	var wg sync.WaitGroup
	for _, k := range []struct {
		rate int
		do   func()
	}{{soakCreates, l.create}, {soakReads, l.read}, {soakPays, l.pay}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pace(ctx, k.rate, sem, &wg, k.do, &l.behind)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return done
}

// pace calls do rate times a second until ctx ends, each in a goroutine
// holding a place in sem; a tick that finds no place counts as behind.
func pace(ctx context.Context, rate int, sem chan struct{}, wg *sync.WaitGroup, do func(), behind *atomic.Int64) {
	t := time.NewTicker(time.Second / time.Duration(rate))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		select {
		case sem <- struct{}{}:
		default:
			behind.Add(1)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			do()
		}()
	}
}

// record counts an answer, err nil for a success, and its latency:
// pruning in batches must not show as a tail.
func (l *soakLoad) record(start time.Time, err error) {
	d := time.Since(start)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.latencies = append(l.latencies, d)
	if err == nil {
		l.ok.Add(1)
		return
	}
	l.fails.Add(1)
	if len(l.firstErrs) < 5 {
		l.firstErrs = append(l.firstErrs, err.Error())
	}
}

// create makes a charge of the next company; one in soakCreates/soakPays
// waits to be paid.
func (l *soakLoad) create() {
	n := l.created.Add(1)
	c := l.companies[n%soakCompanies]
	txid := fmt.Sprintf("soak%026d", n)
	start := time.Now()
	err := l.call(c.token, "", http.MethodPut, "/pix/v2/cob/"+txid, soakCob, 201, nil)
	l.record(start, err)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recent = append(c.recent, txid)
	if len(c.recent) > 500 {
		c.recent = c.recent[len(c.recent)-500:]
	}
	if n%(soakCreates/soakPays) == 0 {
		c.toPay = append(c.toPay, txid)
	}
}

// read GETs a recent charge of a company: one retention keeps, being
// among its newest.
func (l *soakLoad) read() {
	c := l.companies[rand.IntN(soakCompanies)]
	c.mu.Lock()
	if len(c.recent) == 0 {
		c.mu.Unlock()
		return
	}
	txid := c.recent[rand.IntN(len(c.recent))]
	c.mu.Unlock()
	start := time.Now()
	l.record(start, l.call(c.token, "", http.MethodGet, "/pix/v2/cob/"+txid, "", 200, nil))
}

// pay has the simulated payer pay the oldest charge waiting, of any
// company: a Pix, the charge CONCLUIDA, and a /pix callback to deliver.
func (l *soakLoad) pay() {
	for _, c := range l.companies {
		c.mu.Lock()
		if len(c.toPay) == 0 {
			c.mu.Unlock()
			continue
		}
		txid := c.toPay[0]
		c.toPay = c.toPay[1:]
		c.mu.Unlock()
		start := time.Now()
		l.record(start, l.call(c.token, "", http.MethodPost, "/sandbox/pix/payments", `{"txid":"`+txid+`"}`, 201, nil))
		return
	}
}

// sampleSoak prints a row every soakSample until ctx ends, and a last one.
func sampleSoak(ctx context.Context, p *proc, db string, l *soakLoad) []soakRow {
	start := time.Now()
	var rows []soakRow
	t := time.NewTicker(soakSample)
	defer t.Stop()
	for ended := false; !ended; {
		select {
		case <-ctx.Done():
			ended = true
		case <-t.C:
		}
		if ended && len(rows) > 0 && time.Since(start)-rows[len(rows)-1].at < time.Second {
			break // the last tick was the end
		}
		rss, err := p.rss()
		if err != nil {
			rss = -1
		}
		r := soakRow{at: time.Since(start).Round(time.Second), requests: l.ok.Load() + l.fails.Load(), errors: l.fails.Load(), rss: rss, db: dbSize(db)}
		rows = append(rows, r)
		fmt.Printf("%8s %10d %7d %9.1f %9.1f\n", r.at, r.requests, r.errors, r.rss, r.db)
	}
	return rows
}

// dbSize is the size of the sandbox's database files in MiB: the
// database, the interaction log's, and their write-ahead logs.
func dbSize(db string) float64 {
	if db == "" {
		return 0
	}
	var total int64
	for _, f := range []string{db, db + "-wal", db + ".interactions", db + ".interactions-wal"} {
		if st, err := os.Stat(f); err == nil {
			total += st.Size()
		}
	}
	return float64(total) / (1 << 20)
}

// soakVerdict compares the end of the warm-up (the first third) with the
// end, says whether RSS and the database stayed flat and nothing failed,
// and fails the command otherwise.
func soakVerdict(rows []soakRow, l *soakLoad, logPath string) error {
	if len(rows) < 3 {
		return errors.New("soak: too short to judge; run it for a minute at least")
	}
	last := rows[len(rows)-1]
	warm := rows[0]
	for _, r := range rows {
		if r.at*3 <= last.at {
			warm = r
		}
	}
	growth := func(a, b float64) float64 { return (b - a) / a }
	rssG, dbG := growth(warm.rss, last.rss), 0.0
	if warm.db > 0 { // 0: in memory, in RSS
		dbG = growth(warm.db, last.db)
	}
	flat := rssG <= soakFlat && dbG <= soakFlat
	fmt.Printf("\nafter the warm-up (%s → %s): RSS %.1f → %.1f MiB (%+.1f%%), database %.1f → %.1f MiB (%+.1f%%); %d requests, %d errors, %d ticks behind the rate\n",
		warm.at, last.at, warm.rss, last.rss, 100*rssG, warm.db, last.db, 100*dbG, last.requests, l.fails.Load(), l.behind.Load())
	l.mu.Lock()
	lat := slices.Clone(l.latencies)
	l.mu.Unlock()
	if len(lat) > 0 {
		slices.Sort(lat)
		fmt.Printf("latency of every request: p50 %s, p99 %s, max %s\n", ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]), ms(lat[len(lat)-1]))
	}
	if line := lastRetentionLine(logPath); line != "" {
		fmt.Printf("homologa's last retention pass: %s\n", line)
	}
	for _, e := range l.firstErrs {
		fmt.Println("  error:", e)
	}
	switch {
	case flat && l.fails.Load() == 0:
		fmt.Printf("verdict: flat (RSS and database within %.0f%% of the warm-up's end), no errors\n", 100*soakFlat)
		return nil
	case !flat:
		fmt.Printf("verdict: NOT flat (more than %.0f%% of growth after the warm-up)\n", 100*soakFlat)
	default:
		fmt.Println("verdict: flat, but requests failed")
	}
	return errors.New("soak failed")
}

// lastRetentionLine is the last line of the sandbox's log that reports a
// retention pass.
func lastRetentionLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var last string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "retention pass") {
			last = sc.Text()
		}
	}
	return last
}
