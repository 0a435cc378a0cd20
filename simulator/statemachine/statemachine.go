package statemachine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/store"
)

// Edge is one allowed move and the event it emits (none when Type is "").
type Edge struct {
	To   string
	Type string // event type, e.g. "proposta.status"
	Name string // event name as the spec writes it, e.g. "Status de Proposta"
}

// Machine is the life of one kind of resource.
type Machine struct {
	Resource string
	// Table holds the resource, in a status column that only this
	// machine's moves may change (store.DB.GuardStatus).
	Table   string
	Initial string
	// Edges maps each state to its allowed moves; a state with none is final.
	Edges map[string][]Edge
}

// States lists every state the machine names, sorted.
func (m *Machine) States() []string {
	set := map[string]bool{m.Initial: true}
	for from, es := range m.Edges {
		set[from] = true
		for _, e := range es {
			set[e.To] = true
		}
	}
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Has reports whether state is a state of the machine.
func (m *Machine) Has(state string) bool { return slices.Contains(m.States(), state) }

// Final reports whether state allows no move.
func (m *Machine) Final(state string) bool { return len(m.Edges[state]) == 0 }

// Next lists the states reachable in one move from state.
func (m *Machine) Next(state string) []string {
	var out []string
	for _, e := range m.Edges[state] {
		out = append(out, e.To)
	}
	return out
}

// Check returns the edge from → to, or a 409 naming the allowed next states.
func (m *Machine) Check(from, to string) (Edge, error) {
	if !m.Has(to) {
		return Edge{}, errs.Errorf(errs.Invalid, "%s não tem o estado %q; estados: %s", m.Resource, to, strings.Join(m.States(), ", "))
	}
	for _, e := range m.Edges[from] {
		if e.To == to {
			return e, nil
		}
	}
	if m.Final(from) {
		return Edge{}, errs.Errorf(errs.Conflict, "%s está %s, um estado final; não pode passar a %s", m.Resource, from, to)
	}
	return Edge{}, errs.Errorf(errs.Conflict, "%s não pode passar de %s a %s; próximos estados permitidos: %s",
		m.Resource, from, to, strings.Join(m.Next(from), ", "))
}

// Validate checks that the machine is well formed: an initial state, and
// edges that name their events by type and name together.
func (m *Machine) Validate() error {
	if m.Resource == "" || m.Initial == "" {
		return fmt.Errorf("machine %q: resource and initial state are required", m.Resource)
	}
	for from, es := range m.Edges {
		seen := map[string]bool{}
		for _, e := range es {
			if e.To == "" {
				return fmt.Errorf("machine %s: an edge from %s has no target", m.Resource, from)
			}
			if seen[e.To] {
				return fmt.Errorf("machine %s: edge %s → %s declared twice", m.Resource, from, e.To)
			}
			seen[e.To] = true
			if (e.Type == "") != (e.Name == "") {
				return fmt.Errorf("machine %s: edge %s → %s names its event by half", m.Resource, from, e.To)
			}
		}
	}
	return nil
}

// Move is one move of one resource.
type Move struct {
	Machine *Machine
	From    string
	To      string
	// AppID and CNPJ own the resource; the event goes to them.
	AppID string
	CNPJ  string
	// Subject, SubjectKey and Data go into the event.
	Subject    map[string]any
	SubjectKey string
	Data       any
	// Targets, when not nil, replaces the app's webhook as where the
	// event is delivered (empty: the stream only), as events.Event says.
	Targets []events.Target
	// Store writes the new state with the domain's own SQL.
	Store func(ctx context.Context, tx *store.Tx) error
	// Scenario names the resource in the scenario engine and what the
	// move tells its scenario; the engine hears it as an observer.
	Scenario Tell
}

// Tell is what a move tells the scenario bound to the resource: Kind and
// Key find the binding, Trigger is the trigger a step may wait for
// ("paid", "cancelled"). A zero Tell tells nothing.
type Tell struct {
	Kind, Key, Trigger string
}

// Observer hears every applied move inside its transaction, so that what it
// schedules commits or rolls back with the move.
type Observer func(ctx context.Context, tx *store.Tx, m Move, ev *events.Envelope) error

// Applier applies moves.
type Applier struct {
	Bus       *events.Bus
	observers []Observer
}

// Observe registers an observer.
func (a *Applier) Observe(o Observer) { a.observers = append(a.observers, o) }

// Apply validates the move, stores it, emits its event and tells the
// observers, all in tx. The envelope is nil when the edge emits nothing.
func (a *Applier) Apply(ctx context.Context, tx *store.Tx, m Move) (*events.Envelope, error) {
	edge, err := m.Machine.Check(m.From, m.To)
	if err != nil {
		return nil, err
	}
	if m.Store != nil {
		if err := tx.Move(func() error { return m.Store(ctx, tx) }); err != nil {
			return nil, fmt.Errorf("store %s %s → %s: %w", m.Machine.Resource, m.From, m.To, err)
		}
	}
	var env *events.Envelope
	if edge.Type != "" {
		e, err := a.Bus.Emit(ctx, tx, events.Event{
			AppID: m.AppID, CNPJ: m.CNPJ, Type: edge.Type, Name: edge.Name,
			Subject: m.Subject, SubjectKey: m.SubjectKey, Data: m.Data, Targets: m.Targets,
		})
		if err != nil {
			return nil, err
		}
		env = &e
	}
	for _, o := range a.observers {
		if err := o(ctx, tx, m, env); err != nil {
			return nil, fmt.Errorf("observe %s → %s: %w", m.From, m.To, err)
		}
	}
	return env, nil
}
