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
	"sync"

	"homologa/simulator/auth"
	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
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

	numMu sync.Mutex // proposal numbers are handed out in order
}

// Route registers one partner route with its scope.
type Route func(method, path, scope string, h http.Handler)

// Register adds the routes of the insurer API (/insurer/v1), the
// access-management API (/access/v1), the customer API (/customer/v1) and
// the benefits API (/benefits/v1).
func (s *Service) Register(insurer, access, customer, benefits Route) {
	s.registerCustomer(customer)
	s.registerBenefits(benefits)
	insurer(http.MethodGet, "/modeloproposta", "apiseguradora", httpx.HandlerFunc(s.listOffers))
	insurer(http.MethodGet, "/modeloproposta/{id}", "apiseguradora", httpx.HandlerFunc(s.getOffer))
	insurer(http.MethodGet, "/questionario", "", anyScope(s.questionnaires, questionnaireScopes...))
	insurer(http.MethodPost, "/simulacao", "apiseguradora", httpx.HandlerFunc(s.simulate))
	insurer(http.MethodPost, "/simulacao/", "apiseguradora", httpx.HandlerFunc(s.simulate))
	insurer(http.MethodPost, "/proposals/{codigo}/next-number", "apiunderwriting", httpx.HandlerFunc(s.reserveNumber))
	insurer(http.MethodPost, "/proposta", "apiseguradora", httpx.HandlerFunc(s.postProposta))
	insurer(http.MethodPost, "/proposta/{codigo}", "apiseguradora", httpx.HandlerFunc(s.postProposta))
	insurer(http.MethodGet, "/proposta/{numero:[0-9]+}", "apiseguradora", httpx.HandlerFunc(s.getProposta))
	insurer(http.MethodPatch, "/proposta/{numero:[0-9]+}", "apiseguradora", httpx.HandlerFunc(s.cancelProposta))
	insurer(http.MethodGet, "/proposta/{numero:[0-9]+}/timeline", "apiseguradora", httpx.HandlerFunc(s.timeline))
	insurer(http.MethodGet, "/timeline", "apiseguradora", httpx.HandlerFunc(s.timeline))
	insurer(http.MethodGet, "/proposta/{numero:[0-9]+}/questionario/{questionarioId:[0-9]+}", "", anyScope(s.getRespostas, questionnaireScopes...))
	insurer(http.MethodPut, "/proposta/{numero:[0-9]+}/questionario/{questionarioId:[0-9]+}", "", anyScope(s.putRespostas, questionnaireScopes...))
	insurer(http.MethodGet, "/proposta/{numero:[0-9]+}/pendencia", "apiseguradora", httpx.HandlerFunc(s.listPendencias))
	insurer(http.MethodGet, "/pendencia", "apiseguradora", httpx.HandlerFunc(s.listPendencias))
	insurer(http.MethodPut, "/pendencia/{id:[0-9]+}", "apiseguradora", httpx.HandlerFunc(s.answerPendencia))
	insurer(http.MethodGet, "/inscricao", "apiseguradora", httpx.HandlerFunc(s.listInscricoes))
	insurer(http.MethodGet, "/inscricao/{id:[0-9]+}", "apiseguradora", httpx.HandlerFunc(s.getInscricao))

	access(http.MethodPost, "/token/user", "apicontroleacesso", httpx.HandlerFunc(s.postTokenUser))
	access(http.MethodPost, "/token/user/{cpf}/system/{systemId}", "apicontroleacesso", httpx.HandlerFunc(s.postTokenUser))
}

// RegisterControl adds the control routes under /sandbox: the e-mail/SMS
// outbox of signature codes and the card pre-authorisations the
// credit-card widget makes.
func (s *Service) RegisterControl(route func(method, path string, h http.Handler)) {
	route(http.MethodGet, "/outbox", httpx.HandlerFunc(s.outbox))
	route(http.MethodPost, "/cartao/preautorizacao", httpx.HandlerFunc(s.preauthorize))
	route(http.MethodGet, "/indices/{indice}", httpx.HandlerFunc(s.getIndex))
	route(http.MethodPut, "/indices/{indice}", httpx.HandlerFunc(s.putIndex))
}

// RegisterPortal adds the portal's offer grants.
func (s *Service) RegisterPortal(route func(method, path string, h http.Handler)) {
	route(http.MethodGet, "/companies/{id}/offers", httpx.HandlerFunc(s.companyOffers))
	route(http.MethodPut, "/companies/{id}/offers/{offer}", httpx.HandlerFunc(s.grantOffer))
	route(http.MethodDelete, "/companies/{id}/offers/{offer}", httpx.HandlerFunc(s.revokeOffer))
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
