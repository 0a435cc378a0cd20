package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"homologa/simulator/server"
	"homologa/simulator/store"
)

// syncBuffer is a buffer the server writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// runMain runs homologa serve until stop is called; the returned func
// waits for the exit code.
func runMain(t *testing.T, args []string, env map[string]string) (out *syncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &syncBuffer{}
	codes := make(chan int, 1)
	go func() {
		codes <- server.Main(ctx, args, func(k string) string { return env[k] }, out, io.Discard)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "Get a token") {
		select {
		case code := <-codes:
			t.Fatalf("homologa exited with %d before serving", code)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("homologa did not print its banner")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return out, func() int { cancel(); return <-codes }
}

func TestMainZeroConfiguration(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	out, stop := runMain(t, nil, map[string]string{"HOMOLOGA_ADDR": addr})
	for _, want := range []string{
		"http://" + addr + "/insurer/v1", "http://" + addr + "/access/v1", "http://" + addr + "/benefits/v1",
		"http://" + addr + "/customer/v1", "http://" + addr + "/pix/v2", "http://" + addr + "/oauth/token",
		"http://" + addr + "/portal", "http://" + addr + "/sandbox", "ws://" + addr + "/events/ws",
		"client id       " + server.DemoClientID, "client secret   " + server.DemoClientSecret, "webhook secret  " + server.DemoWebhookSecret,
		"in-memory",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, out.String())
		}
	}
	// The printed credentials work.
	req, _ := http.NewRequest("POST", "http://"+addr+"/oauth/token", strings.NewReader("grant_type=client_credentials"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(server.DemoClientID, server.DemoClientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("token with the printed credentials: %v %v", resp, err)
	}
	resp.Body.Close()
	if code := stop(); code != 0 {
		t.Fatalf("exit code %d after SIGINT, want 0", code)
	}
	if _, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
		t.Fatal("still accepting connections after shutdown")
	}
}

func TestShutdownFinishesInFlightRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", Clock: "frozen", Log: io.Discard, NoDemo: true})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	s.Router.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		io.WriteString(w, "done")
	})
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get(s.URL() + "/slow")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-started
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if body := <-got; body != "done" {
		t.Fatalf("in-flight request got %q, want it finished", body)
	}
}

func TestFlagsAndEnvironment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		env  map[string]string
		code int
		msg  string
	}{
		{[]string{"--clock", "fast"}, nil, 1, "use real, frozen ou <N>x"},
		{nil, map[string]string{"HOMOLOGA_CLOCK": "fast"}, 1, "use real, frozen ou <N>x"},
		{[]string{"--log-format", "xml"}, nil, 1, "want text or json"},
		{[]string{"--nope"}, nil, 2, "flag provided but not defined"},
		{[]string{"serve", "extra"}, nil, 2, "unexpected argument"},
		{[]string{"frobnicate"}, nil, 2, "unknown command"},
		{[]string{"--help"}, nil, 0, "-webhook-allow"},
		{[]string{"--apps", "/no/such/file.yaml"}, nil, 1, "no such file"},
		{[]string{"--help"}, nil, 0, "-webhook-resolve"},
		{[]string{"--webhook-allow", "partner.example,partner example"}, nil, 2, `-webhook-allow: webhook allow-list entry "partner example"`},
		{[]string{"--webhook-allow", "http://partner.example"}, nil, 2, `entry "http://partner.example": want a host name`},
		{[]string{"--webhook-resolve", "partner.example"}, nil, 2, `-webhook-resolve: webhook resolve entry "partner.example": want host=ip`},
		{nil, map[string]string{"HOMOLOGA_WEBHOOK_ALLOW": "10.0.0.0/40"}, 2, `HOMOLOGA_WEBHOOK_ALLOW: webhook allow-list entry "10.0.0.0/40"`},
		{nil, map[string]string{"HOMOLOGA_WEBHOOK_RESOLVE": "a=b"}, 2, `HOMOLOGA_WEBHOOK_RESOLVE: webhook resolve entry "a=b"`},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		code := server.Main(context.Background(), tt.args, func(k string) string { return tt.env[k] }, io.Discard, &stderr)
		if code != tt.code || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("homologa %v (env %v) = %d %q, want %d containing %q", tt.args, tt.env, code, stderr.String(), tt.code, tt.msg)
		}
	}
	var stdout bytes.Buffer
	if code := server.Main(context.Background(), []string{"version"}, func(string) string { return "" }, &stdout, io.Discard); code != 0 || !strings.Contains(stdout.String(), server.Version) {
		t.Errorf("version: %d %q", code, stdout.String())
	}
}

func TestAppsFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "apps.yaml")
	os.WriteFile(good, []byte(`companies:
  - cnpj: "11.444.777/0001-61"
    name: Corretora Sul
    apps:
      - name: backend
        clientId: sul-backend
        clientSecret: sul-backend-secret-0001
        webhookUrl: http://127.0.0.1:9000/hooks
        scopes: [cob.read, cob.write]
      - name: live
        clientId: sul-live
        clientSecret: sul-live-secret-000001
        environment: production
`), 0o644)
	ctx := context.Background()
	// Loaded twice (a restart with --db): the second load changes nothing.
	dbPath := filepath.Join(dir, "h.db")
	for i := 0; i < 2; i++ {
		s, err := server.New(ctx, server.Config{OperatorToken: testOperator, DBPath: dbPath, AppsFile: good, Log: io.Discard, NoDemo: true})
		if err != nil {
			t.Fatalf("load %d: %v", i, err)
		}
		a, err := s.Auth.App(ctx, "sul-backend")
		if err != nil || a.CNPJ != "11444777000161" || strings.Join(a.Scopes, " ") != "cob.read cob.write" || a.WebhookURL != "http://127.0.0.1:9000/hooks" {
			t.Fatalf("load %d: app %+v, %v", i, a, err)
		}
		if _, err := s.Auth.IssueToken(ctx, "sul-backend", "sul-backend-secret-0001", ""); err != nil {
			t.Fatalf("load %d: token for the pre-registered app: %v", i, err)
		}
		if _, err := s.Auth.IssueToken(ctx, "sul-live", "sul-live-secret-000001", ""); err == nil || !strings.Contains(err.Error(), "production") {
			t.Fatalf("load %d: production app got a token: %v", i, err)
		}
		s.Close(ctx)
	}

	bad := []struct{ yaml, want string }{
		{"companies:\n  - cnpj: \"11444777000162\"\n    name: X\n", "companies[0]: cnpj: os dígitos verificadores"},
		{"companies:\n  - cnpj: \"11444777000161\"\n    name: X\n    apps:\n      - name: a\n        scopes: [root]\n", "companies[0].apps[0]: scopes: escopo desconhecido"},
		{"companies:\n  - cnpj: \"11444777000161\"\n    nome: X\n", "line 3: field nome not found"},
		{"companies:\n  - cnpj: \"11444777000161\"\n    name: X\n    apps:\n      - name: a\n        clientSecret: short\n", "apps[0].clientSecret: must have at least 16"},
	}
	for i, tt := range bad {
		p := filepath.Join(dir, fmt.Sprintf("bad%d.yaml", i))
		os.WriteFile(p, []byte(tt.yaml), 0o644)
		_, err := server.New(ctx, server.Config{OperatorToken: testOperator, AppsFile: p, Log: io.Discard, NoDemo: true})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("bad file %d: %v, want the file name and %q", i, err, tt.want)
		}
	}
}

func TestStateAndScheduledWorkSurviveARestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "h.db")
	start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	// A webhook that refuses at first: the delivery waits for a retry a
	// minute later.
	var refuse atomic.Bool
	refuse.Store(true)
	receiver := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refuse.Load() {
			w.WriteHeader(500)
		}
	})}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go receiver.Serve(ln)
	defer receiver.Close()

	s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", DBPath: dbPath, Clock: "frozen", ClockStart: start, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Auth.SetWebhook(ctx, server.DemoClientID, "http://"+ln.Addr().String()+"/hooks"); err != nil {
		t.Fatal(err)
	}
	post(t, s.URL()+"/sandbox/events/ping", `{"clientId":"homologa-demo"}`, 202)
	waitFor(t, func() bool {
		return regexp.MustCompile(`"status":"pending".*"attempts":\[\{`).MatchString(get(t, s.URL()+"/sandbox/deliveries"))
	})
	// Recorded just before the stop: the shutdown writes it.
	get(t, s.URL()+"/portal/apps/homologa-demo?last=1")
	s.Close(ctx)

	// Restarted, with a receiver that now answers: advancing the clock runs
	// the retry that was stored before the restart.
	refuse.Store(false)
	s2, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", DBPath: dbPath, Clock: "frozen", ClockStart: start, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s2.Close(ctx)
	if got := get(t, s2.URL()+"/sandbox/interactions?path=/portal/apps/homologa-demo"); !strings.Contains(got, `"query":"last=1"`) {
		t.Fatalf("the interaction recorded before shutdown was lost: %s", got)
	}
	post(t, s2.URL()+"/sandbox/clock/advance", `{"by":"1m"}`, 200)
	body := get(t, s2.URL()+"/sandbox/deliveries")
	if !strings.Contains(body, `"status":"delivered"`) || strings.Count(body, `"n":`) != 2 {
		t.Fatalf("after restart and advance: %s", body)
	}
}

func TestTheClockSurvivesARestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "h.db")
	for i, want := range []string{"2027-01-01T00:00:00Z", "2027-01-01T00:00:00Z"} {
		// The first run sets the clock; the second, started frozen without
		// a start time, resumes from it.
		s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", DBPath: dbPath, Clock: "frozen", Log: io.Discard, NoDemo: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			post(t, s.URL()+"/sandbox/clock/set", `{"at":"2027-01-01T00:00:00Z"}`, 200)
		}
		got := get(t, s.URL()+"/sandbox/clock")
		s.Close(ctx)
		if !strings.Contains(got, `"now":"`+want+`"`) {
			t.Fatalf("run %d: clock %s, want %s", i, got, want)
		}
	}
	// A running clock resumes from where it stood, not from wall time.
	s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", DBPath: dbPath, Clock: "real", Log: io.Discard, NoDemo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if now := s.Clocks.Default.Now(); now.Year() != 2027 {
		t.Fatalf("a real clock restarted at %v, want it in 2027", now)
	}
}

func post(t *testing.T, url, body string, want int) string {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("POST %s = %d %s, want %d", url, resp.StatusCode, b, want)
	}
	return string(b)
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 5s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestDeterministicIDsAndClock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var answers []string
	for i := 0; i < 2; i++ {
		s, err := server.New(ctx, server.Config{OperatorToken: testOperator, Addr: "127.0.0.1:0", Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC),
			IDs: &store.SequentialIDs{}, Log: io.Discard, NoDemo: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(ctx); err != nil {
			t.Fatal(err)
		}
		answers = append(answers, post(t, s.URL()+"/portal/companies", `{"cnpj":"11444777000161","name":"Sul"}`, 201))
		s.Close(ctx)
	}
	if answers[0] != answers[1] || !strings.Contains(answers[0], `"createdAt":"2026-01-05T12:00:00Z"`) {
		t.Fatalf("two runs answered %s and %s", answers[0], answers[1])
	}
}
