package harness

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"homologa/simulator/httpx"
	"homologa/simulator/server"
)

// contract maps an operation (method and path) to the schema of its answer.
type contract struct {
	method string
	path   *regexp.Regexp
	schema string
}

// contracts are the answers the harness validates on every request, so no
// feature can forget to: every route of the sandbox's route table that
// names the schema of its answer. Made at first use: their patterns are
// a regexp per route, 8 ms of every start of the sandbox binary, which
// links the harness.
var contracts = sync.OnceValue(func() []contract {
	var cs []contract
	for _, rt := range server.RouteTable() {
		if rt.Answer != "" {
			cs = append(cs, contract{rt.Method, httpx.PathPattern(server.FullPath(rt), rt.Prefix), rt.Answer})
		}
	}
	return cs
})

// errorSchemas is the schema of every error body, by API base path.
var errorSchemas = func() map[string]string {
	m := map[string]string{}
	for _, a := range server.APIs {
		if a.ErrorSchema != "" {
			m[a.Prefix] = a.ErrorSchema
		}
	}
	return m
}()

// checkContract validates an answer against its operation's schema: the
// 2xx body of a known operation, and every error body in the dialect of
// its API. A body that breaks its schema fails the step that sent it.
func (w *World) checkContract(method, path string, status int, body []byte) error {
	name := ""
	switch {
	case status >= 400:
		for prefix, schema := range errorSchemas {
			if path == prefix || strings.HasPrefix(path, prefix+"/") {
				name = schema
			}
		}
	case status >= 200 && status < 300 && len(body) > 0:
		for _, c := range contracts() {
			if c.method == method && c.path.MatchString(path) {
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
