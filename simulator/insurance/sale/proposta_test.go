package sale

import "testing"

func TestProposalMachineIsWellFormed(t *testing.T) {
	for _, m := range []interface{ Validate() error }{propostaMachine, pendenciaMachine} {
		if err := m.Validate(); err != nil {
			t.Error(err)
		}
	}
	if _, err := propostaMachine.Check(Recusada, Implantada); err == nil {
		t.Error("a refused proposal can be implanted")
	}
	if _, err := propostaMachine.Check(EmAnalise, Implantada); err == nil {
		t.Error("implanted without approval")
	}
}
