package wire

import "homologa/simulator/statemachine"

// The states of a pending, of a proposal or of a benefit (SUMMARY §5.2).
const (
	Aberta     = "ABERTA"
	Respondida = "RESPONDIDA"
	Resolvida  = "RESOLVIDA"
	Rejeitada  = "REJEITADA"
	// PendCancelada is a pending whose resource ended first.
	PendCancelada = "CANCELADA"
)

// PendenciaMachine is the life of a pending; answered is the event of
// the partner's answer (proposta.pendencia_respondida, …).
func PendenciaMachine(resource, table, answered string) *statemachine.Machine {
	return &statemachine.Machine{
		Resource: resource,
		Table:    table,
		Initial:  Aberta,
		Edges: map[string][]statemachine.Edge{
			Aberta:     {{To: Respondida, Type: answered, Name: "Pendência Respondida"}, {To: PendCancelada}},
			Respondida: {{To: Resolvida}, {To: Rejeitada}, {To: PendCancelada}},
		},
	}
}
