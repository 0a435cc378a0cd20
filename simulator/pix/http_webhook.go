package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// handleWebhookPut is PUT /webhook/{chave}: where the Pix received on the
// key are notified (POST {webhookUrl}/pix). 200 without a body, as the spec
// says.
func (s *Service) handleWebhookPut(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		WebhookURL string `json:"webhookUrl"`
	}
	if err := decode(r, s.Schemas, "pix/webhook.request", "", "WebhookOperacaoInvalida", &in); err != nil {
		return nil, err
	}
	return replyStatus(http.StatusOK, s.setWebhook(r.Context(), principal(r), mux.Vars(r)["chave"], in.WebhookURL))
}

// handleWebhookGet is GET /webhook/{chave}.
func (s *Service) handleWebhookGet(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.getWebhook(r.Context(), principal(r), mux.Vars(r)["chave"]))
}

// handleWebhookDelete is DELETE /webhook/{chave}: 204.
func (s *Service) handleWebhookDelete(r *http.Request) (*httpx.Reply, error) {
	if err := s.removeWebhook(r.Context(), principal(r).CompanyID, mux.Vars(r)["chave"]); err != nil {
		return nil, err
	}
	return httpx.NoContent(), nil
}

// handleWebhookList is GET /webhook; inicio and fim are optional here.
func (s *Service) handleWebhookList(r *http.Request) (*httpx.Reply, error) {
	lq := listOf(r, "WebhookConsultaInvalida", false)
	if err := lq.err(); err != nil {
		return nil, err
	}
	return replyOK(s.listWebhooks(r.Context(), principal(r), lq))
}
