package sale

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
)

// listOffers is GET /modeloproposta?cnpj=&completo=&canalVenda=: every
// offer of the catalogue is sold through its canalComercializacao, which
// canalVenda filters by.
func (s *Service) listOffers(r *http.Request) (*httpx.Reply, error) {
	complete, err := completo(r)
	if err != nil {
		return nil, err
	}
	offers, err := s.offers(r.Context(), wire.Principal(r), wire.Params(r).Get("canalVenda"))
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, o := range offers {
		out = append(out, s.shape(o, complete))
	}
	return wire.OK(out), nil
}

// getOffer is GET /modeloproposta/{id}?cnpj=&completo=.
func (s *Service) getOffer(r *http.Request) (*httpx.Reply, error) {
	complete, err := completo(r)
	if err != nil {
		return nil, err
	}
	o, err := s.offer(r.Context(), wire.Principal(r), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	if complete {
		return wire.OK(fullOffer{Offer: o, Questionario: o.Questionario}), nil
	}
	return wire.OK(s.shape(o, false)), nil
}

// completo reads whether the caller wants the complete shape (the
// default), once a cnpj parameter names its own company.
func completo(r *http.Request) (bool, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return false, err
	}
	return wire.BoolParam(r, "completo", true)
}

// fullOffer is the complete shape of GET /modeloproposta/{id}: the offer
// with its questionnaire's questions, which the forms widget renders (the
// v2 list shows only refs; the single offer carries what a sale needs).
type fullOffer struct {
	*catalog.Offer
	Questionario *catalog.Questionario `json:"questionario,omitempty"`
}

func (s *Service) shape(o *catalog.Offer, complete bool) any {
	if complete {
		return o
	}
	return s.Catalog.Reduced(o)
}
