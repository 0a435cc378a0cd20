package sale

import (
	"context"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// Service is the sale cycle.
type Service struct {
	wire.Platform
	// Enrollments is the customer cycle, as implantation and a proposal's
	// summary need it.
	Enrollments Enrollments
}

// Enrollments is what the sale needs of the customer cycle: the server
// wires it in, so that the sale does not depend on it.
type Enrollments interface {
	// Enroll opens the enrollment of one plan of an implanted proposal and
	// returns its id.
	Enroll(ctx context.Context, tx *store.Tx, p Plano) (int64, error)
	// InscricoesOf lists the ids of the enrollments of the company's
	// proposal numero.
	InscricoesOf(ctx context.Context, tx *store.Tx, companyID string, numero int64) ([]int64, error)
}

// Machines are the state machines of the sale's resources; the server
// guards their tables so that only their moves change a status.
func Machines() []*statemachine.Machine {
	return []*statemachine.Machine{propostaMachine, pendenciaMachine}
}
