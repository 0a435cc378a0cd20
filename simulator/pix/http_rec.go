package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/scenario"
)

// handleRecPost is POST /rec: the receiver asks for a recurrence; the PSP
// makes the idRec. It waits CRIADA for the payer (a solicrec, the rec's
// QR, or a composite QR with a charge).
func (s *Service) handleRecPost(r *http.Request) (*httpx.Reply, error) {
	var req doc
	if err := decode(r, s.Schemas, "pix/rec.request", "", "RecOperacaoInvalida", &req); err != nil {
		return nil, err
	}
	return replyCreated(s.createRec(r.Context(), principal(r), req, r.Header.Get(scenario.Header)))
}

// handleRecGet is GET /rec/{idRec}.
func (s *Service) handleRecGet(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.getRec(r.Context(), principal(r).CompanyID, mux.Vars(r)["idRec"]))
}

// handleRecPatch is PATCH /rec/{idRec} (SUMMARY §3.4 rules): cancellation
// by the receiver, or a change of debtor name, location, initial date
// (CRIADA only) or the journey's txid.
func (s *Service) handleRecPatch(r *http.Request) (*httpx.Reply, error) {
	var req doc
	if err := decode(r, s.Schemas, "pix/rec.patch", "", "RecOperacaoInvalida", &req); err != nil {
		return nil, err
	}
	return replyOK(s.patchRec(r.Context(), principal(r).CompanyID, mux.Vars(r)["idRec"], req))
}

// handleRecList is GET /rec.
func (s *Service) handleRecList(r *http.Request) (*httpx.Reply, error) {
	lq := listOf(r, "RecConsultaInvalida", true)
	f := recFilter{status: lq.oneOf("status", "deve ser CRIADA, APROVADA, REJEITADA, EXPIRADA ou CANCELADA",
		RecCriada, RecAprovada, RecRejeitada, RecExpirada, RecCancelada)}
	f.convenio = lq.echo("convenio")
	f.loc = lq.boolParam("locationPresente")
	if err := lq.err(); err != nil {
		return nil, err
	}
	return replyOK(s.listRecs(r.Context(), principal(r).CompanyID, lq, f))
}
