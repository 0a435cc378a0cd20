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
// the operator's (sandbox-wide), unless a test authenticates them itself:
// the tests written before the control API belonged to companies keep
// their meaning; the tenancy tests send app tokens.
type operatorTransport struct{ base http.RoundTripper }

func (t operatorTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.URL.Path, "/sandbox/") && req.Header.Get("Authorization") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+testOperator)
	}
	return t.base.RoundTrip(req)
}

func TestMain(m *testing.M) {
	http.DefaultClient.Transport = operatorTransport{base: http.DefaultTransport}
	os.Exit(m.Run())
}
