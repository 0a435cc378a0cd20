package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"
)

// Registry holds every schema by name: its path under schemas/ without
// ".json", e.g. "platform/company.create". A schema is read and compiled
// once, at Load or, from LoadLazy, at its first use.
type Registry struct {
	names map[string]bool
	// compiled maps a name to its *gojsonschema.Schema: read lock-free on
	// every request once compiled.
	compiled sync.Map
	mu       sync.Mutex // compiles one at a time: the loader's pool is shared
	loader   *gojsonschema.SchemaLoader
	files    http.FileSystem
	// checks maps a name to its *check, or to nil when its schema uses a
	// keyword checks do not know (check.go); checker compiles them.
	checks  sync.Map
	checker *checkCompiler
}

// Violation is one way a document breaks its schema.
type Violation struct {
	Field  string
	Reason string
	Value  string
	// Unknown marks a member the schema does not declare (its
	// additionalProperties are false): what a lenient API ignores.
	Unknown bool
}

// Load reads and compiles every *.json file of fsys, each of which must
// be draft-07. Schemas may $ref each other by relative file name,
// resolved against their URL, file:///schemas/<path> (an identifier
// only: the loader reads fsys).
func Load(fsys fs.FS) (*Registry, error) {
	reg, err := LoadLazy(fsys)
	if err != nil {
		return nil, err
	}
	for _, n := range reg.Names() {
		b, err := fs.ReadFile(fsys, n+".json")
		if err != nil {
			return nil, err
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("schema %s.json: %w", n, err)
		}
		if s, _ := doc["$schema"].(string); !strings.Contains(s, "draft-07") {
			return nil, fmt.Errorf("schema %s.json: $schema must be draft-07, got %q", n, s)
		}
		if _, err := reg.schema(n); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// LoadLazy lists the *.json files of fsys and reads and compiles each at
// its first use, with the files it refers to: compiling them all was
// half of the sandbox's start, and holding them all parsed, megabytes
// of an idle sandbox's memory, when a sandbox uses a few dozen.
// The tests Load every one, so a broken schema still fails CI.
func LoadLazy(fsys fs.FS) (*Registry, error) {
	reg := &Registry{names: map[string]bool{}, loader: gojsonschema.NewSchemaLoader(), files: schemaFiles{http.FS(fsys)}, checker: newCheckCompiler(fsys)}
	// One loader holds the documents read, so each is read once, and a
	// $ref between files resolves from its pool.
	reg.loader.Draft = gojsonschema.Draft7
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") {
			reg.names[strings.TrimSuffix(p, ".json")] = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk schemas: %w", err)
	}
	return reg, nil
}

// schemaFiles serves file:///schemas/<path> from the schemas' folder.
type schemaFiles struct{ fs http.FileSystem }

func (f schemaFiles) Open(name string) (http.File, error) {
	return f.fs.Open(strings.TrimPrefix(name, "/schemas"))
}

// schema returns the compiled schema of name, compiling it at its first
// use.
func (r *Registry) schema(name string) (*gojsonschema.Schema, error) {
	if s, ok := r.compiled.Load(name); ok {
		return s.(*gojsonschema.Schema), nil
	}
	if !r.names[name] {
		return nil, fmt.Errorf("no schema %q", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.compiled.Load(name); ok {
		return s.(*gojsonschema.Schema), nil
	}
	s, err := r.loader.Compile(gojsonschema.NewReferenceLoaderFileSystem("file:///schemas/"+name+".json", r.files))
	if err != nil {
		return nil, fmt.Errorf("compile schema %s.json: %w", name, err)
	}
	r.compiled.Store(name, s)
	return s, nil
}

// Names lists the schemas of the registry.
func (r *Registry) Names() []string {
	var ns []string
	for n := range r.names {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Has reports whether the registry holds the named schema.
func (r *Registry) Has(name string) bool { return r.names[name] }

// Validate checks doc against the named schema. The error is for an unknown
// schema or a document that is not JSON; violations are the result.
func (r *Registry) Validate(name string, doc []byte) ([]Violation, error) {
	if c := r.check(name); c != nil {
		// Decoded as gojsonschema's bytes loader decodes; anything but a
		// document the check finds valid goes to gojsonschema as before.
		dec := json.NewDecoder(bytes.NewReader(doc))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil && !dec.More() && c.verdict(v) == valid {
			return nil, nil
		}
	}
	return r.validate(name, gojsonschema.NewBytesLoader(doc))
}

// ValidateDocument is Validate for a document already decoded, with its
// numbers as json.Number (json.Decoder.UseNumber): nothing is parsed
// again.
func (r *Registry) ValidateDocument(name string, doc any) ([]Violation, error) {
	if c := r.check(name); c != nil && c.verdict(doc) == valid {
		return nil, nil
	}
	return r.validate(name, gojsonschema.NewRawLoader(doc))
}

// check returns the check of the named schema, compiling it at its first
// use; nil when it has none.
func (r *Registry) check(name string) *check {
	if c, ok := r.checks.Load(name); ok {
		return c.(*check)
	}
	if !r.names[name] {
		return nil
	}
	c, err := r.checker.compile(name)
	if err != nil {
		c = nil // gojsonschema alone; TestEverySchemaHasACheck lists why
	}
	r.checks.Store(name, c)
	return c
}

func (r *Registry) validate(name string, doc gojsonschema.JSONLoader) ([]Violation, error) {
	s, err := r.schema(name)
	if err != nil {
		return nil, err
	}
	res, err := s.Validate(doc)
	if err != nil {
		return nil, fmt.Errorf("validate against %s: %w", name, err)
	}
	var vs, wrappers []Violation
	for _, e := range res.Errors() {
		// allOf and if/then/else report a generic line of their own beside
		// the precise violations inside them; keep it only if alone.
		switch e.Type() {
		case "number_all_of", "condition_then", "condition_else":
			wrappers = append(wrappers, violation(e))
		default:
			vs = append(vs, violation(e))
		}
	}
	if len(vs) == 0 {
		vs = wrappers
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Field < vs[j].Field })
	return vs, nil
}

// violation names the field in dotted form: the property a "required" error
// is about, not its parent, so a client knows what to add.
func violation(e gojsonschema.ResultError) Violation {
	field := e.Field()
	if field == "(root)" {
		field = ""
	}
	if e.Type() == "required" {
		if p, ok := e.Details()["property"].(string); ok {
			field = path.Join(strings.ReplaceAll(field, ".", "/"), p)
			field = strings.ReplaceAll(field, "/", ".")
		}
	}
	if e.Type() == "additional_property_not_allowed" {
		if p, ok := e.Details()["property"].(string); ok {
			if field == "" {
				field = p
			} else {
				field += "." + p
			}
		}
	}
	v := ""
	if e.Value() != nil && e.Type() != "required" {
		if b, err := json.Marshal(e.Value()); err == nil && len(b) <= 200 {
			v = strings.Trim(string(b), `"`)
		}
	}
	return Violation{Field: field, Reason: e.Description(), Value: v, Unknown: e.Type() == "additional_property_not_allowed"}
}
