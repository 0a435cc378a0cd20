package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// The route × credential matrix: every route of /portal and /sandbox is
// called with no credential, with another tenant's, and with the right
// one; only the right one gets through. A route added without an entry
// here fails the test: its owner and credential must be decided.

// access is how a route is owned.
type access int

const (
	// open routes take no credential: registration, login, the inbox
	// receiver (the sandbox's own deliveries; anyone's at a box's secret
	// URL).
	open access = iota
	// owned routes name a resource of A's (in the path or the body): B
	// finds nothing (404, or 400 naming the field), A gets through.
	owned
	// own routes act on the caller's own company or account: B gets its
	// own, never A's (A's marker is not in B's answer), and A its own.
	own
	// operatorOnly routes: the operator's token alone.
	operatorOnly
)

// matrixCase is one route's entry: how it is owned, the request (path
// with A's resources filled in, body), whether it destroys what others
// need (run last), and what A's answer may be.
type matrixCase struct {
	access      access
	path, body  string
	destructive bool
	// order runs the route after those of a lower order (destructive
	// ones are 5): a deactivation after its activation, the secret's
	// rotation, which ends A's tokens, after everything.
	order int
	// demoCopy: the answer is a fresh copy of the demo company, whose
	// documented names are nobody's data.
	demoCopy bool
	// rightOK judges A's answer; nil means "anything but 401, 403, 404".
	rightOK func(code int, body string) bool
}

// matrixWorld is a sandbox with two tenants: A, the demo account and app,
// with resources of its own; B, another account, company and app.
type matrixWorld struct {
	t            *testing.T
	s            *server.Server
	appA, appB   string // app tokens
	portA, portB string // portal tokens
	v            map[string]string
}

func (m *matrixWorld) call(method, path, cred, body string) (int, string) {
	m.t.Helper()
	req, _ := http.NewRequest(method, m.s.URL()+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "None") // keeps the tests' transport from adding the operator's
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (m *matrixWorld) must(want int, method, path, cred, body string) map[string]any {
	m.t.Helper()
	code, out := m.call(method, path, cred, body)
	if code != want {
		m.t.Fatalf("setup %s %s: %d %s, want %d", method, path, code, out, want)
	}
	var doc map[string]any
	json.Unmarshal([]byte(out), &doc)
	return doc
}

func portalToken(t *testing.T, s *server.Server, email, password string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/portal/tokens", nil)
	req.SetBasicAuth(email, password)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct{ Token string }
	if json.NewDecoder(resp.Body).Decode(&c); c.Token == "" {
		t.Fatalf("log in as %s: %d", email, resp.StatusCode)
	}
	return c.Token
}

// newMatrixWorld sets up A's resources: a charge, a paid one with a
// refund, a pending recurrence and an approved one with a recurring
// charge, a delivery, an uploaded scenario, a namespace, an API token.
func newMatrixWorld(t *testing.T) *matrixWorld {
	s := startServer(t, server.Config{Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)})
	t.Cleanup(func() { s.Close(context.Background()) })
	m := &matrixWorld{t: t, s: s, v: map[string]string{}}
	tok, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	m.appA, m.portA = tok.AccessToken, portalToken(t, s, server.DemoEmail, server.DemoPassword)
	m.must(201, "POST", "/portal/accounts", "", `{"email":"b@empresa-b.com.br","password":"senha-da-empresa-b","company":{"cnpj":"11444777000161","name":"Empresa B"}}`)
	m.portB = portalToken(t, s, "b@empresa-b.com.br", "senha-da-empresa-b")
	b := m.must(201, "POST", "/portal/apps", m.portB, `{"name":"b"}`)
	tokB, err := s.Auth.IssueToken(context.Background(), b["clientId"].(string), b["clientSecret"].(string), "")
	if err != nil {
		t.Fatal(err)
	}
	m.appB = tokB.AccessToken

	a, _ := s.Auth.App(context.Background(), server.DemoClientID)
	m.v["app"], m.v["company"] = a.ID, a.CompanyID
	m.must(201, "PUT", "/pix/v2/cob/matrizmatrizmatrizmatriz0001", m.appA, pixCob("52998224725"))
	m.must(201, "PUT", "/pix/v2/cob/matrizmatrizmatrizmatriz0002", m.appA, pixCob("52998224725"))
	paid := m.must(201, "POST", paymentPath, m.appA, `{"txid":"matrizmatrizmatrizmatriz0002"}`)
	m.v["e2e"] = paid["endToEndId"].(string)
	m.must(201, "PUT", "/pix/v2/pix/"+m.v["e2e"]+"/devolucao/d1", m.appA, `{"valor":"1.00"}`)
	m.v["rec"] = m.must(201, "POST", "/pix/v2/rec", m.appA, pixRec)["idRec"].(string)
	approved := m.must(201, "POST", "/pix/v2/rec", m.appA, pixRec)["idRec"].(string)
	m.must(200, "POST", "/sandbox/pix/rec/"+approved+"/aprovar", m.appA, "")
	m.must(201, "PUT", "/pix/v2/cobr/matrizcobrmatrizcobrmatriz01", m.appA, `{"idRec":"`+approved+`","calendario":{"dataDeVencimento":"2026-02-10"},
		"valor":{"original":"35.00"},"recebedor":{"conta":"987654","tipoConta":"CORRENTE","agencia":"0001"},"ajusteDiaUtil":true}`)
	ping := m.must(202, "POST", "/sandbox/events/ping", m.appA, "")
	m.v["delivery"] = ping["deliveries"].([]any)[0].(map[string]any)["id"].(string)
	m.must(201, "POST", "/sandbox/scenarios", m.appA, "id: matriz-a\ntitle: A's own\napplies_to: cob\nsteps:\n  - after: 1m\n    pay: true\n")
	m.must(201, "POST", "/sandbox/scenarios", m.appA, "id: matriz-f\ntitle: A's faults\napplies_to: pix\nfaults:\n  - match: {path: /pix/v2/cob}\n    times: 1\n    respond: {status: 503}\n")
	m.v["ns"] = m.must(201, "POST", "/sandbox/namespaces", m.appA, "")["namespace"].(string)
	m.v["cred"] = m.must(201, "POST", "/portal/tokens", m.portA, `{"name":"matriz"}`)["id"].(string)
	cert, _, err := s.Auth.IssueCertificate(context.Background(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	m.v["cert"] = cert.ID
	m.must(201, "POST", "/access/v1/token/user", m.appA, `{"cpf":"11144477735"}`)
	return m
}

// cases is the matrix: one entry per route of /portal and /sandbox.
func (m *matrixWorld) cases() map[string]matrixCase {
	app, co := m.v["app"], m.v["company"]
	notYet := func(code int, body string) bool { return code == 404 && strings.Contains(body, "ainda não tem") }
	return map[string]matrixCase{
		"POST /portal/accounts":                 {access: open},
		"POST /portal/login":                    {access: open},
		"POST /portal/tokens":                   {access: open},
		"POST /sandbox/inbox/{name}":            {access: open},
		"POST /sandbox/inbox/{name}/{rest:.+}":  {access: open},
		"POST /sandbox/hooks/{key}":             {access: open},
		"POST /sandbox/hooks/{key}/{rest:.+}":   {access: open},
		"POST /portal/logout":                   {access: own, path: "/portal/logout", destructive: true},
		"GET /portal/account":                   {access: own, path: "/portal/account"},
		"GET /portal/tokens":                    {access: own, path: "/portal/tokens"},
		"DELETE /portal/tokens/{id}":            {access: owned, path: "/portal/tokens/" + m.v["cred"], destructive: true},
		"POST /portal/companies":                {access: own, path: "/portal/companies", body: `{"cnpj":"%CNPJ%","name":"Outra"}`},
		"GET /portal/companies":                 {access: own, path: "/portal/companies"},
		"GET /portal/companies/{id}":            {access: owned, path: "/portal/companies/" + co},
		"POST /portal/apps":                     {access: owned, path: "/portal/apps", body: `{"companyId":"` + co + `","name":"x"}`},
		"GET /portal/apps":                      {access: own, path: "/portal/apps"},
		"GET /portal/apps/{id}":                 {access: owned, path: "/portal/apps/" + app},
		"POST /portal/apps/{id}/secret":         {access: owned, path: "/portal/apps/" + app + "/secret", order: 9},
		"POST /portal/apps/{id}/webhook-secret": {access: owned, path: "/portal/apps/" + app + "/webhook-secret"},
		"PUT /portal/apps/{id}/webhook":         {access: owned, path: "/portal/apps/" + app + "/webhook", body: `{"webhookUrl":"` + m.s.URL() + `/sandbox/inbox/demo"}`},
		"PUT /portal/apps/{id}/widget-origins":  {access: owned, path: "/portal/apps/" + app + "/widget-origins", body: `{"origins":["https://parceiro.example"]}`},
		"POST /portal/apps/{id}/homologations":  {access: owned, path: "/portal/apps/" + app + "/homologations", body: "name: x\nurl: http://127.0.0.1:1\n", rightOK: func(c int, _ string) bool { return c == 503 }},
		"GET /portal/apps/{id}/homologations":   {access: owned, path: "/portal/apps/" + app + "/homologations"},
		"GET /portal/apps/{id}/homologations/{run}": {access: owned, path: "/portal/apps/" + app + "/homologations/hrun_none",
			rightOK: func(c int, b string) bool { return c == 404 && strings.Contains(b, "deste app") }},
		"POST /portal/apps/{id}/publish":               {access: owned, path: "/portal/apps/" + app + "/publish", rightOK: func(c int, _ string) bool { return c == 409 }},
		"GET /portal/apps/{id}/pix-keys":               {access: owned, path: "/portal/apps/" + app + "/pix-keys"},
		"POST /portal/apps/{id}/certificates":          {access: owned, path: "/portal/apps/" + app + "/certificates", body: `{"format":"pem"}`},
		"GET /portal/apps/{id}/certificates":           {access: owned, path: "/portal/apps/" + app + "/certificates"},
		"DELETE /portal/apps/{id}/certificates/{cert}": {access: owned, path: "/portal/apps/" + app + "/certificates/" + m.v["cert"], destructive: true},
		"GET /portal/ca.pem":                           {access: open},
		"POST /portal/apps/{id}/pix-keys":              {access: owned, path: "/portal/apps/" + app + "/pix-keys", body: `{"chave":"+5511988887777"}`},
		"GET /portal/companies/{id}/offers":            {access: owned, path: "/portal/companies/" + co + "/offers"},
		"PUT /portal/companies/{id}/offers/{offer}":    {access: owned, path: "/portal/companies/" + co + "/offers/EIS"},
		"DELETE /portal/companies/{id}/offers/{offer}": {access: owned, path: "/portal/companies/" + co + "/offers/YZ"},

		"POST /sandbox/namespaces":             {access: own, path: "/sandbox/namespaces", demoCopy: true},
		"DELETE /sandbox/namespaces/{id}":      {access: owned, path: "/sandbox/namespaces/" + m.v["ns"], destructive: true},
		"GET /sandbox/clock":                   {access: own, path: "/sandbox/clock"},
		"GET /sandbox/clocks":                  {access: own, path: "/sandbox/clocks"},
		"POST /sandbox/clock/advance":          {access: own, path: "/sandbox/clock/advance", body: `{"by":"1s"}`},
		"POST /sandbox/clock/set":              {access: own, path: "/sandbox/clock/set", body: `{"mode":"frozen"}`},
		"GET /sandbox/interactions":            {access: own, path: "/sandbox/interactions"},
		"GET /sandbox/deliveries":              {access: own, path: "/sandbox/deliveries"},
		"GET /sandbox/deliveries/{id}":         {access: owned, path: "/sandbox/deliveries/" + m.v["delivery"]},
		"POST /sandbox/deliveries/{id}/replay": {access: owned, path: "/sandbox/deliveries/" + m.v["delivery"] + "/replay"},
		"GET /sandbox/events":                  {access: own, path: "/sandbox/events"},
		"POST /sandbox/events/ping":            {access: owned, path: "/sandbox/events/ping", body: `{"clientId":"` + server.DemoClientID + `"}`},
		"GET /sandbox/inbox/{name}":            {access: own, path: "/sandbox/inbox/demo"},
		"POST /sandbox/reset":                  {access: own, path: "/sandbox/reset", destructive: true},
		// B ending its tokens must leave A's working (A's call comes after
		// B's); run late, as it ends the callers' app tokens.
		"POST /sandbox/tokens/expire":             {access: own, path: "/sandbox/tokens/expire", destructive: true, order: 8},
		"PUT /sandbox/offers/{offer}":             {access: own, path: "/sandbox/offers/EIS"},
		"GET /sandbox/app":                        {access: own, path: "/sandbox/app"},
		"PUT /sandbox/app/webhook":                {access: own, path: "/sandbox/app/webhook", body: `{"webhookUrl":"http://127.0.0.1:9/hooks"}`},
		"GET /sandbox/scenarios":                  {access: own, path: "/sandbox/scenarios"},
		"POST /sandbox/scenarios":                 {access: own, path: "/sandbox/scenarios", body: "id: matriz-x\ntitle: X\napplies_to: cob\nsteps:\n  - pay: true\n"},
		"POST /sandbox/scenarios/reload":          {access: operatorOnly, path: "/sandbox/scenarios/reload"},
		"GET /sandbox/scenarios/bindings":         {access: own, path: "/sandbox/scenarios/bindings"},
		"GET /sandbox/scenarios/{id}":             {access: owned, path: "/sandbox/scenarios/matriz-a"},
		"DELETE /sandbox/scenarios/{id}":          {access: owned, path: "/sandbox/scenarios/matriz-a", destructive: true},
		"POST /sandbox/scenarios/{id}/bind":       {access: owned, path: "/sandbox/scenarios/matriz-a/bind", body: `{"next":true}`},
		"POST /sandbox/scenarios/{id}/activate":   {access: owned, path: "/sandbox/scenarios/matriz-f/activate", body: `{"clientId":"` + server.DemoClientID + `"}`},
		"DELETE /sandbox/scenarios/{id}/activate": {access: owned, path: "/sandbox/scenarios/matriz-f/activate?clientId=" + server.DemoClientID, order: 1},
		"GET /sandbox/faults":                     {access: own, path: "/sandbox/faults"},
		"POST /sandbox/actions/{kind}": {access: owned, path: "/sandbox/actions/cob",
			body: `{"txid":"matrizmatrizmatrizmatriz0001","step":{"emit":{"type":"matriz.acao","name":"Ação da matriz"}}}`},
		"POST /sandbox/comissoes/pagamento":            {access: own, path: "/sandbox/comissoes/pagamento"},
		"GET /sandbox/homologation/reports/{clientId}": {access: owned, path: "/sandbox/homologation/reports/" + server.DemoClientID, rightOK: notYet},
		"GET /sandbox/resources":                       {access: own, path: "/sandbox/resources?kind=cob"},
		// The matrix's sandbox has no recorder (cmd/homologa gives it): A
		// gets through to the 503 that says so.
		"GET /sandbox/recording": {access: owned, path: "/sandbox/recording?clientId=" + server.DemoClientID + "&since=2026-01-01T00:00:00Z",
			rightOK: func(c int, b string) bool { return c == 503 && strings.Contains(b, "gravador") }},
		"POST /sandbox/pix/payments":                                     {access: owned, path: paymentPath, body: `{"txid":"matrizmatrizmatrizmatriz0001"}`},
		"POST /sandbox/pix/refunds/{e2eid}/{id}":                         {access: owned, path: "/sandbox/pix/refunds/" + m.v["e2e"] + "/d1", body: `{"status":"DEVOLVIDO"}`},
		"POST /sandbox/pix/rec/{idRec}/{acao:aprovar|rejeitar|cancelar}": {access: owned, path: "/sandbox/pix/rec/" + m.v["rec"] + "/aprovar"},
		"POST /sandbox/pix/cobr/{txid}/{acao:pagar|rejeitar}":            {access: owned, path: "/sandbox/pix/cobr/matrizcobrmatrizcobrmatriz01/pagar"},
		"GET /sandbox/outbox":                                            {access: own, path: "/sandbox/outbox"},
		"POST /sandbox/cartao/preautorizacao":                            {access: own, path: "/sandbox/cartao/preautorizacao", body: `{"cpf":"11144477735","valor":100,"numero":"4111111111111111"}`},
		"GET /sandbox/indices/{indice}":                                  {access: own, path: "/sandbox/indices/IPCA"},
		"PUT /sandbox/indices/{indice}":                                  {access: own, path: "/sandbox/indices/IPCA", body: `{"valores":{"2026-01":"0.50"}}`},
	}
}

// credentials are the three callers of a route of an API: for the portal,
// portal tokens; for the control API, app tokens (portal tokens act there
// too, as TestAccountActsOnTheControlAPI shows).
func (m *matrixWorld) credentials(api string) (a, b string) {
	if api == "portal" {
		return m.portA, m.portB
	}
	return m.appA, m.appB
}

func TestRouteCredentialMatrix(t *testing.T) {
	t.Parallel()
	m := newMatrixWorld(t)
	cases := m.cases()
	seen := map[string]bool{}
	later := map[int][]func(){}
	cnpjs := []string{"04252011000110", "19131243000197", "33000167000101", "60701190000104"}
	for _, rt := range server.RouteTable() {
		full := server.FullPath(rt)
		if rt.API != "portal" && rt.API != "sandbox" {
			continue
		}
		key := rt.Method + " " + full
		if rt.Auth == httpx.Stream || rt.Prefix {
			continue // websockets have their own tests (dashboard, events)
		}
		c, ok := cases[key]
		if !ok {
			t.Errorf("route %s has no entry in the credential matrix: decide who owns it and add it", key)
			continue
		}
		seen[key] = true
		if c.access == open {
			if rt.Auth != httpx.Public {
				t.Errorf("%s is listed as open but takes %s", key, rt.Auth)
			}
			continue
		}
		if rt.Auth == httpx.Public {
			t.Errorf("%s takes no credential: who owns it?", key)
			continue
		}
		run := func() {
			t.Run(key, func(t *testing.T) { m.check(t, rt, c, &cnpjs) })
		}
		if c.destructive && c.order == 0 {
			c.order = 5
		}
		later[c.order] = append(later[c.order], run)
	}
	for order := range 10 {
		for _, run := range later[order] {
			run()
		}
	}
	for key := range cases {
		if !seen[key] {
			t.Errorf("the matrix lists %s, which the route table does not have", key)
		}
	}
}

// check calls one route three ways.
func (m *matrixWorld) check(t *testing.T, rt httpx.Route, c matrixCase, cnpjs *[]string) {
	body := func() string {
		if !strings.Contains(c.body, "%CNPJ%") {
			return c.body
		}
		next := (*cnpjs)[0]
		*cnpjs = (*cnpjs)[1:]
		return strings.ReplaceAll(c.body, "%CNPJ%", next)
	}
	a, b := m.credentials(rt.API)
	if code, out := m.call(rt.Method, c.path, "", body()); code != 401 && code != 403 {
		t.Errorf("no credential: %d %s, want 401", code, out)
	}
	if rt.API == "portal" {
		// The portal is a person's: an app's token is no login.
		if code, out := m.call(rt.Method, c.path, m.appA, body()); code != 401 {
			t.Errorf("A's app token on the portal: %d %s, want 401", code, out)
		}
	}
	code, out := m.call(rt.Method, c.path, b, body())
	switch c.access {
	case operatorOnly:
		if code != 403 {
			t.Errorf("an app's token: %d %s, want 403", code, out)
		}
		if code, out := m.call(rt.Method, c.path, testOperator, body()); code/100 != 2 {
			t.Errorf("the operator: %d %s", code, out)
		}
		return
	case owned:
		if code != 404 && code != 400 {
			t.Errorf("another tenant on A's resource: %d %s, want 404", code, out)
		}
	case own:
		if code == 401 || code == 403 || code >= 500 {
			t.Errorf("another tenant on its own: %d %s", code, out)
		}
		markers := []string{m.v["app"], m.v["company"], "matrizmatriz"}
		if !c.demoCopy {
			markers = append(markers, "11222333000181", "52998224725")
		}
		for _, marker := range markers {
			if strings.Contains(out, marker) {
				t.Errorf("another tenant's answer shows A's %s: %s", marker, out)
			}
		}
	}
	code, out = m.call(rt.Method, c.path, a, body())
	ok := code != 401 && code != 403 && code != 404 && code < 500
	if c.rightOK != nil {
		ok = c.rightOK(code, out)
	}
	if !ok {
		t.Errorf("A on its own: %d %s", code, out)
	}
}
