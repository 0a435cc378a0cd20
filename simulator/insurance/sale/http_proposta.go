package sale

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/scenario"
)

// numeroOf reads the proposal number from the path or ?numeroProposta=.
func numeroOf(r *http.Request) (int64, error) {
	v := mux.Vars(r)["numero"]
	field := "numero"
	if v == "" {
		v, field = wire.Params(r).Get("numeroProposta"), "numeroProposta"
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.Invalidf(field, "informe o número da proposta (numeroProposta)")
	}
	return n, nil
}

// reserveNumber is POST /proposals/{codigo}/next-number (the underwriting
// API's reservation; /api.underwriting/v1 as the 2025 client calls it): a
// number for a proposal of the offer. That client reserves one but uses
// it nowhere, and answers the questionnaire under the number the proposal
// returned (insurance CLIENTS §3.5, correcting SUMMARY §3.4); its earlier
// version made it the questionnaire widget's locator. A partner may still
// answer the questionnaire under it before the proposal, and send it as
// PROPOSTA.NUMERO.
func (s *Service) reserveNumber(r *http.Request) (*httpx.Reply, error) {
	n, err := s.reserve(r.Context(), wire.Principal(r), mux.Vars(r)["codigo"])
	if err != nil {
		return nil, err
	}
	// The answer seen is bare, not in the envelope.
	return httpx.Created(map[string]any{"proposalReservedNumber": n}), nil
}

// postProposta is POST /proposta?empresa=&codigoModeloProposta= (or
// /proposta/{codigo}?empresa=): registers a signed proposal. The answer is
// the proposal number and status RECEBIDA; analysis is the proposal's
// scenario (default: scenarios/proposta-padrao.yaml).
func (s *Service) postProposta(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "empresa", "cnpj"); err != nil {
		return nil, err
	}
	body, card, err := s.readProposta(r, nil)
	if err != nil {
		return nil, err
	}
	prop := wire.Obj(body, "PROPOSTA")
	code := mux.Vars(r)["codigo"]
	if code == "" {
		code = wire.Params(r).Get("codigoModeloProposta")
	}
	if code == "" {
		code = wire.Str(wire.Obj(prop, "USO_MONGERAL"), "MODELO_PROPOSTA")
	}
	if code == "" {
		return nil, errs.Invalidf("codigoModeloProposta", "informe o modelo de proposta: ?codigoModeloProposta=, /proposta/{codigo} ou PROPOSTA.USO_MONGERAL.MODELO_PROPOSTA")
	}
	p, status, err := s.register(r, code, body, card, false)
	if err != nil {
		return nil, err
	}
	// The 2025 client reads numeroProposta beside the envelope, and fails
	// without it (insurance CLIENTS §3.6); Valor keeps it too.
	return wire.ReplyTop(status, map[string]any{"numeroProposta": p.Numero}, map[string]any{"numeroProposta": p.Numero, "status": p.Status,
		"statusCodigo": statusCode[p.Status], "dataProtocolo": p.CreatedAt.Format(time.RFC3339), "valorTotal": p.Total}), nil
}

// register creates the proposal a request's body makes for an offer (v2:
// a v2 venda, which its clients cannot sign), and answers its status:
// 201 for a new one, 200 for the one a number sent again made.
func (s *Service) register(r *http.Request, offer string, body map[string]any, card Card, v2 bool) (*Proposta, int, error) {
	p, replayed, err := s.createProposta(r.Context(), propostaIn{By: wire.Principal(r), Offer: offer, Body: body, Scenario: r.Header.Get(scenario.Header),
		Card: card, V2: v2})
	if err != nil {
		return nil, 0, err
	}
	if replayed {
		return p, http.StatusOK, nil
	}
	return p, http.StatusCreated, nil
}

// readProposta reads a PROPOSTA body (or another, mapped onto one by
// mapBody: the v2 venda). A card number in DADOS_COBRANCA.CARTAO is taken
// out and masked first, and any other card data refused, before anything
// else reads the body (a schema error would echo the number); a date no
// layout reads is malformed input (400), not a broken rule. The body's
// JSON is decoded from what was masked.
func (s *Service) readProposta(r *http.Request, mapBody func(map[string]any) map[string]any) (map[string]any, Card, error) {
	raw, err := httpx.ReadBody(r, 0)
	if err != nil {
		return nil, Card{}, err
	}
	var body map[string]any
	var card Card
	if err := httpx.CheckSyntax(raw); err == nil {
		json.Unmarshal(raw, &body)
		if mapBody != nil && body != nil {
			body = mapBody(body)
		}
		card = TakeCard(body)
		if err := RefuseCardData(body); err != nil {
			return nil, Card{}, err
		}
		raw, _ = json.Marshal(body)
	}
	if err := httpx.CheckJSONContentType(r); err != nil {
		return nil, Card{}, err
	}
	if err := httpx.DecodeJSONBytes(raw, s.Schemas, "insurance/proposta.request", &body); err != nil {
		return nil, Card{}, readableDates(err)
	}
	if _, err := wire.ParseDate(wire.Str(wire.Obj(wire.Obj(body, "PROPOSTA"), "DADOS_PROPONENTE"), "DT_NASCIMENTO")); err != nil {
		return nil, Card{}, errs.Invalidf("PROPOSTA.DADOS_PROPONENTE.DT_NASCIMENTO", "%v", err)
	}
	return body, card, nil
}

// readableDates says in words what the schema's date pattern means.
func readableDates(err error) error {
	var e *errs.Error
	if !errors.As(err, &e) {
		return err
	}
	for i, v := range e.Violations {
		last := v.Field[strings.LastIndex(v.Field, ".")+1:]
		if (strings.HasPrefix(last, "DT_") || last == "NASCIMENTO") && strings.HasPrefix(v.Reason, "Does not match pattern") {
			e.Violations[i].Reason = "data inválida: use YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS ou DD-MM-YYYY"
		}
	}
	return e
}

// getProposta is GET /proposta/{numero}: v2 ResumoDaProposta, with the
// status and what the sandbox adds (pendings and enrollments).
func (s *Service) getProposta(r *http.Request) (*httpx.Reply, error) {
	n, err := numeroOf(r)
	if err != nil {
		return nil, err
	}
	res, err := s.resumoOf(r.Context(), wire.Principal(r).CompanyID, n)
	if err != nil {
		return nil, err
	}
	body := resumoBody(res)
	if httpx.InfoOf(r.Context()).Style == httpx.StyleV2 {
		// The v2 ResumoDaProposta declares valorProposta a String
		// (M:PropostaResumoDaProposta.js; insurance CLIENTS, additions,
		// item 5), as every scalar of it.
		body["valorProposta"] = res.Proposta.Total.String()
	}
	return wire.OK(body), nil
}

func resumoBody(res *resumo) map[string]any {
	p := res.Proposta
	prop := wire.Obj(p.Request, "PROPOSTA")
	dp := wire.Obj(prop, "DADOS_PROPONENTE")
	cob := wire.Obj(prop, "DADOS_COBRANCA")
	insc := res.Inscricoes
	if insc == nil {
		insc = []int64{}
	}
	out := map[string]any{
		"numeroProposta": p.Numero, "status": p.Status, "statusCodigo": statusCode[p.Status],
		"dataProtocolo": p.CreatedAt.Format(time.RFC3339), "dataUltimaAtualizacao": p.UpdatedAt.Format(time.RFC3339),
		"modeloProposta": p.OfferID, "valorProposta": p.Total,
		"formaPagamento": wire.Str(cob, "TIPO_COBRANCA"), "periodicidadeCobranca": wire.OrDefault(wire.Str(cob, "PERIODICIDADE"), "MENSAL"),
		"proponente": map[string]any{"matricula": wire.Str(dp, "MATRICULA"), "nome": wire.Str(dp, "NOME"),
			"dataNascimento": wire.ISODate(wire.Str(dp, "DT_NASCIMENTO")), "cpf": p.CPF},
		"hierarquia":          map[string]any{"UnidadeProducao": wire.Str(wire.Obj(prop, "USO_MONGERAL"), "SUCURSAL"), "Produtores": []any{}},
		"agendamentosmedicos": agendamentoMedico(p),
		"pendencias":          res.Pendencias,
		"inscricoes":          insc,
		"mensagens":           []string{},
	}
	if p.Motivo != "" {
		out["motivo"] = p.Motivo
	}
	return out
}

// cancelProposta is PATCH /proposta/{numero} {motivo, tipoCancelamento},
// or the v2 PATCH /Proposta?cnpj= {id, motivo, tipoCancelamento} with the
// proposal in the body (insurance CLIENTS §3.8): the partner withdraws a
// proposal still in progress.
func (s *Service) cancelProposta(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	var in struct {
		ID               any    `json:"id"`
		Motivo           string `json:"motivo"`
		TipoCancelamento any    `json:"tipoCancelamento"`
	}
	if err := httpx.DecodeJSON(r, s.Schemas, "insurance/proposta.cancel", &in); err != nil {
		return nil, err
	}
	n, err := numeroOf(r)
	if mux.Vars(r)["numero"] == "" {
		if id, ierr := wire.Int(in.ID); ierr == nil && id > 0 {
			n, err = int64(id), nil
		} else {
			err = errs.Invalidf("id", "informe a proposta: id no corpo, ou PATCH /proposta/{numero}")
		}
	}
	if err != nil {
		return nil, err
	}
	if err := s.withdraw(r.Context(), wire.Principal(r), n, in.Motivo); err != nil {
		return nil, err
	}
	return wire.OK(map[string]any{"id": n, "status": Cancelada, "statusCodigo": statusCode[Cancelada], "motivo": in.Motivo,
		"tipoCancelamento": in.TipoCancelamento}), nil
}

// timeline is GET /proposta/{numero}/timeline and GET
// /timeline?numeroProposta= (v2 TimeLine): every status and pending, oldest
// first. The v2 model reads each entry's names in PascalCase (Data,
// Status, Usuario, Pendencias, AgendamentosMedicos; insurance CLIENTS
// §3.8), and v2's clients get them so.
func (s *Service) timeline(r *http.Request) (*httpx.Reply, error) {
	if err := wire.CheckCNPJ(r, "cnpj"); err != nil {
		return nil, err
	}
	n, err := numeroOf(r)
	if err != nil {
		return nil, err
	}
	entries, err := s.timelineOf(r.Context(), wire.Principal(r).CompanyID, n)
	if err != nil || httpx.InfoOf(r.Context()).Style != httpx.StyleV2 {
		return wire.OKOf(entries, err)
	}
	out := make([]map[string]any, 0, len(entries))
	for _, e := range entries {
		out = append(out, map[string]any{"Data": e["data"], "Status": e["status"], "Usuario": e["usuario"], "Descricao": e["descricao"],
			"Pendencias": e["pendencias"], "AgendamentosMedicos": map[string]any{"chamadas": []any{}, "notificacoes": []any{}, "situacoes": []any{}}})
	}
	return wire.OK(out), nil
}

// getAgendamentoMedico is the v2 GET /AgendamentoMedico/{id} (id: the
// proposal; insurance CLIENTS §3.8): the medical examinations scheduled
// for it. The sandbox's analysis schedules none, and says so.
func (s *Service) getAgendamentoMedico(r *http.Request) (*httpx.Reply, error) {
	n, err := wire.PathID(r, "id", "informe o número da proposta")
	if err != nil {
		return nil, err
	}
	res, err := s.resumoOf(r.Context(), wire.Principal(r).CompanyID, n)
	if err != nil {
		return nil, err
	}
	return wire.OK(agendamentoMedico(res.Proposta)), nil
}

// agendamentoMedico is a proposal's medical scheduling: none.
func agendamentoMedico(p *Proposta) map[string]any {
	return map[string]any{"chamadas": []any{}, "notificacoes": []any{},
		"situacoes": []any{map[string]any{"descricao": "Nenhum exame médico agendado para a proposta", "datahora": p.CreatedAt.Format(time.RFC3339)}}}
}
