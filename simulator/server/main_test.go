package server_test

import (
	"net/http"
	"os"
	"strings"
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
	os.Exit(m.Run())
}
