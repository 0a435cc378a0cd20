package harness

import "testing"

// Only a run of the whole suite speaks of production.
func TestSummary(t *testing.T) {
	tests := []struct {
		r    Report
		want string
	}{
		{Report{Passed: 30}, "READY FOR PRODUCTION: all 30 checks passed."},
		{Report{Passed: 1}, "READY FOR PRODUCTION: the only check passed."},
		{Report{Passed: 16, NotApplicable: 1, Products: []string{"seguros"}}, "READY FOR PRODUCTION (seguros): all 16 checks passed; 1 did not apply (the report says why)."},
		{Report{Passed: 29, Failed: 1}, "NOT READY FOR PRODUCTION: 1 of 30 checks failed."},
		{Report{Passed: 1, Partial: "--tags @regra:escopos"}, "PARTIAL RUN (--tags @regra:escopos): the only check passed; it does not count for publishing."},
		{Report{Passed: 3, Failed: 2, Partial: "--tags @area:pix"}, "PARTIAL RUN (--tags @area:pix): 2 of 5 checks failed; it does not count for publishing."},
		{Report{Passed: 14, Partial: "--features qa", NoPartner: true}, "PARTIAL RUN (--features qa, no partner): all 14 scenarios passed; it does not count for publishing."},
		{Report{Passed: 13, Failed: 1, Partial: "--features qa", NoPartner: true}, "PARTIAL RUN (--features qa, no partner): 1 of 14 scenarios failed; it does not count for publishing."},
		{Report{Failed: 1, Partial: "--features qa", NoPartner: true}, "PARTIAL RUN (--features qa, no partner): the only scenario failed; it does not count for publishing."},
	}
	for _, tt := range tests {
		r := tt.r
		r.AllPassed = r.Failed == 0 && r.Passed > 0
		r.Ready = r.AllPassed && r.Partial == ""
		if got := summary(&r); got != tt.want {
			t.Errorf("summary(%+v) =\n  %s\nwant\n  %s", tt.r, got, tt.want)
		}
	}
}
