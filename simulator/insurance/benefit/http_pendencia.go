package benefit

import (
	"net/http"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// listPendencias is GET /beneficio/{id}/pendencias (?status= filters).
func (s *Service) listPendencias(r *http.Request) (*httpx.Reply, error) {
	companyID, id, err := target(r)
	if err != nil {
		return nil, err
	}
	status := wire.Params(r).Get("status")
	if status != "" && !pendenciaMachine.Has(status) {
		return nil, httpx.QueryError("status", "status deve ser um de %s", strings.Join(pendenciaMachine.States(), ", "))
	}
	return wire.OKOf(s.listPendenciasOf(r.Context(), companyID, id, status))
}

// answerPendencia is PUT /beneficio/{id}/pendencias/{pendenciaId}: the
// partner answers an open pending with text and/or documents; it becomes
// RESPONDIDA, Pendência Respondida is emitted and the benefit's scenario
// hears pending_answered.
func (s *Service) answerPendencia(r *http.Request) (*httpx.Reply, error) {
	_, id, err := target(r)
	if err != nil {
		return nil, err
	}
	pid, _ := wire.PathID(r, "pendenciaId", "id de pendência inválido")
	var in struct {
		Resposta   string        `json:"resposta"`
		Autor      string        `json:"autor"`
		Documentos []documentoIn `json:"documentos"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/beneficio.pendencia.answer", &in); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Resposta) == "" && len(in.Documentos) == 0 {
		return nil, errs.Invalidf("resposta", "responda com resposta (texto), documentos, ou ambos")
	}
	docs, err := readDocumentos("documentos", in.Documentos)
	if err != nil {
		return nil, err
	}
	by := wire.Principal(r)
	pd, err := s.respond(r.Context(), by, id, pid, respostaPendencia{Resposta: in.Resposta, Autor: wire.OrDefault(in.Autor, by.ClientID), Documentos: docs})
	if err != nil {
		return nil, err
	}
	return wire.OK(pd.body()), nil
}
