package harness_test

import (
	"net/http"
	"os"
	"testing"

	"homologa/simulator/browsertest"
)

// The tests' plain calls to a sandbox's control API act as its operator
// (the sandboxes they start take browsertest.OperatorToken).
func TestMain(m *testing.M) {
	http.DefaultClient.Transport = browsertest.OperatorTransport{Base: http.DefaultTransport}
	os.Exit(m.Run())
}
