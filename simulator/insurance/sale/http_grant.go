package sale

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/tenant"
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

// grantOwnOffer is PUT /sandbox/offers/{offer}: the caller's company may
// sell the offer. In production the insurer's commercial area grants
// offers; in a company's own sandbox the company plays it, with its app's
// token as much as its portal login, so that a harness holding only an
// app's credentials (a partner's fixed app) can set up a sale.
func (s *Service) grantOwnOffer(r *http.Request) (*httpx.Reply, error) {
	company, err := tenant.CompanyOf(r.Context())
	if err != nil {
		return nil, errs.Errorf(errs.Invalid, "conceder um modelo de proposta é uma ação de uma empresa: use o token de um app dela")
	}
	if err := s.setGrant(r.Context(), company, mux.Vars(r)["offer"], true); err != nil {
		return nil, err
	}
	c, err := s.offersOfCompany(r.Context(), company)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"companyId": c.Company.ID, "cnpj": c.Company.CNPJ, "offer": mux.Vars(r)["offer"], "vendavel": true}), nil
}
