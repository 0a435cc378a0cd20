package customer

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"homologa/simulator/jobs"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Job kinds of the customer cycle.
const (
	jobIssue    = "insurance.billing.issue"
	jobOverdue  = "insurance.billing.overdue"
	jobGrace    = "insurance.billing.grace"
	jobPayout   = "insurance.commission.payout"
	jobReadjust = "insurance.readjust"
	jobCancel   = "insurance.cancel"
)

// jobRef is what a job of the cycle is about: an enrollment or a charge
// (ID, with the charge's parcela when it issues one), or a company's
// month of commissions.
type jobRef struct {
	ID      int64  `json:"id"`
	Parcela int    `json:"parcela,omitempty"`
	Company string `json:"company,omitempty"`
	Mes     string `json:"mes,omitempty"`
}

// RegisterJobs registers the customer cycle's scheduled work: each job
// runs in a transaction of its own, for the insurer (of any company).
func (s *Service) RegisterJobs(js *jobs.Scheduler) {
	s.Jobs = js
	handle := func(kind string, f func(ctx context.Context, tx *store.Tx, ref jobRef) error) {
		js.HandleInTx(kind, func(ctx context.Context, tx *store.Tx, j jobs.Job) error {
			var ref jobRef
			if err := json.Unmarshal(j.Payload, &ref); err != nil {
				return fmt.Errorf("%s payload: %w", kind, err)
			}
			return f(ctx, tx, ref)
		})
	}
	handle(jobIssue, s.issueJob)
	handle(jobOverdue, s.overdueJob)
	handle(jobGrace, s.graceJob)
	handle(jobPayout, s.payoutJob)
	handle(jobReadjust, s.readjustJob)
	handle(jobCancel, s.cancelJob)
}

// schedule files a job of a company's resource under that company: it
// falls due on the company's clock and runs for it, whoever's work
// scheduled it (a partner's request, a scenario, the operator).
func (s *Service) schedule(ctx context.Context, tx *store.Tx, companyID, kind string, at time.Time, ref jobRef) error {
	_, err := s.Jobs.Schedule(tenant.With(ctx, companyID), tx, kind, at, ref)
	return err
}
