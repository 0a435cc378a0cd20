package insurance

import (
	"net/http"

	"homologa/simulator/httpx"
)

// Routes is every route the insurance APIs own: the insurer API (sale
// cycle), access management, the customer and benefits APIs, the portal's
// offer grants and the control routes of the sale (the outbox of signature
// codes, the card widget's pre-authorisation, the readjustment indices).
func (s *Service) Routes() []httpx.Route {
	route := func(api, method, path string, scopes []string, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: api, Method: method, Path: path, Auth: httpx.App, Scopes: scopes,
			Idempotent: method == http.MethodPost, Answer: answer, Handler: f, Doc: doc}
	}
	ins := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return route("insurer", method, path, httpx.Scopes("apiseguradora"), answer, f, doc)
	}
	quest := httpx.Scopes(questionnaireScopes...)
	cus := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return route("customer", method, path, httpx.Scopes("apicliente"), answer, f, doc)
	}
	ben := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return route("benefits", method, path, httpx.Scopes("apibeneficio"), answer, f, doc)
	}
	control := func(api, method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: api, Method: method, Path: path, Auth: httpx.Tenant, Answer: answer, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		ins(http.MethodGet, "/modeloproposta", "insurance/modeloproposta.list", s.listOffers, "the offers the company may sell"),
		ins(http.MethodGet, "/modeloproposta/{id}", "insurance/modeloproposta", s.getOffer, "one offer"),
		route("insurer", http.MethodGet, "/questionario", quest, "insurance/questionario.list", s.questionnaires, "an offer's questionnaires"),
		ins(http.MethodPost, "/simulacao", "insurance/simulacao", s.simulate, "price a profile"),
		ins(http.MethodPost, "/simulacao/", "insurance/simulacao", s.simulate, "price a profile"),
		route("insurer", http.MethodPost, "/proposals/{codigo}/next-number", httpx.Scopes("apiunderwriting"), "insurance/reserva", s.reserveNumber, "reserve a proposal number"),
		ins(http.MethodPost, "/proposta", "insurance/proposta.created", s.postProposta, "register a proposal"),
		ins(http.MethodPost, "/proposta/{codigo}", "insurance/proposta.created", s.postProposta, "register a proposal"),
		ins(http.MethodGet, "/proposta/{numero:[0-9]+}", "insurance/proposta", s.getProposta, "a proposal"),
		ins(http.MethodPatch, "/proposta/{numero:[0-9]+}", "insurance/proposta.cancelled", s.cancelProposta, "cancel a proposal"),
		ins(http.MethodGet, "/proposta/{numero:[0-9]+}/timeline", "insurance/timeline", s.timeline, "a proposal's timeline"),
		ins(http.MethodGet, "/timeline", "insurance/timeline", s.timeline, "a proposal's timeline"),
		route("insurer", http.MethodGet, "/proposta/{numero:[0-9]+}/questionario/{questionarioId:[0-9]+}", quest, "insurance/questionario.respostas", s.getRespostas, "a questionnaire's answers"),
		route("insurer", http.MethodPut, "/proposta/{numero:[0-9]+}/questionario/{questionarioId:[0-9]+}", quest, "insurance/questionario.respostas", s.putRespostas, "answer a questionnaire"),
		ins(http.MethodGet, "/proposta/{numero:[0-9]+}/pendencia", "insurance/pendencia.list", s.listPendencias, "a proposal's pendings"),
		ins(http.MethodGet, "/pendencia", "insurance/pendencia.list", s.listPendencias, "a proposal's pendings"),
		ins(http.MethodPut, "/pendencia/{id:[0-9]+}", "insurance/pendencia", s.answerPendencia, "answer a pending"),
		ins(http.MethodGet, "/inscricao", "insurance/inscricao.list", s.listInscricoes, "enrollments"),
		ins(http.MethodGet, "/inscricao/{id:[0-9]+}", "insurance/inscricao", s.getInscricao, "an enrollment"),

		route("access", http.MethodPost, "/token/user", httpx.Scopes("apicontroleacesso"), "insurance/token", s.postTokenUser, "send a one-time signature code"),
		route("access", http.MethodPost, "/token/user/{cpf}/system/{systemId}", httpx.Scopes("apicontroleacesso"), "insurance/token", s.postTokenUser, "send a one-time signature code"),

		cus(http.MethodGet, "/inscricao", "insurance/inscricao.list", s.listInscricoes, "enrollments"),
		cus(http.MethodGet, "/inscricao/{id:[0-9]+}", "insurance/inscricao", s.getInscricao, "an enrollment"),
		cus(http.MethodGet, "/inscricao/{id:[0-9]+}/cobrancas", "insurance/cobranca.list", s.listCobrancas, "an enrollment's charges"),
		cus(http.MethodPost, "/inscricao/{id:[0-9]+}/cancelamento", "insurance/inscricao.cancelamento.answer", s.cancelInscricao, "cancel an enrollment"),
		cus(http.MethodPost, "/inscricao/{id:[0-9]+}/reducao", "insurance/inscricao", s.reduceInscricao, "lower an enrollment's capital or premium"),
		cus(http.MethodPut, "/inscricao/{id:[0-9]+}/forma-cobranca", "insurance/inscricao", s.changeBilling, "change the billing method"),
		cus(http.MethodPut, "/inscricao/{id:[0-9]+}/dados-cadastrais", "insurance/inscricao", s.changeRegistration, "change registration data"),
		cus(http.MethodGet, "/cobranca/{id:[0-9]+}", "insurance/cobranca", s.getCobranca, "a charge"),
		cus(http.MethodGet, "/comissao", "insurance/comissao.list", s.listComissoes, "commissions"),
		cus(http.MethodGet, "/regracomissao", "insurance/regracomissao", s.getCommissionRule, "an offer's commission rule"),

		ben(http.MethodPost, "/beneficio", "insurance/beneficio.created", s.postBeneficio, "give a benefit notice"),
		ben(http.MethodGet, "/beneficio", "insurance/beneficio.list", s.listBeneficios, "benefits"),
		ben(http.MethodGet, "/beneficio/{id:[0-9]+}", "insurance/beneficio", s.getBeneficio, "a benefit"),
		ben(http.MethodGet, "/beneficio/{id:[0-9]+}/timeline", "insurance/beneficio.timeline", s.beneficioTimeline, "a benefit's timeline"),
		ben(http.MethodGet, "/beneficio/{id:[0-9]+}/pendencias", "insurance/beneficio.pendencia.list", s.listBenPendencias, "a benefit's pendings"),
		ben(http.MethodPut, "/beneficio/{id:[0-9]+}/pendencias/{pendenciaId:[0-9]+}", "insurance/beneficio.pendencia", s.answerBenPendencia, "answer a benefit's pending"),
		ben(http.MethodPost, "/beneficio/{id:[0-9]+}/reabertura", "insurance/beneficio", s.reopenBeneficio, "reopen a refused benefit"),

		control("sandbox", http.MethodGet, "/outbox", "insurance/outbox", s.outbox, "signature codes sent to customers"),
		control("sandbox", http.MethodPost, "/cartao/preautorizacao", "insurance/preautorizacao", s.preauthorize, "the card widget's pre-authorisation"),
		control("sandbox", http.MethodGet, "/indices/{indice}", "", s.getIndex, "a readjustment index table"),
		{API: "sandbox", Method: http.MethodPut, Path: "/indices/{indice}", Auth: httpx.Operator, Handler: httpx.HandlerFunc(s.putIndex), Doc: "set a readjustment index table (sandbox-wide)"},

		{API: "portal", Method: http.MethodGet, Path: "/companies/{id}/offers", Auth: httpx.Public, Handler: httpx.HandlerFunc(s.companyOffers), Doc: "a company's offers"},
		{API: "portal", Method: http.MethodPut, Path: "/companies/{id}/offers/{offer}", Auth: httpx.Public, Handler: httpx.HandlerFunc(s.grantOffer), Doc: "grant an offer to a company"},
		{API: "portal", Method: http.MethodDelete, Path: "/companies/{id}/offers/{offer}", Auth: httpx.Public, Handler: httpx.HandlerFunc(s.revokeOffer), Doc: "revoke an offer"},
	}
}
