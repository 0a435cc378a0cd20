package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/scenario"
)

// handleCobRPut is PUT /cobr/{txid}: the charge of one cycle of an
// approved recurrence.
func (s *Service) handleCobRPut(r *http.Request) (*httpx.Reply, error) {
	txid := mux.Vars(r)["txid"]
	if err := txidRule("CobROperacaoInvalida", "txid", txid); err != nil {
		return nil, err
	}
	return s.handleCobRCreate(r, txid)
}

// handleCobRPost is POST /cobr: the PSP makes the txid.
func (s *Service) handleCobRPost(r *http.Request) (*httpx.Reply, error) {
	return s.handleCobRCreate(r, NewTxID(s.DB.IDs))
}

// handleCobRCreate is PUT /cobr/{txid} and POST /cobr once the txid is
// known.
func (s *Service) handleCobRCreate(r *http.Request, txid string) (*httpx.Reply, error) {
	var req doc
	if err := decode(r, s.Schemas, "pix/cobr.request", "", "CobROperacaoInvalida", &req); err != nil {
		return nil, err
	}
	return replyCreated(s.createCobR(r.Context(), principal(r), txid, req, r.Header.Get(scenario.Header)))
}

// handleCobRRetry is POST /cobr/{txid}/retentativa/{data} (SUMMARY §3.7
// rules).
func (s *Service) handleCobRRetry(r *http.Request) (*httpx.Reply, error) {
	return replyCreated(s.retryCobR(r.Context(), principal(r).CompanyID, mux.Vars(r)["txid"], mux.Vars(r)["data"]))
}

// handleCobRGet is GET /cobr/{txid}.
func (s *Service) handleCobRGet(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.getCobR(r.Context(), principal(r).CompanyID, mux.Vars(r)["txid"]))
}

// handleCobRPatch is PATCH /cobr/{txid} {status: CANCELADA}: refused on or
// after the date of the first settlement attempt.
func (s *Service) handleCobRPatch(r *http.Request) (*httpx.Reply, error) {
	if err := decodeCancel(r, s.Schemas, "pix/cobr.patch", "CobROperacaoInvalida"); err != nil {
		return nil, err
	}
	return replyOK(s.cancelCobR(r.Context(), principal(r).CompanyID, mux.Vars(r)["txid"]))
}

// handleCobRList is GET /cobr.
func (s *Service) handleCobRList(r *http.Request) (*httpx.Reply, error) {
	lq := listOf(r, "CobRConsultaInvalida", true)
	f := cobrFilter{idRec: lq.echo("idRec")}
	f.status = lq.oneOf("status", "status de cobrança recorrente desconhecido",
		CobRCriada, CobRAtiva, CobRConcluida, CobRExpirada, CobRRejeitada, CobRCancelada)
	f.convenio = lq.echo("convenio")
	if err := lq.err(); err != nil {
		return nil, err
	}
	return replyOK(s.listCobRs(r.Context(), principal(r).CompanyID, lq, f))
}
