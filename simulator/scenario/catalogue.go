package scenario

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"homologa/simulator/schema"
)

// Catalogue is a consistent set of scenarios: unique ids, at most one
// default per kind. It is immutable; a reload builds a new one.
type Catalogue struct {
	byID     map[string]*Scenario
	defaults map[string]*Scenario
	order    []string
	// selecting are the scenarios with a select rule, by kind, in id
	// order: every creation asks Selected, and need not walk every
	// scenario of every kind for the few of its own.
	selecting map[string][]*Scenario
}

// Get returns the scenario with id, or nil.
func (c *Catalogue) Get(id string) *Scenario { return c.byID[id] }

// All lists the scenarios by id.
func (c *Catalogue) All() []*Scenario {
	out := make([]*Scenario, 0, len(c.order))
	for _, id := range c.order {
		out = append(out, c.byID[id])
	}
	return out
}

// Default returns the default scenario of kind, or nil.
func (c *Catalogue) Default(kind string) *Scenario { return c.defaults[kind] }

// Selected returns the first scenario (by id) of kind whose select rule
// matches body, or nil.
func (c *Catalogue) Selected(kind string, body map[string]any) *Scenario {
	for _, s := range c.selecting[kind] {
		if s.Select.Match(body) {
			return s
		}
	}
	return nil
}

// File is one scenario file to load.
type File struct {
	Name string
	Data []byte
}

// Build checks every file and the set as a whole; on any problem it returns
// them all and no catalogue. Later files replace earlier ones with the same
// id (a --scenarios folder overrides a shipped scenario; say so in the
// file), but two files of one source may not share an id.
func Build(files []File, kinds Kinds, reg *schema.Registry) (*Catalogue, error) {
	c := &Catalogue{byID: map[string]*Scenario{}, defaults: map[string]*Scenario{}}
	var problems []Problem
	source := func(name string) string { return filepath.Dir(name) }
	for _, f := range files {
		s, err := Parse(f.Name, f.Data, kinds, reg)
		if err != nil {
			le, ok := err.(*LoadError)
			if !ok {
				return nil, err
			}
			problems = append(problems, le.Problems...)
			continue
		}
		if prev := c.byID[s.ID]; prev != nil && source(prev.File) == source(s.File) {
			problems = append(problems, Problem{File: f.Name, Line: lineOfID(f.Data), Field: "id", Message: fmt.Sprintf("o id %q já é usado por %s", s.ID, prev.File)})
			continue
		}
		c.byID[s.ID] = s
	}
	for id := range c.byID {
		c.order = append(c.order, id)
	}
	sort.Strings(c.order)
	c.selecting = map[string][]*Scenario{}
	for _, id := range c.order {
		s := c.byID[id]
		if s.Select != nil {
			c.selecting[s.AppliesTo] = append(c.selecting[s.AppliesTo], s)
		}
		if !s.Default {
			continue
		}
		if prev := c.defaults[s.AppliesTo]; prev != nil {
			problems = append(problems, Problem{File: s.File, Field: "default", Message: fmt.Sprintf("%s já tem um cenário padrão: %s (%s)", s.AppliesTo, prev.ID, prev.File)})
			continue
		}
		c.defaults[s.AppliesTo] = s
	}
	if len(problems) > 0 {
		return nil, &LoadError{Problems: problems}
	}
	return c, nil
}

func lineOfID(data []byte) int {
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "id:") {
			return i + 1
		}
	}
	return 0
}

// ReadFS returns the *.yaml and *.yml files of fsys, named prefix+path.
func ReadFS(fsys fs.FS, prefix string) ([]File, error) {
	var out []File
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		out = append(out, File{Name: prefix + p, Data: b})
		return nil
	})
	return out, err
}

// ReadDir returns the scenario files of a folder, named by their paths.
func ReadDir(dir string) ([]File, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("scenarios folder: %w", err)
	}
	return ReadFS(os.DirFS(dir), dir+string(filepath.Separator))
}

// lookup returns the value at a dotted path of a JSON object.
func lookup(body map[string]any, field string) (any, bool) {
	var cur any = body
	for _, part := range strings.Split(field, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}
