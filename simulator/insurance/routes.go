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
	cus := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return route("customer", method, path, httpx.Scopes("apicliente"), answer, f, doc)
	}
	ben := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return route("benefits", method, path, httpx.Scopes("apibeneficio"), answer, f, doc)
	}
	control := func(api, method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: api, Method: method, Path: path, Auth: httpx.AppOptional, Answer: answer, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		ins(http.MethodGet, "/inscricao", "insurance/inscricao.list", s.listInscricoes, "enrollments"),
		ins(http.MethodGet, "/inscricao/{id:[0-9]+}", "insurance/inscricao", s.getInscricao, "an enrollment"),

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

		control("sandbox", http.MethodGet, "/indices/{indice}", "", s.getIndex, "a readjustment index table"),
		control("sandbox", http.MethodPut, "/indices/{indice}", "", s.putIndex, "set a readjustment index table"),
	}
}
