package sale

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

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

// respostas are the answers saved for a proposal's questionnaire.
type respostas struct {
	Respostas []resposta
	Autor     string
	UpdatedAt time.Time
}

// answerTarget is what a proposal number's answers belong to.
type answerTarget struct {
	numero  int64
	offerID string
	q       *catalog.Questionario
	status  string // the proposal's; "" for a number only reserved
}

// questionnaires lists the questionnaires of an offer the caller may
// sell.
func (s *Service) questionnaires(ctx context.Context, by auth.Principal, code string) ([]*catalog.Questionario, error) {
	o, err := s.offer(ctx, by, code)
	if err != nil {
		return nil, err
	}
	out := []*catalog.Questionario{}
	if o.Questionario != nil {
		out = append(out, o.Questionario)
	}
	return out, nil
}

// questionnaireOf resolves numero and questionarioId: numero is the
// company's proposal or a number it reserved (the questionnaire is
// answered before the proposal is sent, with the reserved number as its
// locator), and questionarioId must be that offer's questionnaire.
func (s *Service) questionnaireOf(ctx context.Context, tx *store.Tx, companyID string, numero int64, qid int) (*answerTarget, error) {
	t := &answerTarget{numero: numero}
	p, err := propostas.Of(ctx, tx, companyID, numero)
	if err != nil {
		return nil, err
	}
	if p != nil {
		t.offerID, t.status = p.OfferID, p.Status
	} else {
		r, err := loadReservation(ctx, tx, companyID, numero)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, wire.NotFound("PROPOSTA_NAO_ENCONTRADA", "proposta %d não encontrada nem reservada pela empresa", numero)
		}
		t.offerID = r.OfferID
	}
	o, ok := s.Catalog.Offer(t.offerID)
	if !ok || o.Questionario == nil {
		return nil, fmt.Errorf("proposta %d: offer %q has no questionnaire in the catalogue", numero, t.offerID)
	}
	if o.Questionario.ID != qid {
		e := wire.NotFound("QUESTIONARIO_NAO_ENCONTRADO", "o questionário %d não é o da proposta %d (modelo %s, questionário %d)", qid, numero, t.offerID, o.Questionario.ID)
		e.Violations = []errs.Violation{{Field: "questionarioId", Reason: e.Message}}
		return nil, e
	}
	t.q = o.Questionario
	return t, nil
}

// respostasOf reads the answers saved for the company's proposal (or
// reserved number); none yet is not an error.
func (s *Service) respostasOf(ctx context.Context, companyID string, numero int64, qid int) (*answerTarget, *respostas, error) {
	var t *answerTarget
	var rs *respostas
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		if t, err = s.questionnaireOf(ctx, tx, companyID, numero, qid); err != nil {
			return err
		}
		rs, err = loadRespostas(ctx, tx, numero, qid)
		return err
	})
	return t, rs, err
}

// saveRespostas checks answers against their questionnaire and saves them
// in place of any earlier ones, while the analysis has not decided (a
// decided proposal's declaration is what was analysed).
func (s *Service) saveRespostas(ctx context.Context, by auth.Principal, numero int64, qid int, in []respostaIn, autor string, names naming) (*answerTarget, *respostas, error) {
	var t *answerTarget
	var rs *respostas
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		var err error
		if t, err = s.questionnaireOf(ctx, tx, by.CompanyID, numero, qid); err != nil {
			return err
		}
		switch t.status {
		case Aprovada, Implantada, Recusada, Cancelada:
			return wire.Rule("numeroProposta", "QUESTIONARIO_ENCERRADO", "a proposta %d está %s: o questionário não pode mais ser alterado", t.numero, t.status)
		}
		saved, vs := checkRespostas(t.q, in, names)
		if err := vs.Err("RESPOSTAS_INVALIDAS", "as respostas não conferem com o questionário"); err != nil {
			return err
		}
		if err := putRespostas(ctx, tx, t, by.CompanyID, saved, autor, s.NowOf(by.CompanyID)); err != nil {
			return err
		}
		rs, err = loadRespostas(ctx, tx, numero, qid)
		return err
	})
	return t, rs, err
}

// naming is how an API names, in its errors, an answer and a question:
// the insurer API's fields (respostas.2.valor, respostas[perguntaId=7])
// and question ids, or the questionnaire service's, which the 2025
// client knows a question by (its Id, 901002; insurance CLIENTS,
// additions, item 3).
type naming struct {
	// answer names answer i's member sub ("perguntaId", "valor");
	// question names a question no answer points at; label is the
	// number a message calls question pid by.
	answer   func(i int, sub string) string
	question func(pid int) string
	label    func(pid int) int
}

// apiNames is the insurer API's naming.
var apiNames = naming{
	answer:   func(i int, sub string) string { return fmt.Sprintf("respostas.%d.%s", i, sub) },
	question: func(pid int) string { return fmt.Sprintf("respostas[perguntaId=%d]", pid) },
	label:    func(pid int) int { return pid },
}

// serviceNames is the questionnaire service's naming for questionnaire
// qid's answers in: each question by its Id in the service.
func serviceNames(qid int, in []respostaIn) naming {
	node := func(pid int) string { return fmt.Sprintf("Perguntas[Id=%d]", nodeID(qid, pid)) }
	return naming{
		answer:   func(i int, _ string) string { return node(in[i].PerguntaID) },
		question: node,
		label:    func(pid int) int { return nodeID(qid, pid) },
	}
}

// checkRespostas checks answers against their questionnaire: each names one
// of its questions, once, with a valor of the question's tipoResposta, and
// every required question is answered. A null or blank valor leaves a
// question unanswered (what a form sends for an empty field). It returns
// the answers in the questionnaire's order, or every violation, each
// naming its field as names says.
func checkRespostas(q *catalog.Questionario, in []respostaIn, names naming) ([]resposta, wire.Violations) {
	var vs wire.Violations
	perguntas := map[int]*catalog.Pergunta{}
	for i := range q.Perguntas {
		perguntas[q.Perguntas[i].ID] = &q.Perguntas[i]
	}
	answered := map[int]resposta{}
	seenAt := map[int]int{}
	for i, a := range in {
		pg, ok := perguntas[a.PerguntaID]
		if !ok {
			vs.Add(names.answer(i, "perguntaId"), "a pergunta %d não existe no questionário %d", a.PerguntaID, q.ID)
			continue
		}
		if j, dup := seenAt[a.PerguntaID]; dup {
			vs.Add(names.answer(i, "perguntaId"), "a pergunta %d já foi respondida em respostas.%d", names.label(a.PerguntaID), j)
			continue
		}
		seenAt[a.PerguntaID] = i
		if blank(a.Valor) {
			continue
		}
		r, reason := checkValor(pg, a.Valor)
		if reason != "" {
			vs.Add(names.answer(i, "valor"), "pergunta %d (%s) é %s: %s", names.label(pg.ID), pg.Descricao, pg.TipoResposta, reason)
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
			vs.Add(names.question(pg.ID), "a pergunta %d (%s) é obrigatória e não foi respondida", names.label(pg.ID), pg.Descricao)
		case blank(in[i].Valor):
			vs.Add(names.answer(i, "valor"), "a pergunta %d (%s) é obrigatória: a resposta não pode ficar em branco", names.label(pg.ID), pg.Descricao)
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
	var reason string
	switch pg.TipoResposta {
	case catalog.RespostaSimNao:
		r.Valor, reason = typed[bool](v, "responda true (sim) ou false (não)")
	case catalog.RespostaValor:
		r.Valor, reason = typed[float64](v, "responda com um número (JSON number, ponto decimal)")
		if reason == "" {
			reason = medida(pg, r.Valor.(float64))
		}
	case catalog.RespostaTexto:
		r.Valor, reason = checkTexto(v)
	case catalog.RespostaData:
		r.Valor, reason = checkData(v)
	case catalog.RespostaDominio:
		return checkOpcao(pg, v)
	default:
		reason = "tipo de resposta desconhecido"
	}
	return r, reason
}

// medida checks a weight or a height in its unit ("" when it is one): a
// weight in kilograms, a height in metres, as the 2025 client writes it
// ("1,80", the mask 0,00; insurance CLIENTS, additions, item 2). A height
// in centimetres is out of the range, and told so.
func medida(pg *catalog.Pergunta, v float64) string {
	switch {
	case pg.Variacao == catalog.VariacaoPeso && (v < 1 || v > 400):
		return fmt.Sprintf("o peso é em quilos, de 1 a 400 (como 80); %s não é", strconv.FormatFloat(v, 'f', -1, 64))
	case pg.Variacao == catalog.VariacaoAltura && (v < 0.3 || v > 2.6):
		return fmt.Sprintf("a altura é em metros, de 0,30 a 2,60 (como 1,80); %s não é", strconv.FormatFloat(v, 'f', -1, 64))
	}
	return ""
}

// typed is v as a T, or nil and reason when it is not one.
func typed[T any](v any, reason string) (any, string) {
	x, ok := v.(T)
	if !ok {
		return nil, reason
	}
	return x, ""
}

// checkTexto reads a TEXTO answer, trimmed, at most maxTexto characters.
func checkTexto(v any) (any, string) {
	s, ok := v.(string)
	if !ok {
		return nil, "responda com um texto"
	}
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n > maxTexto {
		return nil, fmt.Sprintf("texto de %d caracteres excede o limite de %d", n, maxTexto)
	}
	return s, ""
}

// checkData reads a DATA answer: a date AAAA-MM-DD.
func checkData(v any) (any, string) {
	s, ok := v.(string)
	if !ok {
		return nil, "responda com uma data AAAA-MM-DD"
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return nil, fmt.Sprintf("%q não é uma data AAAA-MM-DD", s)
	}
	return s, ""
}

// checkOpcao types the answer of a DOMINIO question: one of its options'
// ids.
func checkOpcao(pg *catalog.Pergunta, v any) (resposta, string) {
	r := resposta{PerguntaID: pg.ID, TipoResposta: pg.TipoResposta}
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
}
