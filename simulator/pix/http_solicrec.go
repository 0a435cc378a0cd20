package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/scenario"
)

// handleSolicRecPost is POST /solicrec: a confirmation request to the
// payer's PSP for a CRIADA recurrence (journey 1). Its scenario plays the
// payer (default: ENVIADA, RECEBIDA, then ACEITA a minute later).
func (s *Service) handleSolicRecPost(r *http.Request) (*httpx.Reply, error) {
	var req doc
	if err := decode(r, s.Schemas, "pix/solicrec.request", "", "SolicRecOperacaoInvalida", &req); err != nil {
		return nil, err
	}
	return replyCreated(s.createSolicRec(r.Context(), principal(r), req, r.Header.Get(scenario.Header)))
}

// handleSolicRecGet is GET /solicrec/{idSolicRec}.
func (s *Service) handleSolicRecGet(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.getSolicRec(r.Context(), principal(r).CompanyID, mux.Vars(r)["id"]))
}

// handleSolicRecPatch is PATCH /solicrec/{idSolicRec} {status: CANCELADA}:
// only while it has not been answered. 201, as the spec says (sic).
func (s *Service) handleSolicRecPatch(r *http.Request) (*httpx.Reply, error) {
	if err := decodeCancel(r, s.Schemas, "pix/solicrec.patch", "SolicRecOperacaoInvalida"); err != nil {
		return nil, err
	}
	return replyCreated(s.cancelSolicRec(r.Context(), principal(r).CompanyID, mux.Vars(r)["id"]))
}
