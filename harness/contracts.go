package harness

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// contract maps an operation (method and path) to the schema of its answer.
type contract struct {
	methods string
	path    *regexp.Regexp
	schema  string
}

var seg = `[^/]+`

// contracts are the answers the harness validates on every request, so no
// feature can forget to: each official Pix operation's 2xx body, and each
// insurer, access and sale-cycle control answer's.
var contracts = []contract{
	{"PUT POST PATCH", regexp.MustCompile(`^/pix/v2/cob(/` + seg + `)?$`), "pix/cob"},
	{"GET", regexp.MustCompile(`^/pix/v2/cob/` + seg + `$`), "pix/cob.completa"},
	{"GET", regexp.MustCompile(`^/pix/v2/cob$`), "pix/cob.list"},
	{"PUT POST PATCH", regexp.MustCompile(`^/pix/v2/cobv/` + seg + `$`), "pix/cobv"},
	{"GET", regexp.MustCompile(`^/pix/v2/cobv/` + seg + `$`), "pix/cobv.completa"},
	{"GET", regexp.MustCompile(`^/pix/v2/cobv$`), "pix/cobv.list"},
	{"GET", regexp.MustCompile(`^/pix/v2/lotecobv/` + seg + `$`), "pix/lotecobv"},
	{"GET", regexp.MustCompile(`^/pix/v2/lotecobv$`), "pix/lotecobv.list"},
	{"POST", regexp.MustCompile(`^/pix/v2/loc$`), "pix/loc"},
	{"GET", regexp.MustCompile(`^/pix/v2/loc/` + seg + `$`), "pix/loc"},
	{"DELETE", regexp.MustCompile(`^/pix/v2/loc/` + seg + `/txid$`), "pix/loc"},
	{"GET", regexp.MustCompile(`^/pix/v2/loc$`), "pix/loc.list"},
	{"GET", regexp.MustCompile(`^/pix/v2/pix/` + seg + `$`), "pix/pix"},
	{"GET", regexp.MustCompile(`^/pix/v2/pix$`), "pix/pix.list"},
	{"PUT GET", regexp.MustCompile(`^/pix/v2/pix/` + seg + `/devolucao/` + seg + `$`), "pix/devolucao"},
	{"GET", regexp.MustCompile(`^/pix/v2/webhook/` + seg + `$`), "pix/webhook"},
	{"GET", regexp.MustCompile(`^/pix/v2/webhook$`), "pix/webhook.list"},
	{"POST", regexp.MustCompile(`^/sandbox/pix/payments$`), "pix/pix"},
	{"POST", regexp.MustCompile(`^/pix/v2/locrec$`), "pix/locrec"},
	{"GET DELETE", regexp.MustCompile(`^/pix/v2/locrec/[0-9]+(/idRec)?$`), "pix/locrec"},
	{"GET", regexp.MustCompile(`^/pix/v2/locrec$`), "pix/locrec.list"},
	{"POST PATCH", regexp.MustCompile(`^/pix/v2/rec(/` + seg + `)?$`), "pix/rec"},
	{"GET", regexp.MustCompile(`^/pix/v2/rec/` + seg + `$`), "pix/rec.completa"},
	{"GET", regexp.MustCompile(`^/pix/v2/rec$`), "pix/rec.list"},
	{"POST PATCH GET", regexp.MustCompile(`^/pix/v2/solicrec(/` + seg + `)?$`), "pix/solicrec"},
	{"PUT POST PATCH", regexp.MustCompile(`^/pix/v2/cobr(/` + seg + `)?$`), "pix/cobr"},
	{"GET", regexp.MustCompile(`^/pix/v2/cobr/` + seg + `$`), "pix/cobr.completa"},
	{"POST", regexp.MustCompile(`^/pix/v2/cobr/` + seg + `/retentativa/` + seg + `$`), "pix/cobr.completa"},
	{"GET", regexp.MustCompile(`^/pix/v2/cobr$`), "pix/cobr.list"},
	{"GET", regexp.MustCompile(`^/pix/v2/webhookrec$`), "pix/webhookrec"},
	{"GET", regexp.MustCompile(`^/pix/v2/webhookcobr$`), "pix/webhookcobr"},
	{"POST", regexp.MustCompile(`^/portal/companies$`), "platform/company"},
	{"POST", regexp.MustCompile(`^/portal/apps$`), "platform/app"},
	{"GET", regexp.MustCompile(`^/portal/apps/` + seg + `$`), "platform/app"},
	{"POST", regexp.MustCompile(`^/oauth/token$`), "platform/token"},
	{"GET", regexp.MustCompile(`^/sandbox/clock$`), "platform/clock"},
	// The insurer API, the access API and the sale cycle's control routes.
	{"GET", regexp.MustCompile(`^/insurer/v1/modeloproposta$`), "insurance/modeloproposta.list"},
	{"GET", regexp.MustCompile(`^/insurer/v1/modeloproposta/` + seg + `$`), "insurance/modeloproposta"},
	{"GET", regexp.MustCompile(`^/insurer/v1/questionario$`), "insurance/questionario.list"},
	{"POST", regexp.MustCompile(`^/insurer/v1/simulacao/?$`), "insurance/simulacao"},
	{"POST", regexp.MustCompile(`^/insurer/v1/proposals/` + seg + `/next-number$`), "insurance/reserva"},
	{"POST", regexp.MustCompile(`^/insurer/v1/proposta(/` + seg + `)?$`), "insurance/proposta.created"},
	{"GET", regexp.MustCompile(`^/insurer/v1/proposta/[0-9]+$`), "insurance/proposta"},
	{"PATCH", regexp.MustCompile(`^/insurer/v1/proposta/[0-9]+$`), "insurance/proposta.cancelled"},
	{"GET", regexp.MustCompile(`^/insurer/v1/(proposta/[0-9]+/)?timeline$`), "insurance/timeline"},
	{"GET", regexp.MustCompile(`^/insurer/v1/(proposta/[0-9]+/)?pendencia$`), "insurance/pendencia.list"},
	{"PUT", regexp.MustCompile(`^/insurer/v1/pendencia/[0-9]+$`), "insurance/pendencia"},
	{"GET", regexp.MustCompile(`^/insurer/v1/inscricao$`), "insurance/inscricao.list"},
	{"GET", regexp.MustCompile(`^/insurer/v1/inscricao/[0-9]+$`), "insurance/inscricao"},
	{"GET PUT", regexp.MustCompile(`^/insurer/v1/proposta/[0-9]+/questionario/` + seg + `$`), "insurance/questionario.respostas"},
	{"POST", regexp.MustCompile(`^/access/v1/token/user(/` + seg + `/system/` + seg + `)?$`), "insurance/token"},
	{"GET", regexp.MustCompile(`^/sandbox/outbox$`), "insurance/outbox"},
	{"POST", regexp.MustCompile(`^/sandbox/cartao/preautorizacao$`), "insurance/preautorizacao"},
	// The customer API.
	{"GET", regexp.MustCompile(`^/customer/v1/inscricao$`), "insurance/inscricao.list"},
	{"GET PUT POST", regexp.MustCompile(`^/customer/v1/inscricao/[0-9]+(/forma-cobranca|/dados-cadastrais|/reducao)?$`), "insurance/inscricao"},
	{"POST", regexp.MustCompile(`^/customer/v1/inscricao/[0-9]+/cancelamento$`), "insurance/inscricao.cancelamento.answer"},
	{"GET", regexp.MustCompile(`^/customer/v1/inscricao/[0-9]+/cobrancas$`), "insurance/cobranca.list"},
	{"GET", regexp.MustCompile(`^/customer/v1/cobranca/[0-9]+$`), "insurance/cobranca"},
	{"GET", regexp.MustCompile(`^/customer/v1/comissao$`), "insurance/comissao.list"},
	{"GET", regexp.MustCompile(`^/customer/v1/regracomissao$`), "insurance/regracomissao"},
	// The benefits API.
	{"POST", regexp.MustCompile(`^/benefits/v1/beneficio$`), "insurance/beneficio.created"},
	{"GET", regexp.MustCompile(`^/benefits/v1/beneficio$`), "insurance/beneficio.list"},
	{"GET", regexp.MustCompile(`^/benefits/v1/beneficio/[0-9]+$`), "insurance/beneficio"},
	{"POST", regexp.MustCompile(`^/benefits/v1/beneficio/[0-9]+/reabertura$`), "insurance/beneficio"},
	{"GET", regexp.MustCompile(`^/benefits/v1/beneficio/[0-9]+/timeline$`), "insurance/beneficio.timeline"},
	{"GET", regexp.MustCompile(`^/benefits/v1/beneficio/[0-9]+/pendencias$`), "insurance/beneficio.pendencia.list"},
	{"PUT", regexp.MustCompile(`^/benefits/v1/beneficio/[0-9]+/pendencias/[0-9]+$`), "insurance/beneficio.pendencia"},
}

// checkContract validates an answer against its operation's schema: the
// 2xx body of a known operation, and every error body in the dialect of
// its API. A body that breaks its schema fails the step that sent it.
func (w *World) checkContract(method, path string, status int, body []byte) error {
	name := ""
	switch {
	case status >= 400 && strings.HasPrefix(path, "/pix/v2/"):
		name = "pix/problema"
	case status >= 400 && strings.HasPrefix(path, "/oauth/token"):
		name = "platform/oauth-error"
	case status >= 400 && (strings.HasPrefix(path, "/portal/") || strings.HasPrefix(path, "/sandbox/")):
		name = "platform/problem"
	case status >= 400 && (strings.HasPrefix(path, "/insurer/") || strings.HasPrefix(path, "/access/") ||
		strings.HasPrefix(path, "/customer/") || strings.HasPrefix(path, "/benefits/")):
		name = "platform/insurer-envelope"
	case status >= 200 && status < 300 && len(body) > 0:
		for _, c := range contracts {
			if strings.Contains(" "+c.methods+" ", " "+method+" ") && c.path.MatchString(path) {
				name = c.schema
				break
			}
		}
	}
	if name == "" || method == http.MethodHead {
		return nil
	}
	vs, err := w.Schemas.Validate(name, body)
	if err != nil {
		return fmt.Errorf("validate %s %s against %s: %w", method, path, name, err)
	}
	if len(vs) > 0 {
		return fmt.Errorf("%s %s answered %d with a body that breaks schema %s: %+v\n%s", method, path, status, name, vs, body)
	}
	return nil
}
