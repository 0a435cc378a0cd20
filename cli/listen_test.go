package cli_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"homologa/cli"
	"homologa/simulator/server"
)

// pingAndPay makes the events of a day's work on the demo app: a test
// event, and a charge paid by the simulated payer (pix.cob.criada,
// pix.recebido, pix.cob.status).
func pingAndPay(t *testing.T, c *cli.Client, txid string) {
	t.Helper()
	ctx := context.Background()
	if err := c.Call(ctx, http.MethodPost, "/sandbox/events/ping", map[string]any{"message": "ping " + txid}, nil); err != nil {
		t.Fatal(err)
	}
	cob := map[string]any{"calendario": map[string]any{"expiracao": 3600}, "valor": map[string]any{"original": "10.00"}, "chave": "52998224725"}
	if err := c.Call(ctx, http.MethodPut, "/pix/v2/cob/"+txid, cob, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, http.MethodPost, "/sandbox/pix/payments", map[string]any{"txid": txid}, nil); err != nil {
		t.Fatal(err)
	}
}

// companyEvents is every event of the demo company after a sequence, as
// the sandbox's event log has them.
func companyEvents(t *testing.T, c *cli.Client, after int64) []int64 {
	t.Helper()
	var page struct {
		Events []struct {
			Sequence int64  `json:"sequence"`
			Type     string `json:"type"`
		} `json:"events"`
	}
	if err := c.Call(context.Background(), http.MethodGet, "/sandbox/events?limit=1000&since="+strconv.FormatInt(after, 10), nil, &page); err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, e := range page.Events {
		out = append(out, e.Sequence)
	}
	return out
}

// TestListenAcrossARestart: listen forwards a ping and a Pix payment to a
// receiver that checks their signatures with the secret listen printed;
// the sandbox (on a database file) stops, another process of it on the
// same file makes events while listen is away, and the sandbox comes back
// at the same address: listen resumes, and the receiver holds every event
// of the company since listen started, once each, in order.
func TestListenAcrossARestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sandbox.db")
	a := startSandbox(t, server.Config{DBPath: db})
	base := a.URL()
	recv := newReceiver(t)
	l := runCommand(t, "listen", "--sandbox", base, "--forward-to", recv.URL+"/webhook")
	m, _ := l.out.waitFor(t, `signing secret is (whsec_\w+)`, 0, 10*time.Second)
	recv.setSecret(m[1])
	m, _ = l.out.waitFor(t, `^Ready: forwarding the events after sequence (\d+)`, 0, 10*time.Second)
	start, _ := strconv.ParseInt(m[1], 10, 64)

	pingAndPay(t, demo(t, base), "antesdoreinicio0000000000000001")
	recv.waitUntil(t, "a ping and a Pix payment", 10*time.Second, hasTypes("sandbox.ping", "pix.recebido"))
	l.out.waitFor(t, `pix\.recebido\s+\S+\s+→ \[200\] OK \(\d+ ms\)`, 0, 5*time.Second)

	a.Close(context.Background())
	away := startSandbox(t, server.Config{DBPath: db})
	pingAndPay(t, demo(t, away.URL()), "duranteaausencia000000000000001")
	away.Close(context.Background())
	addr := strings.TrimPrefix(base, "http://")
	back := startSandbox(t, server.Config{DBPath: db, Addr: addr})
	l.out.waitFor(t, `^Reconnected: resuming after sequence`, 0, 15*time.Second)
	pingAndPay(t, demo(t, back.URL()), "depoisdoreinicio000000000000001")

	want := companyEvents(t, demo(t, back.URL()), start)
	got := recv.waitUntil(t, "every event of the company", 15*time.Second, func(got []received) bool { return len(got) >= len(want) })
	time.Sleep(300 * time.Millisecond) // a duplicate would come now
	got = recv.all()
	if len(got) != len(want) {
		t.Fatalf("the receiver got %d requests, the company has %d events after %d", len(got), len(want), start)
	}
	for i, g := range got {
		if g.Valid != nil {
			t.Errorf("event %d (%s): signature: %v", g.Env.Sequence, g.Env.Type, g.Valid)
		}
		if g.Env.Sequence != want[i] {
			t.Errorf("request %d is event %d, want %d (lost, repeated or out of order)", i, g.Env.Sequence, want[i])
		}
		if g.Header.Get("Homologa-Event-Id") != g.Env.ID || g.Header.Get("Homologa-Event-Type") != g.Env.Type {
			t.Errorf("event %d: headers %v do not name it", g.Env.Sequence, g.Header)
		}
	}
	if code := l.stop(t); code != 0 {
		t.Errorf("listen exited %d after Ctrl-C, want 0; stderr: %s", code, l.errOut)
	}
	l.out.waitFor(t, `^Stopped after \d+ events \(last sequence \d+: resume with --since \d+\)`, 0, time.Second)
}

// TestListenOverMutualTLS: against a sandbox with --mtls, listen trusts
// the sandbox CA (--cacert) and presents the app's certificate from the
// portal (--cert); without the certificate the token endpoint refuses it,
// and listen says so and exits 1.
func TestListenOverMutualTLS(t *testing.T) {
	dir := t.TempDir()
	s := startSandbox(t, server.Config{MTLS: true, TLSDir: dir})
	ca := filepath.Join(dir, "ca.pem")
	certFile := filepath.Join(dir, "app.pem")
	os.WriteFile(certFile, issueDemoCertificate(t, s.URL(), ca), 0o600)

	recv := newReceiver(t)
	l := runCommand(t, "listen", "--sandbox", s.URL(), "--cacert", ca, "--cert", certFile, "--forward-to", recv.URL, "--events", "sandbox.*")
	m, _ := l.out.waitFor(t, `signing secret is (whsec_\w+)`, 0, 10*time.Second)
	recv.setSecret(m[1])
	l.out.waitFor(t, `^Ready`, 0, 10*time.Second)
	cfg, err := cli.TLSConfig(ca, certFile, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := cli.NewClient(s.URL(), cli.DemoClientID, cli.DemoClientSecret, cfg)
	pingAndPay(t, c, "sobtlsmutuo00000000000000000001")
	got := recv.waitUntil(t, "the ping", 10*time.Second, hasTypes("sandbox.ping"))
	time.Sleep(300 * time.Millisecond)
	for _, g := range recv.all() {
		if g.Env.Type != "sandbox.ping" {
			t.Errorf("--events sandbox.* forwarded %s", g.Env.Type)
		}
	}
	if got[0].Valid != nil {
		t.Errorf("the ping's signature: %v", got[0].Valid)
	}

	bare := runCommand(t, "listen", "--sandbox", s.URL(), "--cacert", ca, "--forward-to", recv.URL)
	select {
	case code := <-bare.code:
		bare.code <- code
		if code != 1 || !strings.Contains(bare.errOut.String(), "invalid_client") && !strings.Contains(bare.errOut.String(), "certificado") {
			t.Errorf("without a certificate: exit %d, stderr %q; want 1 naming the refusal", code, bare.errOut)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("without a certificate listen kept going: %s", bare.out)
	}
}

// issueDemoCertificate logs in to the portal as the demo account and
// downloads a client certificate of the demo app (PEM: key, certificate,
// CA).
func issueDemoCertificate(t *testing.T, base, ca string) []byte {
	t.Helper()
	cfg, err := cli.TLSConfig(ca, "", "")
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}, Timeout: 10 * time.Second}
	req, _ := http.NewRequest(http.MethodPost, base+"/portal/tokens", nil)
	req.SetBasicAuth("demo@homologa.test", "homologa-demo-senha")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct{ Token string }
	decodeBody(t, resp, &tok)
	req, _ = http.NewRequest(http.MethodPost, base+"/portal/apps/"+url.PathEscape(cli.DemoClientID)+"/certificates", nil)
	req.Header.Set("Authorization", "Bearer "+tok.Token)
	resp, err = hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return readBody(t, resp, http.StatusCreated)
}
