package pix

import (
	"context"
	"encoding/json"
	"strings"

	"homologa/simulator/auth"
	"homologa/simulator/events"
	"homologa/simulator/store"
)

var webhookRecAbsent = absent{typ: "NaoEncontrado", format: "nenhum webhook de %v cadastrado"}

// setWebhookRec registers the receiving user's webhook of kind rec or cobr.
func (s *Service) setWebhookRec(ctx context.Context, p auth.Principal, kind, url string) error {
	if err := s.Auth.Webhooks.Check(url); err != nil {
		return invalid(webhookRecTypes[kind], violation{"webhookUrl", err.Error(), url})
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		return upsertWebhookRec(ctx, tx, p.CompanyID, kind, p.AppID, url, s.nowOf(p.CompanyID))
	})
}

// getWebhookRec is the webhook of kind rec or cobr.
func (s *Service) getWebhookRec(ctx context.Context, companyID, kind string) (doc, error) {
	return view(ctx, s.DB, findWebhookRec, companyID, kind, webhookRecAbsent, func(_ *store.Tx, w *webhook) (doc, error) {
		return doc{"webhookUrl": w.URL, "criacao": rfc3339(w.CreatedAt)}, nil
	})
}

// removeWebhookRec forgets the webhook of kind rec or cobr.
func (s *Service) removeWebhookRec(ctx context.Context, companyID, kind string) error {
	return remove(ctx, s.DB, deleteWebhookRec, companyID, kind, webhookRecAbsent)
}

// callbackTargets is where a change of kind (rec or cobr) is POSTed: the
// official {webhookUrl}/rec or /cobr, with its list body.
func callbackTargets(ctx context.Context, tx *store.Tx, companyID, kind string, item doc) ([]events.Target, error) {
	w, err := findWebhookRec(ctx, tx, companyID, kind)
	if err != nil || w == nil {
		return []events.Target{}, err
	}
	list := map[string]string{"rec": "recs", "cobr": "cobsr"}[kind]
	b, _ := json.Marshal(doc{list: []doc{item}})
	return []events.Target{{URL: strings.TrimSuffix(w.URL, "/") + "/" + kind, Body: b}}, nil
}
