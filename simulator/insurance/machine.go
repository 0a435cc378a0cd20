package insurance

import (
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
)

// The proposal states (insurance SUMMARY §5.1) and their numeric codes, so
// STATUS_ATUAL can be a code as the one seen (8 = implantada).
const (
	Recebida   = "RECEBIDA"
	EmAnalise  = "EM_ANALISE"
	Pendente   = "PENDENTE"
	Aprovada   = "APROVADA"
	Implantada = "IMPLANTADA"
	Recusada   = "RECUSADA"
	Cancelada  = "CANCELADA"
)

var statusCode = map[string]string{Recebida: "1", EmAnalise: "2", Pendente: "3", Aprovada: "4", Implantada: "8", Recusada: "9", Cancelada: "10"}

func statusEdge(to string) statemachine.Edge {
	return statemachine.Edge{To: to, Type: "proposta.status", Name: "Status de Proposta"}
}

// propostaMachine is the life of a proposal. PENDENTE → PENDENTE is a
// further pending (an answer rejected): it emits no status event, only the
// Pendência de Proposta of the new pending. Implantation emits Proposta
// Implantada instead of a status event.
var propostaMachine = &statemachine.Machine{
	Resource: "proposta",
	Table:    "propostas",
	Initial:  Recebida,
	Edges: map[string][]statemachine.Edge{
		Recebida:  {statusEdge(EmAnalise), statusEdge(Cancelada)},
		EmAnalise: {statusEdge(Pendente), statusEdge(Aprovada), statusEdge(Recusada), statusEdge(Cancelada)},
		Pendente:  {{To: Pendente}, statusEdge(EmAnalise), statusEdge(Recusada), statusEdge(Cancelada)},
		Aprovada:  {{To: Implantada, Type: "proposta.implantada", Name: "Proposta Implantada"}, statusEdge(Cancelada)},
	},
}

// The pending states (SUMMARY §5.2).
const (
	Aberta     = "ABERTA"
	Respondida = "RESPONDIDA"
	Resolvida  = "RESOLVIDA"
	Rejeitada  = "REJEITADA"
	// PendCancelada is a pending whose proposal ended first.
	PendCancelada = "CANCELADA"
)

var pendenciaMachine = &statemachine.Machine{
	Resource: "pendencia",
	Table:    "pendencias",
	Initial:  Aberta,
	Edges: map[string][]statemachine.Edge{
		Aberta:     {{To: Respondida, Type: "proposta.pendencia_respondida", Name: "Pendência Respondida"}, {To: PendCancelada}},
		Respondida: {{To: Resolvida}, {To: Rejeitada}, {To: PendCancelada}},
	},
}

// ScenarioKinds is the proposal as scenarios see it:
//   - status: EM_ANALISE (also: the insurer accepts the answered pendings),
//     APROVADA, IMPLANTADA (creates the enrollments), CANCELADA;
//   - pending: {code, description, group}: raises a pending (the answered
//     ones it replaces are rejected);
//   - refuse: {reason}: RECUSADA with the reason;
//   - emit: an event of the scenario's own.
//
// Triggers: pending_answered (the partner answered a pending), cancelled.
var ScenarioKinds = scenario.Kinds{
	"proposta": {
		Name: "proposta", Machine: propostaMachine,
		Verbs:    map[string]string{"status": "", "pending": Pendente, "refuse": Recusada, "emit": ""},
		Triggers: map[string]string{"pending_answered": Pendente, "cancelled": Cancelada},
	},
}
