package sale

import (
	"context"
	"slices"
	"strconv"

	"homologa/simulator/auth"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// sellable lists the offers a company may sell: the catalogue's grants
// for its CNPJ, changed by the portal's grants and revocations.
func (s *Service) sellable(ctx context.Context, tx *store.Tx, companyID, cnpj string) ([]string, error) {
	grants, err := grantsOf(ctx, tx, companyID)
	if err != nil {
		return nil, err
	}
	return applyGrants(s.Catalog.SellableBy(cnpj), grants), nil
}

// applyGrants changes the catalogue's offers of a company by the portal's
// grants (added) and revocations (removed), sorted.
func applyGrants(ids []string, grants []grant) []string {
	ids = slices.Clone(ids)
	for _, g := range grants {
		ids = slices.DeleteFunc(ids, func(x string) bool { return x == g.OfferID })
		if g.Granted {
			ids = append(ids, g.OfferID)
		}
	}
	slices.Sort(ids)
	return ids
}

// offerFor returns an offer the caller may sell, or the error to answer:
// 404 for an unknown offer and for one the company may not sell (it does
// not learn which exist).
func (s *Service) offerFor(ctx context.Context, tx *store.Tx, by auth.Principal, id string) (*catalog.Offer, error) {
	o, ok := s.Catalog.Offer(id)
	ids, err := s.sellable(ctx, tx, by.CompanyID, by.CNPJ)
	if err != nil {
		return nil, err
	}
	if !ok || !slices.Contains(ids, id) {
		return nil, wire.NotFound("MODELO_PROPOSTA_NAO_ENCONTRADO", "modelo de proposta %q não existe ou não pode ser vendido pela empresa %s", id, by.CNPJ)
	}
	return o, nil
}

// offer reads an offer the caller may sell.
func (s *Service) offer(ctx context.Context, by auth.Principal, id string) (*catalog.Offer, error) {
	var o *catalog.Offer
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		o, err = s.offerFor(ctx, tx, by, id)
		return err
	})
	return o, err
}

// offers lists the offers the caller may sell through channel (a
// canalComercializacao id; "" for any).
func (s *Service) offers(ctx context.Context, by auth.Principal, channel string) ([]*catalog.Offer, error) {
	var ids []string
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		ids, err = s.sellable(ctx, tx, by.CompanyID, by.CNPJ)
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []*catalog.Offer
	for _, id := range ids {
		if o, ok := s.Catalog.Offer(id); ok && (channel == "" || channel == strconv.Itoa(o.CanalComercializacao.ID)) {
			out = append(out, o)
		}
	}
	return out, nil
}
