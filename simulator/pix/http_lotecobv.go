package pix

import (
	"net/http"
	"strconv"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// handleLotePut is PUT /lotecobv/{id}: 202 without a body; the items are
// created in the background (EM_PROCESSAMENTO → CRIADA | NEGADA), as a PSP
// does.
func (s *Service) handleLotePut(r *http.Request) (*httpx.Reply, error) {
	id, err := loteIDOf(r, "LoteCobVOperacaoInvalida")
	if err != nil {
		return nil, err
	}
	var in loteRequest
	if err := decode(r, s.Schemas, "pix/lotecobv.request", "loteCobV", "LoteCobVOperacaoInvalida", &in); err != nil {
		return nil, err
	}
	return replyStatus(http.StatusAccepted, s.putLote(r.Context(), principal(r), r.Host, id, in))
}

// handleLotePatch is PATCH /lotecobv/{id}: revises some of the batch's
// charges (those already CRIADA); 202 without a body.
func (s *Service) handleLotePatch(r *http.Request) (*httpx.Reply, error) {
	id, err := loteIDOf(r, "LoteCobVOperacaoInvalida")
	if err != nil {
		return nil, err
	}
	var in lotePatch
	if err := decode(r, s.Schemas, "pix/lotecobv.patch", "loteCobV", "LoteCobVOperacaoInvalida", &in); err != nil {
		return nil, err
	}
	return replyStatus(http.StatusAccepted, s.patchLote(r.Context(), principal(r), r.Host, id, in))
}

// handleLoteGet is GET /lotecobv/{id}.
func (s *Service) handleLoteGet(r *http.Request) (*httpx.Reply, error) {
	id, err := loteIDOf(r, "LoteCobVConsultaInvalida")
	if err != nil {
		return nil, err
	}
	return replyOK(s.getLote(r.Context(), principal(r).CompanyID, id))
}

// handleLoteList is GET /lotecobv.
func (s *Service) handleLoteList(r *http.Request) (*httpx.Reply, error) {
	lq := listOf(r, "LoteCobVConsultaInvalida", true)
	if err := lq.err(); err != nil {
		return nil, err
	}
	return replyOK(s.listLotes(r.Context(), principal(r).CompanyID, lq))
}

// loteIDOf reads the id of /lotecobv/{id}, an int64 the receiver chose;
// a bad one is the operation's typ (the catalogue's OperacaoInvalida for
// PUT and PATCH, ConsultaInvalida for GET).
func loteIDOf(r *http.Request, typ string) (int64, error) {
	v := mux.Vars(r)["id"]
	if !loteIDRE.MatchString(v) {
		return 0, invalid(typ, violation{"id", "o id do lote é um inteiro (int64) escolhido pelo usuário recebedor", v})
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, invalid(typ, violation{"id", "o id do lote é um inteiro (int64)", v})
	}
	return id, nil
}
