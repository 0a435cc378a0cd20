package pix

import (
	"context"

	"homologa/simulator/resource"
	"homologa/simulator/store"
)

// resourceTables are the Pix resources as the dashboard lists them; names
// are the scenario engine's.
var resourceTables = []resource.Table{
	{Kind: "cob", Table: "pix_cobs", Where: "t.kind = 'cob'", ID: "t.txid", Detail: "'revisão ' || t.revisao"},
	{Kind: "cobv", Table: "pix_cobs", Where: "t.kind = 'cobv'", ID: "t.txid", Detail: "'revisão ' || t.revisao"},
	{Kind: "devolucao", Table: "pix_refunds", Join: "JOIN pix_received p ON p.e2eid = t.e2eid", ID: "t.e2eid || '/' || t.id",
		Detail: "t.natureza", App: "p.app_id", Company: "p.company_id", Updated: "t.created_at"},
	{Kind: "rec", Table: "pix_recs", ID: "t.id_rec", Detail: "''"},
	{Kind: "solicrec", Table: "pix_solicrecs", ID: "t.id_solic_rec", Detail: "'rec ' || t.id_rec"},
	{Kind: "cobr", Table: "pix_cobrs", ID: "t.txid", Detail: "'rec ' || t.id_rec || ', vencimento ' || t.vencimento"},
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

// CountResources counts a company's resources, for its quota.
func (s *Service) CountResources(ctx context.Context, tx *store.Tx, companyID string) (int64, error) {
	return resource.CountRows(ctx, tx, resourceTables, companyID)
}
