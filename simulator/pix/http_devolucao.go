package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/scenario"
)

// handleDevolucaoPut is PUT /pix/{e2eid}/devolucao/{id}.
func (s *Service) handleDevolucaoPut(r *http.Request) (*httpx.Reply, error) {
	in := devolucaoRequest{E2EID: mux.Vars(r)["e2eid"], ID: mux.Vars(r)["id"], Named: r.Header.Get(scenario.Header)}
	if err := devolucaoIDRule(in.ID); err != nil {
		return nil, err
	}
	if err := decode(r, s.Schemas, "pix/devolucao.request", "", "PixDevolucaoInvalida", &in); err != nil {
		return nil, err
	}
	return replyCreated(s.createDevolucao(r.Context(), principal(r).CompanyID, in))
}

// handleDevolucaoGet is GET /pix/{e2eid}/devolucao/{id}.
func (s *Service) handleDevolucaoGet(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.getDevolucao(r.Context(), principal(r).CompanyID, mux.Vars(r)["e2eid"], mux.Vars(r)["id"]))
}
