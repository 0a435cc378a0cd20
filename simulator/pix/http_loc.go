package pix

import (
	"net/http"
	"strconv"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// handleLocPost is POST /loc: a location for a future charge of tipoCob.
func (s *Service) handleLocPost(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		TipoCob string `json:"tipoCob"`
	}
	if err := decode(r, s.Schemas, "pix/loc.request", "", "PayloadLocationOperacaoInvalida", &in); err != nil {
		return nil, err
	}
	return withLocation(replyCreated(s.createLoc(r.Context(), principal(r), r.Host, in.TipoCob)))
}

// handleLocGet is GET /loc/{id}.
func (s *Service) handleLocGet(r *http.Request) (*httpx.Reply, error) {
	id, err := locIDOf(r)
	if err != nil {
		return nil, err
	}
	return replyOK(s.getLoc(r.Context(), principal(r).CompanyID, id))
}

// handleLocUnlink is DELETE /loc/{id}/txid: the charge keeps its status
// but loses its location (and its QR code).
func (s *Service) handleLocUnlink(r *http.Request) (*httpx.Reply, error) {
	id, err := locIDOf(r)
	if err != nil {
		return nil, err
	}
	return replyOK(s.unlinkLoc(r.Context(), principal(r).CompanyID, id))
}

// handleLocList is GET /loc.
func (s *Service) handleLocList(r *http.Request) (*httpx.Reply, error) {
	lq := listOf(r, "PayloadLocationConsultaInvalida", true)
	f := locFilter{
		txPresent: lq.boolParam("txIdPresente"),
		tipoCob:   lq.oneOf("tipoCob", "deve ser cob ou cobv", "cob", "cobv"),
	}
	if err := lq.err(); err != nil {
		return nil, err
	}
	return replyOK(s.listLocs(r.Context(), principal(r).CompanyID, lq, f))
}

// locIDOf reads the id of /loc/{id}; one that is no id names no location.
func locIDOf(r *http.Request) (int64, error) {
	v := mux.Vars(r)["id"]
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, locAbsent.err(v)
	}
	return id, nil
}
