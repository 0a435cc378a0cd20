package benefit

import (
	"context"
	"encoding/json"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// pendenciaMachine is a benefit pending: the proposal pending's states
// (SUMMARY §5.2), with the benefit's event for the answer.
var pendenciaMachine = wire.PendenciaMachine("pendencia de beneficio", "beneficio_pendencias", "beneficio.pendencia_respondida")

// pendencias are the benefits' pendings, by benefit.
var pendencias = wire.Pendings{Children: wire.Children{Machine: pendenciaMachine, Parent: "beneficio_id"}, Timeline: beneficioTimeline,
	Documents: "documentos", Of: "o benefício"}

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
	ps, err := loadPendencias(ctx, tx, id, "")
	return wire.Bodies(ps, (*pendencia).body), err
}

// listPendenciasOf reads the company's benefit's pendings in status (""
// for all).
func (s *Service) listPendenciasOf(ctx context.Context, companyID string, id int64, status string) ([]map[string]any, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) ([]map[string]any, error) {
		if _, err := mustBeneficio(ctx, tx, companyID, id); err != nil {
			return nil, err
		}
		ps, err := loadPendencias(ctx, tx, id, status)
		return wire.Bodies(ps, (*pendencia).body), err
	})
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
	return wire.Write(ctx, s.DB, func(tx *store.Tx) (*pendencia, error) {
		b, err := mustBeneficio(ctx, tx, by.CompanyID, id)
		if err != nil {
			return nil, err
		}
		pd, err := wire.Found(loadPendencia(ctx, tx, b.ID, pid))(wire.NotFound("PENDENCIA_NAO_ENCONTRADA", "o benefício %d não tem a pendência %d", b.ID, pid))
		if err != nil {
			return nil, err
		}
		if _, err := pendenciaMachine.Check(pd.Status, wire.Respondida); err != nil {
			return nil, wire.Rule("pendenciaId", "PENDENCIA_NAO_ABERTA", "a pendência %d está %s: só uma pendência ABERTA é respondida", pid, pd.Status)
		}
		docs, err := json.Marshal(a.Documentos)
		if err != nil {
			return nil, err
		}
		if err := pendencias.Answer(ctx, tx, &s.Platform, wire.Answer{ID: pd.ID, Parent: b.ID, From: pd.Status, ParentStatus: b.Status, AppID: b.AppID,
			Resposta: a.Resposta, Autor: a.Autor, Documentos: string(docs), At: s.NowOf(b.CompanyID),
			Event: wire.Event{Subject: b.subject(), Key: b.key(), Data: map[string]any{"resposta": a.Resposta, "autor": a.Autor, "documentos": a.Documentos}},
		}); err != nil {
			return nil, err
		}
		if err := s.Trigger(ctx, tx, "beneficio", b.ID, "pending_answered"); err != nil {
			return nil, err
		}
		return loadPendencia(ctx, tx, b.ID, pid)
	})
}

// raisePendencia opens a pending of documents on a benefit under
// regulation (moving it to PENDENTE) with Pendência de Benefício.
func (s *Service) raisePendencia(ctx context.Context, tx *store.Tx, b *beneficio, codigo, grupo, descricao string, exigidos []string) (int64, error) {
	if b.Status != BenEmRegulacao && b.Status != BenPendente {
		return 0, errs.Errorf(errs.Conflict, "o benefício %d está %s: pendências são abertas durante a regulação", b.ID, b.Status)
	}
	if exigidos == nil {
		exigidos = []string{}
	}
	now := s.NowOf(b.CompanyID)
	pd := &pendencia{BeneficioID: b.ID, Status: wire.Aberta, Grupo: wire.OrDefault(grupo, "DOCUMENTACAO"), Codigo: codigo, Descricao: descricao,
		DocumentosExigidos: exigidos, Responsavel: "COMUNICANTE", CreatedAt: now, UpdatedAt: now}
	return pendencias.Raise(ctx, tx, &s.Platform, wire.Raise{Parent: b.ID, AppID: b.AppID, At: now,
		Insert: func(ctx context.Context, tx *store.Tx) (int64, error) {
			err := insertPendencia(ctx, tx, pd)
			return pd.ID, err
		},
		MoveParent: func(ctx context.Context, tx *store.Tx) error {
			return s.moveBeneficio(ctx, tx, b, BenPendente, "", usuarioRegulacao, "")
		},
		Entry: wire.Entry{Status: BenPendente, Usuario: usuarioRegulacao, Descricao: "Pendência " + codigo + ": " + descricao},
		Event: wire.Event{Type: "beneficio.pendencia", Name: "Pendência de Benefício", Subject: b.subject(), Key: b.key(),
			Data: map[string]any{"codigo": codigo, "grupo": pd.Grupo, "descricao": descricao, "documentosExigidos": exigidos, "responsavel": pd.Responsavel,
				"dataPendencia": now.Format(time.RFC3339), "prazo": now.In(wire.Brasilia).AddDate(0, 0, 30).Format(time.DateOnly)}},
	})
}
