package benefit

import (
	"context"

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
func (s *Service) ListResources(ctx context.Context, kinds []string, q resource.Query) (list []resource.Summary, counts []resource.Count, err error) {
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		list, counts, err = resource.List(ctx, tx, resource.Select(resourceTables, kinds), q)
		return err
	})
	return list, counts, err
}
