package wire

import (
	"context"

	"homologa/simulator/resource"
	"homologa/simulator/store"
)

// ListResources lists a cycle's tables for the dashboard
// (resource.Lister), in a read transaction of its own.
func ListResources(ctx context.Context, db *store.DB, tables []resource.Table, kinds []string, q resource.Query) (list []resource.Summary, counts []resource.Count, err error) {
	err = db.Read(ctx, func(tx *store.Tx) error {
		list, counts, err = resource.List(ctx, tx, resource.Select(tables, kinds), q)
		return err
	})
	return list, counts, err
}
