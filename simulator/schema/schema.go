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

	"github.com/xeipuuv/gojsonschema"
)

// Registry holds every compiled schema by name: its path under schemas/
// without ".json", e.g. "platform/company.create".
type Registry struct {
	schemas map[string]*gojsonschema.Schema
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
	docs := map[string]any{}
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
		docs[p] = doc
	}
	reg := &Registry{schemas: map[string]*gojsonschema.Schema{}}
	// One loader holds every document, so $refs between files resolve from
	// its pool, and each schema is compiled from there once.
	sl := gojsonschema.NewSchemaLoader()
	sl.Draft = gojsonschema.Draft7
	for _, p := range names {
		if err := sl.AddSchema("file:///schemas/"+p, gojsonschema.NewGoLoader(docs[p])); err != nil {
			return nil, fmt.Errorf("schema %s: %w", p, err)
		}
	}
	for _, p := range names {
		s, err := sl.Compile(gojsonschema.NewReferenceLoader("file:///schemas/" + p))
		if err != nil {
			return nil, fmt.Errorf("compile schema %s: %w", p, err)
		}
		reg.schemas[strings.TrimSuffix(p, ".json")] = s
	}
	return reg, nil
}

// Names lists the schemas of the registry.
func (r *Registry) Names() []string {
	var ns []string
	for n := range r.schemas {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Has reports whether the registry holds the named schema.
func (r *Registry) Has(name string) bool { _, ok := r.schemas[name]; return ok }

// Validate checks doc against the named schema. The error is for an unknown
// schema or a document that is not JSON; violations are the result.
func (r *Registry) Validate(name string, doc []byte) ([]Violation, error) {
	s, ok := r.schemas[name]
	if !ok {
		return nil, fmt.Errorf("no schema %q", name)
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
