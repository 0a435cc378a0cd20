package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// The partner file says what the suite needs of an integration: where its
// actions are, how to start it, which app it uses and which products it
// does. Version 1 (no version field) is the reference partner's shape: one
// process serving every app at once, told the scenario's app in headers.
// Version 2 fits a real integration: one app, configured at start.

// Products the suite homologates; a partner file names the ones it does.
var Products = []string{"pix", "pix-automatico", "seguros"}

// The app modes of a version 2 file.
const (
	// PerScenario: the suite registers an app per scenario and hands it
	// to the partner (in its start environment, or in headers).
	PerScenario = "per-scenario"
	// Fixed: the partner brings its one app; the suite runs its scenarios
	// one after another on it, resetting the company between them.
	Fixed = "fixed"
)

// Partner is the integration under test, as its YAML file describes it.
type Partner struct {
	Version int    `yaml:"version"`
	Name    string `yaml:"name"`
	// URL is the base of the partner's actions; each action's path is
	// relative to it unless it is a full URL. With start, it may hold
	// {{port}}, the port the suite gives the process.
	URL string `yaml:"url"`
	// ClientID names the partner's own app in the sandbox (version 1;
	// version 2 says app.clientId): the app a run the sandbox makes
	// homologates.
	ClientID string `yaml:"clientId"`
	// Products are what the integration does; the suite runs their checks
	// and the publish gate covers them. All, when left out.
	Products []string     `yaml:"products"`
	App      PartnerApp   `yaml:"app"`
	Start    *StartConfig `yaml:"start"`
	// Webhook is the path, under URL, of the partner's receiver of the
	// insurer's events (version 2; version 1 receives them at
	// /webhooks/{clientId}). Pix callbacks go where the partner registers
	// them (PUT /pix/v2/webhook/{chave}).
	Webhook string `yaml:"webhook"`
	// Actions are what the suite may ask the partner to do.
	Actions map[string]Action `yaml:"actions"`
	// Flows are what the integration does, operation by operation (cob,
	// cobv, venda, beneficio, …: Flows lists them by product); the suite
	// homologates each declared flow and no other. Left out, a product's
	// default flows (DefaultFlows).
	Flows []string `yaml:"flows"`
	// Widgets are what the partner leaves to its customer in the
	// service's widgets, as the specification allows (the customer sends
	// a benefit's pending documents in the benefit-pending widget, types
	// the card into the credit-card widget): the checks of the partner
	// doing it itself do not apply, those of the widget's way do.
	// WidgetCatalogue lists them. Left out, a product's default widgets.
	Widgets []string `yaml:"widgets"`

	// dir is the partner file's folder: where a start command runs.
	dir string
}

// PartnerApp is the app of a version 2 file.
type PartnerApp struct {
	Mode string `yaml:"mode"`
	// ClientID, ClientSecret, WebhookSecret and Chave are the fixed app's
	// (its Pix key, the company's CNPJ or another registered key); each
	// may name an environment variable, "${env.NAME}".
	ClientID      string `yaml:"clientId"`
	ClientSecret  string `yaml:"clientSecret"`
	WebhookSecret string `yaml:"webhookSecret"`
	Chave         string `yaml:"chave"`
}

// StartConfig starts the partner: a command with an environment templated
// from the app and the sandbox, a readiness probe, and a stop (SIGTERM,
// then a kill after a grace).
type StartConfig struct {
	Command []string          `yaml:"command"`
	Env     map[string]string `yaml:"env"`
	// Ready is the readiness probe: a path under URL answered 2xx once
	// the partner serves, and optionally a condition on its answer.
	Ready   ReadyProbe `yaml:"ready"`
	Timeout Duration   `yaml:"timeout"`
	// Dir is the command's working folder, relative to the partner
	// file's (default: the partner file's folder).
	Dir string `yaml:"dir"`
}

// Duration is a time.Duration written as "15s" in YAML.
type Duration time.Duration

// UnmarshalYAML reads "15s", "2m".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration such as 15s", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// Action is one thing the partner can be asked to do: an HTTP call whose
// body is a template, and the fields of its answer the steps read.
type Action struct {
	Method string `yaml:"method"`
	Path   string `yaml:"path"`
	// Body is a template: "{{name}}" (version 2) or "${name}" (version 1)
	// stands for a parameter; a field whose whole value is a parameter
	// the step does not give is left out.
	Body any `yaml:"body"`
	// Returns maps names the steps read (${partner.<name>}) to paths in
	// the answer: "$.charge.id", "$.items[0].txid", "$.payments[*].txid"
	// (a list), "$.charges[?(@.status == 'PAID')].txid" (a list filtered
	// by value). The state action maps the names of the state contract
	// (ledger.go), some of them records. Without it, every top-level
	// field is read under its name.
	Returns map[string]ReturnSpec `yaml:"returns"`
}

// ReturnSpec is one name of an action's returns: a path, or (in the state
// action) a record list:
//
//	proposals:
//	  each: $.proposals[*]          # the items
//	  numero: $.number              # each field, a path in the item
//	  status: $.state
//	  values: {status: {implanted: IMPLANTADA}}  # its words to the service's
type ReturnSpec struct {
	Path   string
	Each   string
	Fields map[string]string
	Values map[string]map[string]string

	path   jsonPath
	each   jsonPath
	fields map[string]jsonPath
}

// UnmarshalYAML reads a path (a string) or a record (a mapping).
func (r *ReturnSpec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		r.Path = n.Value
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: write a path such as $.charge.id, or a record with each: and its fields", n.Line)
	}
	var m map[string]yaml.Node
	if err := n.Decode(&m); err != nil {
		return err
	}
	r.Fields = map[string]string{}
	for k, v := range m {
		switch k {
		case "each":
			r.Each = v.Value
		case "values":
			if err := v.Decode(&r.Values); err != nil {
				return fmt.Errorf("line %d: values: write {field: {its word: the service's word}}: %w", v.Line, err)
			}
		default:
			if v.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: %s: a path in the item, such as $.status", v.Line, k)
			}
			r.Fields[k] = v.Value
		}
	}
	if r.Each == "" {
		return fmt.Errorf("line %d: a record needs each: (the path of its items, such as $.proposals[*])", n.Line)
	}
	return nil
}

// compile parses the spec's paths.
func (r *ReturnSpec) compile() (err error) {
	if r.Each == "" {
		r.path, err = parsePath(r.Path)
		return err
	}
	if r.each, err = parsePath(r.Each); err != nil {
		return fmt.Errorf("each: %w", err)
	}
	r.fields = map[string]jsonPath{}
	for k, v := range r.Fields {
		if r.fields[k], err = parsePath(v); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	for k := range r.Values {
		if _, ok := r.Fields[k]; !ok {
			return fmt.Errorf("values.%s: the record maps no field %s", k, k)
		}
	}
	return nil
}

// records reads a record list from an answer: each item's fields, as
// text in the service's words.
func (r *ReturnSpec) records(doc any) ([]map[string]string, bool) {
	v, ok := r.each.pick(doc)
	if !ok {
		return nil, false
	}
	items, isList := v.([]any)
	if !isList {
		items = []any{v}
	}
	var out []map[string]string
	for _, it := range items {
		rec := map[string]string{}
		for k, p := range r.fields {
			if fv, ok := p.walk(it, doc); ok && fv != nil {
				rec[k] = text(fv)
				if word, ok := r.Values[k][rec[k]]; ok {
					rec[k] = word
				}
			}
		}
		out = append(out, rec)
	}
	return out, true
}

// ReadyProbe is a start's readiness probe: a path answered 2xx, and, when
// When is set, an answer for which the condition holds ("$.ready ==
// true"): a partner may answer 200 before it is ready.
type ReadyProbe struct {
	Path string
	When string
	when *condition
}

// UnmarshalYAML reads a path, or {path, when}.
func (r *ReadyProbe) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		r.Path = n.Value
		return nil
	}
	var v struct {
		Path string `yaml:"path"`
		When string `yaml:"when"`
	}
	if err := n.Decode(&v); err != nil {
		return fmt.Errorf("line %d: ready: write a path, or {path: /health, when: \"$.ready == true\"}", n.Line)
	}
	r.Path, r.When = v.Path, v.When
	return nil
}

// check parses the condition.
func (r *ReadyProbe) check() error {
	if r.When == "" {
		return nil
	}
	if r.Path == "" {
		return fmt.Errorf("a condition needs the path it reads")
	}
	c, err := parseCondition(r.When)
	if err != nil {
		return err
	}
	r.when = c
	return nil
}

// whenText names the condition in a message.
func (r *ReadyProbe) whenText() string {
	if r.When == "" {
		return ""
	}
	return " (" + r.When + ")"
}

// accepts reports whether an answer of the probe says ready.
func (r *ReadyProbe) accepts(status int, body []byte) bool {
	if status/100 != 2 {
		return false
	}
	if r.when == nil {
		return true
	}
	var doc any
	if json.Unmarshal(body, &doc) != nil {
		return false
	}
	return r.when.holds(doc, doc)
}

// LoadPartner reads and checks a partner file.
func LoadPartner(path string) (*Partner, error) { return LoadPartnerEnv(path, os.Getenv) }

// LoadPartnerEnv is LoadPartner with the environment ${env.NAME} reads.
func LoadPartnerEnv(path string, getenv func(string) string) (*Partner, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parsePartner(path, b, func(k string) (string, bool) { v := getenv(k); return v, v != "" })
}

// ParsePartner checks a partner file's content; path says which file in
// errors, and is where a start command runs from.
func ParsePartner(path string, b []byte) (*Partner, error) {
	return parsePartner(path, b, os.LookupEnv)
}

// ParseHostedPartner is ParsePartner for a run the sandbox makes: no
// ${env.NAME} reference is read (the sandbox's environment is not the
// partner's), and hostable applies.
func ParseHostedPartner(name string, b []byte) (*Partner, error) {
	return parsePartner(name, b, func(string) (string, bool) { return "", false })
}

func parsePartner(path string, b []byte, lookup func(string) (string, bool)) (*Partner, error) {
	var p Partner
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := p.check(lookup); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		p.dir = filepath.Dir(path)
	}
	return &p, nil
}

// check applies the defaults and says what is wrong, naming the field.
func (p *Partner) check(lookup func(string) (string, bool)) error {
	switch p.Version {
	case 0, 1:
		p.Version = 1
		if p.Start != nil || p.App != (PartnerApp{}) || p.Webhook != "" {
			return fmt.Errorf("start, app and webhook are version 2 fields: add \"version: 2\" (see docs/reference/homologation.md, the partner file)")
		}
	case 2:
	default:
		return fmt.Errorf("version: %d is not 1 or 2", p.Version)
	}
	if p.URL == "" {
		return fmt.Errorf("url: the base URL of the partner's actions is required")
	}
	if len(p.Products) == 0 {
		p.Products = slices.Clone(Products)
	}
	for _, pr := range p.Products {
		if !slices.Contains(Products, pr) {
			return fmt.Errorf("products: %q is not one of %s", pr, strings.Join(Products, ", "))
		}
	}
	if err := p.checkApp(lookup); err != nil {
		return err
	}
	if p.Start != nil && len(p.Start.Command) == 0 {
		return fmt.Errorf("start.command: the command (a list, e.g. [python3, partner.py]) is required")
	}
	if p.Start != nil {
		if err := p.Start.Ready.check(); err != nil {
			return fmt.Errorf("start.ready.when: %w", err)
		}
	}
	if err := p.checkFlows(); err != nil {
		return err
	}
	for name, a := range p.Actions {
		if a.Path == "" {
			return fmt.Errorf("actions.%s.path is required", name)
		}
		if a.Method == "" {
			a.Method = http.MethodPost
		}
		for field, r := range a.Returns {
			if err := r.compile(); err != nil {
				return fmt.Errorf("actions.%s.returns.%s: %w", name, field, err)
			}
			if err := checkReturn(name, field, r); err != nil {
				return fmt.Errorf("actions.%s.returns.%s: %w", name, field, err)
			}
			a.Returns[field] = r
		}
		p.Actions[name] = a
	}
	return nil
}

// checkApp reads the app of a version 2 file, its environment variables
// resolved.
func (p *Partner) checkApp(lookup func(string) (string, bool)) error {
	a := &p.App
	if a.Mode == "" {
		a.Mode = PerScenario
	}
	if a.Mode != PerScenario && a.Mode != Fixed {
		return fmt.Errorf("app.mode: %q is not %s or %s", a.Mode, PerScenario, Fixed)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"clientId", &a.ClientID}, {"clientSecret", &a.ClientSecret}, {"webhookSecret", &a.WebhookSecret}, {"chave", &a.Chave}} {
		v, err := fromEnv(*f.v, lookup)
		if err != nil {
			return fmt.Errorf("app.%s: %w", f.name, err)
		}
		*f.v = v
		// The key is the Pix products' only: a partner of the insurer's
		// cycles alone has none to give.
		needed := f.name != "webhookSecret" && (f.name != "chave" || p.Does("pix") || p.Does("pix-automatico"))
		if a.Mode == Fixed && v == "" && needed {
			return fmt.Errorf("app.%s is required with app.mode: fixed", f.name)
		}
	}
	if p.Version == 2 && p.ClientID == "" {
		p.ClientID = a.ClientID
	}
	return nil
}

var envRef = regexp.MustCompile(`^\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}$`)

// fromEnv resolves "${env.NAME}"; any other value is itself.
func fromEnv(v string, lookup func(string) (string, bool)) (string, error) {
	m := envRef.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return v, nil
	}
	got, ok := lookup(m[1])
	if !ok || got == "" {
		return "", fmt.Errorf("the environment variable %s is not set", m[1])
	}
	return got, nil
}

// Does reports whether the partner does a product.
func (p *Partner) Does(product string) bool { return slices.Contains(p.Products, product) }

// Tags is the tag expression that runs the checks of the partner's
// products: every scenario is tagged with its product's area.
func (p *Partner) Tags() string {
	if len(p.Products) == len(Products) {
		return ""
	}
	var ors []string
	for _, pr := range p.Products {
		ors = append(ors, "@area:"+pr)
	}
	return strings.Join(ors, ",")
}

// placeholder finds the parameters of a template: {{name}} in version 2,
// ${name} in version 1.
var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.]+)\s*\}\}|\$\{([A-Za-z0-9_.]+)\}`)

// fill replaces the placeholders of a body template with params. A string
// that is one placeholder takes the parameter's value with its type, and
// is left out (its field dropped) when the parameter is not given; a
// placeholder inside a longer string becomes its text ("" if not given).
func fill(v any, params map[string]any) (any, bool) {
	switch x := v.(type) {
	case string:
		if m := placeholder.FindStringSubmatch(x); m != nil && m[0] == x {
			return param(params, m[1]+m[2])
		}
		return placeholder.ReplaceAllStringFunc(x, func(s string) string {
			m := placeholder.FindStringSubmatch(s)
			v, ok := param(params, m[1]+m[2])
			if !ok {
				return ""
			}
			return text(v)
		}), true
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if val, ok := fill(e, params); ok {
				out[k] = val
			}
		}
		return out, true
	case []any:
		out := []any{}
		for _, e := range x {
			if val, ok := fill(e, params); ok {
				out = append(out, val)
			}
		}
		return out, true
	}
	return v, true
}

// param finds a parameter by name, or by a dotted path into an object
// parameter ("devedor.cpf"), so a partner maps the suite's parameters to
// its own shapes field by field.
func param(params map[string]any, name string) (any, bool) {
	if v, ok := params[name]; ok {
		return v, true
	}
	head, rest, dotted := strings.Cut(name, ".")
	if !dotted {
		return nil, false
	}
	inner, ok := params[head].(map[string]any)
	if !ok {
		return nil, false
	}
	return param(inner, rest)
}

// answerFields are the fields of an action's answer the steps read: those
// Returns maps, or every top-level field.
func (a Action) answerFields(answer []byte) map[string]any {
	var doc any
	if json.Unmarshal(answer, &doc) != nil {
		return nil
	}
	out := map[string]any{}
	if len(a.Returns) == 0 {
		m, _ := doc.(map[string]any)
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	for name, r := range a.Returns {
		if r.Each != "" {
			continue // a record of the state contract, not a value
		}
		if v, ok := r.path.pick(doc); ok {
			out[name] = v
		}
	}
	return out
}

// servesEveryApp reports a partner that serves the apps of all scenarios
// at once and is told each request's app in headers: version 1, or
// version 2 in the per-scenario mode without a start command.
func (p *Partner) servesEveryApp() bool {
	return p.Version == 1 || (p.App.Mode == PerScenario && p.Start == nil)
}

// hostable says why a run the sandbox makes cannot use this file: it
// calls a partner already running at url, and never runs a command or
// reads its own environment for one (a hosted sandbox's environment holds
// its secrets). A fixed app must be the app under homologation, its
// secret written in the file.
func (p *Partner) hostable(clientID string) error {
	if p.Start != nil {
		return fmt.Errorf("start: uma homologação feita pelo sandbox chama o parceiro já no ar em url; start é para homologa test na sua máquina")
	}
	if p.App.Mode == Fixed && p.App.ClientID != clientID {
		return fmt.Errorf("app.clientId: %q não é o app homologado (%s)", p.App.ClientID, clientID)
	}
	return nil
}
