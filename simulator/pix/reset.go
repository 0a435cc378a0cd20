package pix

import (
	"context"
	"fmt"

	"homologa/simulator/store"
)

// ResetCompany empties a company's Pix sandbox (POST /sandbox/reset, a
// namespace's removal): its charges and their revisions, locations,
// received Pix and refunds, batches, webhooks, recurrences, their
// locations, requests and charges. Its Pix keys stay, as its apps and
// credentials do: they are how it is set up, not what it did.
func (s *Service) ResetCompany(ctx context.Context, tx *store.Tx, companyID string, _ []string) error {
	if err := store.DeleteCompany(ctx, tx, companyID, companyPixDeletes); err != nil {
		return fmt.Errorf("reset Pix of company %s: %w", companyID, err)
	}
	return nil
}
