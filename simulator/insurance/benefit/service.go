package benefit

import (
	"homologa/simulator/insurance/customer"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/statemachine"
)

// Service is the benefit cycle.
type Service struct {
	wire.Platform
	// Customer holds the enrollments benefits are claimed on, and ends
	// them when a paid benefit does.
	Customer *customer.Service
	// Sale holds the proposals: who the beneficiaries are.
	Sale *sale.Service
}

// Machines are the state machines of the benefit cycle's resources; the
// server guards their tables so that only their moves change a status.
func Machines() []*statemachine.Machine {
	return []*statemachine.Machine{beneficioMachine, pendenciaMachine}
}
