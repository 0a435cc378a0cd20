package sale

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/httpx"
)

// companyOffers is GET /portal/companies/{id}/offers: what the company may
// sell, and every offer of the catalogue.
func (s *Service) companyOffers(r *http.Request) (*httpx.Reply, error) {
	owned, err := s.Auth.OwnedCompany(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	c, err := s.offersOfCompany(r.Context(), owned.ID)
	if err != nil {
		return nil, err
	}
	all := []map[string]any{}
	for _, o := range s.Catalog.Offers() {
		all = append(all, map[string]any{"id": o.ID, "nome": o.Nome, "vendavel": c.sells(o.ID)})
	}
	return httpx.OK(map[string]any{"companyId": c.Company.ID, "cnpj": c.Company.CNPJ, "offers": all}), nil
}

// grantOffer is PUT /portal/companies/{id}/offers/{offer}.
func (s *Service) grantOffer(r *http.Request) (*httpx.Reply, error) { return s.answerGrant(r, true) }

// revokeOffer is DELETE /portal/companies/{id}/offers/{offer}.
func (s *Service) revokeOffer(r *http.Request) (*httpx.Reply, error) { return s.answerGrant(r, false) }

func (s *Service) answerGrant(r *http.Request, granted bool) (*httpx.Reply, error) {
	owned, err := s.Auth.OwnedCompany(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	if err := s.setGrant(r.Context(), owned.ID, mux.Vars(r)["offer"], granted); err != nil {
		return nil, err
	}
	return s.companyOffers(r)
}
