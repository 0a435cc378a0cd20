package sale

import (
	"net/http"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
)

// getQuestionarioServico is the questionnaire service's GET
// /Questionario/{id}: the questions at Valor.VersaoQuestionario[0].Perguntas,
// each with Id, Descricao, TipoItem, TipoResposta, TipoVariacaoResposta,
// Obrigatorio, Opcoes[] and Perguntas[] (insurance CLIENTS §3.4). The id
// is the simulation coverage's questionariosPorFaixa[0].questionarios[0].idQuestionario.
func (s *Service) getQuestionarioServico(r *http.Request) (*httpx.Reply, error) {
	id, err := pathInt(r, "id", "o id do questionário é um número")
	if err != nil {
		return nil, err
	}
	q, err := s.questionnaire(r.Context(), wire.Principal(r), "", id)
	if err != nil {
		return nil, err
	}
	return wire.OK(servicoOf(q)), nil
}

// getPerguntaServico is the service's GET /Pergunta/{id}: one question, by
// its id in the service.
func (s *Service) getPerguntaServico(r *http.Request) (*httpx.Reply, error) {
	id, err := pathInt(r, "id", "o id da pergunta é um número")
	if err != nil {
		return nil, err
	}
	var qs []*catalog.Questionario
	if qid := id / 1000; qid > 0 {
		if q, err := s.questionnaire(r.Context(), wire.Principal(r), "", qid); err == nil {
			qs = append(qs, q)
		}
	}
	q, pg := perguntaByNode(qs, id)
	if pg == nil {
		return nil, wire.NotFound("PERGUNTA_NAO_ENCONTRADA", "pergunta %d não encontrada nos questionários da empresa", id)
	}
	return wire.OK(perguntaNodeOf(q.ID, *pg)), nil
}

// postPerguntaServico is the service's POST /Pergunta, the administration
// of the insurer's question catalogue, which is not a partner's: 403.
func (s *Service) postPerguntaServico(r *http.Request) (*httpx.Reply, error) {
	return nil, errs.Errorf(errs.Forbidden, "o catálogo de perguntas é administrado pela seguradora; o sandbox não o altera (as perguntas são as do catálogo do sandbox)").
		WithType("ACESSO_NEGADO")
}

// listDominiosServico is the service's GET /Dominio: the domain lists and
// where to read them, Valor [{Nome, Url}], with CondicaoFalha beside it.
func (s *Service) listDominiosServico(r *http.Request) (*httpx.Reply, error) {
	out := []map[string]any{}
	for _, name := range s.Catalog.Dominios() {
		out = append(out, map[string]any{"Nome": name, "Url": "/apiseguradora/v3/dominio/" + name})
	}
	return wire.ReplyTop(http.StatusOK, map[string]any{"CondicaoFalha": 0}, out), nil
}

// postRespostaServico is the service's POST /Resposta {Localizador: {Origem:
// "Venda", IdentificadorExterno: "<numeroProposta>"}, Resposta: "<the
// questionnaire answered, as JSON>"}: the answers of the proposal's DPS,
// sent after the proposal with the number it was given (or before it,
// with a reserved one). The client reads only the HTTP success.
func (s *Service) postRespostaServico(r *http.Request) (*httpx.Reply, error) {
	var in respostaServicoIn
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/resposta.servico.request", &in); err != nil {
		return nil, err
	}
	t, rs, err := s.answerServico(r.Context(), wire.Principal(r), in)
	if err != nil {
		return nil, err
	}
	return wire.Created(map[string]any{"Localizador": in.Localizador, "IdQuestionario": t.q.ID, "NumeroProposta": t.numero,
		"Situacao": "RESPONDIDO", "Respostas": len(rs.Respostas)}), nil
}
