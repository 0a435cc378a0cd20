package server_test

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"homologa/simulator/server"
)

// TestHealthCommand: homologa health answers 0 for a sandbox that
// answers, 1 for none, 2 for an address it cannot read; --wait keeps
// asking, so a CI step can start the sandbox and wait for it.
func TestHealthCommand(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{})
	defer s.Close(context.Background())
	port := freePort(t)
	env := func(addr string) func(string) string {
		return func(k string) string {
			if k == "HOMOLOGA_ADDR" {
				return addr
			}
			return ""
		}
	}
	health := func(getenv func(string) string, args ...string) (int, string) {
		var out strings.Builder
		code := server.Main(context.Background(), append([]string{"health"}, args...), getenv, &out, &out)
		return code, out.String()
	}
	if code, out := health(env(""), "--url", s.URL()); code != 0 || !strings.Contains(out, "healthy: "+s.URL()) {
		t.Errorf("a sandbox that answers: exit %d, %q", code, out)
	}
	if code, out := health(env("127.0.0.1:" + port)); code != 1 || !strings.Contains(out, "unhealthy") {
		t.Errorf("nothing listening: exit %d, %q", code, out)
	}
	if code, _ := health(env("no-port")); code != 2 {
		t.Errorf("an address without a port: exit %d, want 2", code)
	}

	// A sandbox that starts a second after health begins to wait for it.
	addr := "127.0.0.1:" + port
	go func() {
		time.Sleep(time.Second)
		late, err := server.New(context.Background(), server.Config{Addr: addr, Log: io.Discard})
		if err != nil {
			t.Error(err)
			return
		}
		if err := late.Start(context.Background()); err != nil {
			t.Error(err)
			return
		}
		t.Cleanup(func() { late.Close(context.Background()) })
	}()
	if code, out := health(env(addr), "--wait", "30s"); code != 0 {
		t.Errorf("--wait for a sandbox that starts late: exit %d, %q", code, out)
	}
	if _, err := net.Dial("tcp", addr); err != nil {
		t.Errorf("the late sandbox: %v", err)
	}
}
