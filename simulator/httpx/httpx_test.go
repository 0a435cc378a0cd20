package httpx_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/schema"
)

func render(d httpx.Dialect, e *errs.Error) (int, string, map[string]any) {
	h := httpx.Outer([]httpx.API{{Prefix: "/x", Name: "x", Dialect: d}}, 0, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteError(w, r, e)
	}))
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/x/y", nil)
	r.Header.Set("X-Request-Id", "rid-1")
	h.ServeHTTP(w, r)
	var body map[string]any
	json.Unmarshal(w.Body.Bytes(), &body)
	return w.Code, w.Header().Get("Content-Type"), body
}

func TestDialects(t *testing.T) {
	bad := &errs.Error{Code: errs.Invalid, Message: "bad", Violations: []errs.Violation{{Field: "cob.valor.original", Reason: "must be > 0", Value: "0.00"}}}
	tests := []struct {
		name    string
		dialect httpx.Dialect
		err     *errs.Error
		status  int
		ctype   string
		check   func(map[string]any) bool
	}{
		{"ProblemInvalid", httpx.Problem{}, bad, 400, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			errs, _ := b["errors"].([]any)
			return b["type"] == "urn:homologa:problem:invalid" && b["requestId"] == "rid-1" && len(errs) == 1
		}},
		{"PixInvalid", httpx.Pix{}, bad, 400, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			v, _ := b["violacoes"].([]any)
			first, _ := v[0].(map[string]any)
			return b["type"] == "https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida" && b["correlationId"] == "rid-1" &&
				first["propriedade"] == "cob.valor.original" && first["razao"] == "must be > 0" && first["valor"] == "0.00"
		}},
		{"PixDomainType", httpx.Pix{}, errs.Errorf(errs.Invalid, "x").WithType("CobOperacaoInvalida"), 400, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["type"] == "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida"
		}},
		{"PixUnavailable", httpx.Pix{}, errs.Errorf(errs.Unavailable, "x"), 503, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["type"] == "https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel"
		}},
		{"PixForbidden", httpx.Pix{}, errs.Errorf(errs.Forbidden, "x"), 403, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["type"] == "https://pix.bcb.gov.br/api/v2/error/AcessoNegado" && b["title"] == "Acesso Negado"
		}},
		{"PixUnauthorizedIsUntyped", httpx.Pix{}, errs.Errorf(errs.Unauthorized, "x"), 401, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["type"] == "about:blank" && b["title"] == "Unauthorized" && b["status"] == 401.0
		}},
		{"PixMethodNotAllowedIsUntyped", httpx.Pix{}, errs.Errorf(errs.MethodNotAllowed, "x"), 405, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["type"] == "about:blank" && b["title"] == "Method Not Allowed"
		}},
		{"PixTitleOfTheType", httpx.Pix{}, errs.Errorf(errs.Invalid, "x").WithType("RecOperacaoInvalida"), 400, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["title"] == "Operação inválida."
		}},
		{"PixUnsupportedMediaIsA400", httpx.Pix{}, errs.Errorf(errs.UnsupportedMedia, "x"), 400, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["type"] == "https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida" && b["status"] == 400.0
		}},
		{"PixConflictIsA503", httpx.Pix{}, errs.Errorf(errs.Conflict, "x"), 503, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["type"] == "https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel" && b["status"] == 503.0
		}},
		{"PixInjectedStatusKept", httpx.Pix{}, &errs.Error{Code: errs.TooManyRequests, Status: 429}, 429, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return b["status"] == 429.0
		}},
		{"InsurerInvalid", httpx.Insurer{}, bad, 400, "application/json; charset=utf-8", func(b map[string]any) bool {
			m, _ := b["Mensagens"].([]any)
			first, _ := m[0].(map[string]any)
			return b["HouveErrosDuranteProcessamento"] == true && b["Valor"] == nil && first["Campo"] == "cob.valor.original" && first["Codigo"] == "REQUISICAO_INVALIDA"
		}},
		{"InsurerNotFound", httpx.Insurer{}, errs.Errorf(errs.NotFound, "no proposal"), 404, "application/json; charset=utf-8", func(b map[string]any) bool {
			m, _ := b["Mensagens"].([]any)
			first, _ := m[0].(map[string]any)
			return first["Descricao"] == "no proposal" && first["Codigo"] == "NAO_ENCONTRADO"
		}},
		{"OAuthUnauthorized", httpx.OAuth{}, errs.Errorf(errs.Unauthorized, "who?"), 401, "application/json; charset=utf-8", func(b map[string]any) bool {
			return b["error"] == "invalid_client" && b["error_description"] == "who?"
		}},
		{"OAuthScope", httpx.OAuth{}, errs.Errorf(errs.Invalid, "x").WithType("invalid_scope"), 400, "application/json; charset=utf-8", func(b map[string]any) bool {
			return b["error"] == "invalid_scope"
		}},
		{"OAuthTooManyRequests", httpx.OAuth{}, errs.Errorf(errs.TooManyRequests, "espere"), 429, "application/json; charset=utf-8", func(b map[string]any) bool {
			return b["error"] == "temporarily_unavailable" && b["error_description"] == "espere"
		}},
		{"InternalHidesCause", httpx.Problem{}, errs.As(errSecret{}), 500, "application/problem+json; charset=utf-8", func(b map[string]any) bool {
			return !strings.Contains(b["detail"].(string), "database password")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, ctype, body := render(tt.dialect, tt.err)
			if status != tt.status || ctype != tt.ctype || !tt.check(body) {
				t.Fatalf("got %d %q %v", status, ctype, body)
			}
		})
	}
}

type errSecret struct{}

func (errSecret) Error() string { return "database password is hunter2" }

func TestPanicIsA500WithTheRequestID(t *testing.T) {
	var logged strings.Builder
	h := httpx.Outer(nil, 0, newLogger(&logged), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("boom") }))
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/portal/x", nil)
	r.Header.Set("X-Request-Id", "rid-panic")
	h.ServeHTTP(w, r)
	if w.Code != 500 || !strings.Contains(w.Body.String(), "rid-panic") || w.Header().Get("Content-Type") != "application/problem+json; charset=utf-8" {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	if !strings.Contains(logged.String(), "panic") || !strings.Contains(logged.String(), "rid-panic") {
		t.Fatalf("the panic was not logged with its request id: %s", logged.String())
	}
}

func TestCheckSyntax(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`{"a": 1}`, ""},
		{"{\"a\": 1,\n \"b\": }", "linha 2, coluna 7"},
		{`{"a": 1`, "o documento acaba antes do fim"},
		{`{"a": 1} {"b": 2}`, "há dados depois do valor principal"},
		{`[1, 2,]`, "linha 1, coluna 7"},
	}
	for _, tt := range tests {
		err := httpx.CheckSyntax([]byte(tt.in))
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CheckSyntax(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

// A body decoded as an object (decodeObject, which reads the syntax
// itself) is refused as CheckSyntax refuses it, trailing data included.
func TestDecodedObjectSyntax(t *testing.T) {
	reg, err := schema.Load(fstest.MapFS{"o.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{`{"a": 1}`, "{\"a\": 1,\n \"b\": }", `{"a": 1`, `{"a": 1} {"b": 2}`, `{"a": 1}}`, `{"a": 1}]`, `{"a": 1} x`, "{\"a\": 1}\n\t "} {
		var m map[string]any
		got := httpx.DecodeJSONBytes([]byte(in), reg, "o", &m)
		want := httpx.CheckSyntax([]byte(in))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("DecodeJSONBytes(%q) = %v, want CheckSyntax's %v", in, got, want)
		}
	}
}

func TestAPIFor(t *testing.T) {
	apis := []httpx.API{{Prefix: "/pix/v2", Name: "pix"}, {Prefix: "/portal", Name: "portal"}}
	tests := map[string]string{"/pix/v2/cob": "pix", "/pix/v2": "pix", "/pix/v20/cob": "other", "/portal/apps": "portal", "/": "other"}
	for path, want := range tests {
		if got := httpx.APIFor(apis, path).Name; got != want {
			t.Errorf("APIFor(%q) = %q, want %q", path, got, want)
		}
	}
}
