package sale

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// postTokenUser is POST /token/user (or /token/user/{cpf}/system/{systemId}):
// a one-time signature code for a CPF, "sent" through the outbox
// (GET /sandbox/outbox), which also puts it on the event stream.
func (s *Service) postTokenUser(r *http.Request) (*httpx.Reply, error) {
	var req tokenRequest
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/token.request", &req); err != nil {
		return nil, err
	}
	if v := mux.Vars(r); v["cpf"] != "" {
		req.CPF, req.SystemID = v["cpf"], v["systemId"]
	}
	in, err := newTokenIn(wire.Principal(r), req)
	if err != nil {
		return nil, err
	}
	t, err := s.issueToken(r.Context(), in)
	if err != nil {
		return nil, err
	}
	return wire.Created(map[string]any{"tokenId": t.ID, "expiresAt": t.ExpiresAt.Format(time.RFC3339), "channel": in.Channel,
		"destination": in.Destination}), nil
}
