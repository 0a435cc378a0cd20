package dashboard_test

import (
	"net/http"
	"os"
	"testing"

	"homologa/simulator/browsertest"
)

// The tests' plain calls to the control API act as the operator.
func TestMain(m *testing.M) {
	http.DefaultClient.Transport = browsertest.OperatorTransport{Base: http.DefaultTransport}
	code := m.Run()
	browsertest.Close()
	os.Exit(code)
}
