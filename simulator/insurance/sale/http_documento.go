package sale

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// postDocumento is the v2 POST /Documento?cnpj= (a GED Documento): files
// the document; Valor is true, as the model declares.
func (s *Service) postDocumento(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	var d wire.Documento
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/documento.request", &d); err != nil {
		return nil, err
	}
	if _, err := s.fileDocumento(r.Context(), wire.Principal(r), d); err != nil {
		return nil, err
	}
	return wire.Created(true), nil
}

// getDocumento is the v2 GET /Documento/{id}: the document as filed,
// without its pages' content.
func (s *Service) getDocumento(r *http.Request) (*httpx.Reply, error) {
	return wire.OKOf(s.documentoOf(r.Context(), wire.Principal(r).CompanyID, mux.Vars(r)["id"]))
}

// listDocumentos is the v2 GET
// /Documento?cnpj=&indiceDocumento.valor=&indiceDocumento.tipoIndice=: the
// company's documents filed under that index.
func (s *Service) listDocumentos(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	q := wire.Params(r)
	return wire.OKOf(s.documentosBy(r.Context(), wire.Principal(r).CompanyID, q.Get("indiceDocumento.valor"), q.Get("indiceDocumento.tipoIndice")))
}
