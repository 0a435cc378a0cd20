package sale

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
)

// The questionnaire service (/api.questionario/v2) is how the 2025 client
// reads and answers the DPS (insurance CLIENTS §3.4): the questions at
// Valor.VersaoQuestionario[0].Perguntas[], PascalCase, and the answers
// posted back as the whole questionnaire, stringified, with a Resposta
// string written into each answered question. The questions are the
// catalogue's (the insurer API's GET /questionario), their answers the
// same saved answers the forms widget keeps.

// nodeID is a question's id in the questionnaire service: its
// questionnaire's id × 1000 + its own, so that a question is known by its
// id alone (GET /Pergunta/{id}).
func nodeID(qid, pid int) int { return qid*1000 + pid }

// tiposResposta are the service's TipoResposta ids (the 2025 client's
// enum: 1 sim/não, 2 texto, 3 valor, 4 domínio, 5 não informado, 6 data).
var tiposResposta = map[string]int{catalog.RespostaSimNao: 1, catalog.RespostaTexto: 2, catalog.RespostaValor: 3, catalog.RespostaDominio: 4,
	catalog.RespostaData: 6}

// simNao are the options of a yes/no question.
var simNao = []catalog.Dominio{{ID: 1, Descricao: "Sim"}, {ID: 2, Descricao: "Não"}}

// siglaID is the service's {Id, Sigla}.
type siglaID struct {
	ID    int    `json:"Id"`
	Sigla string `json:"Sigla"`
}

// opcaoNode is an option of a question, with the questions it opens.
type opcaoNode struct {
	ID        int            `json:"Id"`
	Descricao string         `json:"Descricao"`
	SubItens  []perguntaNode `json:"SubItens"`
}

// perguntaNode is a question as the service answers it.
type perguntaNode struct {
	ID                   int            `json:"Id"`
	Descricao            string         `json:"Descricao"`
	Ordem                int            `json:"Ordem"`
	TipoItem             siglaID        `json:"TipoItem"`
	TipoResposta         siglaID        `json:"TipoResposta"`
	TipoVariacaoResposta siglaID        `json:"TipoVariacaoResposta"`
	Obrigatorio          bool           `json:"Obrigatorio"`
	Opcoes               []opcaoNode    `json:"Opcoes"`
	Perguntas            []perguntaNode `json:"Perguntas"`
}

// versaoQuestionario is one version of a questionnaire: the sandbox's
// questionnaires have one.
type versaoQuestionario struct {
	ID        int            `json:"Id"`
	Versao    int            `json:"Versao"`
	Perguntas []perguntaNode `json:"Perguntas"`
}

// questionarioServico is GET /Questionario/{id}'s Valor.
type questionarioServico struct {
	ID                  int                  `json:"Id"`
	Descricao           string               `json:"Descricao"`
	DataUltimaAlteracao string               `json:"DataUltimaAlteracao"`
	VersaoQuestionario  []versaoQuestionario `json:"VersaoQuestionario"`
}

// servicoOf is a catalogue questionnaire as the service answers it.
func servicoOf(q *catalog.Questionario) questionarioServico {
	v := versaoQuestionario{ID: q.ID, Versao: 1, Perguntas: []perguntaNode{}}
	for _, p := range q.Perguntas {
		v.Perguntas = append(v.Perguntas, perguntaNodeOf(q.ID, p))
	}
	return questionarioServico{ID: q.ID, Descricao: q.Descricao, DataUltimaAlteracao: q.DataUltimaAlteracao,
		VersaoQuestionario: []versaoQuestionario{v}}
}

// perguntaNodeOf is one question of questionnaire qid as the service
// answers it.
func perguntaNodeOf(qid int, p catalog.Pergunta) perguntaNode {
	n := perguntaNode{ID: nodeID(qid, p.ID), Descricao: p.Descricao, Ordem: p.Ordem, TipoItem: siglaID{ID: 1, Sigla: "PERGUNTA"},
		TipoResposta: siglaID{ID: tiposResposta[p.TipoResposta], Sigla: p.TipoResposta}, TipoVariacaoResposta: variacaoOf(p),
		Obrigatorio: p.Obrigatoria, Opcoes: []opcaoNode{}, Perguntas: []perguntaNode{}}
	opcoes := p.Opcoes
	if p.TipoResposta == catalog.RespostaSimNao {
		opcoes = simNao
	}
	for _, o := range opcoes {
		n.Opcoes = append(n.Opcoes, opcaoNode{ID: o.ID, Descricao: o.Descricao, SubItens: []perguntaNode{}})
	}
	return n
}

// variacaoOf is a question's TipoVariacaoResposta in the 2025 client's
// enum (MagTipoVariacao, GB lib/mag-api/types.ts), which its
// questionnaire screen draws a VALOR question's input from: 10 a weight
// (digits, "80"), 11 a height (metres, mask 0,00: "1,80"), 4 any number
// typed; another variation draws no input, and a mandatory question
// without one keeps the customer on the screen (insurance CLIENTS,
// additions, item 2). A yes/no or domain question is a single choice,
// a text 4 (typed), a date 6.
func variacaoOf(p catalog.Pergunta) siglaID {
	switch p.TipoResposta {
	case catalog.RespostaValor:
		switch p.Variacao {
		case catalog.VariacaoPeso:
			return siglaID{ID: 10, Sigla: "DIGITACAO_PESO"}
		case catalog.VariacaoAltura:
			return siglaID{ID: 11, Sigla: "DIGITACAO_ALTURA"}
		}
		return siglaID{ID: 4, Sigla: "DIGITACAO_NUMERO_TEXTO"}
	case catalog.RespostaTexto:
		return siglaID{ID: 4, Sigla: "DIGITACAO_COMUM"}
	case catalog.RespostaData:
		return siglaID{ID: 6, Sigla: "DATA_PADRAO"}
	}
	return siglaID{ID: 1, Sigla: "SELECAO_UNICA"}
}

// perguntaByNode finds the question a service id names among qs.
func perguntaByNode(qs []*catalog.Questionario, id int) (*catalog.Questionario, *catalog.Pergunta) {
	for _, q := range qs {
		for i := range q.Perguntas {
			if nodeID(q.ID, q.Perguntas[i].ID) == id {
				return q, &q.Perguntas[i]
			}
		}
	}
	return nil, nil
}

// respostaServicoIn is POST /Resposta's body.
type respostaServicoIn struct {
	Localizador struct {
		Origem               string `json:"Origem"`
		IdentificadorExterno any    `json:"IdentificadorExterno"`
	} `json:"Localizador"`
	Resposta string `json:"Resposta"`
}

// respostasDoServico reads the service's Resposta: the questionnaire
// answered, as a JSON string. It returns the questionnaire's id and the
// answers in the insurer API's terms, each Resposta string typed by its
// question (yes/no as sim/não, true/false or an option; a value with a
// decimal point or comma; an option by id or description; a date in any
// layout). What cannot be typed is passed on as sent, for checkRespostas
// to refuse naming the question.
func respostasDoServico(raw string, questionnaire func(id int) (*catalog.Questionario, bool)) (int, []respostaIn, error) {
	var doc struct {
		ID                 int `json:"Id"`
		VersaoQuestionario []struct {
			Perguntas []map[string]any `json:"Perguntas"`
		} `json:"VersaoQuestionario"`
	}
	if err := json.Unmarshal([]byte(raw), &doc); err != nil || doc.ID == 0 || len(doc.VersaoQuestionario) == 0 {
		return 0, nil, errs.Invalidf("Resposta", "Resposta deve ser o questionário de GET /Questionario/{id} (Id, VersaoQuestionario[0].Perguntas) em JSON, com a Resposta de cada pergunta respondida")
	}
	q, ok := questionnaire(doc.ID)
	if !ok {
		return 0, nil, errs.Invalidf("Resposta", "o questionário %d não existe", doc.ID)
	}
	var out []respostaIn
	var walk func(nodes []map[string]any) error
	walk = func(nodes []map[string]any) error {
		for _, n := range nodes {
			id, _ := wire.Int(n["Id"])
			if r, answered := n["Resposta"]; answered && r != nil {
				_, pg := perguntaByNode([]*catalog.Questionario{q}, id)
				if pg == nil {
					return errs.Invalidf("Resposta", "a pergunta %d não é do questionário %d", id, q.ID)
				}
				out = append(out, respostaIn{PerguntaID: pg.ID, Valor: valorDoServico(pg, fmt.Sprint(r))})
			}
			if err := walk(wire.Items(n["Perguntas"])); err != nil {
				return err
			}
			for _, o := range wire.Items(n["Opcoes"]) {
				if err := walk(wire.Items(o["SubItens"])); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return q.ID, out, walk(doc.VersaoQuestionario[0].Perguntas)
}

// valorDoServico types a Resposta string by its question; as sent when it
// cannot.
func valorDoServico(pg *catalog.Pergunta, s string) any {
	s = strings.TrimSpace(s)
	switch pg.TipoResposta {
	case catalog.RespostaSimNao:
		switch strings.ToLower(s) {
		case "true", "sim", "s", "1":
			return true
		case "false", "não", "nao", "n", "2":
			return false
		}
	case catalog.RespostaValor:
		if f, err := wire.Decimal(s); err == nil {
			return f
		}
	case catalog.RespostaDominio:
		if id, err := strconv.Atoi(s); err == nil {
			return float64(id)
		}
		for _, o := range pg.Opcoes {
			if strings.EqualFold(o.Descricao, s) {
				return float64(o.ID)
			}
		}
	case catalog.RespostaData:
		if s == "" {
			return nil
		}
		if t, err := wire.ParseDate(s); err == nil {
			return t.Format(time.DateOnly)
		}
		// The 2025 client's date input is masked 00/00/0000
		// (QuestionnaireRenderer.tsx): DD/MM/AAAA.
		if t, err := time.Parse("02/01/2006", s); err == nil {
			return t.Format(time.DateOnly)
		}
	}
	return s
}

// answerServico saves the service's answers for the proposal (or
// reserved number) its Localizador names, as the forms widget's are.
func (s *Service) answerServico(ctx context.Context, by auth.Principal, in respostaServicoIn) (*answerTarget, *respostas, error) {
	numero, err := wire.Int(in.Localizador.IdentificadorExterno)
	if err != nil || numero <= 0 {
		return nil, nil, errs.Invalidf("Localizador.IdentificadorExterno", "informe o número da proposta em Localizador.IdentificadorExterno")
	}
	qid, answers, err := respostasDoServico(in.Resposta, s.Catalog.Questionnaire)
	if err != nil {
		return nil, nil, err
	}
	return s.saveRespostas(ctx, by, int64(numero), qid, answers, "api.questionario", serviceNames(qid, answers))
}
