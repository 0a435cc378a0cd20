package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// TestPixTitlesAsTheSpecWritesThem: every type of the catalogue has a
// title, and a type the spec's examples show has the title of its first
// example ("Operação inválida." for Rec, SolicRec and CobR; "Lote de
// cobranças inválido."; "Webhook inválido."; "Acesso Negado").
func TestPixTitlesAsTheSpecWritesThem(t *testing.T) {
	t.Parallel()
	_, types := pixSpec(t)
	for name := range types {
		if httpx.PixTitle(name) == "" {
			t.Errorf("the catalogue's type %s has no title", name)
		}
	}
	raw, err := os.ReadFile(pixSpecPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Examples map[string]struct {
				Value struct{ Type, Title string }
			}
		}
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// The examples in the file's order: the first of a type is its title.
	var order yaml.Node
	yaml.Unmarshal(raw, &order)
	first, n := map[string]string{}, 0
	for _, name := range exampleNames(&order) {
		ex := doc.Components.Examples[name].Value
		typ, ok := strings.CutPrefix(ex.Type, "https://pix.bcb.gov.br/api/v2/error/")
		if !ok || ex.Title == "" {
			continue
		}
		n++
		if _, seen := first[typ]; !seen {
			first[typ] = ex.Title
		}
	}
	if n < 15 {
		t.Fatalf("%d error examples read", n)
	}
	for typ, title := range first {
		if got := httpx.PixTitle(typ); got != title {
			t.Errorf("%s: title %q, the spec's examples %q", typ, got, title)
		}
	}
}

// exampleNames are the names of components.examples in the order the
// file writes them.
func exampleNames(doc *yaml.Node) []string {
	find := func(n *yaml.Node, key string) *yaml.Node {
		for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
		return nil
	}
	ex := find(find(doc.Content[0], "components"), "examples")
	var names []string
	for i := 0; ex != nil && i+1 < len(ex.Content); i += 2 {
		names = append(names, ex.Content[i].Value)
	}
	return names
}

// TestPixAnswersNoTypeHas: a request without a valid token is a 401 and a
// method the path does not take a 405 (with Allow), each as RFC 7807's
// about:blank titled by its status: the catalogue has no type with
// either status (ROUTES.md, "Answers the specification does not
// declare").
func TestPixAnswersNoTypeHas(t *testing.T) {
	t.Parallel()
	s := startServer(t, server.Config{})
	defer s.Close(context.Background())
	for _, tc := range []struct {
		method, path, token string
		status              int
		title, allow        string
	}{
		{http.MethodGet, "/pix/v2/cob/semtokensemtokensemtoken0001", "", 401, "Unauthorized", ""},
		{http.MethodGet, "/pix/v2/cob/semtokensemtokensemtoken0001", "forjado", 401, "Unauthorized", ""},
		{http.MethodDelete, "/pix/v2/cob/semtokensemtokensemtoken0001", "", 405, "Method Not Allowed", "GET, POST, PUT, PATCH"},
	} {
		req, _ := http.NewRequest(tc.method, s.URL()+tc.path, nil)
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var p struct {
			Type, Title string
			Status      int
		}
		json.Unmarshal(b, &p)
		if resp.StatusCode != tc.status || p.Type != "about:blank" || p.Title != tc.title || p.Status != tc.status || resp.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d %v %s", tc.method, tc.path, resp.StatusCode, resp.Header, b)
		}
	}
}
