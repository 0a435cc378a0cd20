package sale

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// listPendencias is GET /pendencia?numeroProposta= and GET
// /proposta/{numero}/pendencia: the proposal's pendings (?status= filters).
func (s *Service) listPendencias(r *http.Request) (*httpx.Reply, error) {
	n, err := numeroOf(r)
	if err != nil {
		return nil, err
	}
	return wire.OKOf(s.listPendenciasOf(r.Context(), wire.Principal(r).CompanyID, n, wire.Params(r).Get("status")))
}

// answerPendencia is PUT /pendencia/{id}, or the v2 PUT /Pendencia?cnpj=
// with the Pendencia's id in the body (insurance CLIENTS §3.8): the
// partner answers an open pending with text and/or a document (its
// content in conteudoBase64, or in the v2 Documento's pages); it becomes
// RESPONDIDA, Pendência Respondida is emitted, and the proposal's scenario
// hears pending_answered.
func (s *Service) answerPendencia(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	var in struct {
		ID        any             `json:"id"`
		Resposta  string          `json:"resposta"`
		Autor     string          `json:"autor"`
		Documento *wire.Documento `json:"documento"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/pendencia.answer", &in); err != nil {
		return nil, err
	}
	id, err := wire.PathID(r, "id", "id de pendência inválido")
	if mux.Vars(r)["id"] == "" {
		n, ierr := wire.Int(in.ID)
		id, err = int64(n), nil
		if ierr != nil || n <= 0 {
			err = errs.Invalidf("id", "informe a pendência: id no corpo, ou PUT /pendencia/{id}")
		}
	}
	if err != nil {
		return nil, err
	}
	if in.Resposta == "" && in.Documento == nil {
		return nil, errs.Invalidf("resposta", "responda com resposta (texto), documento, ou ambos")
	}
	a := respostaPendencia{Resposta: in.Resposta, Autor: wire.OrDefault(in.Autor, wire.Principal(r).ClientID)}
	if d := in.Documento; d != nil {
		size, err := d.Size("documento")
		if err != nil {
			return nil, err
		}
		a.Documento = &documento{NomeArquivo: d.NomeArquivo, Formato: d.Formato, TipoDocumento: d.TipoDocumento, Tamanho: size}
	}
	pd, err := s.respond(r.Context(), wire.Principal(r), id, a)
	if err != nil {
		return nil, err
	}
	return wire.OK(pd.body()), nil
}
