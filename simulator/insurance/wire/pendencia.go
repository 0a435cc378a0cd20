package wire

import (
	"context"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// The states of a pending, of a proposal or of a benefit (SUMMARY §5.2).
const (
	Aberta     = "ABERTA"
	Respondida = "RESPONDIDA"
	Resolvida  = "RESOLVIDA"
	Rejeitada  = "REJEITADA"
	// PendCancelada is a pending whose resource ended first.
	PendCancelada = "CANCELADA"
)

// PendenciaMachine is the life of a pending; answered is the event of
// the partner's answer (proposta.pendencia_respondida, …).
func PendenciaMachine(resource, table, answered string) *statemachine.Machine {
	return &statemachine.Machine{
		Resource: resource,
		Table:    table,
		Initial:  Aberta,
		Edges: map[string][]statemachine.Edge{
			Aberta:     {{To: Respondida, Type: answered, Name: "Pendência Respondida"}, {To: PendCancelada}},
			Respondida: {{To: Resolvida}, {To: Rejeitada}, {To: PendCancelada}},
		},
	}
}

// Pendings are the pendings of one kind of resource (a proposal's, a
// benefit's) and their life: the insurer raises them while it analyses
// the resource, the partner answers them, the insurer accepts the answers
// or raises new ones, and what is still open is cancelled when the
// analysis ends.
type Pendings struct {
	Children
	// Timeline is the resource's, where raising and answering are told.
	Timeline Timeline
	// Documents is the column the answer's documents are kept in.
	Documents string
	// Of names the resource in messages: "a proposta", "o benefício".
	Of string
}

// Raise is a pending to open on a resource: Insert stores it (and returns
// its id), MoveParent moves the resource to its pending state; the
// timeline entry and the event (whose subject gets the pending's id) tell
// it.
type Raise struct {
	Parent     int64
	AppID      string
	At         time.Time
	Insert     func(ctx context.Context, tx *store.Tx) (int64, error)
	MoveParent func(ctx context.Context, tx *store.Tx) error
	Entry      Entry
	Event      Event
}

// Raise opens a pending; the answered ones it replaces are rejected: the
// answer was not enough.
func (p Pendings) Raise(ctx context.Context, tx *store.Tx, pl *Platform, r Raise) (int64, error) {
	if err := p.MoveAll(ctx, tx, pl.Machines, r.Parent, r.At, Rejeitada, Respondida); err != nil {
		return 0, err
	}
	id, err := r.Insert(ctx, tx)
	if err != nil {
		return 0, err
	}
	if err := r.MoveParent(ctx, tx); err != nil {
		return 0, err
	}
	r.Entry.At, r.Entry.Pendencia = r.At, id
	if err := p.Timeline.Add(ctx, tx, r.Parent, r.Entry); err != nil {
		return 0, err
	}
	r.Event.Subject["pendenciaId"] = id
	return id, pl.EmitFor(ctx, tx, r.AppID, r.Event)
}

// Answer is the partner's answer to an open pending of a resource of app
// AppID, in state ParentStatus: the event (whose subject gets the
// pending's id) tells it.
type Answer struct {
	ID, Parent                  int64
	From, ParentStatus, AppID   string
	Resposta, Autor, Documentos string // Documentos: what is kept of the attached, as JSON
	At                          time.Time
	Event                       Event
}

// Answer moves an open pending to RESPONDIDA with the answer, its
// timeline entry and its event.
func (p Pendings) Answer(ctx context.Context, tx *store.Tx, pl *Platform, a Answer) error {
	a.Event.Subject["pendenciaId"] = a.ID
	return pl.Move(ctx, tx, a.AppID, statemachine.Move{
		Machine: p.Machine, From: a.From, To: Respondida, Subject: a.Event.Subject, SubjectKey: a.Event.Key, Data: a.Event.Data,
		Store: func(ctx context.Context, tx *store.Tx) error {
			if _, err := tx.ExecContext(ctx, `UPDATE `+p.Machine.Table+` SET status = ?, resposta = ?, autor = ?, `+p.Documents+` = ?, updated_at = ? WHERE id = ?`,
				Respondida, a.Resposta, a.Autor, a.Documentos, a.At.UnixNano(), a.ID); err != nil {
				return err
			}
			return p.Timeline.Add(ctx, tx, a.Parent, Entry{At: a.At, Status: a.ParentStatus, Usuario: a.Autor, Descricao: "Pendência respondida", Pendencia: a.ID})
		},
	})
}

// Resolve accepts the answered pendings of a resource whose analysis goes
// on; a pending still unanswered holds it.
func (p Pendings) Resolve(ctx context.Context, tx *store.Tx, m *statemachine.Applier, parent int64, at time.Time) error {
	open, err := p.Count(ctx, tx, parent, Aberta)
	if err != nil {
		return err
	}
	if open > 0 {
		return errs.Errorf(errs.Conflict, "%s %d tem %d pendência(s) ainda sem resposta", p.Of, parent, open)
	}
	return p.MoveAll(ctx, tx, m, parent, at, Resolvida, Respondida)
}

// Close cancels what is still open when the resource's analysis ends.
func (p Pendings) Close(ctx context.Context, tx *store.Tx, m *statemachine.Applier, parent int64, at time.Time) error {
	return p.MoveAll(ctx, tx, m, parent, at, PendCancelada, Aberta, Respondida)
}
