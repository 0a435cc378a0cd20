package pix

import (
	"net/http"
	"strconv"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/scenario"
)

// handleCobPut is PUT /cob/{txid} (and the seed's POST /cob/{txid}):
// creates the charge, or replaces an ATIVA one as a new revision.
func (s *Service) handleCobPut(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargePut(r, cobKind, mux.Vars(r)["txid"])
}

// handleCobPost is POST /cob: the PSP chooses the txid.
func (s *Service) handleCobPost(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargePut(r, cobKind, "")
}

// handleCobPatch is PATCH /cob/{txid}.
func (s *Service) handleCobPatch(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargePatch(r, cobKind)
}

// handleCobGet is GET /cob/{txid}[?revisao=n]: CobCompleta, with pix[].
func (s *Service) handleCobGet(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargeGet(r, cobKind)
}

// handleCobList is GET /cob.
func (s *Service) handleCobList(r *http.Request) (*httpx.Reply, error) {
	return s.handleChargeList(r, cobKind)
}

// handleChargePut creates or replaces a charge of kind k; an empty txid
// is the PSP's to choose. Either is a 201 with the charge, the only
// success PUT /cob/{txid} and PUT /cobv/{txid} declare: a PUT that
// revises an ATIVA charge answers its new revision, an identical one the
// charge as it is.
func (s *Service) handleChargePut(r *http.Request, k kindInfo, txid string) (*httpx.Reply, error) {
	in := chargeRequest{k: k, p: principal(r), host: r.Host, txid: txid, named: r.Header.Get(scenario.Header)}
	if txid == "" {
		in.txid, in.generated = NewTxID(s.DB.IDs), true
	} else if err := txidRule(k.opInvalida, k.kind+".txid", txid); err != nil {
		return nil, err
	}
	if err := decode(r, s.Schemas, k.request, k.kind, k.opInvalida, &in.req); err != nil {
		return nil, err
	}
	return replyCreated(s.putCharge(r.Context(), in))
}

// handleChargePatch is PATCH /cob/{txid} and PATCH /cobv/{txid}.
func (s *Service) handleChargePatch(r *http.Request, k kindInfo) (*httpx.Reply, error) {
	if err := httpx.CheckJSONContentType(r); err != nil {
		return nil, err
	}
	raw, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, err
	}
	var req doc
	err = httpx.DecodeJSONIn(r.Context(), withoutActiveStatus(r.Context(), raw, k.kind), s.Schemas, k.patch, &req)
	if err := retype(err, k.kind, k.opInvalida); err != nil {
		return nil, err
	}
	return replyOK(s.patchCharge(r.Context(), r.Host, principal(r), k, mux.Vars(r)["txid"], req))
}

// handleChargeGet is GET /cob/{txid} and GET /cobv/{txid}.
func (s *Service) handleChargeGet(r *http.Request, k kindInfo) (*httpx.Reply, error) {
	return replyOK(s.getCharge(r.Context(), principal(r).CompanyID, k, mux.Vars(r)["txid"], query(r).Get("revisao")))
}

// handleChargeList is GET /cob and GET /cobv; loteCobVId filters cobv only.
func (s *Service) handleChargeList(r *http.Request, k kindInfo) (*httpx.Reply, error) {
	lq := listOf(r, k.consultaInvalida, true)
	f := chargeFilter{lote: -1, loc: lq.boolParam("locationPresente")}
	f.status = lq.oneOf("status", "deve ser ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR ou REMOVIDA_PELO_PSP",
		Ativa, Concluida, RemovidaUsuario, RemovidaPeloPSP)
	if v := query(r).Get("loteCobVId"); k.kind == "cobv" && v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			lq.bad("loteCobVId", "deve ser um inteiro", v)
		} else {
			f.lote = n
			lq.params["loteCobVId"] = n
		}
	}
	if err := lq.err(); err != nil {
		return nil, err
	}
	return replyOK(s.listCharges(r.Context(), principal(r).CompanyID, k, lq, f))
}
