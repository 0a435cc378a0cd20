package insurance

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
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

// The sandbox's own bounds on a code: what real services allow.
const (
	defaultTokenMinutes = 5
	maxTokenMinutes     = 60
	defaultTokenSize    = 6
)

// postTokenUser issues a one-time signature code for a CPF and "sends" it
// through the outbox (GET /sandbox/outbox), which also puts it on the
// event stream.
func (s *Service) postTokenUser(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	var in tokenRequest
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/token.request", &in); err != nil {
		return nil, err
	}
	if v := mux.Vars(r); v["cpf"] != "" {
		in.CPF, in.SystemID = v["cpf"], v["systemId"]
	}
	if err := taxid.CheckCPF(in.CPF); err != nil {
		return nil, errs.Invalidf("cpf", "CPF inválido: %v", err)
	}
	minutes, err := intField(in.TimeoutInMinutes, defaultTokenMinutes, 1, maxTokenMinutes)
	if err != nil {
		return nil, errs.Invalidf("timeoutInMinutes", "%v", err)
	}
	size, err := intField(in.TokenSize, defaultTokenSize, 4, 8)
	if err != nil {
		return nil, errs.Invalidf("tokenSize", "%v", err)
	}
	channel := in.Output
	if channel == "" {
		channel = "Email"
	}
	dest := in.Email
	if channel == "SMS" {
		dest = in.Cellphone
	}
	if dest == "" {
		dest = maskedDestination(channel, in.CPF)
	}
	now := s.Clock.Now()
	id := s.DB.IDs.UUID()
	code := oneTimeCode(id, size)
	expires := now.Add(time.Duration(minutes) * time.Minute)
	out := map[string]any{"tokenId": id, "expiresAt": expires.Format(time.RFC3339), "channel": channel, "destination": dest}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO signature_tokens (id, company_id, app_id, cpf, code, channel, system_id, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, p.CompanyID, p.AppID, in.CPF, code, channel, in.SystemID, now.UnixNano(), expires.UnixNano()); err != nil {
			return err
		}
		unit := "minutos"
		if minutes == 1 {
			unit = "minuto"
		}
		body := fmt.Sprintf("Seu código de assinatura é %s. Ele vale por %d %s e só pode ser usado uma vez.", code, minutes, unit)
		msgID := s.DB.IDs.UUID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox_messages (id, company_id, app_id, cpf, channel, destination, subject, body, code, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, msgID, p.CompanyID, p.AppID, in.CPF, channel, dest, "Código de assinatura", body, code, now.UnixNano()); err != nil {
			return err
		}
		// The stream only: a partner's webhook never receives the code,
		// as a real customer's mailbox is not the partner's.
		return s.emitStream(ctx, tx, p, "sandbox.mensagem", "Mensagem Enviada", map[string]any{"cpf": in.CPF, "tokenId": id},
			map[string]any{"canal": channel, "destino": dest, "assunto": "Código de assinatura", "texto": body, "codigo": code})
	})
	if err != nil {
		return nil, err
	}
	return created(out), nil
}

func (s *Service) emitStream(ctx context.Context, tx *store.Tx, p auth.Principal, typ, name string, subject map[string]any, data any) error {
	_, err := s.Bus.Emit(ctx, tx, eventFor(p, typ, name, subject, "", data, true))
	return err
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
			return 0, fmt.Errorf("%q is not a whole number", x)
		}
	default:
		return 0, fmt.Errorf("must be a number")
	}
	if n < min || n > max {
		return 0, fmt.Errorf("must be between %d and %d, got %d", min, max, n)
	}
	return n, nil
}

// useToken consumes a signature code for cpf in proposal numero: it must
// exist for the company and the CPF, be unexpired and unused.
func useToken(ctx context.Context, tx *store.Tx, companyID, cpf, code string, numero int64, now time.Time) *errs.Error {
	var id string
	var expires int64
	var used sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT id, expires_at, used_at FROM signature_tokens WHERE company_id = ? AND cpf = ? AND code = ? ORDER BY created_at DESC LIMIT 1`,
		companyID, cpf, code).Scan(&id, &expires, &used)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return rule("PROPOSTA.ASSINATURA.TOKEN", "ASSINATURA_INVALIDA", "token inválido: nenhum código %s foi emitido para o CPF %s do proponente", code, cpf)
	case err != nil:
		return errs.As(err)
	case used.Valid:
		return rule("PROPOSTA.ASSINATURA.TOKEN", "ASSINATURA_INVALIDA", "token já utilizado: cada código assina uma única proposta")
	case now.After(time.Unix(0, expires)):
		return rule("PROPOSTA.ASSINATURA.TOKEN", "ASSINATURA_INVALIDA", "token expirado às %s; peça um novo em POST /access/v1/token/user", time.Unix(0, expires).UTC().Format(time.RFC3339))
	}
	if _, err := tx.ExecContext(ctx, `UPDATE signature_tokens SET used_at = ?, used_by = ? WHERE id = ?`, now.UnixNano(), numero, id); err != nil {
		return errs.As(err)
	}
	return nil
}

// outbox is GET /sandbox/outbox?cpf=&clientId=: the messages the sandbox
// "sent" to customers (signature codes), newest first.
func (s *Service) outbox(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	q := r.URL.Query()
	out := []map[string]any{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT m.id, m.cpf, m.channel, m.destination, m.subject, m.body, m.code, m.created_at, a.client_id
			FROM outbox_messages m JOIN apps a ON a.id = m.app_id
			WHERE (? = '' OR m.cpf = ?) AND (? = '' OR a.client_id = ?) ORDER BY m.created_at DESC, m.id LIMIT 100`,
			q.Get("cpf"), q.Get("cpf"), q.Get("clientId"), q.Get("clientId"))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, cpf, ch, dest, subj, body, code, client string
			var at int64
			if err := rows.Scan(&id, &cpf, &ch, &dest, &subj, &body, &code, &at, &client); err != nil {
				return err
			}
			out = append(out, map[string]any{"id": id, "cpf": cpf, "canal": ch, "destino": dest, "assunto": subj, "texto": body, "codigo": code,
				"enviadaEm": time.Unix(0, at).UTC().Format(time.RFC3339), "clientId": client})
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"messages": out}), nil
}
