package sale

import (
	"net/http"
	"time"

	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// postSignature is POST /signature {user, token, sender, description}: the
// customer signs with the one-time code it received, as the 2025 client
// does before it sends the proposal, which this signature then signs. The
// client reads the signature's id at the top of the answer.
func (s *Service) postSignature(r *http.Request) (*httpx.Reply, error) {
	var in signatureIn
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/signature.request", &in); err != nil {
		return nil, err
	}
	sig, err := s.sign(r.Context(), wire.Principal(r), in)
	if err != nil {
		return nil, err
	}
	return wire.ReplyTop(http.StatusCreated, map[string]any{"id": sig.ID}, map[string]any{"id": sig.ID, "document": sig.CPF,
		"dataAssinatura": sig.CreatedAt.Format(time.RFC3339), "tokenType": wire.OrDefault(in.Token.TokenType, "ValidacaoCompra")}), nil
}
