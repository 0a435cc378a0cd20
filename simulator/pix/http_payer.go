package pix

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
)

// handlePay is POST /sandbox/pix/payments: the simulated payer pays a
// charge, or credits a Pix without txid.
func (s *Service) handlePay(r *http.Request) (*httpx.Reply, error) {
	var in Payment
	if err := httpx.DecodeJSON(r, s.Schemas, "platform/pix.payment", &in); err != nil {
		return nil, err
	}
	return replyCreated(s.pay(r.Context(), in))
}

// handleDevolucaoSettle is POST /sandbox/pix/refunds/{e2eid}/{id}
// {"status": "DEVOLVIDO"|"NAO_REALIZADO", "motivo"}: the control API
// decides the outcome of a refund still processing.
func (s *Service) handleDevolucaoSettle(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		Status string `json:"status"`
		Motivo string `json:"motivo"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "platform/pix.refund.settle", &in); err != nil {
		return nil, err
	}
	return replyOK(s.settleDevolucaoNow(r.Context(), mux.Vars(r)["e2eid"], mux.Vars(r)["id"], in.Status, in.Motivo))
}

// handleRecPayerAction is POST /sandbox/pix/rec/{idRec}/{aprovar|rejeitar|
// cancelar} {"codigo"}: the payer, through its PSP, answers the rec's QR
// (journey 2) or cancels an approved recurrence.
func (s *Service) handleRecPayerAction(r *http.Request) (*httpx.Reply, error) {
	codigo, err := codigoOf(r)
	if err != nil {
		return nil, err
	}
	return replyOK(s.payerActsOnRec(r.Context(), mux.Vars(r)["idRec"], mux.Vars(r)["acao"], codigo))
}

// handleCobRPayerAction is POST /sandbox/pix/cobr/{txid}/{pagar|rejeitar}
// {"codigo"}: the payer's PSP settles or rejects the open attempt now.
func (s *Service) handleCobRPayerAction(r *http.Request) (*httpx.Reply, error) {
	codigo, err := codigoOf(r)
	if err != nil {
		return nil, err
	}
	return replyOK(s.payerActsOnCobR(r.Context(), mux.Vars(r)["txid"], mux.Vars(r)["acao"], codigo))
}

// codigoOf reads the optional {"codigo"} of the payer's actions.
func codigoOf(r *http.Request) (string, error) {
	var in struct {
		Codigo string `json:"codigo"`
	}
	err := httpx.DecodeOptionalJSON(r, nil, "", &in)
	return in.Codigo, err
}
