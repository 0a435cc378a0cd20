package sale

import (
	"context"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// outboxMessage is a message the sandbox "sent" to a customer: a
// signature code, kept so a tester can read it.
type outboxMessage struct {
	ID, CompanyID, AppID, CPF, Channel, Destination, Subject, Body, Code string
	// ClientID is the app's client id, as the outbox shows it.
	ClientID  string
	CreatedAt time.Time
}

// outboxFilter selects messages: of its scope (a company's, or every
// company's for the operator), of a CPF, of an app (its client id); empty
// CPF and ClientID select all.
type outboxFilter struct {
	Scope    tenant.Scope
	CPF      string
	ClientID string
}

// outboxLimit is how many messages the outbox shows, newest first.
const outboxLimit = 100

// outboxOf lists the newest messages the filter selects: a company reads
// the codes sent to its own customers, never another's.
func (s *Service) outboxOf(ctx context.Context, f outboxFilter) ([]outboxMessage, error) {
	var out []outboxMessage
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		appID := ""
		if f.ClientID != "" {
			a, err := auth.AppTx(ctx, tx, f.ClientID)
			if errs.Is(err, errs.NotFound) {
				return nil // no such app: it was sent nothing
			}
			if err != nil {
				return err
			}
			appID = a.ID
		}
		var err error
		if out, err = listOutbox(ctx, tx, f, appID, outboxLimit); err != nil {
			return err
		}
		clients := map[string]string{}
		for i, m := range out {
			if _, ok := clients[m.AppID]; !ok {
				a, err := auth.AppTx(ctx, tx, m.AppID)
				if err != nil {
					return err
				}
				clients[m.AppID] = a.ClientID
			}
			out[i].ClientID = clients[m.AppID]
		}
		return nil
	})
	return out, err
}
