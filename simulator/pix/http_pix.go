package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// handlePixGet is GET /pix/{e2eid}.
func (s *Service) handlePixGet(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.getPix(r.Context(), principal(r).CompanyID, mux.Vars(r)["e2eid"]))
}

// handlePixList is GET /pix: the Pix received, filtered by txid, presence
// of a txid or of refunds, and the payer's CPF or CNPJ.
func (s *Service) handlePixList(r *http.Request) (*httpx.Reply, error) {
	lq := listOf(r, "PixConsultaInvalida", true)
	f := pixFilter{txid: lq.echo("txid")}
	if f.txid != "" && !txidAny.MatchString(f.txid) {
		lq.bad("txid", "deve ter de 1 a 35 caracteres alfanuméricos", f.txid)
	}
	f.txPresent = lq.boolParam("txIdPresente")
	f.devolucaoPresent = lq.boolParam("devolucaoPresente")
	if err := lq.err(); err != nil {
		return nil, err
	}
	return replyOK(s.listPix(r.Context(), principal(r).CompanyID, lq, f))
}
