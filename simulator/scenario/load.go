package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/schema"
)

// SchemaName is the scenario file's schema in the registry.
const SchemaName = "scenario"

// Problem is one thing wrong in a file, located for a human to fix.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	loc := p.File
	if p.Line > 0 {
		loc += ":" + strconv.Itoa(p.Line)
	}
	if p.Field != "" {
		return loc + ": " + p.Field + ": " + p.Message
	}
	return loc + ": " + p.Message
}

// LoadError lists every problem found; nothing of the input was loaded.
type LoadError struct{ Problems []Problem }

func (e *LoadError) Error() string {
	var lines []string
	for _, p := range e.Problems {
		lines = append(lines, p.String())
	}
	return strings.Join(lines, "\n")
}

// Verbs are the step actions, in the order the documentation lists them.
var Verbs = []string{"status", "pay", "refuse", "settle", "fail", "pending", "create", "emit"}

// Parse reads one scenario file: YAML, then the schema, then the rules the
// schema cannot say (one action per step, durations, the resource's states
// and transitions, triggers and instants). Every problem names the file,
// the line and the field.
func Parse(file string, data []byte, kinds Kinds, reg *schema.Registry) (*Scenario, error) {
	fail := func(ps ...Problem) error { return &LoadError{Problems: ps} }
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fail(Problem{File: file, Line: 1, Message: "o arquivo está vazio"})
		}
		return nil, fail(Problem{File: file, Line: yamlLine(err), Message: "YAML malformado: " + yamlMessage(err)})
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fail(Problem{File: file, Line: extra.Line, Message: "um cenário por arquivo: um segundo documento YAML começa aqui"})
	}
	doc := root.Content[0]
	generic, err := toJSONValue(doc)
	if err != nil {
		return nil, fail(Problem{File: file, Line: doc.Line, Message: err.Error()})
	}
	raw, _ := json.Marshal(generic)
	vs, err := reg.Validate(SchemaName, raw)
	if err != nil {
		return nil, err
	}
	if len(vs) > 0 {
		var ps []Problem
		for _, v := range vs {
			ps = append(ps, Problem{File: file, Line: lineOf(doc, v.Field), Field: v.Field, Message: v.Reason})
		}
		return nil, fail(ps...)
	}
	c := &checker{file: file, root: doc, kinds: kinds}
	s := c.scenario(generic.(map[string]any))
	if len(c.problems) > 0 {
		return nil, fail(c.problems...)
	}
	s.File, s.Source = file, string(data)
	return s, nil
}

// checker turns the schema-valid document into a Scenario, collecting
// problems instead of stopping at the first.
type checker struct {
	file     string
	root     *yaml.Node
	kinds    Kinds
	problems []Problem
}

func (c *checker) problem(field, format string, args ...any) {
	c.problems = append(c.problems, Problem{File: c.file, Line: lineOf(c.root, field), Field: field, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) duration(m map[string]any, key, field string) time.Duration {
	s, ok := m[key].(string)
	if !ok {
		return 0
	}
	if strings.HasPrefix(strings.TrimSpace(s), "-") {
		c.problem(field, "uma duração não pode ser negativa (%q)", s)
		return 0
	}
	d, err := clock.ParseDuration(s)
	if err != nil {
		c.problem(field, "%q não é uma duração: use um número e uma unidade (ms, s, m, h, d, w), como 30s ou 2h", s)
	}
	return d
}

func (c *checker) rule(m map[string]any, field string) *Rule {
	if m == nil {
		return nil
	}
	r := &Rule{Field: m["field"].(string), Equals: m["equals"]}
	if in, ok := m["in"].([]any); ok {
		r.In = in
	}
	if (r.Equals == nil) == (r.In == nil) {
		c.problem(field, "informe exatamente um entre equals e in")
	}
	return r
}

func (c *checker) scenario(m map[string]any) *Scenario {
	s := &Scenario{ID: m["id"].(string), Title: m["title"].(string), AppliesTo: m["applies_to"].(string)}
	s.Description, _ = m["description"].(string)
	s.Default, _ = m["default"].(bool)
	if seed, ok := m["seed"].(float64); ok {
		s.Seed = int64(seed)
	}
	if sel, ok := m["select"].(map[string]any); ok {
		s.Select = c.rule(sel, "select")
	}
	kind, isKind := c.kinds[s.AppliesTo]
	steps, _ := m["steps"].([]any)
	if len(steps) > 0 && !isKind {
		c.problem("applies_to", "%q não é um tipo de recurso que cenários conduzem; tipos: %s", s.AppliesTo, strings.Join(c.kinds.Names(), ", "))
	}
	if (s.Default || s.Select != nil) && !isKind {
		field := "default"
		if s.Select != nil {
			field = "select"
		}
		c.problem(field, "só um cenário que se aplica a um tipo de recurso (%s) pode ser padrão ou ser selecionado", strings.Join(c.kinds.Names(), ", "))
	}
	state := ""
	if isKind {
		state = kind.Machine.Initial
	}
	for i, raw := range steps {
		st := c.step(raw.(map[string]any), "steps."+strconv.Itoa(i))
		if isKind {
			state = c.checkStep(kind, st, state, "steps."+strconv.Itoa(i))
		}
		s.Steps = append(s.Steps, st)
	}
	faults, _ := m["faults"].([]any)
	for i, raw := range faults {
		s.Faults = append(s.Faults, c.fault(raw.(map[string]any), "faults."+strconv.Itoa(i)))
	}
	if len(s.Steps) == 0 && len(s.Faults) == 0 && !s.Default {
		c.problem("", "um cenário precisa de passos ou falhas (só um padrão pode ser vazio: o recurso então espera o parceiro e a API de controle)")
	}
	return s
}

func (c *checker) step(m map[string]any, field string) Step {
	st := Step{Line: lineOf(c.root, field), Args: map[string]any{}}
	st.After = c.duration(m, "after", field+".after")
	st.Jitter = c.duration(m, "jitter", field+".jitter")
	st.At, _ = m["at"].(string)
	st.When, _ = m["when"].(string)
	st.Reason, _ = m["reason"].(string)
	var verbs []string
	for _, v := range Verbs {
		if _, ok := m[v]; ok {
			verbs = append(verbs, v)
		}
	}
	if len(verbs) != 1 {
		c.problem(field, "um passo tem exatamente uma ação (%s); este tem %d", strings.Join(Verbs, ", "), len(verbs))
		return st
	}
	st.Verb = verbs[0]
	switch v := m[st.Verb].(type) {
	case string:
		st.Status = v
	case map[string]any:
		st.Args = v
	case bool:
		if !v {
			c.problem(field+"."+st.Verb, "escreva %s: true, ou tire o passo", st.Verb)
		}
	}
	if r, ok := st.Args["reason"].(string); ok && st.Reason == "" {
		st.Reason = r
	}
	if st.Verb == "status" && st.Status == "" {
		c.problem(field+".status", "diga o estado de destino")
	}
	return st
}

// checkStep checks one step against the kind and returns the state the
// resource is in after it ("" when it cannot be known: the step after a
// trigger that does not say).
func (c *checker) checkStep(k Kind, st Step, state, field string) string {
	if st.At != "" && !slices.Contains(k.Instants, st.At) {
		c.problem(field+".at", "%s não tem o instante %q; instantes: %s", k.Name, st.At, listOrNone(k.Instants))
	}
	if st.When != "" {
		after, ok := k.Triggers[st.When]
		if !ok {
			c.problem(field+".when", "%s não dispara o gatilho %q; gatilhos: %s", k.Name, st.When, listOrNone(sortedKeys(k.Triggers)))
		} else if after != "" {
			state = after
		}
	}
	to := ""
	switch st.Verb {
	case "":
		return state
	case "status":
		to = st.Status
		if !k.Machine.Has(to) {
			c.problem(field+".status", "%s não tem o estado %q; estados: %s", k.Name, to, strings.Join(k.Machine.States(), ", "))
			return state
		}
		only, ok := k.Verbs["status"]
		if !ok {
			c.problem(field+".status", "%s não aceita passos status; aceita: %s", k.Name, strings.Join(sortedKeys(k.Verbs), ", "))
			return state
		}
		if only != "" && only != to {
			var others []string
			for _, v := range sortedKeys(k.Verbs) {
				if v != "status" && k.Verbs[v] != "" {
					others = append(others, v+" → "+k.Verbs[v])
				}
			}
			c.problem(field+".status", "passos status de %s só levam a %s; os outros estados vêm das próprias ações (%s)", k.Name, only, strings.Join(others, ", "))
			return state
		}
	case "emit":
		return state
	default:
		var ok bool
		to, ok = k.Verbs[st.Verb]
		if !ok {
			c.problem(field+"."+st.Verb, "%s não aceita passos %s; aceita: %s", k.Name, st.Verb, strings.Join(sortedKeys(k.Verbs), ", "))
			return state
		}
		if to == "" {
			return state
		}
	}
	if state == "" {
		return to
	}
	if _, err := k.Machine.Check(state, to); err != nil {
		c.problem(field, "transição impossível: %s", errs.As(err).Message)
		return state
	}
	return to
}

func (c *checker) fault(m map[string]any, field string) Fault {
	f := Fault{Line: lineOf(c.root, field)}
	f.Phase, _ = m["phase"].(string)
	if t, ok := m["times"].(float64); ok {
		f.Times = int(t)
	}
	f.Window = c.duration(m, "window", field+".window")
	f.Latency = c.duration(m, "latency", field+".latency")
	f.Timeout = c.duration(m, "timeout", field+".timeout")
	f.Delay = c.duration(m, "delay", field+".delay")
	f.Reset, _ = m["reset"].(bool)
	f.Drop, _ = m["drop"].(bool)
	f.Duplicate, _ = m["duplicate"].(bool)
	f.OutOfOrder, _ = m["out_of_order"].(bool)
	f.BadSignature, _ = m["bad_signature"].(bool)
	f.StaleSignature, _ = m["stale_signature"].(bool)
	f.Unsigned, _ = m["unsigned"].(bool)
	if r, ok := m["respond"].(map[string]any); ok {
		f.Respond = &Respond{Status: int(r["status"].(float64))}
		f.Respond.Message, _ = r["message"].(string)
		f.Respond.Body, _ = r["body"].(map[string]any)
		f.Respond.RetryAfter = c.duration(r, "retry_after", field+".respond.retry_after")
	}
	match, _ := m["match"].(map[string]any)
	hook, _ := m["webhook"].(map[string]any)
	switch {
	case match != nil && hook != nil:
		c.problem(field, "uma falha casa requisições (match) ou webhooks (webhook), não os dois")
	case match == nil && hook == nil:
		c.problem(field, "uma falha precisa de match (requisições) ou webhook (entregas): sem um deles não casa nada")
	case match != nil:
		f.Match = &Match{Path: match["path"].(string)}
		f.Match.Method, _ = match["method"].(string)
		f.Match.App, _ = match["app"].(string)
		if h, ok := match["header"].(map[string]any); ok {
			f.Match.Header = map[string]string{}
			for k, v := range h {
				f.Match.Header[k] = v.(string)
			}
		}
		if b, ok := match["body"].(map[string]any); ok {
			f.Match.Body = c.rule(b, field+".match.body")
		}
		if _, err := path.Match(strings.ReplaceAll(f.Match.Path, "**", "*"), "/"); err != nil {
			c.problem(field+".match.path", "padrão inválido %q: %v", f.Match.Path, err)
		}
		n := count(f.Respond != nil, f.Reset, f.Timeout > 0, f.Latency > 0)
		if f.Respond != nil && f.Latency > 0 {
			n-- // latency then an answer is one fault
		}
		if n != 1 {
			c.problem(field, "uma falha HTTP faz uma coisa só: respond, latency (com respond, opcionalmente), timeout ou reset")
		}
		if f.Phase == "after" && f.Respond == nil && !f.Reset && f.Timeout == 0 {
			c.problem(field+".phase", "uma falha depois do trabalho perde a resposta: dê a ela respond, reset ou timeout")
		}
		if f.Drop || f.Duplicate || f.OutOfOrder || f.BadSignature || f.StaleSignature || f.Unsigned || f.Delay > 0 {
			c.problem(field, "drop, delay, duplicate, out_of_order, bad_signature, stale_signature e unsigned são falhas de webhook: use webhook, não match")
		}
	default:
		f.Webhook = &WebhookMatch{}
		f.Webhook.Event, _ = hook["event"].(string)
		f.Webhook.App, _ = hook["app"].(string)
		if count(f.Drop, f.Duplicate, f.OutOfOrder, f.BadSignature, f.StaleSignature, f.Unsigned, f.Delay > 0) != 1 {
			c.problem(field, "uma falha de webhook faz uma coisa só: drop, delay, duplicate, out_of_order, bad_signature, stale_signature ou unsigned")
		}
		if f.Respond != nil || f.Reset || f.Timeout > 0 || f.Latency > 0 || f.Phase != "" {
			c.problem(field, "respond, latency, timeout, reset e phase são falhas HTTP: use match, não webhook")
		}
	}
	if f.Phase == "" && f.Match != nil {
		f.Phase = "before"
	}
	return f
}

func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Limits on what one scenario file may expand to. A hosted sandbox parses
// files anyone with an app can upload, so anchors and aliases are counted as
// the nodes they stand for: a "billion laughs" file of a few hundred bytes is
// refused at the budget instead of filling memory.
const (
	maxNodes = 20000 // nodes after alias expansion; real scenarios use < 500
	maxDepth = 64    // nesting depth; real scenarios use < 10
)

// converter turns YAML nodes into the values encoding/json would give,
// counting nodes and depth against the limits above.
type converter struct{ nodes int }

// toJSONValue converts a YAML node to the value encoding/json would give:
// maps with string keys, []any, float64, string, bool, nil.
func toJSONValue(n *yaml.Node) (any, error) {
	return (&converter{}).value(n, 0)
}

func (c *converter) value(n *yaml.Node, depth int) (any, error) {
	c.nodes++
	if c.nodes > maxNodes {
		return nil, fmt.Errorf("linha %d: o arquivo se expande a mais de %d nós (âncoras e aliases contam o que repetem)", n.Line, maxNodes)
	}
	if depth > maxDepth {
		return nil, fmt.Errorf("linha %d: aninhamento mais fundo que %d níveis", n.Line, maxDepth)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		return c.value(n.Content[0], depth)
	case yaml.AliasNode:
		return c.value(n.Alias, depth+1)
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.SequenceNode:
		out := []any{}
		for _, item := range n.Content {
			v, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return scalar(n)
}

func (c *converter) mapping(n *yaml.Node, depth int) (any, error) {
	m := map[string]any{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if _, dup := m[k.Value]; dup {
			return nil, fmt.Errorf("linha %d: a chave %q aparece duas vezes", k.Line, k.Value)
		}
		v, err := c.value(n.Content[i+1], depth+1)
		if err != nil {
			return nil, err
		}
		m[k.Value] = v
	}
	return m, nil
}

func scalar(n *yaml.Node) (any, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, fmt.Errorf("linha %d: %v", n.Line, err)
	}
	switch x := v.(type) {
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case time.Time: // YAML timestamps stay text, as JSON would have them
		return n.Value, nil
	}
	return v, nil
}

// lineOf finds the line of a dotted field path ("steps.2.after") in the
// document, falling back to the nearest ancestor that exists.
func lineOf(n *yaml.Node, field string) int {
	line := n.Line
	if field == "" {
		return line
	}
	for _, part := range strings.Split(field, ".") {
		switch n.Kind {
		case yaml.MappingNode:
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == part {
					line = n.Content[i].Line
					n = n.Content[i+1]
					found = true
					break
				}
			}
			if !found {
				return line
			}
		case yaml.SequenceNode:
			i, err := strconv.Atoi(part)
			if err != nil || i >= len(n.Content) {
				return line
			}
			n = n.Content[i]
			line = n.Line
		default:
			return line
		}
	}
	return line
}

// yamlLine extracts the line from a yaml.v3 error ("yaml: line 3: …").
func yamlLine(err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+5:]
		if j := strings.IndexAny(rest, ":,"); j > 0 {
			if n, err := strconv.Atoi(rest[:j]); err == nil {
				return n
			}
		}
	}
	return 0
}

func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "line ") {
		return msg[i+2:]
	}
	return msg
}
