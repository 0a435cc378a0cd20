package sale

import (
	"net/http"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// questionnaireScopes are the scopes that read and answer a questionnaire:
// the insurer API's, and the one the forms widget's token carries
// (insurance SUMMARY §2.1, §3.10), so a partner posting the evidenced
// token to the widget sees it work.
var questionnaireScopes = []string{"apiseguradora", "api.questionario"}

// Routes is every route of the sale: the insurer API, the questionnaire
// service, access management, the portal's offer grants and the sale's control routes (the outbox of
// signature codes, the card widget's pre-authorisation).
func (s *Service) Routes() []httpx.Route {
	ins := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return wire.Route("insurer", httpx.Scopes("apiseguradora"), method, path, answer, f, doc)
	}
	quest := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return wire.Route("insurer", questionnaireScopes, method, path, answer, f, doc)
	}
	qs := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return wire.Route("questionnaire", questionnaireScopes, method, path, answer, f, doc)
	}
	acc := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return wire.Route("access", httpx.Scopes("apicontroleacesso"), method, path, answer, f, doc)
	}
	portal := func(method, path string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "portal", Method: method, Path: path, Auth: httpx.Account, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		ins(http.MethodGet, "/modeloproposta", "insurance/modeloproposta.list", s.listOffers, "the offers the company may sell"),
		ins(http.MethodGet, "/modeloproposta/{id}", "insurance/modeloproposta", s.getOffer, "one offer"),
		quest(http.MethodGet, "/questionario", "insurance/questionario.list", s.listQuestionarios, "an offer's questionnaires"),
		quest(http.MethodGet, "/questionario/{id:[0-9]+}", "insurance/questionario", s.getQuestionario, "one questionnaire (v2 Questionario/{id})"),
		ins(http.MethodGet, "/produto", "insurance/produto.list", s.listProdutos, "an offer's products"),
		ins(http.MethodGet, "/produto/{id:[0-9]+}", "insurance/produto", s.getProduto, "one product"),
		ins(http.MethodGet, "/dominio/{id}", "insurance/dominio", s.getDominio, "a domain list (CBO: the professions)"),
		ins(http.MethodPost, "/simulacao", "insurance/simulacao", s.postSimulacao, "price a profile").WithRequest("insurance/simulacao.request"),
		ins(http.MethodPost, "/simulacao/", "insurance/simulacao", s.postSimulacao, "price a profile").WithRequest("insurance/simulacao.request"),
		wire.Route("insurer", httpx.Scopes("apiunderwriting"), http.MethodPost, "/proposals/{codigo}/next-number", "insurance/reserva", s.reserveNumber, "reserve a proposal number"),
		ins(http.MethodPost, "/proposta", "insurance/proposta.created", s.postProposta, "register a proposal").WithRequest("insurance/proposta.request"),
		ins(http.MethodPost, "/proposta/{codigo}", "insurance/proposta.created", s.postProposta, "register a proposal").WithRequest("insurance/proposta.request"),
		ins(http.MethodPost, "/venda", "insurance/venda", s.postVenda, "register a proposal (v2 DadosRegistrarVenda: CNPJ and offer in the body)"),
		ins(http.MethodGet, "/proposta/{numero:[0-9]+}", "insurance/proposta", s.getProposta, "a proposal"),
		ins(http.MethodPatch, "/proposta/{numero:[0-9]+}", "insurance/proposta.cancelled", s.cancelProposta, "cancel a proposal").WithRequest("insurance/proposta.cancel"),
		ins(http.MethodPatch, "/proposta", "insurance/proposta.cancelled", s.cancelProposta, "cancel a proposal (v2: its id in the body)").WithRequest("insurance/proposta.cancel"),
		ins(http.MethodGet, "/agendamentomedico/{id:[0-9]+}", "insurance/agendamentomedico", s.getAgendamentoMedico, "a proposal's medical examinations"),
		ins(http.MethodGet, "/proposta/{numero:[0-9]+}/timeline", "insurance/timeline", s.timeline, "a proposal's timeline"),
		ins(http.MethodGet, "/timeline", "insurance/timeline", s.timeline, "a proposal's timeline"),
		quest(http.MethodGet, "/proposta/{numero:[0-9]+}/questionario/{questionarioId:[0-9]+}", "insurance/questionario.respostas", s.getRespostas, "a questionnaire's answers"),
		quest(http.MethodPut, "/proposta/{numero:[0-9]+}/questionario/{questionarioId:[0-9]+}", "insurance/questionario.respostas", s.putRespostas, "answer a questionnaire").WithRequest("insurance/questionario.respostas.request"),
		ins(http.MethodGet, "/proposta/{numero:[0-9]+}/pendencia", "insurance/pendencia.list", s.listPendencias, "a proposal's pendings"),
		ins(http.MethodGet, "/pendencia", "insurance/pendencia.list", s.listPendencias, "a proposal's pendings"),
		ins(http.MethodPut, "/pendencia/{id:[0-9]+}", "insurance/pendencia", s.answerPendencia, "answer a pending").WithRequest("insurance/pendencia.answer"),
		ins(http.MethodPut, "/pendencia", "insurance/pendencia", s.answerPendencia, "answer a pending (v2: its id in the body)").WithRequest("insurance/pendencia.answer"),
		ins(http.MethodPost, "/documento", "insurance/documento.created", s.postDocumento, "file a document in the GED (v2 Documento)").WithRequest("insurance/documento.request"),
		ins(http.MethodGet, "/documento", "insurance/documento.list", s.listDocumentos, "documents filed under an index"),
		ins(http.MethodGet, "/documento/{id}", "insurance/documento", s.getDocumento, "a document (its pages' sizes, not their content)"),

		acc(http.MethodPost, "/token/user", "insurance/token", s.postTokenUser, "send a one-time signature code").WithRequest("insurance/token.request"),
		acc(http.MethodPost, "/token/user/{cpf}/system/{systemId}", "insurance/token", s.postTokenUser, "send a one-time signature code").WithRequest("insurance/token.request"),
		acc(http.MethodGet, "/user/{username}", "insurance/user", s.getUser, "an access-management user (the customer who signs)"),
		acc(http.MethodPost, "/user", "insurance/user", s.postUser, "register the customer who signs").WithRequest("insurance/user.request"),
		acc(http.MethodPost, "/signature", "insurance/signature", s.postSignature, "sign with the customer's one-time code: signs the customer's next proposal").WithRequest("insurance/signature.request"),

		qs(http.MethodGet, "/Questionario/{id:[0-9]+}", "insurance/questionario.servico", s.getQuestionarioServico, "a questionnaire's questions (VersaoQuestionario[0].Perguntas)"),
		qs(http.MethodGet, "/Dominio", "insurance/dominio.servico", s.listDominiosServico, "the domain lists and where they are"),
		qs(http.MethodGet, "/Pergunta/{id:[0-9]+}", "insurance/pergunta.servico", s.getPerguntaServico, "one question"),
		qs(http.MethodPost, "/Pergunta", "", s.postPerguntaServico, "the insurer's question catalogue: refused (403)"),
		qs(http.MethodPost, "/Resposta", "insurance/resposta.servico", s.postRespostaServico, "a proposal's answers (Localizador, Resposta: the questionnaire answered)").WithRequest("insurance/resposta.servico.request"),

		wire.Control(http.MethodGet, "/outbox", "insurance/outbox", s.outbox, "signature codes sent to the caller company's customers (the operator sees every company's)"),
		wire.Control(http.MethodPost, "/cartao/preautorizacao", "insurance/preautorizacao", s.preauthorize, "the card widget's pre-authorisation").WithRequest("insurance/preautorizacao.request"),
		wire.Control(http.MethodPut, "/offers/{offer}", "", s.grantOwnOffer, "the company may sell an offer (its own sandbox: it plays the insurer's commercial area)"),

		portal(http.MethodGet, "/companies/{id}/offers", s.companyOffers, "a company's offers"),
		portal(http.MethodPut, "/companies/{id}/offers/{offer}", s.grantOffer, "grant an offer to a company"),
		portal(http.MethodDelete, "/companies/{id}/offers/{offer}", s.revokeOffer, "revoke an offer"),
	}
}
