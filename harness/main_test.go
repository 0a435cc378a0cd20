package harness_test

import (
	"flag"
	"net/http"
	"os"
	"testing"

	"homologa/simulator/browsertest"
)

// The tests' plain calls to a sandbox's control API act as its operator
// (the sandboxes they start take browsertest.OperatorToken).
//
// The homologation tests spend their time waiting (on windows a check
// must watch to its end, on a partner's retries), not computing: they run
// side by side beyond the default of one test per core, unless -parallel
// says otherwise.
func TestMain(m *testing.M) {
	http.DefaultClient.Transport = browsertest.OperatorTransport{Base: http.DefaultTransport}
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "12")
	}
	os.Exit(m.Run())
}
