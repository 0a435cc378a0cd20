package pix

import (
	"net/http"

	"homologa/simulator/httpx"
)

// webhookRecTypes are the OperacaoInvalida types of /webhookrec and
// /webhookcobr.
var webhookRecTypes = map[string]string{"rec": "WebhookRecOperacaoInvalida", "cobr": "WebhookCobROperacaoInvalida"}

// handleWebhookRecPut is PUT /webhookrec and /webhookcobr (and the seed's
// POST): one webhook per receiving user for each kind.
func (s *Service) handleWebhookRecPut(kind string) httpx.HandlerFunc {
	return func(r *http.Request) (*httpx.Reply, error) {
		var in struct {
			WebhookURL string `json:"webhookUrl"`
		}
		if err := decode(r, s.Schemas, "pix/webhook"+kind+".request", "", webhookRecTypes[kind], &in); err != nil {
			return nil, err
		}
		return replyStatus(http.StatusOK, s.setWebhookRec(r.Context(), principal(r), kind, in.WebhookURL))
	}
}

// handleWebhookRecGet is GET /webhookrec and /webhookcobr.
func (s *Service) handleWebhookRecGet(kind string) httpx.HandlerFunc {
	return func(r *http.Request) (*httpx.Reply, error) {
		return replyOK(s.getWebhookRec(r.Context(), principal(r).CompanyID, kind))
	}
}

// handleWebhookRecDelete is DELETE /webhookrec and /webhookcobr: 204.
func (s *Service) handleWebhookRecDelete(kind string) httpx.HandlerFunc {
	return func(r *http.Request) (*httpx.Reply, error) {
		if err := s.removeWebhookRec(r.Context(), principal(r).CompanyID, kind); err != nil {
			return nil, err
		}
		return httpx.NoContent(), nil
	}
}
