package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// pixSpecPath is a verbatim copy of the official API Pix 2.9.0
// (bacen/pix-api, tag 2.9.0, Apache-2.0; sha256 4047ae07…1ca8, the
// file ../shared/reference/pix/openapi.yaml beside this repository), kept
// in testdata so the test needs nothing outside the repository.
const pixSpecPath = "testdata/pix-openapi-2.9.0.yaml"

// specOp is one operation of the official spec.
type specOp struct {
	Method, Path string // Path as the spec writes it
	Tags         []string
	Scope        string // "" for the public payload operations
	Declared     map[int]bool
}

// key is the operation's method and path with its parameters unnamed.
func (o specOp) key() string { return opKey(o.Method, o.Path) }

// opKey is how an operation is known whatever its parameters are named:
// its method and path with each parameter written {}, the payload
// operations of the QR location's host (GET /cobv/{pixUrlAccessToken},
// beside GET /cobv/{txid} of the API) marked as such.
func opKey(method, path string) string {
	k := method + " " + unnamed(path)
	if strings.Contains(path, "AccessToken}") {
		k += " (payload)"
	}
	return k
}

// catType is one error type of the spec's catalogue (its info text).
type catType struct {
	Name      string
	Statuses  []int
	General   bool
	Endpoints map[string]bool // keys of specOp
}

// pathParam is a path parameter, in the spec's syntax or in mux's
// ({name:pattern}, the pattern perhaps with {n} counts).
var pathParam = regexp.MustCompile(`\{([^{}:]+)(?::[^{}]*(?:\{[0-9,]+\}[^{}]*)*)?\}`)

// unnamed is a path with every parameter written {}.
func unnamed(path string) string { return pathParam.ReplaceAllString(path, "{}") }

// pixSpec reads the operations and the error catalogue of the spec.
func pixSpec(t *testing.T) (map[string]specOp, map[string]*catType) {
	t.Helper()
	raw, err := os.ReadFile(pixSpecPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Info  struct{ Description string }
		Paths map[string]map[string]yaml.Node
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	ops := map[string]specOp{}
	for path, item := range doc.Paths {
		for method, node := range item {
			if !slices.Contains([]string{"get", "put", "post", "patch", "delete"}, method) {
				continue
			}
			var op struct {
				Tags      []string
				Security  []map[string][]string
				Responses map[string]yaml.Node
			}
			if err := node.Decode(&op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			o := specOp{Method: strings.ToUpper(method), Path: path, Tags: op.Tags, Declared: map[int]bool{}}
			for _, sec := range op.Security {
				if len(sec["OAuth2"]) > 0 {
					o.Scope = sec["OAuth2"][0]
				}
			}
			for code := range op.Responses {
				n, err := strconv.Atoi(code)
				if err != nil {
					t.Fatalf("%s %s: response %q", method, path, code)
				}
				o.Declared[n] = true
			}
			ops[o.key()] = o
		}
	}
	return ops, pixCatalogue(t, doc.Info.Description, ops)
}

var (
	catSection  = regexp.MustCompile("^## (?:Tag )?(\\S+)")
	catTypeLine = regexp.MustCompile("^### `([A-Za-z]+)`")
	catStatus   = regexp.MustCompile(`\[(\d{3})`)
	catCode     = regexp.MustCompile("`([^`]+)`")
	catEndpoint = regexp.MustCompile(`^(?:\[([A-Z|]+)\]|([A-Z]+))\s+(/\S*)$`)
)

// pixCatalogue reads the error types of the spec's info text: the
// general ones, and per tag each type with its HTTP statuses and the
// endpoints it names. An endpoint the catalogue names by a path the spec
// does not have ("POST /cob/{txid}" for POST /cob) is the operation one
// segment up.
func pixCatalogue(t *testing.T, text string, ops map[string]specOp) map[string]*catType {
	t.Helper()
	types := map[string]*catType{}
	var section string
	var cur *catType
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if m := catSection.FindStringSubmatch(line); m != nil {
			section, cur = m[1], nil
			continue
		}
		if m := catTypeLine.FindStringSubmatch(line); m != nil {
			cur = &catType{Name: m[1], General: section == "Gerais", Endpoints: map[string]bool{}}
			types[cur.Name] = cur
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case strings.Contains(line, "HTTP Status Code"):
			for _, m := range catStatus.FindAllStringSubmatch(line, -1) {
				n, _ := strconv.Atoi(m[1])
				cur.Statuses = append(cur.Statuses, n)
			}
		case strings.Contains(line, "__endpoint"):
			for _, m := range catCode.FindAllStringSubmatch(line, -1) {
				e := catEndpoint.FindStringSubmatch(strings.TrimSpace(m[1]))
				if e == nil {
					t.Fatalf("catalogue %s: endpoint %q not understood", cur.Name, m[1])
				}
				methods := e[2]
				if e[1] != "" {
					methods = e[1]
				}
				for _, method := range strings.Split(methods, "|") {
					key := opKey(method, e[3])
					if _, ok := ops[key]; !ok {
						key = opKey(method, e[3][:strings.LastIndex(e[3], "/")])
					}
					if _, ok := ops[key]; ok {
						cur.Endpoints[key] = true
					}
				}
			}
		}
	}
	for _, name := range []string{"RequisicaoInvalida", "AcessoNegado", "CobOperacaoInvalida", "RecNaoEncontrada", "CobRNaoEncontrado", "LoteCobVConsultaInvalida"} {
		if types[name] == nil || len(types[name].Statuses) == 0 {
			t.Fatalf("the catalogue was not read: %s missing (%d types)", name, len(types))
		}
	}
	if !types["CobOperacaoInvalida"].Endpoints["POST /cob"] || !types["LoteCobVConsultaInvalida"].Endpoints["GET /lotecobv/{}"] ||
		!types["CobPayloadNaoEncontrado"].Endpoints["GET /cobv/{} (payload)"] || types["CobPayloadNaoEncontrado"].Endpoints["GET /cobv/{}"] {
		t.Fatalf("the catalogue's endpoints were not read: %v", types["CobOperacaoInvalida"].Endpoints)
	}
	return types
}

// allowed is what an operation may answer: the statuses it declares, and
// those of the catalogue's types that name it (the catalogue gives the
// GET operations their ConsultaInvalida 400s, which their responses
// leave out); the general types and the types that name it.
func allowed(op specOp, types map[string]*catType) (statuses map[int]bool, names map[string]bool) {
	statuses, names = map[int]bool{}, map[string]bool{}
	for s := range op.Declared {
		statuses[s] = true
	}
	for _, ct := range types {
		if ct.General {
			names[ct.Name] = true
		}
		if ct.Endpoints[op.key()] {
			names[ct.Name] = true
			for _, s := range ct.Statuses {
				statuses[s] = true
			}
		}
	}
	return statuses, names
}

// pixAliases are the routes of the seed document's methods, which behave
// as the official operation named.
var pixAliases = map[string]string{
	"POST /cob/{}": "PUT /cob/{}", "POST /cobv/{}": "PUT /cobv/{}",
	"POST /webhookrec": "PUT /webhookrec", "POST /webhookcobr": "PUT /webhookcobr",
}

// pixSandboxOnly are routes of the Pix APIs that the spec does not have:
// the keys that sign payloads, named by the payloads' jku.
var pixSandboxOnly = map[string]bool{"GET /jwks.json (payload)": true}

// walkedRoute is a route of the table and the operation it serves.
type walkedRoute struct {
	rt httpx.Route
	op specOp
}

// pixRoutesOfTheSpec matches the route table's Pix routes with the
// spec's operations: every operation has a route, every route serves an
// operation (or is a declared alias), or the test fails.
func pixRoutesOfTheSpec(t *testing.T, ops map[string]specOp) []walkedRoute {
	t.Helper()
	served := map[string]bool{}
	var walk []walkedRoute
	for _, rt := range server.RouteTable() {
		if rt.API != "pix" && rt.API != "pix-payload" {
			continue
		}
		key := rt.Method + " " + unnamed(rt.Path)
		if rt.API == "pix-payload" {
			key += " (payload)"
		}
		if pixSandboxOnly[key] {
			continue
		}
		opKey := key
		if alias, ok := pixAliases[key]; ok {
			opKey = alias
		}
		op, ok := ops[opKey]
		if !ok {
			t.Errorf("route %s %s serves no operation of the official API Pix: walk it (pixAliases, pixSandboxOnly) or remove it", rt.Method, server.FullPath(rt))
			continue
		}
		if public := op.Scope == ""; public != (rt.API == "pix-payload") || (!public && !slices.Contains(rt.Scopes, op.Scope)) {
			t.Errorf("route %s %s: scopes %v, the spec's %q", rt.Method, server.FullPath(rt), rt.Scopes, op.Scope)
		}
		served[opKey] = true
		walk = append(walk, walkedRoute{rt, op})
	}
	for key := range ops {
		if !served[key] {
			t.Errorf("the official operation %s has no route", key)
		}
	}
	return walk
}

// wellFormed is a value of each path parameter that its operation
// accepts, naming nothing that exists.
var wellFormed = map[string]string{
	"txid": "walkwalkwalkwalkwalkwalk0001", "id": "999999", "e2eid": "E99999009202601011200walkwalk001",
	"idRec": "RR9999900920260101walkwalk001", "idSolicRec": "SC9999900920260101walkwalk001", "chave": "52998224725",
	"data": "2099-01-02", "token": strings.Repeat("0", 32),
}

// concrete fills a route's path parameters: well-formed values, or bad
// everywhere.
func concrete(full string, bad bool) string {
	return pathParam.ReplaceAllStringFunc(full, func(v string) string {
		if bad {
			return "inv@lido"
		}
		name := pathParam.FindStringSubmatch(v)[1]
		if w, ok := wellFormed[name]; ok {
			return w
		}
		return "x1"
	})
}

// probe is one bad request the walk sends to every operation.
type probe struct {
	name, ctype, body, query string
	badID, noScope           bool
	// unknown sends a body the operation takes (validBodies), naming
	// in the path or the body what does not exist.
	unknown bool
}

// validBodies are bodies the schemas of these operations accept, naming
// a resource that does not exist (an idRec, a loc) where they name one.
var validBodies = map[string]string{
	"PUT /cob/{}":                  `{"calendario": {"expiracao": 3600}, "valor": {"original": "1.00"}, "chave": "52998224725", "loc": {"id": 999999}}`,
	"POST /cob":                    `{"calendario": {"expiracao": 3600}, "valor": {"original": "1.00"}, "chave": "52998224725", "loc": {"id": 999999}}`,
	"PATCH /cob/{}":                `{"solicitacaoPagador": "revisada"}`,
	"PATCH /cobv/{}":               `{"solicitacaoPagador": "revisada"}`,
	"PATCH /lotecobv/{}":           `{"cobsv": [{"txid": "walkwalkwalkwalkwalkwalk0002", "solicitacaoPagador": "revisada"}]}`,
	"PUT /pix/{}/devolucao/{}":     `{"valor": "1.00"}`,
	"PUT /webhook/{}":              `{"webhookUrl": "http://127.0.0.1:9/pix"}`,
	"PATCH /rec/{}":                `{"status": "CANCELADA"}`,
	"PATCH /solicrec/{}":           `{"status": "CANCELADA"}`,
	"PATCH /cobr/{}":               `{"status": "CANCELADA"}`,
	"PUT /cobr/{}":                 cobrUnknownRec,
	"POST /cobr":                   cobrUnknownRec,
	"POST /solicrec":               `{"idRec": "RR9999900920260101walkwalk001", "calendario": {"dataExpiracaoSolicitacao": "2099-01-01T00:00:00Z"}, "destinatario": {"conta": "12345", "ispbParticipante": "99999009", "cpf": "12345678909"}}`,
	"POST /rec":                    `{"vinculo": {"contrato": "c1", "devedor": {"cpf": "12345678909", "nome": "Fulano"}}, "calendario": {"dataInicial": "2099-01-01", "periodicidade": "MENSAL"}, "valor": {"valorRec": "10.00"}, "politicaRetentativa": "NAO_PERMITE", "loc": 999999}`,
	"POST /cobr/{}/retentativa/{}": ``,
}

const cobrUnknownRec = `{"idRec": "RR9999900920260101walkwalk001", "calendario": {"dataDeVencimento": "2099-01-05"}, "valor": {"original": "10.00"}, "recebedor": {"conta": "12345", "tipoConta": "CORRENTE"}, "ajusteDiaUtil": true}`

var pixProbes = []probe{
	{name: "malformed JSON", ctype: "application/json", body: `{"calendario": `},
	{name: "body against its schema", ctype: "application/json", body: `{"naoExiste": [1, 2]}`},
	{name: "not JSON", ctype: "text/plain", body: "valor=1.00"},
	{name: "form", ctype: "application/x-www-form-urlencoded", body: "valor=1.00"},
	{name: "bad id", ctype: "application/json", body: `{}`, badID: true},
	{name: "bad query", query: "inicio=ontem&fim=x&paginacao.paginaAtual=-1&paginacao.itensPorPagina=0&revisao=x&txid=inv@lido&codMun=1&DPP=x"},
	{name: "missing scope", ctype: "application/json", body: `{}`, noScope: true},
	{name: "unknown id", ctype: "application/json", unknown: true},
}

// TestEveryPixOperationAnswersItsCatalogue walks every operation of the
// official API Pix 2.9.0 (and the seed's aliases) with bad requests: a
// malformed body, one against its schema, a content type it does not
// take, a bad id, bad query parameters, a token without its scope. Each
// answer must have a status the operation declares (or the catalogue
// gives it), and an error a type of the catalogue for that operation,
// with that type's status, as problem+json in UTF-8. A route added to the
// Pix API fails it until it serves an operation of the spec.
func TestEveryPixOperationAnswersItsCatalogue(t *testing.T) {
	t.Parallel()
	ops, types := pixSpec(t)
	walk := pixRoutesOfTheSpec(t, ops)
	if len(ops) < 45 || len(walk) < len(ops) {
		t.Fatalf("%d operations, %d routes walked: is the spec read?", len(ops), len(walk))
	}
	s := startServer(t, server.Config{Clock: "frozen"})
	defer s.Close(context.Background())
	all, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.Auth.IssueToken(context.Background(), server.DemoClientID, server.DemoClientSecret, "apicliente")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range walk {
		statuses, names := allowed(w.op, types)
		hasParams := pathParam.MatchString(w.rt.Path)
		for _, p := range pixProbes {
			body, valid := validBodies[w.op.key()]
			if (p.badID && !hasParams) || (p.noScope && w.op.Scope == "") || (p.unknown && !valid && !hasParams) {
				continue
			}
			if !p.unknown {
				body = p.body
			}
			t.Run(w.rt.Method+" "+w.rt.Path+" "+p.name, func(t *testing.T) {
				u := s.URL() + concrete(server.FullPath(w.rt), p.badID)
				if p.query != "" {
					u += "?" + p.query
				}
				req, _ := http.NewRequest(w.rt.Method, u, strings.NewReader(body))
				if p.ctype != "" {
					req.Header.Set("Content-Type", p.ctype)
				}
				switch {
				case w.op.Scope == "":
				case p.noScope:
					req.Header.Set("Authorization", "Bearer "+other.AccessToken)
				default:
					req.Header.Set("Authorization", "Bearer "+all.AccessToken)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				if msg := checkCatalogued(resp, b, statuses, names, types); msg != "" {
					t.Errorf("%s (declared %v): %s", msg, keys(statuses), b)
				}
				if p.noScope && resp.StatusCode != http.StatusForbidden {
					t.Errorf("without its scope: %d, want 403", resp.StatusCode)
				}
			})
		}
	}
}

// checkCatalogued says what is wrong with an answer of an operation that
// may answer statuses and error types names, or "".
func checkCatalogued(resp *http.Response, body []byte, statuses map[int]bool, names map[string]bool, types map[string]*catType) string {
	if !statuses[resp.StatusCode] {
		return fmt.Sprintf("status %d is not the operation's", resp.StatusCode)
	}
	ct := resp.Header.Get("Content-Type")
	if resp.StatusCode < 400 {
		if len(body) > 0 && strings.Contains(ct, "json") && !strings.HasSuffix(ct, "; charset=utf-8") {
			return "Content-Type " + ct
		}
		return ""
	}
	if ct != "application/problem+json; charset=utf-8" {
		return "Content-Type " + ct
	}
	var p struct {
		Type, Title string
		Status      int
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return "not a Problema"
	}
	name, ok := strings.CutPrefix(p.Type, "https://pix.bcb.gov.br/api/v2/error/")
	switch {
	case !ok:
		return "type " + p.Type
	case !names[name]:
		return fmt.Sprintf("type %s is not the operation's (%v)", name, keys(names))
	case p.Status != resp.StatusCode:
		return fmt.Sprintf("body status %d, answered %d", p.Status, resp.StatusCode)
	case types[name] == nil || !slices.Contains(types[name].Statuses, resp.StatusCode):
		return fmt.Sprintf("type %s with status %d", name, resp.StatusCode)
	case p.Title != httpx.PixTitle(name):
		return fmt.Sprintf("type %s titled %q, not %q", name, p.Title, httpx.PixTitle(name))
	}
	return ""
}

// keys is a set's members, sorted.
func keys[K int | string](m map[K]bool) []K {
	var out []K
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// TestRepeatedPutsAnswerAsTheSpecAllows: a PUT sent again, identical or
// different, answers a status its operation declares: a charge's is a
// 201 with the charge as the PUT left it (a new revision when it
// changed), a batch's a 202, a webhook's a 200, a refund's id used again
// a 400 PixDevolucaoInvalida. POST /locrec answers the tipo its schema
// requires.
func TestRepeatedPutsAnswerAsTheSpecAllows(t *testing.T) {
	t.Parallel()
	ops, types := pixSpec(t)
	s := startServer(t, server.Config{Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)})
	defer s.Close(context.Background())
	call := pixClient(t, s)
	lote := `{"descricao": "turma", "cobsv": [{"txid": "repeatedloterepeatedlote0001", "calendario": {"dataDeVencimento": "2026-02-10"},
		"devedor": {"cpf": "12345678909", "nome": "Francisco da Silva"}, "valor": {"original": "100.00"}, "chave": "52998224725"}]}`
	steps := []struct {
		op, path, body string
		status         int
		field, want    string
	}{
		{"PUT /cob/{}", "/cob/repeatedputrepeatedput0001", cobBody("10.00"), 201, "revisao", "0"},
		{"PUT /cob/{}", "/cob/repeatedputrepeatedput0001", cobBody("10.00"), 201, "revisao", "0"},
		{"PUT /cob/{}", "/cob/repeatedputrepeatedput0001", cobBody("11.00"), 201, "revisao", "1"},
		{"PUT /cobv/{}", "/cobv/repeatedputrepeatedput0002", pixCobv("52998224725"), 201, "revisao", "0"},
		{"PUT /cobv/{}", "/cobv/repeatedputrepeatedput0002", pixCobv("52998224725"), 201, "revisao", "0"},
		{"PUT /lotecobv/{}", "/lotecobv/77", lote, 202, "", ""},
		{"PUT /lotecobv/{}", "/lotecobv/77", lote, 202, "", ""},
		{"PUT /webhook/{}", "/webhook/52998224725", `{"webhookUrl": "http://127.0.0.1:9/a"}`, 200, "", ""},
		{"PUT /webhook/{}", "/webhook/52998224725", `{"webhookUrl": "http://127.0.0.1:9/b"}`, 200, "", ""},
		{"PUT /webhookrec", "/webhookrec", `{"webhookUrl": "http://127.0.0.1:9/a"}`, 200, "", ""},
		{"PUT /webhookrec", "/webhookrec", `{"webhookUrl": "http://127.0.0.1:9/a"}`, 200, "", ""},
		{"PUT /webhookcobr", "/webhookcobr", `{"webhookUrl": "http://127.0.0.1:9/a"}`, 200, "", ""},
	}
	for i, st := range steps {
		code, out := call(http.MethodPut, st.path, st.body)
		if code != st.status || (st.field != "" && fmt.Sprint(out[st.field]) != st.want) {
			t.Fatalf("step %d, %s: %d %v, want %d with %s %s", i, st.op, code, out, st.status, st.field, st.want)
		}
		if statuses, _ := allowed(ops[st.op], types); !statuses[code] {
			t.Fatalf("step %d, %s: %d is not the operation's", i, st.op, code)
		}
	}
	code, loc := call(http.MethodPost, "/locrec", "")
	if code != 201 || loc["tipo"] != "rec" {
		t.Fatalf("POST /locrec: %d %v", code, loc)
	}
	if code, got := call(http.MethodGet, fmt.Sprintf("/locrec/%v", loc["id"]), ""); code != 200 || got["tipo"] != "rec" {
		t.Fatalf("GET /locrec/{id}: %d %v", code, got)
	}

	// A refund's id is the client's, once per Pix.
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/sandbox/pix/payments", strings.NewReader(`{"txid": "repeatedputrepeatedput0001"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var paid map[string]any
	json.NewDecoder(resp.Body).Decode(&paid)
	resp.Body.Close()
	e2eid, _ := paid["endToEndId"].(string)
	if e2eid == "" {
		t.Fatalf("payment: %d %v", resp.StatusCode, paid)
	}
	refund := "/pix/" + e2eid + "/devolucao/D1"
	if code, out := call(http.MethodPut, refund, `{"valor": "1.00"}`); code != 201 {
		t.Fatalf("refund: %d %v", code, out)
	}
	if code, out := call(http.MethodPut, refund, `{"valor": "1.00"}`); code != 400 || out["type"] != "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida" {
		t.Fatalf("the same refund id again: %d %v", code, out)
	}
}

// TestJSONAnswersSayUTF8: every API's JSON answers, successes and errors
// in each dialect, name their charset, so that no client guesses another
// encoding for a body with "São Paulo" in it.
func TestJSONAnswersSayUTF8(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{Clock: "frozen"})
	defer s.Close(context.Background())
	tests := []struct{ method, path, auth, ctype, body, want string }{
		{"GET", "/", "", "", "", "application/json; charset=utf-8"},
		{"GET", "/pix/v2/cob/naoexistenaoexistenaoexiste01", "None", "", "", "application/problem+json; charset=utf-8"},
		{"GET", "/insurer/v1/proposta/1", "None", "", "", "application/json; charset=utf-8"},
		{"GET", "/portal/account", "None", "", "", "application/problem+json; charset=utf-8"},
		{"GET", "/sandbox/clock", "", "", "", "application/json; charset=utf-8"},
		{"POST", "/oauth/token", "None", "application/json", `{"grant_type": "client_credentials"}`, "application/json; charset=utf-8"},
		{"GET", "/nada", "", "", "", "application/problem+json; charset=utf-8"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, s.URL()+tt.path, strings.NewReader(tt.body))
		if tt.auth != "" {
			req.Header.Set("Authorization", tt.auth)
		}
		if tt.ctype != "" {
			req.Header.Set("Content-Type", tt.ctype)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Content-Type"); got != tt.want {
			t.Errorf("%s %s (%d): Content-Type %q, want %q", tt.method, tt.path, resp.StatusCode, got, tt.want)
		}
	}
}
