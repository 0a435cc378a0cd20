// Package insurance is the sale cycle of the insurer's partner API (SPEC
// area A; insurance SUMMARY for the evidenced names): offers by CNPJ,
// simulation, signature tokens, proposals with their analysis, pendings
// and timeline, and the enrollments implantation creates. Answers use the
// insurer's envelope {Valor, Mensagens, HouveErrosDuranteProcessamento}.
package insurance

import (
	"context"
	"log/slog"
	"net/http"

	"homologa/simulator/auth"
	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/jobs"
	"homologa/simulator/scenario"
	"homologa/simulator/schema"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// Service is the insurance half of the sandbox.
type Service struct {
	DB        *store.DB
	Clock     *clock.Clock
	Auth      *auth.Service
	Bus       *events.Bus
	Machines  *statemachine.Applier
	Schemas   *schema.Registry
	Scenarios *scenario.Engine
	Catalog   *catalog.Catalog
	Log       *slog.Logger
	// Jobs runs the customer cycle's scheduled work (RegisterJobs sets it).
	Jobs *jobs.Scheduler
	// Sale is the sale cycle, whose proposals enrollments come from.
	Sale *sale.Service
}

// envelope is a successful ResultadoDaOperacao.
func envelope(v any) httpx.InsurerEnvelope {
	return httpx.InsurerEnvelope{Valor: v, Mensagens: []httpx.InsurerMensagem{}}
}

func ok(v any) *httpx.Reply      { return httpx.OK(envelope(v)) }
func created(v any) *httpx.Reply { return httpx.Created(envelope(v)) }

func principal(r *http.Request) auth.Principal {
	p, _ := auth.PrincipalOf(r.Context())
	return p
}

// rule is a business-rule violation (422) naming its field.
func rule(field, code, format string, args ...any) *errs.Error {
	e := errs.Invalidf(field, format, args...)
	e.Code, e.Type = errs.Unprocessable, code
	return e
}

// rules collects several violations into one 422.
func rules(code string, vs []errs.Violation) *errs.Error {
	return &errs.Error{Code: errs.Unprocessable, Type: code, Message: "the request breaks the offer's rules", Violations: vs}
}

// emit sends an event of the cycle to the app's webhook and the stream.
func (s *Service) emit(ctx context.Context, tx *store.Tx, p auth.Principal, typ, name string, subject map[string]any, key string, data any) error {
	_, err := s.Bus.Emit(ctx, tx, eventFor(p, typ, name, subject, key, data, false))
	return err
}

func eventFor(p auth.Principal, typ, name string, subject map[string]any, key string, data any, streamOnly bool) events.Event {
	ev := events.Event{AppID: p.AppID, CNPJ: p.CNPJ, Type: typ, Name: name, Subject: subject, SubjectKey: key, Data: data}
	if streamOnly {
		ev.Targets = []events.Target{}
	}
	return ev
}

// Machines are the state machines of the insurance resources; the server
// guards their tables so that only their moves change a status.
func Machines() []*statemachine.Machine {
	return []*statemachine.Machine{inscricaoMachine, cobrancaMachine, beneficioMachine, benPendenciaMachine}
}
