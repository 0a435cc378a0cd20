package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestInsurerAliases: the insurer's APIs answer where their real clients
// call them, in any case, in the style of the path used; the
// interaction log files each call under the path the router knows and
// keeps the path as sent; the Pix API stays case-sensitive.
func TestInsurerAliases(t *testing.T) {
	t.Parallel()
	w := newInsTenants(t)
	for _, path := range []string{
		"/insurer/v1/modeloproposta?cnpj=11222333000181",
		"/insurer/v1/ModeloProposta",
		"/apiseguradora/v2/modeloproposta?cnpj=11222333000181&completo=true",
		"/apiseguradora/v3/MODELOPROPOSTA",
		"/api/1/ModeloProposta?cnpj=11222333000181&completo=false&canalVenda=4",
	} {
		out := w.must(200, "A", "GET", path, "")
		if vs, _ := out["Valor"].([]any); len(vs) == 0 {
			t.Errorf("GET %s: no offers: %v", path, out)
		}
	}
	code, out := w.call("A", "GET", "/apiseguradora/v2/modeloproposta/NAOEXISTE", "")
	if ms, _ := out["Mensagens"].([]any); code != 404 || len(ms) != 1 || !strings.HasPrefix(ms[0].(string), "MODELO_PROPOSTA_NAO_ENCONTRADO: ") {
		t.Errorf("v2 404: %d %v, want Mensagens as one string", code, out)
	}
	code, out = w.call("A", "GET", "/apiseguradora/v3/modeloproposta/NAOEXISTE", "")
	if ms, _ := out["Mensagens"].([]any); code != 404 || len(ms) != 1 || ms[0].(map[string]any)["Codigo"] != "MODELO_PROPOSTA_NAO_ENCONTRADO" {
		t.Errorf("v3 404: %d %v, want Mensagens as objects", code, out)
	}
	if code, _ := w.call("A", "GET", "/PIX/v2/cob", ""); code != 404 {
		t.Errorf("GET /PIX/v2/cob: %d, want 404 (Pix paths are exact)", code)
	}
	_, text := tenantCall(t, w.s, w.tokens["A"], "GET", "/sandbox/interactions?path=/insurer/v1/modeloproposta&limit=10", "")
	var log struct {
		Interactions []struct{ Path, SentPath string }
	}
	json.Unmarshal([]byte(text), &log)
	sent := map[string]bool{}
	for _, it := range log.Interactions {
		sent[it.SentPath] = true
	}
	for _, want := range []string{"", "/insurer/v1/ModeloProposta", "/apiseguradora/v2/modeloproposta", "/apiseguradora/v3/MODELOPROPOSTA", "/api/1/ModeloProposta"} {
		if !sent[want] {
			t.Errorf("interaction log: no call sent to %q under /insurer/v1/modeloproposta: %s", want, text)
		}
	}
}
