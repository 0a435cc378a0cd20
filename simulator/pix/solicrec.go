package pix

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/events"
	"homologa/simulator/httpx"
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

func solEdge(to string) statemachine.Edge {
	return statemachine.Edge{To: to, Type: "pix.solicrec.status", Name: "Status de Solicitação de Recorrência"}
}

// solicRecMachine: the request travels to the payer's PSP and back.
var solicRecMachine = &statemachine.Machine{
	Resource: "solicrec",
	Table:    "pix_solicrecs",
	Initial:  SolCriada,
	Edges: map[string][]statemachine.Edge{
		SolCriada:   {solEdge(SolEnviada), solEdge(SolExpirada), solEdge(SolCancelada)},
		SolEnviada:  {solEdge(SolRecebida), solEdge(SolExpirada), solEdge(SolCancelada)},
		SolRecebida: {solEdge(SolAceita), solEdge(SolRejeitada), solEdge(SolExpirada), solEdge(SolCancelada)},
	},
}

// JobExpireSolicRec expires a request the payer never answered.
const JobExpireSolicRec = "pix.solicrec.expire"

type solicRec struct {
	ID, IDRec, CompanyID, AppID, Status string
	Body                                doc
}

func loadSolicRec(ctx context.Context, tx *store.Tx, companyID, id string) (*solicRec, error) {
	var sr solicRec
	var body string
	err := tx.QueryRowContext(ctx, `SELECT id_solic_rec, id_rec, company_id, app_id, status, body FROM pix_solicrecs WHERE id_solic_rec = ? AND (? = '' OR company_id = ?)`,
		id, companyID, companyID).Scan(&sr.ID, &sr.IDRec, &sr.CompanyID, &sr.AppID, &sr.Status, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &sr, json.Unmarshal([]byte(body), &sr.Body)
}

func solicRecsOf(ctx context.Context, tx *store.Tx, idRec string) ([]json.RawMessage, error) {
	rows, err := tx.QueryContext(ctx, `SELECT body FROM pix_solicrecs WHERE id_rec = ? ORDER BY created_at, id_solic_rec`, idRec)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []json.RawMessage{}
	for rows.Next() {
		var b string
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		out = append(out, json.RawMessage(b))
	}
	return out, rows.Err()
}

// moveSolicRec changes a request's status (event on the stream; the
// partner hears of the outcome through the rec's /rec callback). ACEITA
// approves the recurrence by journey 1; REJEITADA rejects it.
func (s *Service) moveSolicRec(ctx context.Context, tx *store.Tx, sr *solicRec, to, motivo string) error {
	if _, err := solicRecMachine.Check(sr.Status, to); err != nil {
		return invalid("SolicRecOperacaoInvalida", violation{"status", "a solicitação está " + sr.Status + " e não pode passar a " + to, to})
	}
	co, err := s.company(ctx, tx, sr.CompanyID)
	if err != nil {
		return err
	}
	from := sr.Status
	now := s.Clock.Now()
	sr.Status = to
	sr.Body["status"] = to
	atualizacao(sr.Body, to, now)
	_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
		Machine: solicRecMachine, From: from, To: to, AppID: sr.AppID, CNPJ: co.CNPJ,
		Subject: doc{"idSolicRec": sr.ID, "idRec": sr.IDRec}, SubjectKey: "rec:" + sr.IDRec, Data: doc{"statusAnterior": from, "statusAtual": to},
		Targets: []events.Target{},
		Store: func(ctx context.Context, tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE pix_solicrecs SET status = ?, body = ?, updated_at = ? WHERE id_solic_rec = ?`, to, marshal(sr.Body), now.UnixNano(), sr.ID)
			return err
		},
	})
	if err != nil {
		return err
	}
	rc, err := loadRec(ctx, tx, "", sr.IDRec)
	if err != nil || rc == nil || rc.Status != RecCriada {
		return err
	}
	dest := sub(sr.Body, "destinatario")
	switch to {
	case SolAceita:
		pag := doc{"ispbParticipante": str(dest, "ispbParticipante")}
		if v := str(dest, "cpf"); v != "" {
			pag["cpf"] = v
		}
		if v := str(dest, "cnpj"); v != "" {
			pag["cnpj"] = v
		}
		return s.approveRec(ctx, tx, rc, "JORNADA_1", pag)
	case SolRejeitada:
		if motivo == "" {
			motivo = "AP13"
		}
		return s.moveRec(ctx, tx, rc, RecRejeitada, func(d doc) {
			d["encerramento"] = doc{"rejeicao": doc{"codigo": motivo, "descricao": rejectionText(motivo)}}
		})
	case SolExpirada:
		return s.moveRec(ctx, tx, rc, RecExpirada, nil)
	}
	return nil
}

// rejectionText describes the recurrence rejection codes. The spec lists
// AP13 and AP14 without meanings; the sandbox reads them as the payer's
// refusal and the payer PSP's, and says so.
func rejectionText(code string) string {
	switch code {
	case "AP13":
		return "Rejeitada pelo usuário pagador"
	case "AP14":
		return "Rejeitada pelo PSP do usuário pagador"
	}
	return "Rejeitada"
}

// cancelLiveSolicRecs cancels the requests still travelling when their
// recurrence ends.
func (s *Service) cancelLiveSolicRecs(ctx context.Context, tx *store.Tx, rc *rec) error {
	rows, err := tx.QueryContext(ctx, `SELECT id_solic_rec FROM pix_solicrecs WHERE id_rec = ? AND status IN (?, ?, ?)`, rc.ID, SolCriada, SolEnviada, SolRecebida)
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	now := s.Clock.Now()
	for _, id := range ids {
		sr, err := loadSolicRec(ctx, tx, "", id)
		if err != nil || sr == nil {
			return err
		}
		sr.Body["status"] = SolCancelada
		atualizacao(sr.Body, SolCancelada, now)
		if _, err := tx.ExecContext(ctx, `UPDATE pix_solicrecs SET status = ?, body = ?, updated_at = ? WHERE id_solic_rec = ?`, SolCancelada, marshal(sr.Body), now.UnixNano(), id); err != nil {
			return err
		}
	}
	return nil
}

// postSolicRec is POST /solicrec: a confirmation request to the payer's
// PSP for a CRIADA recurrence (journey 1). Its scenario plays the payer
// (default: ENVIADA, RECEBIDA, then ACEITA a minute later).
func (s *Service) postSolicRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	var req doc
	if err := decode(r, s.Schemas, "pix/solicrec.request", "", "SolicRecOperacaoInvalida", &req); err != nil {
		return nil, err
	}
	dest := sub(req, "destinatario")
	if cpf := str(dest, "cpf"); cpf != "" {
		if err := taxid.CheckCPF(cpf); err != nil {
			return nil, invalid("SolicRecOperacaoInvalida", violation{"destinatario.cpf", "CPF inválido: " + err.Error(), cpf})
		}
	}
	exp, err := time.Parse(time.RFC3339, str(sub(req, "calendario"), "dataExpiracaoSolicitacao"))
	if err != nil {
		return nil, invalid("SolicRecOperacaoInvalida", violation{"calendario.dataExpiracaoSolicitacao", "deve ser data e hora RFC 3339", str(sub(req, "calendario"), "dataExpiracaoSolicitacao")})
	}
	now := s.Clock.Now()
	if !exp.After(now) {
		return nil, invalid("SolicRecOperacaoInvalida", violation{"calendario.dataExpiracaoSolicitacao", "deve estar no futuro", str(sub(req, "calendario"), "dataExpiracaoSolicitacao")})
	}
	var out doc
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		idRec := str(req, "idRec")
		rc, err := loadRec(ctx, tx, p.CompanyID, idRec)
		if err != nil {
			return err
		}
		if rc == nil {
			return notFound("RecNaoEncontrado", "nenhuma recorrência %s", idRec)
		}
		if rc.Status != RecCriada {
			return invalid("SolicRecOperacaoInvalida", violation{"idRec", "a recorrência está " + rc.Status + ": só uma recorrência CRIADA recebe solicitação", idRec})
		}
		var live int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pix_solicrecs WHERE id_rec = ? AND status IN (?, ?, ?)`, idRec, SolCriada, SolEnviada, SolRecebida).Scan(&live); err != nil {
			return err
		}
		if live > 0 {
			return invalid("SolicRecOperacaoInvalida", violation{"idRec", "já existe uma solicitação ativa para esta recorrência", idRec})
		}
		id := NewIDSolicRec(s.DB.IDs, now)
		body := doc{"idSolicRec": id, "idRec": idRec, "calendario": doc{"criacao": rfc3339(now), "dataExpiracaoSolicitacao": str(sub(req, "calendario"), "dataExpiracaoSolicitacao")},
			"destinatario": dest, "status": SolCriada, "atualizacao": []any{doc{"status": SolCriada, "data": rfc3339(now)}},
			"recPayload": recPayload(rc)}
		if _, err := tx.ExecContext(ctx, `INSERT INTO pix_solicrecs (id_solic_rec, id_rec, company_id, app_id, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			id, idRec, p.CompanyID, p.AppID, SolCriada, marshal(body), now.UnixNano(), now.UnixNano()); err != nil {
			return err
		}
		if _, err := s.Jobs.Schedule(ctx, tx, JobExpireSolicRec, exp, doc{"id": id}); err != nil {
			return err
		}
		if err := s.bind(ctx, tx, scenario.Resource{Kind: "solicrec", Key: id, Ref: idRec, AppID: p.AppID, Named: r.Header.Get(scenario.Header), Body: req}); err != nil {
			return err
		}
		out = body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(out), nil
}

// recPayload is what the payer's PSP receives about the recurrence.
func recPayload(rc *rec) doc {
	d := doc{"idRec": rc.ID}
	for _, k := range []string{"vinculo", "calendario", "valor", "politicaRetentativa", "atualizacao"} {
		if v, ok := rc.Body[k]; ok {
			d[k] = v
		}
	}
	rcb := clone(sub(rc.Body, "recebedor"))
	rcb["ispbParticipante"] = ISPB
	d["recebedor"] = rcb
	return d
}

// getSolicRec is GET /solicrec/{idSolicRec}.
func (s *Service) getSolicRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		sr, err := loadSolicRec(ctx, tx, principal(r).CompanyID, mux.Vars(r)["id"])
		if err != nil {
			return err
		}
		if sr == nil {
			return notFound("SolicRecNaoEncontrada", "nenhuma solicitação %s", mux.Vars(r)["id"])
		}
		out = sr.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// patchSolicRec is PATCH /solicrec/{idSolicRec} {status: CANCELADA}: only
// while it has not been answered. 201, as the spec says (sic).
func (s *Service) patchSolicRec(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var req doc
	if err := decode(r, s.Schemas, "pix/solicrec.patch", "", "SolicRecOperacaoInvalida", &req); err != nil {
		return nil, err
	}
	if str(req, "status") != SolCancelada {
		return nil, invalid("SolicRecOperacaoInvalida", violation{"status", "o status só pode ser alterado para CANCELADA", str(req, "status")})
	}
	var out doc
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		sr, err := loadSolicRec(ctx, tx, principal(r).CompanyID, mux.Vars(r)["id"])
		if err != nil {
			return err
		}
		if sr == nil {
			return notFound("SolicRecNaoEncontrada", "nenhuma solicitação %s", mux.Vars(r)["id"])
		}
		if err := s.moveSolicRec(ctx, tx, sr, SolCancelada, ""); err != nil {
			return err
		}
		out = sr.Body
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(out), nil
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
		sr, err := loadSolicRec(ctx, tx, "", p.ID)
		if err != nil || sr == nil {
			return err
		}
		if sr.Status != SolCriada && sr.Status != SolEnviada && sr.Status != SolRecebida {
			return nil
		}
		return s.moveSolicRec(ctx, tx, sr, SolExpirada, "")
	})
}
