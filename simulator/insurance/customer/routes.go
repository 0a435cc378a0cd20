package customer

import (
	"net/http"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// Routes is every route of the customer cycle: the enrollments the
// insurer API shows too, the customer API, and the readjustment indices'
// control routes.
func (s *Service) Routes() []httpx.Route {
	ins := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return wire.Route("insurer", httpx.Scopes("apiseguradora"), method, path, answer, f, doc)
	}
	cus := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return wire.Route("customer", httpx.Scopes("apicliente"), method, path, answer, f, doc)
	}
	return []httpx.Route{
		ins(http.MethodGet, "/inscricao", "insurance/inscricao.list", s.listInscricoes, "enrollments"),
		ins(http.MethodGet, "/inscricao/{id:[0-9]+}", "insurance/inscricao", s.getInscricao, "an enrollment"),

		cus(http.MethodGet, "/inscricao", "insurance/inscricao.list", s.listInscricoes, "enrollments"),
		cus(http.MethodGet, "/inscricao/{id:[0-9]+}", "insurance/inscricao", s.getInscricao, "an enrollment"),
		cus(http.MethodGet, "/inscricao/{id:[0-9]+}/cobrancas", "insurance/cobranca.list", s.listCobrancas, "an enrollment's charges"),
		cus(http.MethodPost, "/inscricao/{id:[0-9]+}/cancelamento", "insurance/inscricao.cancelamento.answer", s.cancelInscricao, "cancel an enrollment").WithRequest("insurance/inscricao.cancelamento"),
		cus(http.MethodPost, "/inscricao/{id:[0-9]+}/reducao", "insurance/inscricao", s.reduceInscricao, "lower an enrollment's capital or premium").WithRequest("insurance/inscricao.reducao"),
		cus(http.MethodPut, "/inscricao/{id:[0-9]+}/forma-cobranca", "insurance/inscricao", s.changeBilling, "change the billing method").WithRequest("insurance/inscricao.forma-cobranca"),
		cus(http.MethodPut, "/inscricao/{id:[0-9]+}/dados-cadastrais", "insurance/inscricao", s.changeRegistration, "change registration data").WithRequest("insurance/inscricao.dados-cadastrais"),
		cus(http.MethodGet, "/cobranca/{id:[0-9]+}", "insurance/cobranca", s.getCobranca, "a charge"),
		cus(http.MethodGet, "/comissao", "insurance/comissao.list", s.listComissoes, "commissions"),
		cus(http.MethodGet, "/regracomissao", "insurance/regracomissao", s.getCommissionRule, "an offer's commission rule"),

		wire.Control(http.MethodGet, "/indices/{indice}", "", s.getIndex, "a readjustment index table as the caller sees it: shipped months, then the sandbox-wide values, then its company's own"),
		wire.Control(http.MethodPost, "/comissoes/pagamento", "", s.payoutNow, "the insurer pays the company's accrued commissions now (the month's payout, early): each becomes PAGA"),
		wire.Control(http.MethodPut, "/indices/{indice}", "", s.putIndex, "set index values: a company's own, or (operator) the sandbox-wide ones").WithRequest("insurance/indices.request"),
	}
}
