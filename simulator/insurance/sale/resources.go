package sale

import (
	"context"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/resource"
	"homologa/simulator/store"
)

// resourceTables are the sale's resources as the dashboard lists them;
// names are the scenario engine's.
var resourceTables = []resource.Table{
	{Kind: "proposta", Table: "propostas", ID: "CAST(t.numero AS TEXT)", Detail: "'oferta ' || t.offer_id"},
	{Kind: "pendencia", Table: "pendencias", Join: "JOIN propostas p ON p.numero = t.numero", ID: "CAST(t.id AS TEXT)",
		Detail: "'proposta ' || t.numero || ', ' || t.codigo", App: "p.app_id", Company: "p.company_id"},
}

// ResourceKinds implements resource.Lister.
func (s *Service) ResourceKinds() []string { return resource.Kinds(resourceTables) }

// ListResources implements resource.Lister.
func (s *Service) ListResources(ctx context.Context, kinds []string, q resource.Query) ([]resource.Summary, []resource.Count, error) {
	return wire.ListResources(ctx, s.DB, resourceTables, kinds, q)
}

// CountResources counts a company's resources, for its quota.
func (s *Service) CountResources(ctx context.Context, tx *store.Tx, companyID string) (int64, error) {
	return resource.CountRows(ctx, tx, resourceTables, companyID)
}
