package server_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// testOperator is the operator's token of every sandbox these tests start.
const testOperator = "op_test_operator_token"

// operatorTransport makes the tests' plain HTTP calls to the control API
// and the portal the operator's (sandbox-wide), unless a test
// authenticates them itself: the tests written before the control API
// belonged to companies, and the portal to accounts, keep their meaning;
// the tenancy and account tests send their own credentials.
type operatorTransport struct{ base http.RoundTripper }

func (t operatorTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if (strings.HasPrefix(req.URL.Path, "/sandbox/") || strings.HasPrefix(req.URL.Path, "/portal/")) && req.Header.Get("Authorization") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+testOperator)
	}
	return t.base.RoundTrip(req)
}

func TestMain(m *testing.M) {
	http.DefaultClient.Transport = operatorTransport{base: http.DefaultTransport}
	// Names in these tests resolve by --webhook-resolve pins or
	// /etc/hosts: a real DNS query would be a packet beyond loopback, so
	// it is refused before it is sent, and fails the run.
	var dns atomic.Int32
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(_ context.Context, _, address string) (net.Conn, error) {
		dns.Add(1)
		fmt.Fprintf(os.Stderr, "a test tried real DNS, to %s (refused)\n", address)
		return nil, fmt.Errorf("server tests: DNS to %s refused", address)
	}}
	code := m.Run()
	if homologaBin != "" {
		os.RemoveAll(homologaBin) // the docs' binary, built once for the run
	}
	if dns.Load() > 0 {
		code = 1
	}
	os.Exit(code)
}
