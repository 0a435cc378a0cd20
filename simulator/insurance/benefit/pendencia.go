package benefit

import (
	"context"
	"encoding/json"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// pendenciaMachine is a benefit pending: the proposal pending's states
// (SUMMARY §5.2), with the benefit's event for the answer.
var pendenciaMachine = wire.PendenciaMachine("pendencia de beneficio", "beneficio_pendencias", "beneficio.pendencia_respondida")

// pendencias are the benefits' pendings, by benefit.
var pendencias = wire.Children{Machine: pendenciaMachine, Parent: "beneficio_id"}

// pendencia is a stored pending of documents on a benefit.
type pendencia struct {
	ID, BeneficioID                               int64
	Status, Grupo, Codigo, Descricao, Responsavel string
	DocumentosExigidos                            []string
	Resposta, Autor                               string
	Documentos                                    json.RawMessage
	CreatedAt, UpdatedAt                          time.Time
}

// body is a benefit's pending as the API answers it.
func (p *pendencia) body() map[string]any {
	exigidos, _ := json.Marshal(p.DocumentosExigidos)
	out := map[string]any{"id": p.ID, "beneficioId": p.BeneficioID, "status": p.Status, "grupo": p.Grupo, "codigo": p.Codigo, "descricao": p.Descricao,
		"documentosExigidos": json.RawMessage(exigidos), "responsavel": p.Responsavel, "documentos": p.Documentos,
		"dataPendencia": p.CreatedAt.Format(time.RFC3339), "dataUltimaAtualizacao": p.UpdatedAt.Format(time.RFC3339)}
	if p.Resposta != "" {
		out["resposta"] = p.Resposta
	}
	if p.Autor != "" {
		out["autor"] = p.Autor
	}
	return out
}

// pendenciasOf reads a benefit's pendings as the API answers them, oldest
// first.
func pendenciasOf(ctx context.Context, tx *store.Tx, id int64) ([]map[string]any, error) {
	ps, err := loadPendencias(ctx, tx, id)
	out := []map[string]any{}
	for _, p := range ps {
		out = append(out, p.body())
	}
	return out, err
}

// listPendenciasOf reads the company's benefit's pendings in status (""
// for all).
func (s *Service) listPendenciasOf(ctx context.Context, companyID string, id int64, status string) ([]map[string]any, error) {
	out := []map[string]any{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		b, err := mustBeneficio(ctx, tx, companyID, id)
		if err != nil {
			return err
		}
		all, err := loadPendencias(ctx, tx, b.ID)
		for _, p := range all {
			if status == "" || p.Status == status {
				out = append(out, p.body())
			}
		}
		return err
	})
	return out, err
}

// respostaPendencia is the partner's answer to a pending: text,
// documents, or both.
type respostaPendencia struct {
	Resposta, Autor string
	Documentos      []map[string]any
}

// respond records the partner's answer to an open pending of the
// company's benefit id: it becomes RESPONDIDA (Pendência Respondida), and
// the benefit's scenario hears pending_answered.
func (s *Service) respond(ctx context.Context, by auth.Principal, id, pid int64, a respostaPendencia) (*pendencia, error) {
	var out *pendencia
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		b, err := mustBeneficio(ctx, tx, by.CompanyID, id)
		if err != nil {
			return err
		}
		pd, err := loadPendencia(ctx, tx, b.ID, pid)
		if err != nil {
			return err
		}
		if pd == nil {
			return wire.NotFound("PENDENCIA_NAO_ENCONTRADA", "o benefício %d não tem a pendência %d", b.ID, pid)
		}
		if _, err := pendenciaMachine.Check(pd.Status, wire.Respondida); err != nil {
			return wire.Rule("pendenciaId", "PENDENCIA_NAO_ABERTA", "a pendência %d está %s: só uma pendência ABERTA é respondida", pid, pd.Status)
		}
		if err := s.moveAnswered(ctx, tx, b, pd, a); err != nil {
			return err
		}
		if err := s.Trigger(ctx, tx, "beneficio", b.ID, "pending_answered"); err != nil {
			return err
		}
		out, err = loadPendencia(ctx, tx, b.ID, pid)
		return err
	})
	return out, err
}

// moveAnswered moves an open pending to RESPONDIDA with the answer, its
// timeline entry and its event.
func (s *Service) moveAnswered(ctx context.Context, tx *store.Tx, b *beneficio, pd *pendencia, a respostaPendencia) error {
	now := s.Clock.Now()
	docs, err := json.Marshal(a.Documentos)
	if err != nil {
		return err
	}
	subject := b.subject()
	subject["pendenciaId"] = pd.ID
	return s.Move(ctx, tx, b.AppID, statemachine.Move{
		Machine: pendenciaMachine, From: pd.Status, To: wire.Respondida, Subject: subject, SubjectKey: b.key(),
		Data: map[string]any{"resposta": a.Resposta, "autor": a.Autor, "documentos": a.Documentos},
		Store: func(ctx context.Context, tx *store.Tx) error {
			if err := storeAnswer(ctx, tx, pd.ID, a.Resposta, a.Autor, string(docs), now); err != nil {
				return err
			}
			return beneficioTimeline.Add(ctx, tx, b.ID, wire.Entry{At: now, Status: b.Status, Usuario: a.Autor, Descricao: "Pendência respondida", Pendencia: pd.ID})
		},
	})
}

// raisePendencia opens a pending of documents on a benefit under
// regulation (moving it to PENDENTE) with Pendência de Benefício. Answered
// pendings it replaces are rejected: the answer was not enough.
func (s *Service) raisePendencia(ctx context.Context, tx *store.Tx, b *beneficio, codigo, grupo, descricao string, exigidos []string) (int64, error) {
	if b.Status != BenEmRegulacao && b.Status != BenPendente {
		return 0, errs.Errorf(errs.Conflict, "o benefício %d está %s: pendências são abertas durante a regulação", b.ID, b.Status)
	}
	now := s.Clock.Now()
	if err := pendencias.MoveAll(ctx, tx, s.Machines, b.ID, now, wire.Rejeitada, wire.Respondida); err != nil {
		return 0, err
	}
	if exigidos == nil {
		exigidos = []string{}
	}
	pd := &pendencia{BeneficioID: b.ID, Status: wire.Aberta, Grupo: wire.OrDefault(grupo, "DOCUMENTACAO"), Codigo: codigo, Descricao: descricao,
		DocumentosExigidos: exigidos, Responsavel: "COMUNICANTE", CreatedAt: now, UpdatedAt: now}
	if err := insertPendencia(ctx, tx, pd); err != nil {
		return 0, err
	}
	if err := s.moveBeneficio(ctx, tx, b, BenPendente, "", usuarioRegulacao); err != nil {
		return 0, err
	}
	if err := beneficioTimeline.Add(ctx, tx, b.ID, wire.Entry{At: now, Status: BenPendente, Usuario: usuarioRegulacao,
		Descricao: "Pendência " + codigo + ": " + descricao, Pendencia: pd.ID}); err != nil {
		return 0, err
	}
	subject := b.subject()
	subject["pendenciaId"] = pd.ID
	return pd.ID, s.EmitFor(ctx, tx, b.AppID, wire.Event{Type: "beneficio.pendencia", Name: "Pendência de Benefício", Subject: subject, Key: b.key(),
		Data: map[string]any{"codigo": codigo, "grupo": pd.Grupo, "descricao": descricao, "documentosExigidos": exigidos, "responsavel": pd.Responsavel,
			"dataPendencia": now.Format(time.RFC3339), "prazo": now.AddDate(0, 0, 30).Format(time.DateOnly)}})
}

// resolveAnswered accepts the answered pendings when regulation goes on;
// a pending still unanswered holds it.
func (s *Service) resolveAnswered(ctx context.Context, tx *store.Tx, b *beneficio) error {
	open, err := pendencias.Count(ctx, tx, b.ID, wire.Aberta)
	if err != nil {
		return err
	}
	if open > 0 {
		return errs.Errorf(errs.Conflict, "o benefício %d tem %d pendência(s) ainda sem resposta", b.ID, open)
	}
	return pendencias.MoveAll(ctx, tx, s.Machines, b.ID, s.Clock.Now(), wire.Resolvida, wire.Respondida)
}

// closePendencias cancels what is still open when regulation ends.
func (s *Service) closePendencias(ctx context.Context, tx *store.Tx, b *beneficio) error {
	return pendencias.MoveAll(ctx, tx, s.Machines, b.ID, s.Clock.Now(), wire.PendCancelada, wire.Aberta, wire.Respondida)
}
