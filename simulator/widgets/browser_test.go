package widgets_test

import (
	"context"
	"testing"
	"time"

	"homologa/simulator/browsertest"
	"homologa/simulator/server"
)

// The widgets are tested the way partners meet them: served by a real
// sandbox on loopback, framed by a host page in headless Chromium, driven
// by keyboard and clicks, talking to the real APIs.

func startSandbox(t *testing.T) *server.Server { return browsertest.Sandbox(t, "") }

func newBrowser(t *testing.T) context.Context { return browsertest.Browser(t, 60*time.Second) }

func demoToken(t *testing.T, s *server.Server, scopes string) string {
	return browsertest.DemoToken(t, s, scopes)
}
