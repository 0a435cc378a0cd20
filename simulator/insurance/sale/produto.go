package sale

import (
	"context"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
)

// produtos lists the products of the offer code the caller may sell, or of
// every offer it may sell when code is "" (GET /produto; the v2 client
// names the offer, insurance CLIENTS §3.2).
func (s *Service) produtos(ctx context.Context, by auth.Principal, code string) ([]catalog.Produto, error) {
	offers, err := s.offersNamed(ctx, by, code)
	if err != nil {
		return nil, err
	}
	out := []catalog.Produto{}
	for _, o := range offers {
		out = append(out, o.Produtos...)
	}
	return out, nil
}

// produto finds product id among the offers produtos lists.
func (s *Service) produto(ctx context.Context, by auth.Principal, code string, id int) (*catalog.Produto, error) {
	offers, err := s.offersNamed(ctx, by, code)
	if err != nil {
		return nil, err
	}
	for _, o := range offers {
		if p := o.Produto(id); p != nil {
			return p, nil
		}
	}
	return nil, wire.NotFound("PRODUTO_NAO_ENCONTRADO", "produto %d não encontrado nos modelos de proposta que a empresa vende", id)
}

// offersNamed is the offer code the caller may sell, or every offer it may
// sell when code is "".
func (s *Service) offersNamed(ctx context.Context, by auth.Principal, code string) ([]*catalog.Offer, error) {
	if code == "" {
		return s.offers(ctx, by, "")
	}
	o, err := s.offer(ctx, by, code)
	if err != nil {
		return nil, err
	}
	return []*catalog.Offer{o}, nil
}

// dominio is a domain list of the catalogue (GET /dominio/{id}: CBO, SEXO,
// …), or the 404 naming those there are.
func (s *Service) dominio(name string) ([]catalog.ItemDominio, error) {
	items, ok := s.Catalog.Dominio(name)
	if !ok {
		e := wire.NotFound("DOMINIO_NAO_ENCONTRADO", "domínio %q não existe; os domínios são %v", name, s.Catalog.Dominios())
		e.Violations = []errs.Violation{{Field: "id", Reason: e.Message}}
		return nil, e
	}
	return items, nil
}

// questionnaire finds questionnaire id among the offers the caller may
// sell (code's alone when given): GET /questionario/{id} and the
// questionnaire service's GET /Questionario/{id}.
func (s *Service) questionnaire(ctx context.Context, by auth.Principal, code string, id int) (*catalog.Questionario, error) {
	offers, err := s.offersNamed(ctx, by, code)
	if err != nil {
		return nil, err
	}
	for _, o := range offers {
		if o.Questionario != nil && o.Questionario.ID == id {
			return o.Questionario, nil
		}
	}
	return nil, wire.NotFound("QUESTIONARIO_NAO_ENCONTRADO", "questionário %d não encontrado nos modelos de proposta que a empresa vende", id)
}
