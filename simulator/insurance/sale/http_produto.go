package sale

import (
	"net/http"
	"strconv"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// listProdutos is GET /produto?codigoModeloProposta=: the offer's products,
// as the 2025 client reads them (Valor[].coberturas[] with
// descricaoDigitalCurta and descricaoDigitalLonga); every product the
// company sells without the parameter.
func (s *Service) listProdutos(r *http.Request) (*httpx.Reply, error) {
	return wire.OKOf(s.produtos(r.Context(), wire.Principal(r), wire.Params(r).Get("codigoModeloProposta")))
}

// getProduto is GET /produto/{id}?codigoModeloProposta= (v2 Produto/{id}).
func (s *Service) getProduto(r *http.Request) (*httpx.Reply, error) {
	id, err := pathInt(r, "id", "o id do produto é um número")
	if err != nil {
		return nil, err
	}
	return wire.OKOf(s.produto(r.Context(), wire.Principal(r), wire.Params(r).Get("codigoModeloProposta"), id))
}

// getDominio is GET /dominio/{id}: a domain list, Valor an array of {Id,
// Descricao, Auxiliar} as both apps iterate it (the v2 model declares one
// item; insurance CLIENTS §3.1). CBO's Auxiliar is the simulation's
// profissaoCbo.
func (s *Service) getDominio(r *http.Request) (*httpx.Reply, error) {
	return wire.OKOf(s.dominio(mux.Vars(r)["id"]))
}

// getQuestionario is GET /questionario/{id}?codigoModeloProposta=&vigencia=
// (v2 Questionario/{id}): one questionnaire of an offer the company sells,
// each question with tipo {id, descricao} and ordem.
func (s *Service) getQuestionario(r *http.Request) (*httpx.Reply, error) {
	id, err := pathInt(r, "id", "o id do questionário é um número")
	if err != nil {
		return nil, err
	}
	return wire.OKOf(s.questionnaire(r.Context(), wire.Principal(r), wire.Params(r).Get("codigoModeloProposta"), id))
}

// pathInt reads a numeric path variable.
func pathInt(r *http.Request, name, message string) (int, error) {
	n, err := strconv.Atoi(mux.Vars(r)[name])
	if err != nil {
		return 0, errs.Invalidf(name, "%s", message)
	}
	return n, nil
}
