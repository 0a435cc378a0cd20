package cli_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"homologa/cli"
	"homologa/simulator/server"
)

// TestLogsTail: the tail shows the requests made after it started, one
// line each, filtered by path and status, and with --json one object a
// line that tools read; requests made before it started are not shown,
// and the control API (not an API of the service) is not in the log.
func TestLogsTail(t *testing.T) {
	s := startSandbox(t, server.Config{})
	c := demo(t, s.URL())
	ctx := context.Background()
	cob := map[string]any{"calendario": map[string]any{"expiracao": 3600}, "valor": map[string]any{"original": "1.00"}, "chave": "52998224725"}
	if err := c.Call(ctx, http.MethodPut, "/pix/v2/cob/antesdotail0000000000000000001", cob, nil); err != nil {
		t.Fatal(err)
	}

	all := runCommand(t, "logs", "tail", "--sandbox", s.URL(), "--every", "100ms")
	errs := runCommand(t, "logs", "tail", "--sandbox", s.URL(), "--every", "100ms", "--status", "4xx", "--path", "/pix/v2/cob*")
	js := runCommand(t, "logs", "tail", "--sandbox", s.URL(), "--every", "100ms", "--json", "--method", "PUT")
	for _, cmd := range []*command{all, errs} {
		cmd.out.waitFor(t, `^Tailing the interaction log of company 11222333000181`, 0, 10*time.Second)
	}
	time.Sleep(300 * time.Millisecond) // the JSON tail prints no banner: let it read its start

	if err := c.Call(ctx, http.MethodPut, "/pix/v2/cob/depoisdotail000000000000000001", cob, nil); err != nil {
		t.Fatal(err)
	}
	c.Do(ctx, cli.Request{Method: http.MethodGet, Path: "/pix/v2/cob/naoexistenaoexistenaoexiste01"})
	c.Call(ctx, http.MethodPost, "/sandbox/events/ping", nil, nil)

	all.out.waitFor(t, `homologa-demo\s+PUT\s+/pix/v2/cob/depoisdotail000000000000000001  201  [\d.]+ ms`, 0, 5*time.Second)
	all.out.waitFor(t, `GET\s+/pix/v2/cob/naoexistenaoexistenaoexiste01  404`, 0, 5*time.Second)
	errs.out.waitFor(t, `GET\s+/pix/v2/cob/naoexistenaoexistenaoexiste01  404`, 0, 5*time.Second)
	line, _ := js.out.waitFor(t, `^.*depoisdotail.*$`, 0, 5*time.Second)
	var i struct {
		Method, Path string
		Status       int
		RequestBody  string `json:"requestBody"`
	}
	if err := json.Unmarshal([]byte(line[0]), &i); err != nil || i.Status != 201 || i.Method != http.MethodPut || !strings.Contains(i.RequestBody, "52998224725") {
		t.Errorf("--json line %q: %+v %v", line[0], i, err)
	}
	time.Sleep(300 * time.Millisecond)
	for name, cmd := range map[string]*command{"all": all, "4xx": errs, "json": js} {
		out := cmd.out.String()
		if strings.Contains(out, "antesdotail") || strings.Contains(out, "/sandbox/") {
			t.Errorf("%s shows a request made before it started, or the control API:\n%s", name, out)
		}
	}
	if out := errs.out.String(); strings.Contains(out, " 201 ") || strings.Contains(out, "depoisdotail") {
		t.Errorf("--status 4xx shows other statuses:\n%s", out)
	}
	if out := js.out.String(); strings.Contains(out, "naoexiste") {
		t.Errorf("--method PUT shows a GET:\n%s", out)
	}
	if code := all.stop(t); code != 0 {
		t.Errorf("Ctrl-C: exit %d", code)
	}
}
