package sale

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

// pendenciaMachine is the life of a proposal's pending; the partner's
// answer emits Pendência Respondida.
var pendenciaMachine = wire.PendenciaMachine("pendencia", "pendencias", "proposta.pendencia_respondida")

// pendencias are the proposals' pendings, by proposal number.
var pendencias = wire.Children{Machine: pendenciaMachine, Parent: "numero"}

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

// pendenciasOf reads a proposal's pendings as the API answers them, oldest
// first.
func pendenciasOf(ctx context.Context, tx *store.Tx, numero int64) ([]map[string]any, error) {
	ps, err := loadPendencias(ctx, tx, numero)
	out := []map[string]any{}
	for _, p := range ps {
		out = append(out, p.body())
	}
	return out, err
}

// documento is an attached document as kept: its metadata, never its
// content.
type documento struct {
	Formato       string `json:"formato"`
	NomeArquivo   string `json:"nomeArquivo"`
	Tamanho       int    `json:"tamanho"`
	TipoDocumento string `json:"tipoDocumento"`
}

// respostaPendencia is the partner's answer to a pending: text, a document, or
// both.
type respostaPendencia struct {
	Resposta, Autor string
	Documento       *documento
}

// listPendenciasOf reads the company's proposal's pendings in status ("" for
// all).
func (s *Service) listPendenciasOf(ctx context.Context, companyID string, numero int64, status string) ([]map[string]any, error) {
	out := []map[string]any{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		if _, err := mustProposta(ctx, tx, companyID, numero); err != nil {
			return err
		}
		all, err := loadPendencias(ctx, tx, numero)
		for _, p := range all {
			if status == "" || p.Status == status {
				out = append(out, p.body())
			}
		}
		return err
	})
	return out, err
}

// respond records the partner's answer to an open pending of the
// company's: it becomes RESPONDIDA (Pendência Respondida), and the
// proposal's scenario hears pending_answered.
func (s *Service) respond(ctx context.Context, by auth.Principal, id int64, a respostaPendencia) (*pendencia, error) {
	var out *pendencia
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		pd, p, err := mustPendencia(ctx, tx, by.CompanyID, id)
		if err != nil {
			return err
		}
		if _, err := pendenciaMachine.Check(pd.Status, wire.Respondida); err != nil {
			return wire.Rule("id", "PENDENCIA_NAO_ABERTA", "a pendência %d está %s: só uma pendência ABERTA é respondida", id, pd.Status)
		}
		if err := s.moveAnswered(ctx, tx, p, pd, a); err != nil {
			return err
		}
		if err := s.Trigger(ctx, tx, "proposta", p.Numero, "pending_answered"); err != nil {
			return err
		}
		out, err = loadPendencia(ctx, tx, id)
		return err
	})
	return out, err
}

// mustPendencia reads pending id and its proposal, or the 404: another
// company's pending is as unknown as a missing one.
func mustPendencia(ctx context.Context, tx *store.Tx, companyID string, id int64) (*pendencia, *Proposta, error) {
	notFound := wire.NotFound("PENDENCIA_NAO_ENCONTRADA", "pendência %d não encontrada", id)
	pd, err := loadPendencia(ctx, tx, id)
	if err != nil || pd == nil {
		return nil, nil, errOr(err, notFound)
	}
	p, err := loadProposta(ctx, tx, companyID, pd.Numero)
	if err != nil || p == nil {
		return nil, nil, errOr(err, notFound)
	}
	return pd, p, nil
}

// errOr is err, or notFound when there is none.
func errOr(err error, notFound *errs.Error) error {
	if err != nil {
		return err
	}
	return notFound
}

// moveAnswered moves an open pending to RESPONDIDA with the answer, its
// timeline entry and its event.
func (s *Service) moveAnswered(ctx context.Context, tx *store.Tx, p *Proposta, pd *pendencia, a respostaPendencia) error {
	now := s.Clock.Now()
	var doc json.RawMessage
	data := map[string]any{"resposta": a.Resposta, "autor": a.Autor}
	if a.Documento != nil {
		doc, _ = json.Marshal(a.Documento)
		data["documentos"] = []json.RawMessage{doc}
	}
	subject := subjectOf(p)
	subject["pendenciaId"] = pd.ID
	return s.Move(ctx, tx, p.AppID, statemachine.Move{
		Machine: pendenciaMachine, From: pd.Status, To: wire.Respondida, Subject: subject, SubjectKey: keyOf(p), Data: data,
		Store: func(ctx context.Context, tx *store.Tx) error {
			if err := storeAnswer(ctx, tx, pd.ID, a.Resposta, a.Autor, string(doc), now); err != nil {
				return err
			}
			return propostaTimeline.Add(ctx, tx, p.Numero, wire.Entry{At: now, Status: p.Status, Usuario: a.Autor, Descricao: "Pendência respondida", Pendencia: pd.ID})
		},
	})
}

// raisePendencia opens a pending on a proposal under analysis (moving it
// to PENDENTE) with Pendência de Proposta. Answered pendings it replaces
// are rejected: the answer was not enough.
func (s *Service) raisePendencia(ctx context.Context, tx *store.Tx, p *Proposta, codigo, grupo, descricao string) (int64, error) {
	if p.Status != EmAnalise && p.Status != Pendente {
		return 0, errs.Errorf(errs.Conflict, "a proposta %d está %s: pendências são abertas durante a análise", p.Numero, p.Status)
	}
	now := s.Clock.Now()
	if err := pendencias.MoveAll(ctx, tx, s.Machines, p.Numero, now, wire.Rejeitada, wire.Respondida); err != nil {
		return 0, err
	}
	pd := &pendencia{Numero: p.Numero, Status: wire.Aberta, Grupo: wire.OrDefault(grupo, usuarioSubscricao), Codigo: codigo, Descricao: descricao,
		Responsavel: "PROPONENTE", CreatedAt: now, UpdatedAt: now}
	if err := insertPendencia(ctx, tx, pd); err != nil {
		return 0, err
	}
	if err := s.move(ctx, tx, p, Pendente, "", usuarioSubscricao, nil); err != nil {
		return 0, err
	}
	if err := propostaTimeline.Add(ctx, tx, p.Numero, wire.Entry{At: now, Status: Pendente, Usuario: usuarioSubscricao,
		Descricao: "Pendência " + codigo + ": " + descricao, Pendencia: pd.ID}); err != nil {
		return 0, err
	}
	subject := subjectOf(p)
	subject["pendenciaId"] = pd.ID
	return pd.ID, s.EmitFor(ctx, tx, p.AppID, wire.Event{Type: "proposta.pendencia", Name: "Pendência de Proposta", Subject: subject, Key: keyOf(p),
		Data: map[string]any{"codigo": codigo, "grupo": pd.Grupo, "descricao": descricao, "responsavel": pd.Responsavel,
			"dataPendencia": now.Format(time.RFC3339), "prazo": now.AddDate(0, 0, 30).Format(time.DateOnly)}})
}

// resolveAnswered accepts the answered pendings: the insurer took the
// answers, and the proposal goes back to analysis. A pending still
// unanswered holds it.
func (s *Service) resolveAnswered(ctx context.Context, tx *store.Tx, p *Proposta) error {
	open, err := pendencias.Count(ctx, tx, p.Numero, wire.Aberta)
	if err != nil {
		return err
	}
	if open > 0 {
		return errs.Errorf(errs.Conflict, "a proposta %d tem %d pendência(s) ainda sem resposta", p.Numero, open)
	}
	return pendencias.MoveAll(ctx, tx, s.Machines, p.Numero, s.Clock.Now(), wire.Resolvida, wire.Respondida)
}

// closePendencias cancels what is still open when a proposal ends.
func (s *Service) closePendencias(ctx context.Context, tx *store.Tx, p *Proposta) error {
	return pendencias.MoveAll(ctx, tx, s.Machines, p.Numero, s.Clock.Now(), wire.PendCancelada, wire.Aberta, wire.Respondida)
}
