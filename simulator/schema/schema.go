// Package schema compiles the JSON Schemas (draft-07) of the schemas/ folder
// once and validates documents against them. The server validates request
// bodies with it, the scenario loader scenario files, the harness responses.
package schema

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"
)

// Registry holds every schema by name: its path under schemas/ without
// ".json", e.g. "platform/company.create". A schema is compiled once, at
// Load or, from LoadLazy, at its first use.
type Registry struct {
	names map[string]bool
	// compiled maps a name to its *gojsonschema.Schema: read lock-free on
	// every request once compiled.
	compiled sync.Map
	mu       sync.Mutex // compiles one at a time: the loader's pool is shared
	loader   *gojsonschema.SchemaLoader
}

// Violation is one way a document breaks its schema.
type Violation struct {
	Field  string
	Reason string
	Value  string
}

// Load compiles every *.json file of fsys. Schemas may $ref each other by
// relative file name, resolved against their $id ("file:///schemas/<path>", an identifier only: nothing is read from disk).
func Load(fsys fs.FS) (*Registry, error) {
	reg, err := LoadLazy(fsys)
	if err != nil {
		return nil, err
	}
	for _, n := range reg.Names() {
		if _, err := reg.schema(n); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// LoadLazy reads and checks every *.json file of fsys as Load does, and
// compiles each at its first use: compiling them all took half of the
// sandbox's start (53 ms), and a sandbox validates a few dozen of them.
// The tests compile every one (Load), so a broken schema still fails CI.
func LoadLazy(fsys fs.FS) (*Registry, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk schemas: %w", err)
	}
	sort.Strings(names)
	reg := &Registry{names: map[string]bool{}, loader: gojsonschema.NewSchemaLoader()}
	// One loader holds every document, so $refs between files resolve from
	// its pool, and each schema is compiled from there once.
	reg.loader.Draft = gojsonschema.Draft7
	for _, p := range names {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("schema %s: %w", p, err)
		}
		if s, _ := doc["$schema"].(string); !strings.Contains(s, "draft-07") {
			return nil, fmt.Errorf("schema %s: $schema must be draft-07, got %q", p, s)
		}
		doc["$id"] = "file:///schemas/" + p
		if err := reg.loader.AddSchema("file:///schemas/"+p, gojsonschema.NewGoLoader(doc)); err != nil {
			return nil, fmt.Errorf("schema %s: %w", p, err)
		}
		reg.names[strings.TrimSuffix(p, ".json")] = true
	}
	return reg, nil
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
	s, err := r.loader.Compile(gojsonschema.NewReferenceLoader("file:///schemas/" + name + ".json"))
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
	s, err := r.schema(name)
	if err != nil {
		return nil, err
	}
	res, err := s.Validate(gojsonschema.NewBytesLoader(doc))
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
	return Violation{Field: field, Reason: e.Description(), Value: v}
}
