package cli_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"homologa/cli"
	"homologa/simulator/server"
)

var updateReference = flag.Bool("update", false, "rewrite docs/reference/events.md from the events the sandbox emits")

// TestEventReference: docs/reference/events.md is written from events the
// sandbox emitted in this test, each fired by homologa trigger on a
// fresh sandbox: its fields (every path of its envelope, with its JSON
// type) and a real example. The test fails when the document says other
// fields than the sandbox emits (make steps rewrites it), so the events'
// documentation cannot drift from the code.
func TestEventReference(t *testing.T) {
	s := startSandbox(t, server.Config{})
	examples := map[string][]json.RawMessage{}
	for _, tr := range cli.Triggers() {
		var stderr strings.Builder
		code := cli.MainEnv(context.Background(), []string{"trigger", tr.Type, "--sandbox", s.URL()}, func(string) string { return "" }, io.Discard, &stderr)
		if code != 0 {
			t.Fatalf("trigger %s: exit %d: %s", tr.Type, code, stderr.String())
		}
	}
	for _, e := range allCompanyEvents(t, s.URL()) {
		var head struct {
			Type string `json:"type"`
		}
		json.Unmarshal(e, &head)
		examples[head.Type] = append(examples[head.Type], e)
	}
	// The examples name the sandbox as the reader's does.
	doc := strings.ReplaceAll(renderEventReference(t, examples), strings.TrimPrefix(s.URL(), "http://"), "127.0.0.1:8080")
	const path = "../docs/reference/events.md"
	old, err := os.ReadFile(path)
	if *updateReference {
		// Examples differ at every run (ids, instants, codes): the page
		// is rewritten only when its events or fields change, so that
		// make steps leaves it alone otherwise.
		if err == nil && withoutExamples(string(old)) == withoutExamples(doc) {
			return
		}
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v: go test ./cli -run TestEventReference -update (make steps) writes it", err)
	}
	if got, want := withoutExamples(string(old)), withoutExamples(doc); got != want {
		t.Fatalf("docs/reference/events.md says other events or fields than the sandbox emits: go test ./cli -run TestEventReference -update (make steps)")
	}
}

// allCompanyEvents lists the demo company's events, oldest first.
func allCompanyEvents(t *testing.T, base string) []json.RawMessage {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}}
	req, _ := http.NewRequest(http.MethodPost, base+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(server.DemoClientID, server.DemoClientSecret)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	var all []json.RawMessage
	since := "0"
	for {
		req, _ = http.NewRequest(http.MethodGet, base+"/sandbox/events?limit=1000&since="+since, nil)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Events []json.RawMessage `json:"events"`
		}
		json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if len(page.Events) == 0 {
			return all
		}
		all = append(all, page.Events...)
		var last struct {
			Sequence int64 `json:"sequence"`
		}
		json.Unmarshal(page.Events[len(page.Events)-1], &last)
		since = fmt.Sprint(last.Sequence)
	}
}

// renderEventReference writes the reference: the envelope's fields, then
// each event type by cycle, with the fields of every event of the type
// the test saw (a field null in one and a string in another is "string
// or null") and the first as its example.
func renderEventReference(t *testing.T, examples map[string][]json.RawMessage) string {
	var b strings.Builder
	b.WriteString(`# Events

Every event the sandbox emits, written from events it emitted in a test
(` + "`go test ./cli -run TestEventReference -update`" + `, which ` + "`make steps`" + ` runs;
the test fails when this page says other fields than the sandbox emits).
Each is fired by ` + "`homologa trigger TYPE`" + `, which makes what it needs. The
envelope is the same for all; insurance events reach the app's webhook as
it is, Pix notifications the official callbacks (` + "`{webhookUrl}/pix`" + `,
` + "`/rec`" + `, ` + "`/cobr`" + `) and the stream. Fields list every path of the example,
` + "`[]`" + ` for the elements of a list.
`)
	byCycle := map[string][]cli.Trigger{}
	var cycles []string
	for _, tr := range cli.Triggers() {
		if _, ok := byCycle[tr.Cycle]; !ok {
			cycles = append(cycles, tr.Cycle)
		}
		byCycle[tr.Cycle] = append(byCycle[tr.Cycle], tr)
	}
	for _, c := range cycles {
		fmt.Fprintf(&b, "\n## %s\n", c)
		for _, tr := range byCycle[c] {
			all, ok := examples[tr.Type]
			if !ok {
				t.Fatalf("no %s event was emitted", tr.Type)
			}
			var doc map[string]any
			json.Unmarshal(all[0], &doc)
			fmt.Fprintf(&b, "\n### `%s` — %s\n\nFired by: %s.\n\n| field | type |\n|---|---|\n", tr.Type, tr.Name, orNone(tr.Needs))
			for _, f := range mergedPaths(all) {
				fmt.Fprintf(&b, "| `%s` | %s |\n", f.path, f.kind)
			}
			pretty, _ := json.MarshalIndent(doc, "", "  ")
			fmt.Fprintf(&b, "\n<!-- example -->\n```json\n%s\n```\n", pretty)
		}
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "nothing to name"
	}
	return s
}

type fieldPath struct{ path, kind string }

// mergedPaths are the paths of every event given, in the order the
// first shows them (paths only later events have after), each with the
// kinds it had ("string or null").
func mergedPaths(events []json.RawMessage) []fieldPath {
	var order []string
	kinds := map[string][]string{}
	for _, e := range events {
		var doc map[string]any
		json.Unmarshal(e, &doc)
		for _, f := range fieldPaths(map[string]any{"subject": doc["subject"], "data": doc["data"]}, "") {
			if _, seen := kinds[f.path]; !seen {
				order = append(order, f.path)
			}
			if !slices.Contains(kinds[f.path], f.kind) {
				kinds[f.path] = append(kinds[f.path], f.kind)
			}
		}
	}
	out := make([]fieldPath, 0, len(order))
	for _, p := range order {
		ks := kinds[p]
		// "null" last: a field is a string or null, not null or a string.
		sort.SliceStable(ks, func(i, j int) bool { return ks[i] != "null" && ks[j] == "null" })
		out = append(out, fieldPath{p, strings.Join(ks, " or ")})
	}
	return out
}

// fieldPaths lists every path of v with its JSON type, sorted.
func fieldPaths(v any, prefix string) []fieldPath {
	var out []fieldPath
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			out = append(out, fieldPath{p, kindOf(x[k])})
			out = append(out, fieldPaths(x[k], p)...)
		}
	case []any:
		if len(x) > 0 {
			out = append(out, fieldPaths(x[0], prefix+"[]")...)
		}
	}
	return out
}

func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "list"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

var exampleBlock = regexp.MustCompile("(?s)<!-- example -->\n```json\n.*?\n```\n")

// withoutExamples is the reference without its example bodies, whose
// ids and times differ from run to run.
func withoutExamples(s string) string { return exampleBlock.ReplaceAllString(s, "") }
