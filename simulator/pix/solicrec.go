package pix

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/events"
	"homologa/simulator/jobs"
	"homologa/simulator/scenario"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// The confirmation request statuses (SUMMARY §3.5).
const (
	SolCriada    = "CRIADA"
	SolEnviada   = "ENVIADA"
	SolRecebida  = "RECEBIDA"
	SolAceita    = "ACEITA"
	SolRejeitada = "REJEITADA"
	SolExpirada  = "EXPIRADA"
	SolCancelada = "CANCELADA"
)

// solicRecMachine: the request travels to the payer's PSP and back.
var solicRecMachine = &statemachine.Machine{Resource: "solicrec", Table: "pix_solicrecs", Initial: SolCriada, Edges: map[string][]statemachine.Edge{
	SolCriada:   edges(solicRecEvent, solicRecEventName, SolEnviada, SolExpirada, SolCancelada),
	SolEnviada:  edges(solicRecEvent, solicRecEventName, SolRecebida, SolExpirada, SolCancelada),
	SolRecebida: edges(solicRecEvent, solicRecEventName, SolAceita, SolRejeitada, SolExpirada, SolCancelada),
}}

const solicRecEvent, solicRecEventName = "pix.solicrec.status", "Status de Solicitação de Recorrência"

// solicRecLive are the statuses of a request still travelling.
var solicRecLive = []string{SolCriada, SolEnviada, SolRecebida}

// JobExpireSolicRec expires a request the payer never answered.
const JobExpireSolicRec = "pix.solicrec.expire"

var solicRecAbsent = absent{typ: "SolicRecNaoEncontrada", format: "nenhuma solicitação %v"}

// solicRecPatchAbsent is PATCH /solicrec/{id}'s answer to an unknown id:
// the catalogue gives SolicRecNaoEncontrada to the GET only, and the
// PATCH's declared 404 is the general NaoEncontrado.
var solicRecPatchAbsent = absent{typ: "NaoEncontrado", format: "nenhuma solicitação %v"}

type solicRec struct {
	ID, IDRec, CompanyID, AppID, Status string
	Body                                doc
}

// NewIDSolicRec makes an idSolicRec: "SC", the ISPB, the date and 11
// alphanumerics.
func NewIDSolicRec(ids store.IDSource, at time.Time) string {
	return "SC" + ISPB + at.In(brasilia).Format("20060102") + randomAlnum(ids, 11)
}

// validateSolicRec checks what the schema cannot of POST /solicrec: the
// payer's CPF, and an expiry in the future; it returns the expiry.
func validateSolicRec(req doc, now time.Time) (time.Time, *violation) {
	if cpf := str(sub(req, "destinatario"), "cpf"); cpf != "" {
		if err := taxid.CheckCPF(cpf); err != nil {
			return time.Time{}, &violation{"destinatario.cpf", "CPF inválido: " + err.Error(), cpf}
		}
	}
	v := str(sub(req, "calendario"), "dataExpiracaoSolicitacao")
	exp, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, &violation{"calendario.dataExpiracaoSolicitacao", "deve ser data e hora RFC 3339", v}
	}
	if !exp.After(now) {
		return time.Time{}, &violation{"calendario.dataExpiracaoSolicitacao", "deve estar no futuro", v}
	}
	return exp, nil
}

// createSolicRec stores a confirmation request for a CRIADA recurrence that
// has none travelling, and schedules its expiry.
func (s *Service) createSolicRec(ctx context.Context, p auth.Principal, req doc, named string) (doc, error) {
	now := s.nowOf(p.CompanyID)
	exp, v := validateSolicRec(req, now)
	if v != nil {
		return nil, invalid("SolicRecOperacaoInvalida", *v)
	}
	idRec := str(req, "idRec")
	return write(ctx, s.DB, func(tx *store.Tx) (doc, error) {
		// RecNaoEncontrada is the catalogue's for /rec/{idRec} only:
		// POST /solicrec's declared 404 is the general NaoEncontrado.
		rc, err := load(ctx, tx, findRec, p.CompanyID, idRec, absent{typ: "NaoEncontrado", format: "nenhuma recorrência %v"})
		if err != nil {
			return nil, err
		}
		if rc.Status != RecCriada {
			return nil, invalid("SolicRecOperacaoInvalida", violation{"idRec", "a recorrência está " + rc.Status + ": só uma recorrência CRIADA recebe solicitação", idRec})
		}
		live, err := findLiveSolicRecs(ctx, tx, p.CompanyID, idRec)
		if err != nil {
			return nil, err
		}
		if len(live) > 0 {
			return nil, invalid("SolicRecOperacaoInvalida", violation{"idRec", "já existe uma solicitação ativa para esta recorrência", idRec})
		}
		sr := &solicRec{ID: NewIDSolicRec(s.DB.IDs, now), IDRec: idRec, CompanyID: p.CompanyID, AppID: p.AppID, Status: SolCriada}
		sr.Body = newSolicRecBody(sr, req, rc, now)
		if err := insertSolicRec(ctx, tx, sr, now); err != nil {
			return nil, err
		}
		if _, err := s.Jobs.Schedule(ctx, tx, JobExpireSolicRec, exp, doc{"id": sr.ID}); err != nil {
			return nil, err
		}
		return sr.Body, s.bind(ctx, tx, scenario.Resource{Kind: "solicrec", Key: sr.ID, Ref: idRec, AppID: p.AppID, Named: named, Body: req})
	})
}

// newSolicRecBody is SolicRecCompleta of a new request.
func newSolicRecBody(sr *solicRec, req doc, rc *rec, now time.Time) doc {
	return doc{"idSolicRec": sr.ID, "idRec": sr.IDRec,
		"calendario":   doc{"criacao": rfc3339(now), "dataExpiracaoSolicitacao": str(sub(req, "calendario"), "dataExpiracaoSolicitacao")},
		"destinatario": sub(req, "destinatario"), "status": SolCriada, "atualizacao": []any{doc{"status": SolCriada, "data": rfc3339(now)}},
		"recPayload": recPayload(rc)}
}

// recPayload is what the payer's PSP receives about the recurrence.
func recPayload(rc *rec) doc {
	d := copyFields(doc{"idRec": rc.ID}, rc.Body, "vinculo", "calendario", "valor", "politicaRetentativa", "atualizacao")
	rcb := clone(sub(rc.Body, "recebedor"))
	rcb["ispbParticipante"] = ISPB
	d["recebedor"] = rcb
	return d
}

// getSolicRec is GET /solicrec/{idSolicRec}'s answer.
func (s *Service) getSolicRec(ctx context.Context, companyID, id string) (doc, error) {
	return view(ctx, s.DB, findSolicRec, companyID, id, solicRecAbsent, func(_ *store.Tx, sr *solicRec) (doc, error) {
		return sr.Body, nil
	})
}

// cancelSolicRec cancels a request the payer has not answered.
func (s *Service) cancelSolicRec(ctx context.Context, companyID, id string) (doc, error) {
	return change(ctx, s.DB, findSolicRec, companyID, id, solicRecPatchAbsent, func(tx *store.Tx, sr *solicRec) (doc, error) {
		return sr.Body, s.moveSolicRec(ctx, tx, sr, SolCancelada, "")
	})
}

// moveSolicRec changes a request's status (event on the stream; the
// partner hears of the outcome through the rec's /rec callback). ACEITA
// approves the recurrence by journey 1; REJEITADA rejects it.
func (s *Service) moveSolicRec(ctx context.Context, tx *store.Tx, sr *solicRec, to, motivo string) error {
	if _, err := solicRecMachine.Check(sr.Status, to); err != nil {
		return invalid("SolicRecOperacaoInvalida", violation{"status", "a solicitação está " + sr.Status + " e não pode passar a " + to, to})
	}
	co, err := findCompany(ctx, tx, sr.CompanyID)
	if err != nil {
		return err
	}
	from := sr.Status
	now := s.nowOf(sr.CompanyID)
	sr.Status = to
	sr.Body["status"] = to
	atualizacao(sr.Body, to, now)
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: solicRecMachine, From: from, To: to, AppID: sr.AppID, CNPJ: co.CNPJ,
		Subject: doc{"idSolicRec": sr.ID, "idRec": sr.IDRec}, SubjectKey: "rec:" + sr.IDRec, Data: doc{"statusAnterior": from, "statusAtual": to},
		Targets: []events.Target{},
		Store:   func(ctx context.Context, tx *store.Tx) error { return updateSolicRec(ctx, tx, sr, now) },
	})
	if err != nil {
		return err
	}
	return s.solicRecAnswered(ctx, tx, sr, to, motivo)
}

// solicRecAnswered moves the CRIADA recurrence of a request the payer
// answered: ACEITA approves it (journey 1), REJEITADA rejects it, EXPIRADA
// expires it.
func (s *Service) solicRecAnswered(ctx context.Context, tx *store.Tx, sr *solicRec, to, motivo string) error {
	rc, err := findRec(ctx, tx, sr.CompanyID, sr.IDRec)
	if err != nil || rc == nil || rc.Status != RecCriada {
		return err
	}
	switch to {
	case SolAceita:
		dest := sub(sr.Body, "destinatario")
		pag := copyStrings(doc{"ispbParticipante": str(dest, "ispbParticipante")}, dest, "cpf", "cnpj")
		return s.approveRec(ctx, tx, rc, "JORNADA_1", pag)
	case SolRejeitada:
		return s.rejectRec(ctx, tx, rc, orString(motivo, "AP13"))
	case SolExpirada:
		return s.moveRec(ctx, tx, rc, RecExpirada, nil)
	}
	return nil
}

// cancelLiveSolicRecs cancels the requests still travelling when their
// recurrence ends.
func (s *Service) cancelLiveSolicRecs(ctx context.Context, tx *store.Tx, rc *rec) error {
	live, err := findLiveSolicRecs(ctx, tx, rc.CompanyID, rc.ID)
	if err != nil {
		return err
	}
	for _, sr := range live {
		if err := s.moveSolicRec(ctx, tx, sr, SolCancelada, ""); err != nil {
			return err
		}
	}
	return nil
}

// expireSolicRecJob expires an unanswered request (and its recurrence).
func (s *Service) expireSolicRecJob(ctx context.Context, j jobs.Job) error {
	var p struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *store.Tx) error {
		sr, err := findSolicRecByID(ctx, tx, p.ID)
		if err != nil || sr == nil || !slices.Contains(solicRecLive, sr.Status) {
			return err
		}
		return s.moveSolicRec(ctx, tx, sr, SolExpirada, "")
	})
}
