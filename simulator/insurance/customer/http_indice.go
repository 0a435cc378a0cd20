package customer

import (
	"maps"
	"net/http"
	"slices"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/money"
	"homologa/simulator/tenant"
)

// indexScopeOf is whose index values a call reads or sets: the caller's
// company's, or the sandbox's for the operator (none is refused).
func indexScopeOf(r *http.Request) tenant.Scope {
	sc, _ := tenant.Of(r.Context())
	return sc
}

// getIndex is GET /sandbox/indices/{indice}: the months the caller's
// company's readjustments read (the shipped defaults, the sandbox's values,
// its own over them); the operator's: the sandbox's table.
func (s *Service) getIndex(r *http.Request) (*httpx.Reply, error) {
	indice := mux.Vars(r)["indice"]
	months, err := s.indexTable(r.Context(), indexScopeOf(r), indice)
	if err != nil {
		return nil, err
	}
	list := []map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(months)) {
		list = append(list, map[string]any{"mes": k, "valor": months[k]})
	}
	return httpx.OK(map[string]any{"indice": indice, "padraoMensal": defaultMonthly, "meses": list}), nil
}

// putIndex is PUT /sandbox/indices/{indice} {"2026-01": 0.52, …}: sets
// monthly values (percent) used by the readjustments that follow: the
// caller company's own, or the operator's for every company without a
// value of its own.
func (s *Service) putIndex(r *http.Request) (*httpx.Reply, error) {
	var in map[string]money.Rate
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/indices.request", &in); err != nil {
		return nil, err
	}
	if err := s.setIndex(r.Context(), indexScopeOf(r), mux.Vars(r)["indice"], in); err != nil {
		return nil, err
	}
	return s.getIndex(r)
}
