package customer

import (
	"context"
	"fmt"

	"homologa/simulator/store"
)

// ResetCompany empties what the customer cycle keeps of a company (POST
// /sandbox/reset, a namespace's removal): its enrollments, their charges,
// its commissions and their monthly batches, and its own index values (it
// reads the sandbox's table again). The benefit cycle's reset, which holds
// benefits on its enrollments, runs first; the sale's, whose proposals
// the enrollments reference, after.
func (s *Service) ResetCompany(ctx context.Context, tx *store.Tx, companyID string, _ []string) error {
	if err := store.DeleteCompany(ctx, tx, companyID, companyCustomerDeletes); err != nil {
		return fmt.Errorf("reset customer cycle of company %s: %w", companyID, err)
	}
	return nil
}
