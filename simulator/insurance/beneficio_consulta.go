package insurance

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// mustBeneficio loads the benefit of the path's {id} for the caller's
// company; another company's is as unknown as a missing one.
func (s *Service) mustBeneficio(ctx context.Context, tx *store.Tx, r *http.Request) (*beneficio, error) {
	id, err := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	if err != nil {
		return nil, errs.Invalidf("id", "id de benefício inválido")
	}
	b, err := loadBeneficio(ctx, tx, principal(r).CompanyID, id)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, errs.Errorf(errs.NotFound, "benefício %d não encontrado", id).WithType("BENEFICIO_NAO_ENCONTRADO")
	}
	return b, nil
}

// benPendenciasOf lists a benefit's pendings, oldest first.
func benPendenciasOf(ctx context.Context, tx *store.Tx, id int64) ([]map[string]any, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, status, grupo, codigo, descricao, documentos_exigidos, responsavel, resposta, autor, documentos, created_at, updated_at
		FROM beneficio_pendencias WHERE beneficio_id = ? ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("pendings of beneficio %d: %w", id, err)
	}
	defer rows.Close()
	out := []map[string]any{}
	for rows.Next() {
		var pid, created, updated int64
		var status, grupo, codigo, desc, exigidos, resp, resposta, autor, docs string
		if err := rows.Scan(&pid, &status, &grupo, &codigo, &desc, &exigidos, &resp, &resposta, &autor, &docs, &created, &updated); err != nil {
			return nil, err
		}
		p := map[string]any{"id": pid, "beneficioId": id, "status": status, "grupo": grupo, "codigo": codigo, "descricao": desc,
			"documentosExigidos": json.RawMessage(exigidos), "responsavel": resp, "documentos": json.RawMessage(docs),
			"dataPendencia": time.Unix(0, created).UTC().Format(time.RFC3339), "dataUltimaAtualizacao": time.Unix(0, updated).UTC().Format(time.RFC3339)}
		if resposta != "" {
			p["resposta"] = resposta
		}
		if autor != "" {
			p["autor"] = autor
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// resumoBeneficio is what GET /beneficio/{id} answers: the notice, where
// regulation stands, the amounts once paid, the refusal while refused,
// and the pendings.
func resumoBeneficio(ctx context.Context, tx *store.Tx, b *beneficio) (map[string]any, error) {
	out := map[string]any{
		"beneficioId": b.ID, "protocolo": b.Protocolo, "dataHoraProtocolo": b.CreatedAt.Format(time.RFC3339),
		"status": b.Status, "statusOpin": statusOpin[b.Status], "dataUltimaAtualizacao": b.UpdatedAt.Format(time.RFC3339),
		"inscricaoId": b.InscricaoID, "numeroProposta": b.Numero, "cpfSegurado": b.CPF,
		"causa": b.Causa, "dataOcorrencia": b.DataOcorrencia, "coberturas": b.Coberturas,
	}
	for _, k := range []string{"horaOcorrencia", "descricaoOcorrencia", "itemProdutoId", "comunicante", "documentos"} {
		if v, ok := b.Aviso[k]; ok {
			out[k] = v
		}
	}
	if b.Status == BenPago {
		out["valor"], out["dataPagamento"], out["beneficiarios"] = b.Valor, b.DataPagamento, b.Beneficiarios
	}
	if b.MotivoRecusa != "" {
		out["motivoRecusa"], out["descricaoRecusa"] = b.MotivoRecusa, b.DescricaoRecusa
	}
	pend, err := benPendenciasOf(ctx, tx, b.ID)
	if err != nil {
		return nil, err
	}
	out["pendencias"] = pend
	return out, nil
}

// getBeneficio is GET /beneficio/{id}.
func (s *Service) getBeneficio(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	var out map[string]any
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		b, err := s.mustBeneficio(ctx, tx, r)
		if err != nil {
			return err
		}
		out, err = resumoBeneficio(ctx, tx, b)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// listBeneficios is GET /beneficio?inscricaoId=&cpf=&numeroProposta=&status=:
// the company's benefits, oldest first.
func (s *Service) listBeneficios(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	q := r.URL.Query()
	for _, k := range []string{"inscricaoId", "numeroProposta"} {
		if v := q.Get(k); v != "" {
			if n, err := strconv.ParseInt(v, 10, 64); err != nil || n <= 0 {
				return nil, httpx.QueryError(k, "%s deve ser um número inteiro positivo", k)
			}
		}
	}
	cpf := digits(q.Get("cpf"))
	if q.Get("cpf") != "" && len(cpf) != 11 {
		return nil, httpx.QueryError("cpf", "CPF deve ter 11 dígitos")
	}
	status := q.Get("status")
	if status != "" && !beneficioMachine.Has(status) {
		return nil, httpx.QueryError("status", "status deve ser um de %s", strings.Join(beneficioMachine.States(), ", "))
	}
	out := []map[string]any{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+beneficioColumns+` FROM beneficios WHERE company_id = ?
			AND (? = '' OR inscricao_id = ?) AND (? = '' OR numero = ?) AND (? = '' OR cpf = ?) AND (? = '' OR status = ?) ORDER BY id`,
			principal(r).CompanyID, q.Get("inscricaoId"), q.Get("inscricaoId"), q.Get("numeroProposta"), q.Get("numeroProposta"), cpf, cpf, status, status)
		if err != nil {
			return fmt.Errorf("list beneficios: %w", err)
		}
		var bs []*beneficio
		for rows.Next() {
			b, err := scanBeneficio(rows)
			if err != nil {
				rows.Close()
				return err
			}
			bs = append(bs, b)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, b := range bs {
			res, err := resumoBeneficio(ctx, tx, b)
			if err != nil {
				return err
			}
			out = append(out, res)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// beneficioTimeline is GET /beneficio/{id}/timeline: every status and
// pending, oldest first, as the benefit-timeline widget shows them.
func (s *Service) beneficioTimeline(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	out := []map[string]any{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		b, err := s.mustBeneficio(ctx, tx, r)
		if err != nil {
			return err
		}
		pend, err := benPendenciasOf(ctx, tx, b.ID)
		if err != nil {
			return err
		}
		out, err = wire.Timeline{Table: "beneficio_timeline", Parent: "beneficio_id"}.Read(ctx, tx, b.ID, pend)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// listBenPendencias is GET /beneficio/{id}/pendencias (?status= filters).
func (s *Service) listBenPendencias(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	status := r.URL.Query().Get("status")
	if status != "" && !benPendenciaMachine.Has(status) {
		return nil, httpx.QueryError("status", "status deve ser um de %s", strings.Join(benPendenciaMachine.States(), ", "))
	}
	out := []map[string]any{}
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		b, err := s.mustBeneficio(ctx, tx, r)
		if err != nil {
			return err
		}
		all, err := benPendenciasOf(ctx, tx, b.ID)
		for _, p := range all {
			if status == "" || p["status"] == status {
				out = append(out, p)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// answerBenPendencia is PUT /beneficio/{id}/pendencias/{pendenciaId}: the
// partner answers an open pending with text and/or documents; it becomes
// RESPONDIDA, Pendência Respondida is emitted and the benefit's scenario
// hears pending_answered.
func (s *Service) answerBenPendencia(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	pid, _ := strconv.ParseInt(mux.Vars(r)["pendenciaId"], 10, 64)
	var in struct {
		Resposta   string        `json:"resposta"`
		Autor      string        `json:"autor"`
		Documentos []documentoIn `json:"documentos"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/beneficio.pendencia.answer", &in); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Resposta) == "" && len(in.Documentos) == 0 {
		return nil, errs.Invalidf("resposta", "responda com resposta (texto), documentos, ou ambos")
	}
	docs, err := readDocumentos("documentos", in.Documentos)
	if err != nil {
		return nil, err
	}
	autor := in.Autor
	if autor == "" {
		autor = principal(r).ClientID
	}
	var out map[string]any
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		b, err := s.mustBeneficio(ctx, tx, r)
		if err != nil {
			return err
		}
		var status string
		err = tx.QueryRowContext(ctx, `SELECT status FROM beneficio_pendencias WHERE id = ? AND beneficio_id = ?`, pid, b.ID).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return errs.Errorf(errs.NotFound, "o benefício %d não tem a pendência %d", b.ID, pid).WithType("PENDENCIA_NAO_ENCONTRADA")
		}
		if err != nil {
			return fmt.Errorf("pending %d: %w", pid, err)
		}
		if _, err := benPendenciaMachine.Check(status, Respondida); err != nil {
			return rule("pendenciaId", "PENDENCIA_NAO_ABERTA", "a pendência %d está %s: só uma pendência ABERTA é respondida", pid, status)
		}
		own, err := s.ownerOf(ctx, tx, b.AppID)
		if err != nil {
			return err
		}
		now := s.Clock.Now()
		dj, _ := json.Marshal(docs)
		subject := benSubject(b)
		subject["pendenciaId"] = pid
		_, err = s.Machines.Apply(ctx, tx, statemachine.Move{
			Machine: benPendenciaMachine, From: status, To: Respondida, AppID: own.AppID, CNPJ: own.CNPJ,
			Subject: subject, SubjectKey: benKey(b), Data: map[string]any{"resposta": in.Resposta, "autor": autor, "documentos": docs},
			Store: func(ctx context.Context, tx *store.Tx) error {
				if _, err := tx.ExecContext(ctx, `UPDATE beneficio_pendencias SET status = ?, resposta = ?, autor = ?, documentos = ?, updated_at = ? WHERE id = ?`,
					Respondida, in.Resposta, autor, string(dj), now.UnixNano(), pid); err != nil {
					return err
				}
				return addBenTimeline(ctx, tx, b.ID, now, b.Status, autor, "Pendência respondida", pid)
			},
		})
		if err != nil {
			return err
		}
		if s.Scenarios != nil {
			if err := s.Scenarios.Trigger(ctx, tx, "beneficio", b10(b.ID), "pending_answered"); err != nil {
				return err
			}
		}
		all, err := benPendenciasOf(ctx, tx, b.ID)
		for _, p := range all {
			if p["id"] == pid {
				out = p
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// reopenBeneficio is POST /beneficio/{id}/reabertura {justificativa}: the
// partner contests a refusal. The benefit goes to REABERTO; its scenario,
// if it waits for reopened, goes on; otherwise beneficio-regulacao-apos-
// reabertura takes the benefit over (stopping what else ran on it), so a
// reopening always leads somewhere.
func (s *Service) reopenBeneficio(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	if err := checkCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	var in struct {
		Justificativa string `json:"justificativa"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/beneficio.reabertura", &in); err != nil {
		return nil, err
	}
	var out map[string]any
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		b, err := s.mustBeneficio(ctx, tx, r)
		if err != nil {
			return err
		}
		if _, err := beneficioMachine.Check(b.Status, BenReaberto); err != nil {
			return rule("status", "BENEFICIO_NAO_REABRIVEL", "o benefício %d está %s: só um benefício RECUSADO é reaberto", b.ID, b.Status)
		}
		driven, err := s.scenarioAwaitsReopening(ctx, tx, b)
		if err != nil {
			return err
		}
		if err := s.reopen(ctx, tx, b, in.Justificativa, principal(r).ClientID); err != nil {
			return err
		}
		if !driven && s.Scenarios != nil && s.Scenarios.Catalogue().Get(reopenScenario) != nil {
			if _, err := s.Scenarios.BindExisting(ctx, tx, reopenScenario, b.AppID, map[string]string{"beneficioId": b10(b.ID)}); err != nil {
				return err
			}
		}
		fresh, err := loadBeneficio(ctx, tx, "", b.ID)
		if err != nil {
			return err
		}
		out, err = resumoBeneficio(ctx, tx, fresh)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// scenarioAwaitsReopening reports whether a scenario of the benefit waits
// for reopened (it goes on by itself).
func (s *Service) scenarioAwaitsReopening(ctx context.Context, tx *store.Tx, b *beneficio) (bool, error) {
	if s.Scenarios == nil {
		return false, nil
	}
	return s.Scenarios.Awaits(ctx, tx, "beneficio", b10(b.ID), "reopened")
}
