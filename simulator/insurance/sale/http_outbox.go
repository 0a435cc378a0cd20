package sale

import (
	"net/http"
	"time"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/tenant"
)

// outbox is GET /sandbox/outbox?cpf=&clientId=: the messages the sandbox
// "sent" to the caller company's customers (signature codes), newest
// first; the operator reads every company's.
func (s *Service) outbox(r *http.Request) (*httpx.Reply, error) {
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return nil, err
	}
	q := wire.Params(r)
	msgs, err := s.outboxOf(r.Context(), outboxFilter{Scope: sc, CPF: q.Get("cpf"), ClientID: q.Get("clientId")})
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, m := range msgs {
		out = append(out, map[string]any{"id": m.ID, "cpf": m.CPF, "canal": m.Channel, "destino": m.Destination, "assunto": m.Subject,
			"texto": m.Body, "codigo": m.Code, "enviadaEm": m.CreatedAt.Format(time.RFC3339), "clientId": m.ClientID})
	}
	return httpx.OK(map[string]any{"messages": out}), nil
}
