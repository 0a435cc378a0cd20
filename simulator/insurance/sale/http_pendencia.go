package sale

import (
	"net/http"

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

// answerPendencia is PUT /pendencia/{id}: the partner answers an open
// pending with text and/or a document; it becomes RESPONDIDA, Pendência
// Respondida is emitted, and the proposal's scenario hears
// pending_answered.
func (s *Service) answerPendencia(r *http.Request) (*httpx.Reply, error) {
	id, _ := wire.PathID(r, "id", "id de pendência inválido")
	var in struct {
		Resposta  string `json:"resposta"`
		Autor     string `json:"autor"`
		Documento *struct {
			NomeArquivo    string `json:"nomeArquivo"`
			Formato        string `json:"formato"`
			TipoDocumento  string `json:"tipoDocumento"`
			ConteudoBase64 string `json:"conteudoBase64"`
		} `json:"documento"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/pendencia.answer", &in); err != nil {
		return nil, err
	}
	if in.Resposta == "" && in.Documento == nil {
		return nil, errs.Invalidf("resposta", "responda com resposta (texto), documento, ou ambos")
	}
	a := respostaPendencia{Resposta: in.Resposta, Autor: wire.OrDefault(in.Autor, wire.Principal(r).ClientID)}
	if d := in.Documento; d != nil {
		size, err := wire.DocumentSize("documento.conteudoBase64", d.ConteudoBase64)
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
