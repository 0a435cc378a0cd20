package insurance

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

// numeroOf reads the proposal number from the path or ?numeroProposta=.
func numeroOf(r *http.Request) (int64, error) {
	v := mux.Vars(r)["numero"]
	field := "numero"
	if v == "" {
		v, field = r.URL.Query().Get("numeroProposta"), "numeroProposta"
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.Invalidf(field, "informe o número da proposta (numeroProposta)")
	}
	return n, nil
}

func (s *Service) mustProposta(ctx context.Context, tx *store.Tx, r *http.Request, numero int64) (*proposta, error) {
	p, err := loadProposta(ctx, tx, principal(r).CompanyID, numero)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, errs.Errorf(errs.NotFound, "proposta %d não encontrada", numero).WithType("PROPOSTA_NAO_ENCONTRADA")
	}
	return p, nil
}

// resumo is what GET /proposta/{numero} answers (v2 ResumoDaProposta, with
// the status and what the sandbox adds: pendings and enrollments).
func (s *Service) resumo(ctx context.Context, tx *store.Tx, p *proposta) (map[string]any, error) {
	prop := obj(p.Request, "PROPOSTA")
	dp := obj(prop, "DADOS_PROPONENTE")
	cob := obj(prop, "DADOS_COBRANCA")
	pend, err := pendenciasOf(ctx, tx, p.Numero)
	if err != nil {
		return nil, err
	}
	var insc []int64
	rows, err := tx.QueryContext(ctx, `SELECT id FROM inscricoes WHERE numero = ? ORDER BY id`, p.Numero)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		insc = append(insc, id)
	}
	rows.Close()
	if insc == nil {
		insc = []int64{}
	}
	out := map[string]any{
		"numeroProposta": p.Numero, "status": p.Status, "statusCodigo": statusCode[p.Status],
		"dataProtocolo": p.CreatedAt.Format(time.RFC3339), "dataUltimaAtualizacao": p.UpdatedAt.Format(time.RFC3339),
		"modeloProposta": p.OfferID, "valorProposta": p.Total,
		"formaPagamento": str(cob, "TIPO_COBRANCA"), "periodicidadeCobranca": orDefault(str(cob, "PERIODICIDADE"), "MENSAL"),
		"proponente": map[string]any{"nome": str(dp, "NOME"), "dataNascimento": isoDate(str(dp, "DT_NASCIMENTO")), "cpf": p.CPF},
		"pendencias": pend,
		"inscricoes": insc,
		"mensagens":  []string{},
	}
	if p.Motivo != "" {
		out["motivo"] = p.Motivo
	}
	return out, nil
}

// getProposta is GET /proposta/{numero}.
func (s *Service) getProposta(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	n, err := numeroOf(r)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		p, err := s.mustProposta(ctx, tx, r, n)
		if err != nil {
			return err
		}
		out, err = s.resumo(ctx, tx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// cancelProposta is PATCH /proposta/{numero} {motivo, tipoCancelamento}:
// the partner withdraws a proposal still in progress.
func (s *Service) cancelProposta(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	n, err := numeroOf(r)
	if err != nil {
		return nil, err
	}
	var in struct {
		Motivo           string `json:"motivo"`
		TipoCancelamento any    `json:"tipoCancelamento"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/proposta.cancel", &in); err != nil {
		return nil, err
	}
	var out map[string]any
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		p, err := s.mustProposta(ctx, tx, r, n)
		if err != nil {
			return err
		}
		if _, err := propostaMachine.Check(p.Status, Cancelada); err != nil {
			return rule("status", "PROPOSTA_NAO_CANCELAVEL", "a proposta %d está %s e não pode mais ser cancelada", n, p.Status)
		}
		if err := s.closePendencias(ctx, tx, p); err != nil {
			return err
		}
		if err := s.move(ctx, tx, p, Cancelada, in.Motivo, principal(r).ClientID, nil); err != nil {
			return err
		}
		if s.Scenarios != nil {
			if err := s.Scenarios.Trigger(ctx, tx, "proposta", b10(p.Numero), "cancelled"); err != nil {
				return err
			}
		}
		out = map[string]any{"id": n, "status": Cancelada, "statusCodigo": statusCode[Cancelada], "motivo": in.Motivo, "tipoCancelamento": in.TipoCancelamento}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// timeline is GET /proposta/{numero}/timeline and GET
// /timeline?numeroProposta= (v2 TimeLine): every status and pending, oldest
// first.
func (s *Service) timeline(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	n, err := numeroOf(r)
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		if _, err := s.mustProposta(ctx, tx, r, n); err != nil {
			return err
		}
		pend, err := pendenciasOf(ctx, tx, n)
		if err != nil {
			return err
		}
		out, err = timelineOf(ctx, tx, "proposta_timeline", "numero", n, pend)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// timelineOf reads a timeline table (proposta_timeline, beneficio_timeline)
// oldest first, each entry with the pending it is about, as it is now.
func timelineOf(ctx context.Context, tx *store.Tx, table, column string, id int64, pend []map[string]any) ([]map[string]any, error) {
	byID := map[int64]map[string]any{}
	for _, p := range pend {
		byID[p["id"].(int64)] = p
	}
	rows, err := tx.QueryContext(ctx, `SELECT at, status, usuario, descricao, pendencia FROM `+table+` WHERE `+column+` = ? ORDER BY at, id`, id)
	if err != nil {
		return nil, fmt.Errorf("%s of %d: %w", table, id, err)
	}
	defer rows.Close()
	out := []map[string]any{}
	for rows.Next() {
		var at int64
		var status, usuario, desc string
		var pid sql.NullInt64
		if err := rows.Scan(&at, &status, &usuario, &desc, &pid); err != nil {
			return nil, err
		}
		item := map[string]any{"data": time.Unix(0, at).UTC().Format(time.RFC3339), "status": status, "usuario": usuario, "descricao": desc, "pendencias": []any{}}
		if pid.Valid && byID[pid.Int64] != nil {
			item["pendencias"] = []any{byID[pid.Int64]}
		}
		out = append(out, item)
	}
	return out, rows.Err()
}

func pendenciasOf(ctx context.Context, tx *store.Tx, numero int64) ([]map[string]any, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, status, grupo, codigo, descricao, responsavel, resposta, autor, documento, created_at, updated_at FROM pendencias WHERE numero = ? ORDER BY id`, numero)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []map[string]any{}
	for rows.Next() {
		var id, created, updated int64
		var status, grupo, codigo, desc, resp, resposta, autor, doc string
		if err := rows.Scan(&id, &status, &grupo, &codigo, &desc, &resp, &resposta, &autor, &doc, &created, &updated); err != nil {
			return nil, err
		}
		p := map[string]any{"id": id, "idProposta": numero, "status": status, "grupo": grupo, "codigo": codigo, "descricao": desc,
			"responsavel": resp, "dataPendencia": time.Unix(0, created).UTC().Format(time.RFC3339)}
		if resposta != "" {
			p["resposta"] = resposta
		}
		if autor != "" {
			p["autor"] = autor
		}
		if doc != "" {
			p["documento"] = json.RawMessage(doc)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// listPendencias is GET /pendencia?numeroProposta= and GET
// /proposta/{numero}/pendencia: the proposal's pendings (?status= filters).
func (s *Service) listPendencias(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	n, err := numeroOf(r)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	err = s.DB.Read(ctx, func(tx *store.Tx) error {
		if _, err := s.mustProposta(ctx, tx, r, n); err != nil {
			return err
		}
		all, err := pendenciasOf(ctx, tx, n)
		out = []map[string]any{}
		for _, p := range all {
			if st := r.URL.Query().Get("status"); st == "" || p["status"] == st {
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

// maxDocument bounds an attached document (decoded), as a real GED would.
const maxDocument = 5 << 20

// answerPendencia is PUT /pendencia/{id}: the partner answers an open
// pending with text and/or a document; it becomes RESPONDIDA, Pendência
// Respondida is emitted, and the proposal's scenario hears
// pending_answered.
func (s *Service) answerPendencia(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	id, _ := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	var in struct {
		Resposta  string `json:"resposta"`
		Autor     string `json:"autor"`
		Documento *struct {
			NomeArquivo    string `json:"nomeArquivo"`
			Formato        string `json:"formato"`
			TipoDocumento  string `json:"tipoDocumento"`
			ConteudoBase64 string `json:"conteudoBase64"`
		} `json:"documento"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/pendencia.answer", &in); err != nil {
		return nil, err
	}
	if in.Resposta == "" && in.Documento == nil {
		return nil, errs.Invalidf("resposta", "responda com resposta (texto), documento, ou ambos")
	}
	doc := ""
	if in.Documento != nil {
		raw, err := base64.StdEncoding.DecodeString(in.Documento.ConteudoBase64)
		if err != nil {
			return nil, errs.Invalidf("documento.conteudoBase64", "conteúdo não é base64 válido: %v", err)
		}
		if len(raw) > maxDocument {
			return nil, errs.Invalidf("documento.conteudoBase64", "documento de %d bytes excede o limite de %d", len(raw), maxDocument)
		}
		b, _ := json.Marshal(map[string]any{"nomeArquivo": in.Documento.NomeArquivo, "formato": in.Documento.Formato,
			"tipoDocumento": in.Documento.TipoDocumento, "tamanho": len(raw)})
		doc = string(b)
	}
	autor := in.Autor
	if autor == "" {
		autor = principal(r).ClientID
	}
	var out map[string]any
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		var numero int64
		var status string
		err := tx.QueryRowContext(ctx, `SELECT numero, status FROM pendencias WHERE id = ?`, id).Scan(&numero, &status)
		if errors.Is(err, sql.ErrNoRows) {
			return errs.Errorf(errs.NotFound, "pendência %d não encontrada", id).WithType("PENDENCIA_NAO_ENCONTRADA")
		}
		if err != nil {
			return err
		}
		p, err := s.mustProposta(ctx, tx, r, numero)
		if err != nil {
			var he *errs.Error
			if errors.As(err, &he) && he.Code == errs.NotFound {
				return errs.Errorf(errs.NotFound, "pendência %d não encontrada", id).WithType("PENDENCIA_NAO_ENCONTRADA")
			}
			return err
		}
		if _, err := pendenciaMachine.Check(status, Respondida); err != nil {
			return rule("id", "PENDENCIA_NAO_ABERTA", "a pendência %d está %s: só uma pendência ABERTA é respondida", id, status)
		}
		now := s.Clock.Now()
		if _, err := tx.ExecContext(ctx, `UPDATE pendencias SET status = ?, resposta = ?, autor = ?, documento = ?, updated_at = ? WHERE id = ?`,
			Respondida, in.Resposta, autor, doc, now.UnixNano(), id); err != nil {
			return err
		}
		if err := addTimeline(ctx, tx, numero, now, p.Status, autor, "Pendência respondida", id); err != nil {
			return err
		}
		own, err := s.owner(ctx, tx, p)
		if err != nil {
			return err
		}
		subject := subjectOf(p)
		subject["pendenciaId"] = id
		data := map[string]any{"resposta": in.Resposta, "autor": autor}
		if doc != "" {
			data["documentos"] = []json.RawMessage{json.RawMessage(doc)}
		}
		if err := s.emit(ctx, tx, own, "proposta.pendencia_respondida", "Pendência Respondida", subject, keyOf(p), data); err != nil {
			return err
		}
		if s.Scenarios != nil {
			if err := s.Scenarios.Trigger(ctx, tx, "proposta", b10(numero), "pending_answered"); err != nil {
				return err
			}
		}
		all, err := pendenciasOf(ctx, tx, numero)
		for _, pd := range all {
			if pd["id"] == id {
				out = pd
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}
