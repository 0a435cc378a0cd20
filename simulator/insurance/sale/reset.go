package sale

import (
	"context"
	"fmt"

	"homologa/simulator/store"
)

// ResetCompany empties what the sale keeps of a company (POST
// /sandbox/reset, a namespace's removal): its proposals with their
// pendings and timelines, reserved numbers, questionnaire answers,
// signature codes and the outbox that sent them, access-management users
// and signatures, documents, card pre-authorisations and retries. Its offer grants stay: they are how the portal set it up,
// not what it did. The customer cycle's reset, which holds enrollments of
// its proposals, runs first.
func (s *Service) ResetCompany(ctx context.Context, tx *store.Tx, companyID string, _ []string) error {
	if err := store.DeleteCompany(ctx, tx, companyID, companySaleDeletes); err != nil {
		return fmt.Errorf("reset sale of company %s: %w", companyID, err)
	}
	return nil
}
