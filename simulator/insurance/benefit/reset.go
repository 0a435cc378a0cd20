package benefit

import (
	"context"
	"fmt"

	"homologa/simulator/store"
)

// ResetCompany empties what the benefit cycle keeps of a company (POST
// /sandbox/reset, a namespace's removal): its benefits with their pendings,
// timelines and payments. It runs before the customer cycle's, whose
// enrollments the benefits reference.
func (s *Service) ResetCompany(ctx context.Context, tx *store.Tx, companyID string, _ []string) error {
	if err := store.DeleteCompany(ctx, tx, companyID, companyBenefitDeletes); err != nil {
		return fmt.Errorf("reset benefits of company %s: %w", companyID, err)
	}
	return nil
}
