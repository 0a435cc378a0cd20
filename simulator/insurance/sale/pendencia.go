package sale

import (
	"context"
	"encoding/json"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// pendenciaMachine is the life of a proposal's pending; the partner's
// answer emits Pendência Respondida.
var pendenciaMachine = wire.PendenciaMachine("pendencia", "pendencias", "proposta.pendencia_respondida")

// pendencias are the proposals' pendings, by proposal number.
var pendencias = wire.Pendings{Children: wire.Children{Machine: pendenciaMachine, Parent: "numero"}, Timeline: propostaTimeline,
	Documents: "documento", Of: "a proposta"}

// pendencia is a stored pending of a proposal.
type pendencia struct {
	ID, Numero                                    int64
	Status, Grupo, Codigo, Descricao, Responsavel string
	Resposta, Autor                               string
	Documento                                     json.RawMessage // nil without one
	CreatedAt, UpdatedAt                          time.Time
}

// body is a pending as the API answers it.
func (p *pendencia) body() map[string]any {
	out := map[string]any{"id": p.ID, "idProposta": p.Numero, "status": p.Status, "grupo": p.Grupo, "codigo": p.Codigo, "descricao": p.Descricao,
		"responsavel": p.Responsavel, "dataPendencia": p.CreatedAt.Format(time.RFC3339)}
	if p.Resposta != "" {
		out["resposta"] = p.Resposta
	}
	if p.Autor != "" {
		out["autor"] = p.Autor
	}
	if p.Documento != nil {
		out["documento"] = p.Documento
	}
	return out
}

// pendenciasOf reads a proposal's pendings in status ("" for all) as the
// API answers them, oldest first.
func pendenciasOf(ctx context.Context, tx *store.Tx, numero int64, status string) ([]map[string]any, error) {
	ps, err := loadPendencias(ctx, tx, numero, status)
	return wire.Bodies(ps, (*pendencia).body), err
}

// documento is an attached document as kept: its metadata, never its
// content.
type documento struct {
	Formato       string `json:"formato"`
	NomeArquivo   string `json:"nomeArquivo"`
	Tamanho       int    `json:"tamanho"`
	TipoDocumento string `json:"tipoDocumento"`
}

// respostaPendencia is the partner's answer to a pending: text, a
// document, or both.
type respostaPendencia struct {
	Resposta, Autor string
	Documento       *documento
}

// listPendenciasOf reads the company's proposal's pendings in status (""
// for all).
func (s *Service) listPendenciasOf(ctx context.Context, companyID string, numero int64, status string) ([]map[string]any, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) ([]map[string]any, error) {
		if _, err := mustProposta(ctx, tx, companyID, numero); err != nil {
			return nil, err
		}
		return pendenciasOf(ctx, tx, numero, status)
	})
}

// respond records the partner's answer to an open pending of the
// company's: it becomes RESPONDIDA (Pendência Respondida), and the
// proposal's scenario hears pending_answered.
func (s *Service) respond(ctx context.Context, by auth.Principal, id int64, a respostaPendencia) (*pendencia, error) {
	return wire.Write(ctx, s.DB, func(tx *store.Tx) (*pendencia, error) {
		pd, p, err := mustPendencia(ctx, tx, by.CompanyID, id)
		if err != nil {
			return nil, err
		}
		if _, err := pendenciaMachine.Check(pd.Status, wire.Respondida); err != nil {
			return nil, wire.Rule("id", "PENDENCIA_NAO_ABERTA", "a pendência %d está %s: só uma pendência ABERTA é respondida", id, pd.Status)
		}
		ans := wire.Answer{ID: pd.ID, Parent: p.Numero, From: pd.Status, ParentStatus: p.Status, AppID: p.AppID, Resposta: a.Resposta, Autor: a.Autor,
			At: s.NowOf(p.CompanyID), Event: wire.Event{Subject: subjectOf(p), Key: keyOf(p)}}
		data := map[string]any{"resposta": a.Resposta, "autor": a.Autor}
		if a.Documento != nil {
			doc, _ := json.Marshal(a.Documento)
			ans.Documentos, data["documentos"] = string(doc), []json.RawMessage{doc}
		}
		ans.Event.Data = data
		if err := pendencias.Answer(ctx, tx, &s.Platform, ans); err != nil {
			return nil, err
		}
		if err := s.Trigger(ctx, tx, "proposta", p.Numero, "pending_answered"); err != nil {
			return nil, err
		}
		return loadPendencia(ctx, tx, by.CompanyID, id)
	})
}

// mustPendencia reads pending id and its proposal, or the 404: another
// company's pending is as unknown as a missing one.
func mustPendencia(ctx context.Context, tx *store.Tx, companyID string, id int64) (*pendencia, *Proposta, error) {
	notFound := wire.NotFound("PENDENCIA_NAO_ENCONTRADA", "pendência %d não encontrada", id)
	pd, err := wire.Found(loadPendencia(ctx, tx, companyID, id))(notFound)
	if err != nil {
		return nil, nil, err
	}
	p, err := wire.Found(propostas.Of(ctx, tx, companyID, pd.Numero))(notFound)
	return pd, p, err
}

// raisePendencia opens a pending on a proposal under analysis (moving it
// to PENDENTE) with Pendência de Proposta.
func (s *Service) raisePendencia(ctx context.Context, tx *store.Tx, p *Proposta, codigo, grupo, descricao string) (int64, error) {
	if p.Status != EmAnalise && p.Status != Pendente {
		return 0, errs.Errorf(errs.Conflict, "a proposta %d está %s: pendências são abertas durante a análise", p.Numero, p.Status)
	}
	now := s.NowOf(p.CompanyID)
	pd := &pendencia{Numero: p.Numero, Status: wire.Aberta, Grupo: wire.OrDefault(grupo, usuarioSubscricao), Codigo: codigo, Descricao: descricao,
		Responsavel: "PROPONENTE", CreatedAt: now, UpdatedAt: now}
	return pendencias.Raise(ctx, tx, &s.Platform, wire.Raise{Parent: p.Numero, AppID: p.AppID, At: now,
		Insert: func(ctx context.Context, tx *store.Tx) (int64, error) {
			err := insertPendencia(ctx, tx, pd)
			return pd.ID, err
		},
		MoveParent: func(ctx context.Context, tx *store.Tx) error {
			return s.move(ctx, tx, p, Pendente, "", usuarioSubscricao, nil, "")
		},
		Entry: wire.Entry{Status: Pendente, Usuario: usuarioSubscricao, Descricao: "Pendência " + codigo + ": " + descricao},
		Event: wire.Event{Type: "proposta.pendencia", Name: "Pendência de Proposta", Subject: subjectOf(p), Key: keyOf(p),
			Data: map[string]any{"codigo": codigo, "grupo": pd.Grupo, "descricao": descricao, "responsavel": pd.Responsavel,
				"dataPendencia": now.Format(time.RFC3339), "prazo": now.In(wire.Brasilia).AddDate(0, 0, 30).Format(time.DateOnly)}},
	})
}
