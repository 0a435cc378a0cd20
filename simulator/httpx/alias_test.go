package httpx_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
)

var aliasAPIs = []httpx.API{
	{Prefix: "/insurer/v1", Name: "insurer", Dialect: httpx.Insurer{}, CaseInsensitive: true,
		Segments: httpx.RouteSegments([]string{"/modeloproposta", "/modeloproposta/{id}", "/proposals/{codigo}/next-number", "/simulacao/"}),
		Aliases: []httpx.Alias{
			{Prefix: "/apiseguradora/v2", Style: httpx.StyleV2},
			{Prefix: "/api/{version}", Style: httpx.StyleV2},
			{Prefix: "/api.underwriting/v1", Style: httpx.StyleV3},
		}},
	{Prefix: "/api.questionario/v2", Name: "questionnaire", Dialect: httpx.Insurer{}, CaseInsensitive: true, Style: httpx.StyleV3,
		Segments: httpx.RouteSegments([]string{"/Questionario/{id}"})},
	{Prefix: "/pix/v2", Name: "pix", Dialect: httpx.Pix{}},
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		path, want, api, style string
		ok                     bool
	}{
		{"/insurer/v1/modeloproposta", "/insurer/v1/modeloproposta", "insurer", "", true},
		{"/insurer/v1/ModeloProposta/YZ", "/insurer/v1/modeloproposta/YZ", "insurer", "", true},
		{"/Insurer/V1/MODELOPROPOSTA", "/insurer/v1/modeloproposta", "insurer", "", true},
		{"/apiseguradora/v2/modeloproposta", "/insurer/v1/modeloproposta", "insurer", "v2", true},
		{"/apiseguradora/v2/simulacao/", "/insurer/v1/simulacao/", "insurer", "v2", true},
		{"/api/1.0/ModeloProposta/YZ", "/insurer/v1/modeloproposta/YZ", "insurer", "v2", true},
		{"/api//ModeloProposta", "/api//ModeloProposta", "", "", false},
		{"/api.underwriting/v1/proposals/EIS/next-number", "/insurer/v1/proposals/EIS/next-number", "insurer", "v3", true},
		{"/api.questionario/v2/questionario/901", "/api.questionario/v2/Questionario/901", "questionnaire", "v3", true},
		{"/insurer/v1/unknown/Thing", "/insurer/v1/unknown/Thing", "insurer", "", true},
		{"/pix/v2/cob", "/pix/v2/cob", "pix", "", true},
		{"/PIX/v2/cob", "/PIX/v2/cob", "", "", false},
		{"/pix/v2/COB", "/pix/v2/COB", "pix", "", true},
		{"/apiseguradorax/v2/modeloproposta", "/apiseguradorax/v2/modeloproposta", "", "", false},
		{"/pix/v2", "/pix/v2", "pix", "", true},
		{"/pix/v2/", "/pix/v2/", "pix", "", true},
		{"/pix/v2//cob", "/pix/v2//cob", "pix", "", true},
		{"/pix", "/pix", "", "", false},
		{"/apiseguradora/v2", "/insurer/v1", "insurer", "v2", true},
		{"/Insurer/V1/", "/insurer/v1/", "insurer", "", true},
	}
	for _, tt := range tests {
		got, api, style, ok := httpx.Canonical(aliasAPIs, tt.path)
		if got != tt.want || api.Name != tt.api || style != tt.style || ok != tt.ok {
			t.Errorf("Canonical(%q) = %q, %q, %q, %v; want %q, %q, %q, %v", tt.path, got, api.Name, style, ok, tt.want, tt.api, tt.style, tt.ok)
		}
	}
}

// A path under an API's own base path, the common case, is answered as
// it is: Canonical runs twice per request.
func TestCanonicalOwnPathAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { httpx.Canonical(aliasAPIs, "/pix/v2/cob/abc") }); n != 0 {
		t.Errorf("Canonical allocated %v times for a path under the API's own base path", n)
	}
}

// TestAliasStyles: a request under an alias reaches the handler at the
// API's own path, and the v2 style writes Mensagens as strings, in a
// success envelope and in an error.
func TestAliasStyles(t *testing.T) {
	var seen, sent string
	h := httpx.Outer(aliasAPIs, 0, nil, httpx.HandlerFunc(func(r *http.Request) (*httpx.Reply, error) {
		seen, sent = r.URL.Path, httpx.InfoOf(r.Context()).SentPath
		if r.Method == http.MethodPost {
			return nil, errs.Invalidf("simulacoes.0.proponente.sexoId", "sexoId inválido")
		}
		return httpx.OK(httpx.InsurerEnvelope{Valor: 1, Mensagens: []httpx.InsurerMensagem{{Codigo: "LIMITE", Descricao: "acima", Campo: "capital"}}}), nil
	}))
	tests := []struct {
		method, path, want string
	}{
		{http.MethodGet, "/apiseguradora/v2/ModeloProposta", `"LIMITE: capital: acima"`},
		{http.MethodGet, "/insurer/v1/ModeloProposta", `{"Codigo":"LIMITE","Descricao":"acima","Campo":"capital"}`},
		{http.MethodPost, "/api/v1/simulacao", `"REQUISICAO_INVALIDA: simulacoes.0.proponente.sexoId: sexoId inválido"`},
		{http.MethodPost, "/insurer/v1/simulacao", `{"Codigo":"REQUISICAO_INVALIDA","Descricao":"sexoId inválido","Campo":"simulacoes.0.proponente.sexoId"}`},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(tt.method, tt.path, nil))
		var env struct{ Mensagens []json.RawMessage }
		if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || len(env.Mensagens) != 1 || string(env.Mensagens[0]) != tt.want {
			t.Errorf("%s %s: Mensagens %s, want [%s]", tt.method, tt.path, w.Body.Bytes(), tt.want)
		}
		if want := map[bool]string{true: tt.path, false: ""}[tt.path != seen]; sent != want {
			t.Errorf("%s %s: SentPath %q, want %q (router saw %q)", tt.method, tt.path, sent, want, seen)
		}
	}
}
