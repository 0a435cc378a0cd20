package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// handleJWKS is GET /qr/v2/jwks.json: the public key that verifies
// payloads.
func (s *Service) handleJWKS(r *http.Request) (*httpx.Reply, error) {
	return replyOK(s.jwks(r.Context()))
}

// handleCobPayload is GET /qr/v2/{token}: the JWS of CobPayload, with
// calendario.apresentacao the moment it was fetched.
func (s *Service) handleCobPayload(w http.ResponseWriter, r *http.Request) {
	payload, err := s.cobPayload(r.Context(), mux.Vars(r)["token"])
	s.writeJWS(w, r, payload, err)
}

// handleCobvPayload is GET /qr/v2/cobv/{token}?codMun=&DPP=: the JWS of
// CobVPayload, with the amounts computed for the payment date DPP (today
// when absent) in the payer's municipality.
func (s *Service) handleCobvPayload(w http.ResponseWriter, r *http.Request) {
	q := query(r)
	payload, err := s.cobvPayload(r.Context(), mux.Vars(r)["token"], q.Get("codMun"), q.Get("DPP"))
	s.writeJWS(w, r, payload, err)
}

// handleRecPayload is GET /qr/v2/rec/{token} (RecPayload): what the
// payer's app reads from a recurrence's QR, signed as the charges'
// payloads are.
func (s *Service) handleRecPayload(w http.ResponseWriter, r *http.Request) {
	payload, err := s.recPayloadAt(r.Context(), mux.Vars(r)["token"])
	s.writeJWS(w, r, payload, err)
}

// writeJWS answers a payload as a compact JWS whose jku points at this
// host's JWKS, or the error.
func (s *Service) writeJWS(w http.ResponseWriter, r *http.Request, payload doc, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	token, err := s.jws(r.Context(), scheme+"://"+r.Host+QRPath+"jwks.json", payload)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/jose")
	w.Write([]byte(token))
}
