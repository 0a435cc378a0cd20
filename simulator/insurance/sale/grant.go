package sale

import (
	"context"
	"slices"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/store"
)

// grant is the portal's word on one offer for one company: granted, or
// revoked; it overrides the catalogue's sellers.
type grant struct {
	OfferID string
	Granted bool
}

// sellerOffers is what a company may sell, among every offer of the
// catalogue.
type sellerOffers struct {
	Company  auth.Company
	Sellable []string
}

// offersOfCompany reads what company key (id or CNPJ) may sell.
func (s *Service) offersOfCompany(ctx context.Context, key string) (*sellerOffers, error) {
	c, err := s.Auth.Company(ctx, key)
	if err != nil {
		return nil, err
	}
	out := &sellerOffers{Company: c}
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		out.Sellable, err = s.sellable(ctx, tx, c.ID, c.CNPJ)
		return err
	})
	return out, err
}

// setGrant grants (or revokes) offer to company key.
func (s *Service) setGrant(ctx context.Context, key, offer string, granted bool) error {
	if _, ok := s.Catalog.Offer(offer); !ok {
		return errs.Errorf(errs.NotFound, "o modelo de proposta %q não existe no catálogo", offer)
	}
	c, err := s.Auth.Company(ctx, key)
	if err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		return putGrant(ctx, tx, c.ID, grant{OfferID: offer, Granted: granted}, s.NowOf(c.ID))
	})
}

// sells reports whether the company may sell offer.
func (c *sellerOffers) sells(offer string) bool { return slices.Contains(c.Sellable, offer) }
