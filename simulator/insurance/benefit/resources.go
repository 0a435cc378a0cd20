package benefit

import (
	"context"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/resource"
	"homologa/simulator/store"
)

// resourceTables are the benefit cycle's resources as the dashboard lists
// them; names are the scenario engine's.
var resourceTables = []resource.Table{
	{Kind: "beneficio", Table: "beneficios", ID: "CAST(t.id AS TEXT)", Detail: "t.protocolo || ', ' || t.causa"},
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
