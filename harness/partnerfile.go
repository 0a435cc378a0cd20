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
	"strconv"
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
	// Ready is a path under URL answered 2xx once the partner serves.
	Ready   string   `yaml:"ready"`
	Timeout Duration `yaml:"timeout"`
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
	// (a list). Without it, every top-level field is read under its name.
	Returns map[string]string `yaml:"returns"`
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
			return fmt.Errorf("start, app and webhook are version 2 fields: add \"version: 2\" (see the README's partner file section)")
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
	for name, a := range p.Actions {
		if a.Path == "" {
			return fmt.Errorf("actions.%s.path is required", name)
		}
		if a.Method == "" {
			a.Method = http.MethodPost
		}
		for field, jp := range a.Returns {
			if _, err := parsePath(jp); err != nil {
				return fmt.Errorf("actions.%s.returns.%s: %w", name, field, err)
			}
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
		if a.Mode == Fixed && v == "" && f.name != "webhookSecret" {
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

// step is one step of a path into a JSON answer: a field, an index, or
// every element ("[*]").
type step struct {
	field string
	index int
	all   bool
}

var pathStep = regexp.MustCompile(`^(?:\.([A-Za-z0-9_\-]+)|\[(\d+|\*)\])`)

// parsePath reads "$.a.b[0].c" or "$.items[*].txid".
func parsePath(p string) ([]step, error) {
	if !strings.HasPrefix(p, "$") {
		return nil, fmt.Errorf("%q: a path starts with $, e.g. $.charge.txid", p)
	}
	rest := p[1:]
	var out []step
	for rest != "" {
		m := pathStep.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("%q: cannot read %q (write .field, [0] or [*])", p, rest)
		}
		switch {
		case m[1] != "":
			out = append(out, step{field: m[1], index: -1})
		case m[2] == "*":
			out = append(out, step{all: true, index: -1})
		default:
			n, _ := strconv.Atoi(m[2])
			out = append(out, step{index: n})
		}
		rest = rest[len(m[0]):]
	}
	return out, nil
}

// pick reads a path from a decoded JSON answer: one value, or a list
// where the path has [*]. ok is false when the path leads nowhere.
func pick(doc any, path string) (any, bool) {
	steps, err := parsePath(path)
	if err != nil {
		return nil, false
	}
	return walk(doc, steps)
}

func walk(v any, steps []step) (any, bool) {
	if len(steps) == 0 {
		return v, true
	}
	s := steps[0]
	switch {
	case s.field != "":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		e, ok := m[s.field]
		if !ok {
			return nil, false
		}
		return walk(e, steps[1:])
	case s.all:
		list, ok := v.([]any)
		if !ok {
			return nil, false
		}
		out := []any{}
		for _, e := range list {
			if got, ok := walk(e, steps[1:]); ok {
				out = append(out, got)
			}
		}
		return out, true
	default:
		list, ok := v.([]any)
		if !ok || s.index >= len(list) {
			return nil, false
		}
		return walk(list[s.index], steps[1:])
	}
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
	for name, p := range a.Returns {
		if v, ok := pick(doc, p); ok {
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
