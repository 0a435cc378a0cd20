package wire

import (
	"context"
	"fmt"

	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// DeleteCompany runs a cycle's deletes of one company's rows (each with
// the company id as its one argument), in order: children before the rows
// they reference, as foreign keys are on. An empty company id is refused:
// rows of company "" are the sandbox's own (its index table), never a
// company's to lose.
func DeleteCompany(ctx context.Context, tx *store.Tx, companyID string, deletes []string) error {
	if !tenant.Named(companyID) {
		return fmt.Errorf("reset: %w", tenant.NoCompany())
	}
	for _, q := range deletes {
		if _, err := tx.ExecContext(ctx, q, companyID); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}
