package harness

import "testing"

// Only a run of the whole suite speaks of production.
func TestSummary(t *testing.T) {
	tests := []struct {
		r    Report
		want string
	}{
		{Report{Passed: 30}, "PRONTO PARA PRODUÇÃO: as 30 verificações passaram."},
		{Report{Passed: 29, Failed: 1}, "NÃO PRONTO PARA PRODUÇÃO: 1 de 30 verificações falhou."},
		{Report{Passed: 1, Partial: "--tags @regra:escopos"}, "EXECUÇÃO PARCIAL (--tags @regra:escopos): a única verificação passou; não vale para publicar."},
		{Report{Passed: 3, Failed: 2, Partial: "--tags @area:pix"}, "EXECUÇÃO PARCIAL (--tags @area:pix): 2 de 5 verificações falharam; não vale para publicar."},
		{Report{Passed: 14, Partial: "--features qa", NoPartner: true}, "EXECUÇÃO PARCIAL (--features qa, sem parceiro): os 14 cenários passaram; não vale para publicar."},
		{Report{Passed: 13, Failed: 1, Partial: "--features qa", NoPartner: true}, "EXECUÇÃO PARCIAL (--features qa, sem parceiro): 1 de 14 cenários falhou; não vale para publicar."},
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
