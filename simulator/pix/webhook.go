package pix

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/events"
	"homologa/simulator/store"
)

// webhook is where the Pix received on one key are notified.
type webhook struct {
	Chave, URL, AppID string
	CreatedAt         time.Time
}

var webhookAbsent = absent{typ: "WebhookNaoEncontrado", format: "nenhum webhook para a chave %v"}

// setWebhook registers the webhook of one of the app's keys.
func (s *Service) setWebhook(ctx context.Context, p auth.Principal, chave, url string) error {
	if err := s.Auth.Webhooks.Check(url); err != nil {
		return invalid("WebhookOperacaoInvalida", violation{"webhookUrl", err.Error(), url})
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, err := KeyType(chave); err != nil {
			return invalid("WebhookOperacaoInvalida", violation{"chave", "a chave não existe no DICT: " + err.Error(), chave})
		}
		ok, err := ownsKey(ctx, tx, p.AppID, chave)
		if err != nil {
			return err
		}
		if !ok {
			return invalid("WebhookOperacaoInvalida", violation{"chave", "a chave não pertence ao usuário recebedor", chave})
		}
		return upsertWebhook(ctx, tx, p.CompanyID, p.AppID, chave, url, s.nowOf(p.CompanyID))
	})
}

// getWebhook is the webhook of a key, as WebhookCompleto.
func (s *Service) getWebhook(ctx context.Context, p auth.Principal, chave string) (doc, error) {
	return view(ctx, s.DB, findWebhook, p.CompanyID, chave, webhookAbsent, func(_ *store.Tx, w *webhook) (doc, error) {
		return webhookBody(w, p.CNPJ), nil
	})
}

// removeWebhook forgets the webhook of a key.
func (s *Service) removeWebhook(ctx context.Context, companyID, chave string) error {
	return remove(ctx, s.DB, deleteWebhook, companyID, chave, webhookAbsent)
}

// listWebhooks is GET /webhook's answer.
func (s *Service) listWebhooks(ctx context.Context, p auth.Principal, lq *listQuery) (doc, error) {
	return list(ctx, s.DB, lq, webhookListing(p.CompanyID, lq), "webhooks", scanWebhook,
		func(_ context.Context, _ *store.Tx, w *webhook) (any, error) { return webhookBody(w, p.CNPJ), nil })
}

// webhookBody is WebhookCompleto. It carries both `cnpj` (required since
// 2.7.0) and `chave` (the field up to 2.6.3, still in the example): a client
// of either version finds its field (SUMMARY §12).
func webhookBody(w *webhook, cnpj string) doc {
	return doc{"webhookUrl": w.URL, "chave": w.Chave, "cnpj": cnpj, "criacao": rfc3339(w.CreatedAt)}
}

// pixTargets is where a Pix received on a key is POSTed: the official
// {webhookUrl}/pix with {"pix":[…]}, when the key has a webhook.
func pixTargets(ctx context.Context, tx *store.Tx, companyID, chave string, full doc) ([]events.Target, error) {
	w, err := findWebhook(ctx, tx, companyID, chave)
	if err != nil || w == nil {
		return []events.Target{}, err
	}
	b, _ := json.Marshal(doc{"pix": []doc{full}})
	return []events.Target{{URL: strings.TrimSuffix(w.URL, "/") + "/pix", Body: b}}, nil
}
