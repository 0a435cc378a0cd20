package insurance

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/store"
)

// questionnaireScopes are the scopes that read and answer a questionnaire:
// the insurer API's, and the one the forms widget's token carries
// (insurance SUMMARY §2.1, §3.10), so a partner posting the evidenced
// token to the widget sees it work.
var questionnaireScopes = []string{"apiseguradora", "api.questionario"}

// maxTexto bounds a TEXTO answer, as the pending answer is bounded.
const maxTexto = 4000

// respostaIn is one answer as sent.
type respostaIn struct {
	PerguntaID int `json:"perguntaId"`
	Valor      any `json:"valor"`
}

// resposta is one answer as saved and read back.
type resposta struct {
	PerguntaID     int    `json:"perguntaId"`
	TipoResposta   string `json:"tipoResposta"`
	Valor          any    `json:"valor"`
	DescricaoOpcao string `json:"descricaoOpcao,omitempty"`
}

// checkRespostas checks answers against their questionnaire: each names one
// of its questions, once, with a valor of the question's tipoResposta, and
// every required question is answered. A null or blank valor leaves a
// question unanswered (what a form sends for an empty field). It returns
// the answers in the questionnaire's order, or every violation, each
// naming its field.
func checkRespostas(q *catalog.Questionario, in []respostaIn) ([]resposta, []errs.Violation) {
	var vs []errs.Violation
	bad := func(field, format string, args ...any) {
		vs = append(vs, errs.Violation{Field: field, Reason: fmt.Sprintf(format, args...)})
	}
	perguntas := map[int]*catalog.Pergunta{}
	for i := range q.Perguntas {
		perguntas[q.Perguntas[i].ID] = &q.Perguntas[i]
	}
	answered := map[int]resposta{}
	seenAt := map[int]int{}
	for i, a := range in {
		pg, ok := perguntas[a.PerguntaID]
		if !ok {
			bad(fmt.Sprintf("respostas.%d.perguntaId", i), "a pergunta %d não existe no questionário %d", a.PerguntaID, q.ID)
			continue
		}
		if j, dup := seenAt[a.PerguntaID]; dup {
			bad(fmt.Sprintf("respostas.%d.perguntaId", i), "a pergunta %d já foi respondida em respostas.%d", a.PerguntaID, j)
			continue
		}
		seenAt[a.PerguntaID] = i
		if blank(a.Valor) {
			continue
		}
		r, reason := checkValor(pg, a.Valor)
		if reason != "" {
			bad(fmt.Sprintf("respostas.%d.valor", i), "pergunta %d (%s) é %s: %s", pg.ID, pg.Descricao, pg.TipoResposta, reason)
			continue
		}
		answered[pg.ID] = r
	}
	out := []resposta{}
	for _, pg := range q.Perguntas {
		r, ok := answered[pg.ID]
		i, sent := seenAt[pg.ID]
		switch {
		case ok:
			out = append(out, r)
		case !pg.Obrigatoria:
		case !sent:
			// Nothing in the body to point at: the field names the
			// question by id.
			bad(fmt.Sprintf("respostas[perguntaId=%d]", pg.ID), "a pergunta %d (%s) é obrigatória e não foi respondida", pg.ID, pg.Descricao)
		case blank(in[i].Valor):
			bad(fmt.Sprintf("respostas.%d.valor", i), "a pergunta %d (%s) é obrigatória: a resposta não pode ficar em branco", pg.ID, pg.Descricao)
		}
	}
	return out, vs
}

func blank(v any) bool {
	s, isString := v.(string)
	return v == nil || isString && strings.TrimSpace(s) == ""
}

// checkValor types one answer by its question, or says what is wrong.
func checkValor(pg *catalog.Pergunta, v any) (resposta, string) {
	r := resposta{PerguntaID: pg.ID, TipoResposta: pg.TipoResposta}
	switch pg.TipoResposta {
	case catalog.RespostaSimNao:
		b, ok := v.(bool)
		if !ok {
			return r, "responda true (sim) ou false (não)"
		}
		r.Valor = b
	case catalog.RespostaTexto:
		s, ok := v.(string)
		if !ok {
			return r, "responda com um texto"
		}
		s = strings.TrimSpace(s)
		if n := utf8.RuneCountInString(s); n > maxTexto {
			return r, fmt.Sprintf("texto de %d caracteres excede o limite de %d", n, maxTexto)
		}
		r.Valor = s
	case catalog.RespostaValor:
		f, ok := v.(float64)
		if !ok {
			return r, "responda com um número (JSON number, ponto decimal)"
		}
		r.Valor = f
	case catalog.RespostaDominio:
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) {
			return r, "responda com o id de uma das opções"
		}
		for _, op := range pg.Opcoes {
			if float64(op.ID) == f {
				r.Valor, r.DescricaoOpcao = op.ID, op.Descricao
				return r, ""
			}
		}
		ids := make([]string, len(pg.Opcoes))
		for i, op := range pg.Opcoes {
			ids[i] = strconv.Itoa(op.ID)
		}
		return r, fmt.Sprintf("a opção %v não existe; as opções são %s", f, strings.Join(ids, ", "))
	case catalog.RespostaData:
		s, ok := v.(string)
		if !ok {
			return r, "responda com uma data AAAA-MM-DD"
		}
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return r, fmt.Sprintf("%q não é uma data AAAA-MM-DD", s)
		}
		r.Valor = s
	default:
		return r, "tipo de resposta desconhecido"
	}
	return r, ""
}

// answerTarget is what a proposal number's answers belong to.
type answerTarget struct {
	numero  int64
	offerID string
	q       *catalog.Questionario
	status  string // the proposal's; "" for a number only reserved
}

// questionnaireOf resolves the path's numero and questionarioId: numero is
// the company's proposal or a number it reserved (the questionnaire is
// answered before the proposal is sent, with the reserved number as its
// locator), and questionarioId must be that offer's questionnaire.
func (s *Service) questionnaireOf(ctx context.Context, tx *store.Tx, r *http.Request) (*answerTarget, error) {
	n, err := numeroOf(r)
	if err != nil {
		return nil, err
	}
	qid, err := strconv.Atoi(mux.Vars(r)["questionarioId"])
	if err != nil || qid <= 0 {
		return nil, errs.Invalidf("questionarioId", "informe o id do questionário")
	}
	companyID := principal(r).CompanyID
	t := &answerTarget{numero: n}
	p, err := loadProposta(ctx, tx, companyID, n)
	if err != nil {
		return nil, err
	}
	if p != nil {
		t.offerID, t.status = p.OfferID, p.Status
	} else {
		err := tx.QueryRowContext(ctx, `SELECT offer_id FROM proposal_numbers WHERE numero = ? AND company_id = ?`, n, companyID).Scan(&t.offerID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errs.Errorf(errs.NotFound, "proposta %d não encontrada nem reservada pela empresa", n).WithType("PROPOSTA_NAO_ENCONTRADA")
		}
		if err != nil {
			return nil, err
		}
	}
	o, ok := s.Catalog.Offer(t.offerID)
	if !ok || o.Questionario == nil {
		return nil, fmt.Errorf("proposta %d: offer %q has no questionnaire in the catalogue", n, t.offerID)
	}
	if o.Questionario.ID != qid {
		e := errs.Errorf(errs.NotFound, "o questionário %d não é o da proposta %d (modelo %s, questionário %d)", qid, n, t.offerID, o.Questionario.ID).
			WithType("QUESTIONARIO_NAO_ENCONTRADO")
		e.Violations = []errs.Violation{{Field: "questionarioId", Reason: e.Message}}
		return nil, e
	}
	t.q = o.Questionario
	return t, nil
}

// respostasDe is the answer of GET and PUT: the saved answers, or none.
func respostasDe(ctx context.Context, tx *store.Tx, t *answerTarget) (map[string]any, error) {
	out := map[string]any{"numeroProposta": t.numero, "questionarioId": t.q.ID, "modeloProposta": t.offerID,
		"situacao": "NAO_RESPONDIDO", "respostas": []resposta{}}
	var raw, autor string
	var updated int64
	err := tx.QueryRowContext(ctx, `SELECT respostas, autor, updated_at FROM questionario_respostas WHERE numero = ? AND questionario_id = ?`,
		t.numero, t.q.ID).Scan(&raw, &autor, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	var rs []resposta
	if err := json.Unmarshal([]byte(raw), &rs); err != nil {
		return nil, fmt.Errorf("respostas %d/%d: %w", t.numero, t.q.ID, err)
	}
	out["situacao"], out["respostas"], out["autor"] = "RESPONDIDO", rs, autor
	out["dataAtualizacao"] = time.Unix(0, updated).UTC().Format(time.RFC3339)
	return out, nil
}

// getRespostas is GET /proposta/{numero}/questionario/{questionarioId}: the
// answers saved for the proposal (or its reserved number), situacao
// NAO_RESPONDIDO with none yet.
func (s *Service) getRespostas(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var out map[string]any
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		t, err := s.questionnaireOf(ctx, tx, r)
		if err != nil {
			return err
		}
		out, err = respostasDe(ctx, tx, t)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}

// putRespostas is PUT /proposta/{numero}/questionario/{questionarioId}
// {respostas: [{perguntaId, valor}], autor}: what the forms widget saves.
// The set replaces any earlier one, while the analysis has not decided
// (a decided proposal's declaration is what was analysed).
func (s *Service) putRespostas(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	var in struct {
		Respostas []respostaIn `json:"respostas"`
		Autor     string       `json:"autor"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/questionario.respostas.request", &in); err != nil {
		return nil, err
	}
	autor := in.Autor
	if autor == "" {
		autor = principal(r).ClientID
	}
	var out map[string]any
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		t, err := s.questionnaireOf(ctx, tx, r)
		if err != nil {
			return err
		}
		switch t.status {
		case Aprovada, Implantada, Recusada, Cancelada:
			return rule("numeroProposta", "QUESTIONARIO_ENCERRADO", "a proposta %d está %s: o questionário não pode mais ser alterado", t.numero, t.status)
		}
		saved, vs := checkRespostas(t.q, in.Respostas)
		if len(vs) > 0 {
			return rules("RESPOSTAS_INVALIDAS", vs)
		}
		b, err := json.Marshal(saved)
		if err != nil {
			return err
		}
		now := s.Clock.Now().UnixNano()
		_, err = tx.ExecContext(ctx, `INSERT INTO questionario_respostas (numero, questionario_id, company_id, offer_id, respostas, autor, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (numero, questionario_id) DO UPDATE SET respostas = excluded.respostas, autor = excluded.autor, updated_at = excluded.updated_at`,
			t.numero, t.q.ID, principal(r).CompanyID, t.offerID, string(b), autor, now, now)
		if err != nil {
			return err
		}
		out, err = respostasDe(ctx, tx, t)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ok(out), nil
}
