package sale

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// The sandbox's own bounds on a code: what real services allow.
const (
	defaultTokenMinutes = 5
	maxTokenMinutes     = 60
	defaultTokenSize    = 6
)

// tokenRequest is POST /token/user's body; with the evidenced path form
// /token/user/{cpf}/system/{systemId}, cpf and systemId come from the path
// (SUMMARY §3.7: output, timeoutInMinutes and tokenSize, sent as strings).
type tokenRequest struct {
	CPF              string `json:"cpf"`
	SystemID         string `json:"systemId"`
	Output           string `json:"output"`
	TimeoutInMinutes any    `json:"timeoutInMinutes"`
	TokenSize        any    `json:"tokenSize"`
	Email            string `json:"email"`
	Cellphone        string `json:"cellphone"`
}

// tokenIn is a request for a signature code, checked, with its defaults.
type tokenIn struct {
	By                                  auth.Principal
	CPF, SystemID, Channel, Destination string
	Minutes, Size                       int
}

// newTokenIn checks a request for a code and fills in its defaults: a
// code of 6 digits valid for 5 minutes, sent by e-mail to the customer's
// address (masked when the partner gives none).
func newTokenIn(by auth.Principal, req tokenRequest) (tokenIn, error) {
	if err := taxid.CheckCPF(req.CPF); err != nil {
		return tokenIn{}, errs.Invalidf("cpf", "CPF inválido: %v", err)
	}
	minutes, err := intField(req.TimeoutInMinutes, defaultTokenMinutes, 1, maxTokenMinutes)
	if err != nil {
		return tokenIn{}, errs.Invalidf("timeoutInMinutes", "%v", err)
	}
	size, err := intField(req.TokenSize, defaultTokenSize, 4, 8)
	if err != nil {
		return tokenIn{}, errs.Invalidf("tokenSize", "%v", err)
	}
	in := tokenIn{By: by, CPF: req.CPF, SystemID: req.SystemID, Channel: wire.OrDefault(req.Output, "Email"), Destination: req.Email,
		Minutes: minutes, Size: size}
	if in.Channel == "SMS" {
		in.Destination = req.Cellphone
	}
	if in.Destination == "" {
		in.Destination = maskedDestination(in.Channel, in.CPF)
	}
	return in, nil
}

// signatureToken is an issued code.
type signatureToken struct {
	ID, CompanyID, AppID, CPF, Code, Channel, SystemID string
	CreatedAt, ExpiresAt                               time.Time
}

// issueToken issues a one-time signature code and "sends" it: the outbox
// keeps the message (GET /sandbox/outbox), and the event stream shows it.
func (s *Service) issueToken(ctx context.Context, in tokenIn) (*signatureToken, error) {
	now := s.NowOf(in.By.CompanyID)
	t := &signatureToken{ID: s.DB.IDs.UUID(), CompanyID: in.By.CompanyID, AppID: in.By.AppID, CPF: in.CPF, Channel: in.Channel,
		SystemID: in.SystemID, CreatedAt: now, ExpiresAt: now.Add(time.Duration(in.Minutes) * time.Minute)}
	t.Code = oneTimeCode(t.ID, in.Size)
	unit := "minutos"
	if in.Minutes == 1 {
		unit = "minuto"
	}
	m := outboxMessage{ID: s.DB.IDs.UUID(), CompanyID: t.CompanyID, AppID: t.AppID, CPF: t.CPF, Channel: t.Channel, Destination: in.Destination,
		Subject: "Código de assinatura", Code: t.Code, CreatedAt: now,
		Body: fmt.Sprintf("Seu código de assinatura é %s. Ele vale por %d %s e só pode ser usado uma vez.", t.Code, in.Minutes, unit)}
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		if err := insertToken(ctx, tx, t); err != nil {
			return err
		}
		if err := insertOutboxMessage(ctx, tx, &m); err != nil {
			return err
		}
		// The stream only: a partner's webhook never receives the code,
		// as a real customer's mailbox is not the partner's.
		return s.EmitStream(ctx, tx, in.By, wire.Event{Type: "sandbox.mensagem", Name: "Mensagem Enviada",
			Subject: map[string]any{"cpf": t.CPF, "tokenId": t.ID},
			Data:    map[string]any{"canal": m.Channel, "destino": m.Destination, "assunto": m.Subject, "texto": m.Body, "codigo": m.Code}})
	})
	return t, err
}

// oneTimeCode derives a numeric code from the token id: unpredictable with
// random ids, reproducible with a deterministic sandbox.
func oneTimeCode(id string, size int) string {
	sum := sha256.Sum256([]byte("homologa-otp:" + id))
	n := binary.BigEndian.Uint64(sum[:8])
	mod := uint64(1)
	for range size {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", size, n%mod)
}

func maskedDestination(channel, cpf string) string {
	if channel == "SMS" {
		return "+55 11 9****-" + cpf[7:11]
	}
	return "c***" + cpf[8:11] + "@cliente.homologa.test"
}

// intField reads a number sent as a number or a numeric string.
func intField(v any, def, min, max int) (int, error) {
	var n int
	switch x := v.(type) {
	case nil:
		return def, nil
	case float64:
		n = int(x)
	case string:
		var err error
		if n, err = strconv.Atoi(x); err != nil {
			return 0, fmt.Errorf("%q não é um número inteiro", x)
		}
	default:
		return 0, fmt.Errorf("deve ser um número")
	}
	if n < min || n > max {
		return 0, fmt.Errorf("deve estar entre %d e %d, recebido %d", min, max, n)
	}
	return n, nil
}

// useToken uses up a signature code of the payer's CPF for proposal
// numero.
func useToken(ctx context.Context, tx *store.Tx, payer Payer, code string, numero int64, now time.Time) error {
	t, err := latestToken(ctx, tx, payer, code)
	if err != nil {
		return err
	}
	if err := checkToken(t, payer, code, now); err != nil {
		return err
	}
	return markTokenUsed(ctx, tx, t.ID, numero, now)
}

// usedToken is a code as a proposal finds it: whether it was used.
type usedToken struct {
	ID        string
	ExpiresAt time.Time
	Used      bool
}

// checkToken accepts a code issued for the payer's CPF, unexpired and
// unused; t is nil when none was issued.
func checkToken(t *usedToken, payer Payer, code string, now time.Time) error {
	const field, typ = "PROPOSTA.ASSINATURA.TOKEN", "ASSINATURA_INVALIDA"
	switch {
	case t == nil:
		return wire.Rule(field, typ, "nenhum código %s foi emitido para o CPF %s do proponente", code, payer.CPF)
	case t.Used:
		return wire.Rule(field, typ, "token já utilizado: cada código assina uma única proposta")
	case now.After(t.ExpiresAt):
		return wire.Rule(field, typ, "token expirado às %s; peça um novo em POST /access/v1/token/user", t.ExpiresAt.UTC().Format(time.RFC3339))
	}
	return nil
}
