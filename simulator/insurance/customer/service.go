package customer

import (
	"homologa/simulator/insurance/wire"
	"homologa/simulator/jobs"
	"homologa/simulator/statemachine"
)

// Service is the customer cycle.
type Service struct {
	wire.Platform
	// Jobs runs the cycle's scheduled work (RegisterJobs sets it).
	Jobs *jobs.Scheduler
}

// Machines are the state machines of the customer cycle's resources; the
// server guards their tables so that only their moves change a status.
func Machines() []*statemachine.Machine {
	return []*statemachine.Machine{inscricaoMachine, cobrancaMachine, comissaoMachine}
}
