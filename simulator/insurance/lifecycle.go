package insurance

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// proposta is a stored proposal.
type proposta struct {
	Numero    int64
	CompanyID string
	AppID     string
	OfferID   string
	CPF       string
	Status    string
	Motivo    string
	Total     float64
	Request   map[string]any
	CreatedAt time.Time
	UpdatedAt time.Time
}

func loadProposta(ctx context.Context, tx *store.Tx, companyID string, numero int64) (*proposta, error) {
	var p proposta
	var req string
	var created, updated int64
	err := tx.QueryRowContext(ctx, `SELECT numero, company_id, app_id, offer_id, cpf, status, motivo, valor_total, request, created_at, updated_at
		FROM propostas WHERE numero = ? AND (? = '' OR company_id = ?)`, numero, companyID, companyID).
		Scan(&p.Numero, &p.CompanyID, &p.AppID, &p.OfferID, &p.CPF, &p.Status, &p.Motivo, &p.Total, &req, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(req), &p.Request); err != nil {
		return nil, fmt.Errorf("proposta %d: %w", p.Numero, err)
	}
	p.CreatedAt, p.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return &p, nil
}

// owner is the principal events of a proposal go to.
func (s *Service) owner(ctx context.Context, tx *store.Tx, p *proposta) (auth.Principal, error) {
	a, err := auth.AppTx(ctx, tx, p.AppID)
	if err != nil {
		return auth.Principal{}, err
	}
	return auth.Principal{AppID: a.ID, CompanyID: a.CompanyID, CNPJ: a.CNPJ, ClientID: a.ClientID}, nil
}

func subjectOf(p *proposta) map[string]any { return map[string]any{"numeroProposta": p.Numero} }
func keyOf(p *proposta) string             { return fmt.Sprintf("proposta:%d", p.Numero) }

// move changes a proposal's status through its machine, with its event
// (Status de Proposta, or Proposta Implantada) and a timeline entry.
func (s *Service) move(ctx context.Context, tx *store.Tx, p *proposta, to, motivo, usuario string, extra map[string]any) error {
	own, err := s.owner(ctx, tx, p)
	if err != nil {
		return err
	}
	from := p.Status
	data := map[string]any{"statusAnterior": from, "statusAtual": to, "statusAtualCodigo": statusCode[to]}
	if motivo != "" {
		data["motivo"] = motivo
	}
	for k, v := range extra {
		data[k] = v
	}
	now := s.Clock.Now()
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: propostaMachine, From: from, To: to, AppID: own.AppID, CNPJ: own.CNPJ,
		Subject: subjectOf(p), SubjectKey: keyOf(p), Data: data,
		Store: func(ctx context.Context, tx *store.Tx) error {
			if _, err := tx.ExecContext(ctx, `UPDATE propostas SET status = ?, motivo = ?, updated_at = ? WHERE numero = ?`, to, motivo, now.UnixNano(), p.Numero); err != nil {
				return err
			}
			desc := "Proposta " + to
			if motivo != "" {
				desc += ": " + motivo
			}
			return addTimeline(ctx, tx, p.Numero, now, to, usuario, desc, 0)
		},
	})
	if err != nil {
		return err
	}
	p.Status, p.Motivo = to, motivo
	return nil
}

func addTimeline(ctx context.Context, tx *store.Tx, numero int64, at time.Time, status, usuario, descricao string, pendencia int64) error {
	var pend any
	if pendencia > 0 {
		pend = pendencia
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO proposta_timeline (numero, at, status, usuario, descricao, pendencia) VALUES (?, ?, ?, ?, ?, ?)`,
		numero, at.UnixNano(), status, usuario, descricao, pend)
	return err
}

// raisePendencia opens a pending on a proposal (moving it to PENDENTE)
// with its event. Answered pendings it replaces are rejected.
func (s *Service) raisePendencia(ctx context.Context, tx *store.Tx, p *proposta, codigo, grupo, descricao string) (int64, error) {
	if p.Status != EmAnalise && p.Status != Pendente {
		return 0, errs.Errorf(errs.Conflict, "proposta %d is %s: pendings are raised during analysis", p.Numero, p.Status)
	}
	now := s.Clock.Now()
	if _, err := tx.ExecContext(ctx, `UPDATE pendencias SET status = ?, updated_at = ? WHERE numero = ? AND status = ?`, Rejeitada, now.UnixNano(), p.Numero, Respondida); err != nil {
		return 0, err
	}
	if grupo == "" {
		grupo = "SUBSCRICAO"
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO pendencias (numero, status, grupo, codigo, descricao, responsavel, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		p.Numero, Aberta, grupo, codigo, descricao, "PROPONENTE", now.UnixNano(), now.UnixNano())
	if err != nil {
		return 0, err
	}
	id, _ := res.LastInsertId()
	if err := s.move(ctx, tx, p, Pendente, "", "SUBSCRICAO", nil); err != nil {
		return 0, err
	}
	if err := addTimeline(ctx, tx, p.Numero, now, Pendente, "SUBSCRICAO", "Pendência "+codigo+": "+descricao, id); err != nil {
		return 0, err
	}
	own, err := s.owner(ctx, tx, p)
	if err != nil {
		return 0, err
	}
	subject := subjectOf(p)
	subject["pendenciaId"] = id
	return id, s.emit(ctx, tx, own, "proposta.pendencia", "Pendência de Proposta", subject, keyOf(p), map[string]any{
		"codigo": codigo, "grupo": grupo, "descricao": descricao, "responsavel": "PROPONENTE",
		"dataPendencia": now.Format(time.RFC3339), "prazo": now.AddDate(0, 0, 30).Format(time.DateOnly),
	})
}

// resolveAnswered accepts the answered pendings: the insurer took the
// answers, and the proposal goes back to analysis.
func (s *Service) resolveAnswered(ctx context.Context, tx *store.Tx, p *proposta) error {
	var open int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pendencias WHERE numero = ? AND status = ?`, p.Numero, Aberta).Scan(&open); err != nil {
		return err
	}
	if open > 0 {
		return errs.Errorf(errs.Conflict, "proposta %d has %d pending(s) still unanswered", p.Numero, open)
	}
	_, err := tx.ExecContext(ctx, `UPDATE pendencias SET status = ?, updated_at = ? WHERE numero = ? AND status = ?`, Resolvida, s.Clock.Now().UnixNano(), p.Numero, Respondida)
	return err
}

// closePendencias cancels what is still open when a proposal ends.
func (s *Service) closePendencias(ctx context.Context, tx *store.Tx, p *proposta) error {
	_, err := tx.ExecContext(ctx, `UPDATE pendencias SET status = ?, updated_at = ? WHERE numero = ? AND status IN (?, ?)`,
		PendCancelada, s.Clock.Now().UnixNano(), p.Numero, Aberta, Respondida)
	return err
}
