package harness

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A failing step shows the request as the feature expanded it, query
// and all (what ${…} became), with secret parameters out.
func TestDescribeShowsTheExpandedQuery(t *testing.T) {
	w := &World{body: []byte(`{"messages":[]}`)}
	w.resp = &http.Response{StatusCode: 200, Request: httptest.NewRequest(http.MethodGet, "/sandbox/outbox?cpf=11144477735&client_secret=s3cr3t", nil)}
	got := w.describe()
	if !strings.Contains(got, "GET /sandbox/outbox?cpf=11144477735&client_secret=") || strings.Contains(got, "s3cr3t") {
		t.Errorf("describe() = %q, want the query with the secret out", got)
	}
}

// A step that would pause the scenario is told what does the job, and
// the steps the hint names are steps.
func TestWaitingStepGetsAHint(t *testing.T) {
	for _, text := range []string{"I wait 5 seconds", "the suite sleeps for 2s"} {
		if near := nearestSteps(text, 3); len(near) > 0 {
			continue // a documented step close enough says it already
		}
		hint := waitHint(text)
		if !strings.Contains(hint, "within") || !strings.Contains(hint, "advance the clock") {
			t.Errorf("%q: hint %q", text, hint)
		}
	}
	for _, quoted := range []string{`the receiver gets a "pix.recebido" event within 5 seconds`, `I advance the clock by "10s"`} {
		if !matchesAStep(quoted) {
			t.Errorf("the hint names %q, which no step matches", quoted)
		}
	}
	if waitHint("I send \"GET\" to \"/pix/v2/cob\"") != "" {
		t.Error("a hint for a step that does not wait")
	}
}
