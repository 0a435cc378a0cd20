package pix

import (
	"net/http"
	"strconv"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// handleLocRecPost is POST /locrec (no body): a location for a future
// recurrence.
func (s *Service) handleLocRecPost(r *http.Request) (*httpx.Reply, error) {
	return withLocation(replyCreated(s.createLocRec(r.Context(), principal(r), r.Host)))
}

// handleLocRecGet is GET /locrec/{id}.
func (s *Service) handleLocRecGet(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.getLocRec(r.Context(), principal(r).CompanyID, locRecIDOf(r)))
}

// handleLocRecUnlink is DELETE /locrec/{id}/idRec: the location no longer
// serves the recurrence; its status is unchanged.
func (s *Service) handleLocRecUnlink(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.unlinkLocRec(r.Context(), principal(r).CompanyID, locRecIDOf(r)))
}

// handleLocRecList is GET /locrec.
func (s *Service) handleLocRecList(r *http.Request) (*httpx.Reply, error) {
	lq := listOf(r, "PayloadLocationRecConsultaInvalida", true)
	f := locRecFilter{present: lq.boolParam("idRecPresente"), convenio: lq.echo("convenio")}
	if err := lq.err(); err != nil {
		return nil, err
	}
	return replyOK(s.listLocRecs(r.Context(), principal(r).CompanyID, lq, f))
}

// locRecIDOf reads the id of /locrec/{id}, digits by the route.
func locRecIDOf(r *http.Request) int64 {
	id, _ := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	return id
}
