package sale

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// listQuestionarios is GET /questionario?codigoModeloProposta= (v2
// Questionario): the questions of an offer the caller may sell.
func (s *Service) listQuestionarios(r *http.Request) (*httpx.Reply, error) {
	code := wire.Params(r).Get("codigoModeloProposta")
	if code == "" {
		return nil, errs.Invalidf("codigoModeloProposta", "informe o modelo de proposta (codigoModeloProposta)")
	}
	return wire.OKOf(s.questionnaires(r.Context(), wire.Principal(r), code))
}

// questionarioOf reads the path's numero and questionarioId.
func questionarioOf(r *http.Request) (int64, int, error) {
	n, err := numeroOf(r)
	if err != nil {
		return 0, 0, err
	}
	qid, err := strconv.Atoi(mux.Vars(r)["questionarioId"])
	if err != nil || qid <= 0 {
		return 0, 0, errs.Invalidf("questionarioId", "informe o id do questionário")
	}
	return n, qid, nil
}

// getRespostas is GET /proposta/{numero}/questionario/{questionarioId}: the
// answers saved for the proposal (or its reserved number), situacao
// NAO_RESPONDIDO with none yet.
func (s *Service) getRespostas(r *http.Request) (*httpx.Reply, error) {
	n, qid, err := questionarioOf(r)
	if err != nil {
		return nil, err
	}
	t, rs, err := s.respostasOf(r.Context(), wire.Principal(r).CompanyID, n, qid)
	if err != nil {
		return nil, err
	}
	return wire.OK(respostasBody(t, rs)), nil
}

// putRespostas is PUT /proposta/{numero}/questionario/{questionarioId}
// {respostas: [{perguntaId, valor}], autor}: what the forms widget saves.
func (s *Service) putRespostas(r *http.Request) (*httpx.Reply, error) {
	var in struct {
		Respostas []respostaIn `json:"respostas"`
		Autor     string       `json:"autor"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/questionario.respostas.request", &in); err != nil {
		return nil, err
	}
	n, qid, err := questionarioOf(r)
	if err != nil {
		return nil, err
	}
	by := wire.Principal(r)
	t, rs, err := s.saveRespostas(r.Context(), by, n, qid, in.Respostas, wire.OrDefault(in.Autor, by.ClientID), apiNames)
	if err != nil {
		return nil, err
	}
	return wire.OK(respostasBody(t, rs)), nil
}

// respostasBody is the answer of GET and PUT: the saved answers, or none.
func respostasBody(t *answerTarget, rs *respostas) map[string]any {
	out := map[string]any{"numeroProposta": t.numero, "questionarioId": t.q.ID, "modeloProposta": t.offerID,
		"situacao": "NAO_RESPONDIDO", "respostas": []resposta{}}
	if rs != nil {
		out["situacao"], out["respostas"], out["autor"] = "RESPONDIDO", rs.Respostas, rs.Autor
		out["dataAtualizacao"] = rs.UpdatedAt.Format(time.RFC3339)
	}
	return out
}
