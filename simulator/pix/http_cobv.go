package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// handleCobvPut is PUT /cobv/{txid} (and the seed's POST /cobv/{txid});
// there is no POST /cobv: the client always chooses the txid.
func (s *Service) handleCobvPut(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargePut(r, cobvKind, mux.Vars(r)["txid"])
}

// handleCobvPatch is PATCH /cobv/{txid}.
func (s *Service) handleCobvPatch(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargePatch(r, cobvKind)
}

// handleCobvGet is GET /cobv/{txid}[?revisao=n].
func (s *Service) handleCobvGet(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargeGet(r, cobvKind)
}

// handleCobvList is GET /cobv.
func (s *Service) handleCobvList(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargeList(r, cobvKind)
}
