package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The report gathers the findings of the checks' evidence (the
// interaction log's, as the sandbox lists them) under "works here and in
// production, but is not in the specification": one entry per kind,
// method and member, with how many times and in which checks; a report
// without any says so.
func TestReportLeniency(t *testing.T) {
	var evidence []interaction
	log := `[{"method": "PUT", "path": "/pix/v2/cob/a1", "findings": [{"kind": "unknown-member", "field": "tx_id", "detail": "o membro tx_id não é do schema"}]},
		{"method": "GET", "path": "/pix/v2/cobv/", "findings": [{"kind": "trailing-slash", "field": "/pix/v2/cobv/", "detail": "barra"}]},
		{"method": "GET", "path": "/pix/v2/cob", "status": 200},
		{"method": "PUT", "path": "/pix/v2/cob/a2", "findings": [{"kind": "unknown-member", "field": "tx_id", "detail": "o membro tx_id não é do schema"}]}]`
	if err := json.Unmarshal([]byte(log), &evidence); err != nil {
		t.Fatal(err)
	}
	r := &Report{Partner: "p", Started: time.Now(), Checks: []Check{
		{Scenario: "A", Passed: true, Evidence: evidence},
		{Scenario: "B", Passed: true, Evidence: evidence[:1]},
		{Scenario: "C", Passed: true},
	}}
	r.tally()
	if len(r.Leniency) != 2 {
		t.Fatalf("leniency %+v", r.Leniency)
	}
	member := r.Leniency[0]
	if member.Kind != "unknown-member" || member.Method != "PUT" || member.Path != "/pix/v2/cob/a1" || member.Field != "tx_id" || member.Count != 3 ||
		strings.Join(member.Checks, ",") != "A,B" {
		t.Fatalf("unknown members: %+v", member)
	}
	if slash := r.Leniency[1]; slash.Kind != "trailing-slash" || slash.Count != 1 || strings.Join(slash.Checks, ",") != "A" {
		t.Fatalf("trailing slash: %+v", slash)
	}
	dir := t.TempDir()
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !strings.Contains(string(html), "Works here and in production, but is not in the specification") || !strings.Contains(string(html), "tx_id") {
		t.Fatalf("report.html: %s", html)
	}
	js, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if !strings.Contains(string(js), `"leniency": [`) {
		t.Fatalf("report.json: %s", js)
	}

	clean := &Report{Partner: "p", Started: time.Now(), Checks: []Check{{Scenario: "C", Passed: true}}}
	clean.tally()
	if clean.Leniency == nil || len(clean.Leniency) != 0 {
		t.Fatalf("a report without findings: %+v", clean.Leniency)
	}
	if err := clean.Write(dir); err != nil {
		t.Fatal(err)
	}
	html, _ = os.ReadFile(filepath.Join(dir, "report.html"))
	if !strings.Contains(string(html), "Nothing: every request was as the specification writes it.") {
		t.Fatalf("report.html without findings: %s", html)
	}
}
