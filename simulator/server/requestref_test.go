package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	gherkin "github.com/cucumber/gherkin/go/v26"
	messages "github.com/cucumber/messages/go/v21"

	"homologa/schemas"
	"homologa/simulator/httpx"
	"homologa/simulator/schema"
	"homologa/simulator/server"
)

// TestRouteFor: a request is matched to its route as the router does,
// under an alias, in another case and with a query.
func TestRouteFor(t *testing.T) {
	t.Parallel()
	tests := []struct{ method, target, want string }{
		{"PUT", "/pix/v2/cob/7978c0c97ea847e78e8849634473c1f1", "PUT /pix/v2/cob/{txid}"},
		{"POST", "/pix/v2/cob", "POST /pix/v2/cob"},
		{"POST", "/api/v2/venda", "POST /insurer/v1/venda"},
		{"POST", "/api/v2/Proposta?cnpj=11222333000181", "POST /insurer/v1/proposta"},
		{"PATCH", "/apiseguradora/v3/proposta/123", "PATCH /insurer/v1/proposta/{numero:[0-9]+}"},
		{"POST", "/gestao-acesso/v1/signature", "POST /access/v1/signature"},
		{"POST", "/customer/v1/inscricao/12/cancelamento", "POST /customer/v1/inscricao/{id:[0-9]+}/cancelamento"},
		{"POST", "/customer/v1/inscricao/abc/cancelamento", ""},
		{"DELETE", "/pix/v2/cob", ""},
		{"POST", "/nowhere", ""},
	}
	for _, tt := range tests {
		got := ""
		if rt, ok := server.RouteFor(tt.method, tt.target); ok {
			got = rt.Method + " " + server.FullPath(rt)
		}
		if got != tt.want {
			t.Errorf("%s %s: route %q, want %q", tt.method, tt.target, got, tt.want)
		}
	}
}

// maxWithoutExample is how many routes with a request schema may have no
// example in the contract features: a route added without one, or an
// example lost, fails TestRequestReference. Lower it as examples come.
const maxWithoutExample = 0

// TestRequestReference keeps docs/reference/requests.md written from the
// route table (each route's Request), the schemas (schema.Describe) and
// the bodies the contract features sent and the sandbox accepted: the
// page says what the handlers validate, and its examples passed. The
// test fails while the page is stale (make steps rewrites it) and says
// how many routes lack an example.
func TestRequestReference(t *testing.T) {
	t.Parallel()
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	examples := contractExamples(t, reg)
	doc, stats := renderRequestReference(t, reg, examples)
	t.Logf("%d routes take a body (POST, PUT, PATCH); %d declare its schema, %d are RawBody, %d take no JSON body a schema describes; %d of the declared have an example, %d have none%s",
		stats.body, stats.declared, stats.raw, len(noJSONBody), stats.declared-len(stats.without), len(stats.without), list(stats.without))
	if len(stats.without) > maxWithoutExample {
		t.Errorf("%d routes have no example in the contract features (at most %d): %s; add a scenario that sends one and expects a 2xx", len(stats.without), maxWithoutExample, strings.Join(stats.without, ", "))
	}
	const path = "../../docs/reference/requests.md"
	old, err := os.ReadFile(path)
	if *updateCatalogue {
		if err != nil || string(old) != doc {
			if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("%v: go test ./simulator/server -run TestRequestReference -update (make steps) writes it", err)
	}
	if string(old) != doc {
		t.Fatalf("docs/reference/requests.md is not what the route table, the schemas and the features say: go test ./simulator/server -run TestRequestReference -update (make steps)")
	}
}

func list(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	return ": " + strings.Join(keys, ", ")
}

// example is a body a contract feature sent to a route, and the sandbox
// answered with a 2xx.
type example struct {
	method, target string
	body           []byte
	// source is the feature file and scenario that sent it.
	source string
	// filled names the ${placeholders} of the body, given a plausible
	// value here (plausible) since the feature took theirs from answers.
	filled []string
	// fields is how many fields the body has: the richer example shows
	// more.
	fields int
}

var (
	sendStep   = regexp.MustCompile(`^I send "(POST|PUT|PATCH)" to "([^"]+)" with JSON:?$`)
	statusStep = regexp.MustCompile(`^the response status is (\d+)$`)
	// placeholder is the harness's ${name}.
	placeholder = regexp.MustCompile(`\$\{([^}]+)\}`)
)

// contractExamples are the bodies the contract features send with JSON
// and whose next step expects a 2xx, valid against their route's schema,
// by schema; the ones with fewest placeholders, then the richest, first.
func contractExamples(t *testing.T, reg *schema.Registry) map[string][]example {
	files, err := filepath.Glob("../../features/contract/*.feature")
	if err != nil || len(files) == 0 {
		t.Fatalf("no contract features: %v", err)
	}
	out := map[string][]example{}
	seen := map[string]bool{}
	for _, file := range files {
		for _, p := range pickles(t, file) {
			for i, st := range p.Steps[:max(len(p.Steps)-1, 0)] {
				ex, name, ok := sentExample(reg, st, p.Steps[i+1])
				if !ok {
					continue
				}
				ex.source = "features/contract/" + filepath.Base(file) + ", “" + p.Name + "”"
				if key := name + "\x00" + string(ex.body); !seen[key] {
					seen[key] = true
					out[name] = append(out[name], ex)
				}
			}
		}
	}
	for _, exs := range out {
		sort.SliceStable(exs, func(i, j int) bool {
			if len(exs[i].filled) != len(exs[j].filled) {
				return len(exs[i].filled) < len(exs[j].filled)
			}
			return exs[i].fields > exs[j].fields
		})
	}
	return out
}

// pickles are a feature file's scenarios as they run: backgrounds in,
// outlines expanded.
func pickles(t *testing.T, file string) []*messages.Pickle {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := (&messages.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocument(f, ids)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return gherkin.Pickles(*doc, file, ids)
}

// sentExample is the example a send step makes, and the schema of its
// route, when the step sends JSON to a route that declares one, the step
// after it expects a 2xx, and the body, its placeholders filled, is
// valid against the schema.
func sentExample(reg *schema.Registry, st, next *messages.PickleStep) (example, string, bool) {
	m := sendStep.FindStringSubmatch(st.Text)
	s := statusStep.FindStringSubmatch(next.Text)
	if m == nil || s == nil || s[1][0] != '2' || st.Argument == nil || st.Argument.DocString == nil || strings.Contains(m[2], "://") {
		return example{}, "", false
	}
	rt, ok := server.RouteFor(m[1], placeholder.ReplaceAllString(m[2], "1"))
	if !ok || rt.Request == "" {
		return example{}, "", false
	}
	ex := example{method: m[1], target: m[2]}
	body, ok := fill(reg, rt.Request, st.Argument.DocString.Content, &ex.filled)
	if !ok {
		return example{}, "", false
	}
	var v any
	json.Unmarshal([]byte(body), &v)
	var pretty bytes.Buffer
	if json.Indent(&pretty, []byte(strings.TrimSpace(body)), "", "  ") != nil {
		return example{}, "", false
	}
	ex.body, ex.fields = pretty.Bytes(), countFields(v)
	return ex, rt.Request, true
}

// plausibleValues are values of the kinds a feature remembers from an
// answer and puts in a body: an id, a code or an amount (digits, in a
// string or bare), a URL, a Pix Automático idRec.
var plausibleValues = []string{"123456", "http://127.0.0.1:3000", "RN9999900820260105a1b2c3d4e5f"}

// fill gives each ${placeholder} of body, which a feature filled from an
// earlier answer, the plausible value that leaves the fewest violations
// of the schema, one placeholder after another, and reports whether the
// body is then valid; filled gets the placeholders' names.
func fill(reg *schema.Registry, name, body string, filled *[]string) (string, bool) {
	chosen := map[string]string{}
	for _, m := range placeholder.FindAllStringSubmatch(body, -1) {
		if _, ok := chosen[m[1]]; !ok {
			*filled = append(*filled, m[1])
			chosen[m[1]] = plausibleValues[0]
		}
	}
	violations := func() (string, int) {
		doc := placeholder.ReplaceAllStringFunc(body, func(p string) string { return chosen[placeholder.FindStringSubmatch(p)[1]] })
		if !json.Valid([]byte(doc)) {
			return doc, 1 << 20
		}
		vs, err := reg.Validate(name, []byte(doc))
		if err != nil {
			return doc, 1 << 20
		}
		return doc, len(vs)
	}
	for _, p := range *filled {
		best, fewest := plausibleValues[0], 1<<30
		for _, v := range plausibleValues {
			chosen[p] = v
			if _, n := violations(); n < fewest {
				best, fewest = v, n
			}
		}
		chosen[p] = best
	}
	doc, n := violations()
	return doc, n == 0
}

// countFields counts the members of a decoded document.
func countFields(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			n += 1 + countFields(e)
		}
	case []any:
		for _, e := range x {
			n += countFields(e)
		}
	}
	return n
}

// referenceStats are the figures of the request reference.
type referenceStats struct {
	body, declared, raw int
	// without are the routes with a schema and no example.
	without []string
}

// renderRequestReference writes the page: per API (ROUTES.md's
// sections), each schema its routes declare, with the routes that take
// it, its fields and an example; then the routes that take no JSON body a
// schema describes.
func renderRequestReference(t *testing.T, reg *schema.Registry, examples map[string][]example) (string, referenceStats) {
	var b strings.Builder
	b.WriteString(requestPreamble)
	var st referenceStats
	byAPI := map[string][]httpx.Route{}
	for _, rt := range server.RouteTable() {
		if !bodyMethod(rt.Method) {
			continue
		}
		st.body++
		switch {
		case rt.RawBody:
			st.raw++
		case rt.Request != "":
			st.declared++
			byAPI[rt.API] = append(byAPI[rt.API], rt)
			if len(examples[rt.Request]) == 0 {
				st.without = append(st.without, rt.Method+" "+server.FullPath(rt))
			}
		}
	}
	written := map[string]string{}
	for _, a := range server.APIs {
		if len(byAPI[a.Name]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n", server.SectionTitle(a))
		for _, name := range schemasOf(byAPI[a.Name]) {
			writeSchema(t, &b, reg, name, byAPI[a.Name], examples[name], written)
		}
	}
	writeNoJSONBody(&b)
	return b.String(), st
}

const requestPreamble = `# Request bodies

Every route that takes a JSON body, with the fields of the schema its
handler validates the body against, and a body the sandbox accepted.
Written from the route table, where each route declares the schema of
its body (and the sandbox refuses, as an internal error, to validate a
body with any other), from ` + "`schemas/`" + `, and from the contract features
(` + "`features/contract`" + `), whose bodies are the examples: each was sent in
a scenario whose next step expected a 2xx, and is valid against the
schema. ` + "`go test ./simulator/server -run TestRequestReference -update`" + `
(which ` + "`make steps`" + ` runs) rewrites this page; the test fails while it
is stale. Routes, credentials and answers: [ROUTES.md](../../ROUTES.md).

Reading a table: a field's path is its place in the body:
` + "`comunicante.relacao`" + ` is ` + "`relacao`" + ` inside ` + "`comunicante`" + `;
` + "`documentos[].tipo`" + ` is ` + "`tipo`" + ` in each element of the list
` + "`documentos`" + `; ` + "`x.*`" + ` is each value of the object ` + "`x`" + `. *Required*
says whether the object the field is in must have it: a field of an
optional object is required once that object is sent. Allowed values
are JSON: ` + "`\"CPF\"`" + ` is a string, ` + "`1`" + ` a number. Members a schema does
not declare: [production's leniency](platform.md#productions-leniency-recorded-not-hidden).
`

// schemasOf are the request schemas of routes, in the order of their
// first route.
func schemasOf(routes []httpx.Route) []string {
	var out []string
	for _, rt := range routes {
		if !slices.Contains(out, rt.Request) {
			out = append(out, rt.Request)
		}
	}
	return out
}

// writeSchema writes one schema of a section: the section's routes that
// take it, its fields and its example, or, when an earlier section
// wrote them (written: the heading's anchor, by schema), a link there.
func writeSchema(t *testing.T, b *strings.Builder, reg *schema.Registry, name string, routes []httpx.Route, exs []example, written map[string]string) {
	fmt.Fprintf(b, "\n### `%s`\n\n", name)
	var takers []string
	for _, rt := range routes {
		if rt.Request == name {
			takers = append(takers, "`"+rt.Method+" "+server.FullPath(rt)+"`")
		}
	}
	fmt.Fprintf(b, "%s\n", strings.ReplaceAll(strings.Join(takers, ", "), "|", `\|`))
	if anchor, ok := written[name]; ok {
		fmt.Fprintf(b, "\nThe same body as [`%s`](#%s) above.\n", name, anchor)
		return
	}
	written[name] = strings.NewReplacer("/", "", ".", "").Replace(name)
	fields, err := reg.Describe(name)
	if err != nil {
		t.Fatal(err)
	}
	if root := fields[0]; root.Description != "" || len(root.Rules) > 0 {
		b.WriteString("\n" + sentence(root.Description))
		if len(root.Rules) > 0 {
			b.WriteString(sentence("The body: " + strings.Join(root.Rules, "; ")))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n| field | type | required | allowed values and limits | description |\n|---|---|---|---|---|\n")
	for _, f := range fields[1:] {
		req := ""
		if f.Required {
			req = "yes"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", f.Path, f.Type, req, cell(strings.Join(f.Rules, "; ")), cell(f.Description))
	}
	writeExample(b, exs)
}

// sentence is s ended as a sentence, followed by a space; "" for none.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s + " "
}

// cell is text that stays in its table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// writeExample writes the first example, or says there is none yet.
func writeExample(b *strings.Builder, exs []example) {
	if len(exs) == 0 {
		b.WriteString("\nNo example in the contract features yet.\n")
		return
	}
	ex := exs[0]
	fmt.Fprintf(b, "\nExample: `%s %s`, in %s.", ex.method, ex.target, ex.source)
	if len(ex.filled) > 0 {
		var names []string
		for _, n := range ex.filled {
			names = append(names, "`${"+n+"}`")
		}
		if len(names) == 1 {
			fmt.Fprintf(b, " The feature took %s from an earlier answer: shown here as a plausible value.", names[0])
		} else {
			fmt.Fprintf(b, " The feature took %s from earlier answers: shown here as plausible values.", strings.Join(names, ", "))
		}
	}
	fmt.Fprintf(b, "\n\n```json\n%s\n```\n", ex.body)
}

// writeNoJSONBody lists the routes of a body method that take no JSON
// body a schema describes, and why.
func writeNoJSONBody(b *strings.Builder) {
	b.WriteString("\n## Routes with no JSON body a schema describes\n\nA POST, PUT or PATCH that reads no body, or one no schema describes. Those that take a file (a scenario's or a partner's YAML, a webhook as delivered) are in [ROUTES.md](../../ROUTES.md).\n\n| route | its body |\n|---|---|\n")
	keys := make([]string, 0, len(noJSONBody))
	for k := range noJSONBody {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "| `%s` | %s |\n", strings.ReplaceAll(k, "|", `\|`), noJSONBody[k])
	}
}
