package httpx

import (
	"encoding/json"
	"errors"
	"net/http"

	"homologa/simulator/errs"
	"homologa/simulator/jsondoc"
)

// Dialect renders an errs.Error in the body shape of one API.
type Dialect interface {
	Render(e *errs.Error, r *http.Request, requestID string) (contentType string, body any)
}

// WriteError writes err in the dialect chosen for the request.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	// A body past the limit is the client's error wherever the read
	// happened: a reader that passed the raw error on must not turn the
	// client's 413 into an internal 500.
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) && errs.CodeOf(err) == errs.Internal {
		err = TooLarge(mbe.Limit)
	}
	e := errs.As(err)
	info := InfoOf(r.Context())
	if e.Code == errs.Internal && info.Logger != nil {
		info.Logger.Error("internal error", "request_id", info.RequestID, "method", r.Method, "path", r.URL.Path, "err", e)
	}
	d := info.Dialect
	if d == nil {
		d = Problem{}
	}
	ct, body := d.Render(e, r, info.RequestID)
	for k, vs := range e.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	writeJSON(w, ct, dialectStatus(d, e), body)
}

// StatusDialect is a dialect whose API answers some errors with another
// status than the error's code has elsewhere (the API Pix declares no 415,
// 413, 422, 409 nor 429).
type StatusDialect interface {
	Status(e *errs.Error) int
}

// dialectStatus is the status d answers e with.
func dialectStatus(d Dialect, e *errs.Error) int {
	if sd, ok := d.(StatusDialect); ok {
		return sd.Status(e)
	}
	return StatusOf(e)
}

func writeJSON(w http.ResponseWriter, contentType string, status int, body any) {
	// A body already encoded (a stored answer) is written as it is:
	// json.Marshal would parse and compact it again.
	if raw, ok := body.(json.RawMessage); ok {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		w.Write(raw)
		w.Write([]byte("\n"))
		return
	}
	b, err := jsondoc.Marshal(body)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"title":"response encoding failed"}`)
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}

// Problem is RFC 9457 problem+json: the portal, the control API and every
// route that belongs to no partner API.
type Problem struct{}

// ProblemBody is an RFC 9457 problem document with our extensions.
type ProblemBody struct {
	Type      string           `json:"type"`
	Title     string           `json:"title"`
	Status    int              `json:"status"`
	Detail    string           `json:"detail,omitempty"`
	Instance  string           `json:"instance,omitempty"`
	RequestID string           `json:"requestId,omitempty"`
	Errors    []errs.Violation `json:"errors,omitempty"`
}

// Render implements Dialect.
func (Problem) Render(e *errs.Error, r *http.Request, requestID string) (string, any) {
	status := StatusOf(e)
	t := string(e.Code)
	if e.Type != "" {
		t = e.Type
	}
	return "application/problem+json; charset=utf-8", ProblemBody{
		Type:      "urn:homologa:problem:" + t,
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    e.Message,
		Instance:  r.URL.Path,
		RequestID: requestID,
		Errors:    e.Violations,
	}
}

// Pix is the official API Pix error body (schema Problema of openapi.yaml
// 2.9.0): a type URI under https://pix.bcb.gov.br/api/v2/error/, title,
// status, detail, correlationId and violacoes.
type Pix struct{}

// PixProblem is the official Problema schema.
type PixProblem struct {
	Type          string         `json:"type"`
	Title         string         `json:"title"`
	Status        int            `json:"status"`
	Detail        string         `json:"detail,omitempty"`
	CorrelationID string         `json:"correlationId,omitempty"`
	Violacoes     []PixViolation `json:"violacoes,omitempty"`
}

// PixViolation is one item of Problema.violacoes.
type PixViolation struct {
	Razao       string `json:"razao"`
	Propriedade string `json:"propriedade"`
	Valor       string `json:"valor,omitempty"`
}

// pixTypes names the official general types of the codes that have one.
// The codes whose status no operation declares are answered with one
// that every operation that takes a body declares (Status): a request the
// sandbox cannot take as sent is a 400 RequisicaoInvalida, one to repeat
// later a 503 ServicoIndisponivel with Retry-After. Unauthorized and
// MethodNotAllowed have no type (pixUntyped).
var pixTypes = map[errs.Code]string{
	errs.Invalid:          "RequisicaoInvalida",
	errs.Forbidden:        "AcessoNegado",
	errs.NotFound:         "NaoEncontrado",
	errs.Gone:             "PermanentementeRemovido",
	errs.Internal:         "ErroInternoDoServidor",
	errs.Unavailable:      "ServicoIndisponivel",
	errs.Timeout:          "IndisponibilidadePorTempoEsgotado",
	errs.UnsupportedMedia: "RequisicaoInvalida",
	errs.TooLarge:         "RequisicaoInvalida",
	errs.Conflict:         "ServicoIndisponivel",
	errs.Unprocessable:    "RequisicaoInvalida",
	errs.TooManyRequests:  "ServicoIndisponivel",
}

// pixUntyped are the codes answered with RFC 7807's "about:blank": no
// type of the catalogue has their status, and their status is the one
// HTTP requires. A request without a valid token (missing, unknown,
// expired, or without the certificate it is bound to) is a 401 as RFC
// 6750 and RFC 8705 require, so that clients ask for a new token; the
// catalogue's AcessoNegado is the 403 of "a participant authenticated
// that breaks an authorization rule", which such a request is not. A
// method a path does not take is a 405 with Allow (RFC 9110): no
// operation of the spec is addressed, so none declares a status. The
// spec writes its error bodies as RFC 7807's, whose §4.2 gives
// about:blank, titled by the status's phrase, to a problem with no
// meaning beyond its status.
var pixUntyped = map[errs.Code]bool{errs.Unauthorized: true, errs.MethodNotAllowed: true}

// pixTitles are the title of each type of the catalogue: as the spec's
// examples write it where it has one (components.examples), and in their
// words for the others: the general types in Title Case without a
// period, as "Acesso Negado", "Não Encontrado", "Serviço Indisponível";
// a tag's "Operação inválida.", "… não encontrada.", "Consulta
// inválida.". Where the examples give one type two titles (Cob's and
// CobV's "Cobrança inválida." for a body that breaks a rule, "Operação
// inválida." for a state that forbids it), the first is the type's.
var pixTitles = map[string]string{
	"RequisicaoInvalida":                 "Requisição Inválida",
	"AcessoNegado":                       "Acesso Negado",
	"NaoEncontrado":                      "Não Encontrado",
	"PermanentementeRemovido":            "Permanentemente Removido",
	"ErroInternoDoServidor":              "Erro Interno do Servidor",
	"ServicoIndisponivel":                "Serviço Indisponível",
	"IndisponibilidadePorTempoEsgotado":  "Indisponibilidade por Tempo Esgotado",
	"CobPayloadNaoEncontrado":            "Cobrança não encontrada.",
	"CobPayloadOperacaoInvalida":         "Operação inválida.",
	"RecPayloadNaoEncontrado":            "Recorrência não encontrada.",
	"RecPayloadOperacaoInvalida":         "Recorrência não encontrada.",
	"RecNaoEncontrada":                   "Recorrência não encontrada.",
	"RecOperacaoInvalida":                "Operação inválida.",
	"RecConsultaInvalida":                "Consulta inválida.",
	"SolicRecNaoEncontrada":              "Solicitação de recorrência não encontrada.",
	"SolicRecOperacaoInvalida":           "Operação inválida.",
	"CobRNaoEncontrado":                  "Cobrança não encontrada.",
	"CobROperacaoInvalida":               "Operação inválida.",
	"CobRConsultaInvalida":               "Consulta inválida.",
	"CobNaoEncontrado":                   "Cobrança não encontrada.",
	"CobOperacaoInvalida":                "Cobrança inválida.",
	"CobConsultaInvalida":                "Consulta inválida.",
	"CobVNaoEncontrada":                  "Cobrança não encontrada.",
	"CobVOperacaoInvalida":               "Cobrança inválida.",
	"CobVConsultaInvalida":               "Consulta inválida.",
	"LoteCobVNaoEncontrado":              "Lote de cobranças não encontrado.",
	"LoteCobVOperacaoInvalida":           "Lote de cobranças inválido.",
	"LoteCobVConsultaInvalida":           "Consulta inválida.",
	"PayloadLocationNaoEncontrado":       "PayloadLocation não encontrado.",
	"PayloadLocationOperacaoInvalida":    "PayloadLocation inválido.",
	"PayloadLocationConsultaInvalida":    "Consulta inválida.",
	"PayloadLocationRecNaoEncontrado":    "PayloadLocationRec não encontrado.",
	"PayloadLocationRecConsultaInvalida": "Consulta inválida.",
	"PixNaoEncontrado":                   "Pix não encontrado.",
	"PixDevolucaoNaoEncontrada":          "Devolução não encontrada.",
	"PixConsultaInvalida":                "Consulta inválida.",
	"PixDevolucaoInvalida":               "Devolução inválida.",
	"WebhookOperacaoInvalida":            "Webhook inválido.",
	"WebhookNaoEncontrado":               "Webhook não encontrado.",
	"WebhookConsultaInvalida":            "Consulta inválida.",
	"WebhookRecOperacaoInvalida":         "Webhook inválido.",
	"WebhookRecConsultaInvalida":         "Consulta inválida.",
	"WebhookCobROperacaoInvalida":        "Webhook inválido.",
	"WebhookCobRConsultaInvalida":        "Consulta inválida.",
}

// PixTitle is the title the sandbox gives a type of the API Pix's
// catalogue (pixTitles); "" for a type it does not know.
func PixTitle(typ string) string { return pixTitles[typ] }

// pixStatus is the status of each code the API Pix declares no status
// for: its operations declare 400, 403, 404 and 503 (and 2xx), and its
// catalogue 410, 500 and 504.
var pixStatus = map[errs.Code]int{
	errs.UnsupportedMedia: http.StatusBadRequest,
	errs.TooLarge:         http.StatusBadRequest,
	errs.Unprocessable:    http.StatusBadRequest,
	errs.Conflict:         http.StatusServiceUnavailable,
	errs.TooManyRequests:  http.StatusServiceUnavailable,
}

// Status implements StatusDialect: an error's own status (an injected
// fault's, a timed-out body's) is kept; a code's is one the API Pix
// declares.
func (Pix) Status(e *errs.Error) int {
	if e.Status == 0 {
		if s, ok := pixStatus[e.Code]; ok {
			return s
		}
	}
	return StatusOf(e)
}

// Render implements Dialect.
func (Pix) Render(e *errs.Error, r *http.Request, requestID string) (string, any) {
	status := Pix{}.Status(e)
	p := PixProblem{Status: status, Detail: e.Message, CorrelationID: requestID}
	typ, ok := pixTypes[e.Code]
	if !ok {
		typ = pixTypes[errs.Internal]
	}
	switch {
	case e.Type != "":
		typ = e.Type
	case pixUntyped[e.Code]:
		typ = ""
	}
	if typ == "" {
		p.Type, p.Title = "about:blank", http.StatusText(status)
	} else {
		p.Type, p.Title = "https://pix.bcb.gov.br/api/v2/error/"+typ, pixTitles[typ]
	}
	if p.Title == "" {
		p.Title = http.StatusText(status)
	}
	for _, v := range e.Violations {
		p.Violacoes = append(p.Violacoes, PixViolation{Razao: v.Reason, Propriedade: v.Field, Valor: v.Value})
	}
	return "application/problem+json; charset=utf-8", p
}

// Insurer is the insurer's ResultadoDaOperacao envelope (insurance SUMMARY
// §2.2), used by the insurer, access, benefits and customer APIs: Mensagens
// are objects {Codigo, Descricao, Campo}, as the 2025 client reads them,
// and strings for apiseguradora v2's clients (StyleV2), whose models
// declare [String] and turn an object into "[object Object]"
// (insurance CLIENTS §2.3, §8).
type Insurer struct{}

// InsurerEnvelope is ResultadoDaOperacao.
type InsurerEnvelope struct {
	Valor                          any               `json:"Valor"`
	Mensagens                      []InsurerMensagem `json:"Mensagens"`
	HouveErrosDuranteProcessamento bool              `json:"HouveErrosDuranteProcessamento"`
}

// InsurerMensagem is one item of Mensagens.
type InsurerMensagem struct {
	Codigo    string `json:"Codigo"`
	Descricao string `json:"Descricao"`
	Campo     string `json:"Campo,omitempty"`
}

// String is the message as apiseguradora v2 writes it, one string:
// "CODIGO: campo: descrição".
func (m InsurerMensagem) String() string {
	s := m.Descricao
	if m.Campo != "" {
		s = m.Campo + ": " + s
	}
	if m.Codigo != "" {
		s = m.Codigo + ": " + s
	}
	return s
}

// InsurerEnvelopeV2 is ResultadoDaOperacao as apiseguradora v2 declares
// it: Mensagens are strings.
type InsurerEnvelopeV2 struct {
	Valor                          any      `json:"Valor"`
	Mensagens                      []string `json:"Mensagens"`
	HouveErrosDuranteProcessamento bool     `json:"HouveErrosDuranteProcessamento"`
}

// ForStyle implements Styled: v2's clients read Mensagens as strings.
func (e InsurerEnvelope) ForStyle(style string) any {
	if style != StyleV2 {
		return e
	}
	v2 := InsurerEnvelopeV2{Valor: e.Valor, Mensagens: []string{}, HouveErrosDuranteProcessamento: e.HouveErrosDuranteProcessamento}
	for _, m := range e.Mensagens {
		v2.Mensagens = append(v2.Mensagens, m.String())
	}
	return v2
}

// insurerCodes are the Codigo of each error code. The insurer's real codes
// are not public (insurance SUMMARY §7); these are in its language.
var insurerCodes = map[errs.Code]string{
	errs.Invalid: "REQUISICAO_INVALIDA", errs.Unauthorized: "NAO_AUTORIZADO", errs.Forbidden: "ACESSO_NEGADO", errs.NotFound: "NAO_ENCONTRADO",
	errs.MethodNotAllowed: "METODO_NAO_PERMITIDO", errs.Conflict: "CONFLITO", errs.Gone: "REMOVIDO", errs.TooLarge: "CORPO_GRANDE_DEMAIS",
	errs.UnsupportedMedia: "TIPO_DE_CONTEUDO_NAO_SUPORTADO", errs.Unprocessable: "REGRA_DE_NEGOCIO", errs.TooManyRequests: "REQUISICOES_DEMAIS",
	errs.Internal: "ERRO_INTERNO", errs.Unavailable: "SERVICO_INDISPONIVEL", errs.Timeout: "TEMPO_ESGOTADO",
}

// Render implements Dialect.
func (Insurer) Render(e *errs.Error, r *http.Request, requestID string) (string, any) {
	code := insurerCodes[e.Code]
	if code == "" {
		code = insurerCodes[errs.Internal]
	}
	if e.Type != "" {
		code = e.Type
	}
	env := InsurerEnvelope{HouveErrosDuranteProcessamento: true}
	for _, v := range e.Violations {
		env.Mensagens = append(env.Mensagens, InsurerMensagem{Codigo: code, Descricao: v.Reason, Campo: v.Field})
	}
	if len(env.Mensagens) == 0 {
		msg := e.Message
		if msg == "" {
			msg = http.StatusText(StatusOf(e))
		}
		env.Mensagens = []InsurerMensagem{{Codigo: code, Descricao: msg}}
	}
	return "application/json; charset=utf-8", env.ForStyle(InfoOf(r.Context()).Style)
}

// OAuth is the RFC 6749 §5.2 error body of the token endpoint.
type OAuth struct{}

// OAuthError is the RFC 6749 error response.
type OAuthError struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description,omitempty"`
}

// Render implements Dialect.
func (OAuth) Render(e *errs.Error, r *http.Request, requestID string) (string, any) {
	code := e.Type
	if code == "" {
		switch e.Code {
		case errs.Unauthorized:
			code = "invalid_client"
		case errs.Forbidden:
			code = "unauthorized_client"
		case errs.Internal, errs.Unavailable, errs.Timeout:
			code = "server_error"
		case errs.TooManyRequests:
			// RFC 6749 §4.1.2.1's name for a server that cannot take the
			// request now; §5.2 has none for the token endpoint.
			code = "temporarily_unavailable"
		default:
			code = "invalid_request"
		}
	}
	return "application/json; charset=utf-8", OAuthError{Error: code, ErrorDescription: e.Message}
}
