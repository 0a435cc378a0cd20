package server_test

import (
	"net/http"
	"testing"

	"homologa/schemas"
	"homologa/simulator/schema"
	"homologa/simulator/server"
)

// noJSONBody are the routes of a method with a body (POST, PUT, PATCH)
// that are not RawBody and declare no request schema, each with why: it
// reads no body, or a body no schema describes. Every other such route
// declares its Request (TestEveryBodyRouteDeclaresItsRequest), so a new
// route cannot leave its body out of the request reference; the
// reference lists these with their reasons.
var noJSONBody = map[string]string{
	"POST /oauth/token": "a form, or JSON, or the query string, in each PSP client's dialect, read by the token endpoint itself: OAuth2's parameters (`grant_type`, `client_id`, `client_secret`, `scope`)",
	"POST /insurer/v1/proposals/{codigo}/next-number":                "no body: the offer is in the path",
	"POST /insurer/v1/venda":                                         "v2's DadosRegistrarVenda, mapped onto a PROPOSTA and judged by `insurance/proposta.request` (errors name the PROPOSTA's fields): no schema of its own",
	"POST /api.questionario/v2/Pergunta":                             "refused (403) whatever the body: the insurer's question catalogue is not the partner's to change",
	"POST /portal/logout":                                            "no body",
	"POST /portal/apps/{id}/secret":                                  "no body",
	"POST /portal/apps/{id}/webhook-secret":                          "no body",
	"POST /portal/apps/{id}/publish":                                 "no body",
	"PUT /portal/companies/{id}/offers/{offer}":                      "no body: the company and the offer are in the path",
	"POST /pix/v2/locrec":                                            "no body, as the API Pix declares it",
	"POST /pix/v2/cobr/{txid}/retentativa/{data}":                    "no body: the date is in the path",
	"POST /sandbox/namespaces":                                       "no body",
	"POST /sandbox/deliveries/{id}/replay":                           "no body",
	"POST /sandbox/reset":                                            "no body",
	"POST /sandbox/tokens/expire":                                    "no body",
	"POST /sandbox/scenarios/reload":                                 "no body",
	"POST /sandbox/scenarios/{id}/bind":                              "JSON no schema describes: `clientId`, then `\"next\": true` for the app's next resource, or the resource's reference fields (`\"txid\": \"…\"`)",
	"POST /sandbox/scenarios/{id}/activate":                          "JSON no schema describes: `clientId` for one app's faults, `{}` for the company's",
	"POST /sandbox/actions/{kind}":                                   "JSON no schema describes: `clientId`, the resource's reference fields and `step`, a step as a scenario file writes it (`schemas/scenario.json`)",
	"POST /sandbox/pix/rec/{idRec}/{acao:aprovar|rejeitar|cancelar}": "optional JSON no schema describes: `{\"codigo\": \"…\"}`, the payer's reason",
	"POST /sandbox/pix/cobr/{txid}/{acao:pagar|rejeitar}":            "optional JSON no schema describes: `{\"codigo\": \"…\"}`, the payer's reason",
	"PUT /sandbox/offers/{offer}":                                    "no body: the offer is in the path",
	"POST /sandbox/comissoes/pagamento":                              "no body",
}

// bodyMethod is whether a method carries a request body.
func bodyMethod(m string) bool {
	return m == http.MethodPost || m == http.MethodPut || m == http.MethodPatch
}

// TestEveryBodyRouteDeclaresItsRequest: every route of a body method
// that takes JSON declares its body's schema, which is a schema of the
// folder, or is in noJSONBody, with why; a RawBody route declares none;
// noJSONBody names routes of the table only. The router then holds each
// handler to its declaration (httpx.Routed; every test that sends a
// route a body fails on a wrong one).
func TestEveryBodyRouteDeclaresItsRequest(t *testing.T) {
	t.Parallel()
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, rt := range server.RouteTable() {
		key := rt.Method + " " + server.FullPath(rt)
		seen[key] = true
		_, listed := noJSONBody[key]
		switch {
		case rt.Request != "" && !reg.Has(rt.Request):
			t.Errorf("%s takes %q, which is no schema", key, rt.Request)
		case rt.Request != "" && (rt.RawBody || !bodyMethod(rt.Method)):
			t.Errorf("%s declares request schema %q, but takes no JSON body (RawBody or %s)", key, rt.Request, rt.Method)
		case rt.Request != "" && listed:
			t.Errorf("%s declares request schema %q and is in noJSONBody: take it out of the list", key, rt.Request)
		case rt.Request == "" && bodyMethod(rt.Method) && !rt.RawBody && !listed:
			t.Errorf("%s takes a body and declares no request schema: declare its Request (httpx.Route), or list it in noJSONBody with why", key)
		}
	}
	for key := range noJSONBody {
		if !seen[key] {
			t.Errorf("noJSONBody lists %s, which is no route", key)
		}
	}
}
