package customer

import (
	"context"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/resource"
	"homologa/simulator/store"
)

// resourceTables are the customer cycle's resources as the dashboard lists
// them; names are the scenario engine's.
var resourceTables = []resource.Table{
	{Kind: "inscricao", Table: "inscricoes", ID: "CAST(t.id AS TEXT)", Detail: "'proposta ' || t.numero || ', produto ' || t.produto_id"},
	{Kind: "cobranca", Table: "cobrancas", ID: "CAST(t.id AS TEXT)",
		Detail: "'inscrição ' || t.inscricao_id || ', parcela ' || t.parcela || ' (' || t.competencia || ')'"},
	{Kind: "comissao", Table: "comissoes", ID: "CAST(t.id AS TEXT)", Detail: "'cobrança ' || t.cobranca_id || ' (' || t.competencia || ')'",
		Updated: "COALESCE(t.estornado_em, t.pago_em, t.created_at)"},
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
