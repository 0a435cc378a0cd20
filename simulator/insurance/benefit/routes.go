package benefit

import (
	"net/http"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// Routes is every route of the benefits API.
func (s *Service) Routes() []httpx.Route {
	ben := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return wire.Route("benefits", httpx.Scopes("apibeneficio"), method, path, answer, f, doc)
	}
	return []httpx.Route{
		ben(http.MethodPost, "/beneficio", "insurance/beneficio.created", s.postBeneficio, "give a benefit notice").WithRequest("insurance/beneficio.request"),
		ben(http.MethodGet, "/beneficio", "insurance/beneficio.list", s.listBeneficios, "benefits"),
		ben(http.MethodGet, "/beneficio/{id:[0-9]+}", "insurance/beneficio", s.getBeneficio, "a benefit"),
		ben(http.MethodGet, "/beneficio/{id:[0-9]+}/timeline", "insurance/beneficio.timeline", s.beneficioTimeline, "a benefit's timeline"),
		ben(http.MethodGet, "/beneficio/{id:[0-9]+}/pendencias", "insurance/beneficio.pendencia.list", s.listPendencias, "a benefit's pendings"),
		ben(http.MethodPut, "/beneficio/{id:[0-9]+}/pendencias/{pendenciaId:[0-9]+}", "insurance/beneficio.pendencia", s.answerPendencia, "answer a benefit's pending").WithRequest("insurance/beneficio.pendencia.answer"),
		ben(http.MethodPost, "/beneficio/{id:[0-9]+}/reabertura", "insurance/beneficio", s.reopenBeneficio, "reopen a refused benefit").WithRequest("insurance/beneficio.reabertura"),
	}
}
