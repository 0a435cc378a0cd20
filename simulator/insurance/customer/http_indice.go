package customer

import (
	"net/http"
	"slices"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"maps"
)

// getIndex is GET /sandbox/indices/{indice}: the months the table holds
// (shipped defaults and control-API values).
func (s *Service) getIndex(r *http.Request) (*httpx.Reply, error) {
	indice := mux.Vars(r)["indice"]
	months, err := s.indexTable(r.Context(), indice)
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
// monthly values (percent) used by the readjustments that follow.
func (s *Service) putIndex(r *http.Request) (*httpx.Reply, error) {
	var in map[string]float64
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/indices.request", &in); err != nil {
		return nil, err
	}
	if err := s.setIndex(r.Context(), mux.Vars(r)["indice"], in); err != nil {
		return nil, err
	}
	return s.getIndex(r)
}
