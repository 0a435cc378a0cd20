package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"homologa/simulator/server"
)

// TestWebhookFlags: --webhook-allow adds entries (the demo app's inbox
// registers, on a sandbox listening on every address), takes the place
// of HOMOLOGA_WEBHOOK_ALLOW, and --webhook-resolve pins a listed name to
// a partner's receiver on loopback, so a delivery to that name arrives
// without DNS. Listening on every address needs --public-url, and a
// hosted sandbox reaches loopback only at a host:port the operator names
// exactly.
func TestWebhookFlags(t *testing.T) {
	t.Parallel()
	// A receiver of the partner's, on loopback, behind the pinned name
	// (the sandbox's own inbox would refuse the name: it serves only its
	// own).
	got := make(chan string, 1)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case got <- r.Host + " " + string(b):
		default:
		}
	}))
	defer recv.Close()
	_, rport, _ := net.SplitHostPort(strings.TrimPrefix(recv.URL, "http://"))
	_, port, _ := net.SplitHostPort(freeAddr(t))
	base := "http://127.0.0.1:" + port
	out, stop := runMain(t, []string{"--addr", "0.0.0.0:" + port, "--public-url", base, "--operator-token", testOperator,
		"--webhook-allow", "partner.example", "--webhook-allow", "second.example,partner.example:" + rport,
		"--webhook-resolve", "partner.example=127.0.0.1"},
		map[string]string{"HOMOLOGA_WEBHOOK_ALLOW": "env.example"})
	defer stop()
	if want := "webhook URL     " + base + "/sandbox/inbox/demo"; !strings.Contains(out.String(), want) {
		t.Fatalf("banner lacks %q:\n%s", want, out.String())
	}
	call := func(method, path, token, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var m map[string]any
		json.Unmarshal(raw, &m)
		return resp.StatusCode, m
	}
	setWebhook := func(url string) int {
		code, _ := call(http.MethodPut, "/portal/apps/"+server.DemoClientID+"/webhook", "", fmt.Sprintf(`{"webhookUrl": %q}`, url))
		return code
	}
	for url, want := range map[string]int{
		"http://second.example/hooks":              200, // a second --webhook-allow adds to the first
		"http://env.example/hooks":                 400, // the flag took the environment's place
		"http://169.254.169.254/latest/meta-data":  400,
		"http://10.0.0.1/hooks":                    400,
		"http://partner.example:" + port + "/hook": 200, // a listed name: checked again when dialled
		"http://127.0.0.1:18463/admin":             400, // the host's loopback, never, hosted
		base + "/sandbox/inbox/demo":               200, // the sandbox's own inbox, always
	} {
		if code := setWebhook(url); code != want {
			t.Errorf("webhook %s: %d, want %d", url, code, want)
		}
	}
	if code := setWebhook("http://partner.example:" + rport + "/pinned"); code != 200 {
		t.Fatalf("webhook on the pinned name: %d", code)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/oauth/token", strings.NewReader("grant_type=client_credentials"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// A hosted sandbox (--public-url) makes up the demo app's secret at
	// start, and shows it in the banner.
	secret := regexp.MustCompile(`client secret +(\S+)`).FindStringSubmatch(out.String())
	if secret == nil || secret[1] == server.DemoClientSecret {
		t.Fatalf("a hosted sandbox's banner should show a demo secret of its own:\n%s", out.String())
	}
	req.SetBasicAuth(server.DemoClientID, secret[1])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	code, ping := call(http.MethodPost, "/sandbox/events/ping", tok.AccessToken, `{"message": "pinned"}`)
	if ds, _ := ping["deliveries"].([]any); code != 202 || len(ds) != 1 || ds[0].(map[string]any)["status"] != "delivered" {
		t.Fatalf("ping to the pinned name: %d %v", code, ping)
	}
	if g := <-got; !strings.HasPrefix(g, "partner.example:"+rport+" ") || !strings.Contains(g, "pinned") {
		t.Fatalf("the receiver behind the pinned name got %q", g)
	}
}
