package wire

import (
	"context"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/clock"
	"homologa/simulator/events"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/scenario"
	"homologa/simulator/schema"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// Platform is the sandbox's plumbing each insurance cycle works with; the
// server makes one and gives it to the three.
type Platform struct {
	DB *store.DB
	// Clocks is the sandbox's time: every company reads its own clock,
	// and so does everything it owns (NowOf).
	Clocks   *clock.Clocks
	Auth     *auth.Service
	Bus      *events.Bus
	Machines *statemachine.Applier
	Schemas  *schema.Registry
	// Scenarios drives the resources after they are created; nil runs
	// none (the route table is read without a running sandbox).
	Scenarios *scenario.Engine
	Catalog   *catalog.Catalog
}

// NowOf is a company's time: what it owns (its proposals, enrollments,
// charges, commissions, benefits) lives on its own clock, whoever works on
// it (its request, a job, a scenario, the operator), so one company's
// advance never ages another's resources.
func (p *Platform) NowOf(companyID string) time.Time { return p.Clocks.NowOf(companyID) }

// Event is an event of a cycle about one of its resources.
type Event struct {
	Type, Name string
	Subject    map[string]any
	// Key orders the events of one resource (proposta:100001).
	Key  string
	Data any
}

// Owner is the principal an app's resource belongs to: its events go to
// that app.
func (p *Platform) Owner(ctx context.Context, tx *store.Tx, appID string) (auth.Principal, error) {
	return p.Auth.AppPrincipal(ctx, tx, appID)
}

// Emit sends ev to the app's webhook and the stream.
func (p *Platform) Emit(ctx context.Context, tx *store.Tx, to auth.Principal, ev Event) error {
	_, err := p.Bus.Emit(ctx, tx, events.Event{AppID: to.AppID, CNPJ: to.CNPJ, Type: ev.Type, Name: ev.Name,
		Subject: ev.Subject, SubjectKey: ev.Key, Data: ev.Data})
	return err
}

// EmitStream sends ev to the stream only: what a partner's webhook must
// never receive.
func (p *Platform) EmitStream(ctx context.Context, tx *store.Tx, to auth.Principal, ev Event) error {
	_, err := p.Bus.Emit(ctx, tx, events.Event{AppID: to.AppID, CNPJ: to.CNPJ, Type: ev.Type, Name: ev.Name,
		Subject: ev.Subject, SubjectKey: ev.Key, Data: ev.Data, Targets: []events.Target{}})
	return err
}

// EmitFor sends ev to the app that owns the resource.
func (p *Platform) EmitFor(ctx context.Context, tx *store.Tx, appID string, ev Event) error {
	own, err := p.Owner(ctx, tx, appID)
	if err != nil {
		return err
	}
	return p.Emit(ctx, tx, own, ev)
}

// Move applies m to a resource of appID, whose event (when the edge has
// one) goes to that app.
func (p *Platform) Move(ctx context.Context, tx *store.Tx, appID string, m statemachine.Move) error {
	own, err := p.Owner(ctx, tx, appID)
	if err != nil {
		return err
	}
	m.AppID, m.CNPJ = own.AppID, own.CNPJ
	_, err = p.Machines.Apply(ctx, tx, m)
	return err
}

// Bind starts the scenario of a resource just created.
func (p *Platform) Bind(ctx context.Context, tx *store.Tx, r scenario.Resource) error {
	if p.Scenarios == nil {
		return nil
	}
	return p.Scenarios.Bind(ctx, tx, r)
}

// Trigger tells the scenario of resource kind id what happened to it.
func (p *Platform) Trigger(ctx context.Context, tx *store.Tx, kind string, id int64, trigger string) error {
	if p.Scenarios == nil {
		return nil
	}
	return p.Scenarios.Trigger(ctx, tx, kind, ID(id), trigger)
}
