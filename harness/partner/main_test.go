package partner_test

import (
	"net/http"
	"os"
	"testing"

	"homologa/simulator/browsertest"
)

// The tests' plain calls to the sandbox's control API act as its operator.
func TestMain(m *testing.M) {
	http.DefaultClient.Transport = browsertest.OperatorTransport{Base: http.DefaultTransport}
	os.Exit(m.Run())
}
