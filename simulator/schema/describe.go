package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Field is one member of the documents a schema describes, as a reader
// writing one needs it: where it is, what it takes, and the schema's
// own words for it.
type Field struct {
	// Path is where the member is: "comunicante.relacao";
	// "documentos[].tipo" in each element of a list; "valores.*" for
	// each value of an object used as a map; "" for the document itself.
	Path string
	// Type is its JSON type ("string", "integer or string", "array of
	// object"), "any" when the schema names none.
	Type string
	// Required is whether the object it is in must have it; the document
	// itself is required.
	Required bool
	// Rules say what the value must be besides its type: the values
	// allowed, the pattern, format and bounds, the alternatives of a
	// oneOf or anyOf.
	Rules []string
	// Description is the schema's description of it.
	Description string
}

// Describe lists the fields of the documents the named schema describes:
// the document itself, then each member depth first, an object's members
// in the order of their names. A $ref is followed and an allOf merged
// into one description; a oneOf or anyOf is a rule of its object naming
// its alternatives, and an if/then/else a rule saying its condition.
// It reads the files validation compiles: the request reference is
// written from it.
func (r *Registry) Describe(name string) ([]Field, error) {
	if !r.names[name] {
		return nil, fmt.Errorf("no schema %q", name)
	}
	d := &describer{files: schemaFolder{fsys: r.checker.files.fsys, docs: map[string]any{}}}
	file, pointer, err := resolveRef("file:///schemas/", name+".json")
	if err != nil {
		return nil, err
	}
	root, err := d.at(file, pointer)
	if err != nil {
		return nil, err
	}
	if err := d.walk("", true, root, 0); err != nil {
		return nil, err
	}
	return d.out, nil
}

// describer writes the fields of one schema.
type describer struct {
	files schemaFolder
	out   []Field
}

// located is a schema and the file its references are read from.
type located struct {
	file string
	node any
}

// flat is what one member may be: its schema with $ref followed and
// allOf merged.
type flat struct {
	desc     string
	types    []string
	rules    []string
	props    map[string]located
	required []string
	items    *located
	values   *located
	// enumKinds are the JSON types of its enum's or const's values,
	// its type when the schema names none.
	enumKinds []string
}

// maxDepth bounds a description: a schema that refers to itself ends
// there.
const maxDepth = 12

// at is the flattened schema at the JSON pointer of file.
func (d *describer) at(file, pointer string) (flat, error) {
	node, err := d.files.node(file, pointer)
	if err != nil {
		return flat{}, err
	}
	return d.flatten(located{file, node}, 0)
}

// walk writes the field at path and the fields below it.
func (d *describer) walk(path string, required bool, f flat, depth int) error {
	field := Field{Path: path, Type: f.typeName(), Required: required, Rules: slices.Clone(f.rules), Description: f.desc}
	if f.items != nil {
		items, err := d.flatten(*f.items, depth+1)
		if err != nil {
			return err
		}
		field.Type = "array of " + items.typeName()
		// A list or, as some clients send one item, the item alone.
		if others := slices.DeleteFunc(slices.Clone(f.types), func(t string) bool { return t == "array" }); len(others) > 0 {
			field.Type += ", or " + joinTypes(others, "")
		}
		if !items.isObject() {
			for _, r := range items.rules {
				field.Rules = append(field.Rules, "each: "+r)
			}
			if items.desc != "" && field.Description == "" {
				field.Description = items.desc
			}
		}
		d.out = append(d.out, field)
		if items.isObject() {
			return d.members(path+"[]", items, depth)
		}
		return nil
	}
	d.out = append(d.out, field)
	return d.members(path, f, depth)
}

// members writes the fields of an object's members, and of the values of
// an object used as a map.
func (d *describer) members(path string, f flat, depth int) error {
	if depth >= maxDepth {
		return nil
	}
	names := sortedKeys(f.props)
	// A member the object requires without describing it is listed too.
	for _, n := range f.required {
		if _, ok := f.props[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		sub := flat{}
		if loc, ok := f.props[n]; ok {
			var err error
			if sub, err = d.flatten(loc, depth+1); err != nil {
				return err
			}
		}
		if err := d.walk(join(path, n), slices.Contains(f.required, n), sub, depth+1); err != nil {
			return err
		}
	}
	if f.values != nil {
		sub, err := d.flatten(*f.values, depth+1)
		if err != nil {
			return err
		}
		return d.walk(join(path, "*"), false, sub, depth+1)
	}
	return nil
}

// join is the path of a member of the value at path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// flatten follows a schema's $ref and merges its allOf into one flat.
func (d *describer) flatten(s located, depth int) (flat, error) {
	m, ok := s.node.(map[string]any)
	if !ok || depth > maxDepth {
		return flat{}, nil // true, false, or too deep: nothing to say
	}
	if ref, ok := m["$ref"].(string); ok {
		file, pointer, err := resolveRef(s.file, ref)
		if err != nil {
			return flat{}, err
		}
		node, err := d.files.node(file, pointer)
		if err != nil {
			return flat{}, err
		}
		f, err := d.flatten(located{file, node}, depth+1)
		// The words beside a reference are about this use of it.
		if desc, _ := m["description"].(string); desc != "" {
			f.desc = desc
		}
		return f, err
	}
	f := flat{props: map[string]located{}}
	f.desc, _ = m["description"].(string)
	keys := sortedKeys(m)
	// Rules in one order whatever the file's: the reference must not
	// change from run to run.
	sort.SliceStable(keys, func(i, j int) bool { return keyOrder(keys[i]) < keyOrder(keys[j]) })
	for _, k := range keys {
		if err := d.keyword(&f, s.file, m, k, depth); err != nil {
			return flat{}, err
		}
	}
	f.rules = append(f.rules, bounds(m)...)
	return f, nil
}

// boundPairs are the keywords that bound a value from below and above,
// and what they count.
var boundPairs = []struct{ min, max, unit string }{
	{"minLength", "maxLength", "characters"},
	{"minimum", "maximum", ""},
	{"minItems", "maxItems", "items"},
	{"minProperties", "maxProperties", "members"},
}

// bounds says in words the bounds of a schema: "1 to 200 characters",
// "at most 10 items", "≥ 0".
func bounds(m map[string]any) []string {
	var out []string
	for _, p := range boundPairs {
		lo, hasLo := m[p.min]
		hi, hasHi := m[p.max]
		unit := ""
		if p.unit != "" {
			unit = " " + p.unit
			if fmt.Sprint(hi) == "1" || !hasHi && fmt.Sprint(lo) == "1" {
				unit = strings.TrimSuffix(unit, "s")
			}
		}
		switch {
		case hasLo && hasHi && fmt.Sprint(lo) == fmt.Sprint(hi):
			out = append(out, fmt.Sprintf("exactly %v%s", lo, unit))
		case hasLo && hasHi:
			out = append(out, fmt.Sprintf("%v to %v%s", lo, hi, unit))
		case hasLo && p.unit == "":
			out = append(out, fmt.Sprintf("≥ %v", lo))
		case hasLo:
			out = append(out, fmt.Sprintf("at least %v%s", lo, unit))
		case hasHi && p.unit == "":
			out = append(out, fmt.Sprintf("≤ %v", hi))
		case hasHi:
			out = append(out, fmt.Sprintf("at most %v%s", hi, unit))
		}
	}
	return out
}

// keyOrder places the rules a reader looks for first (the values
// allowed) before the limits and the alternatives.
func keyOrder(k string) int {
	switch k {
	case "const", "enum":
		return 0
	case "oneOf", "anyOf", "not", "if":
		return 2
	}
	return 1
}

// keyword adds the keyword k of the schema m, of file, to f.
func (d *describer) keyword(f *flat, file string, m map[string]any, k string, depth int) error {
	v := m[k]
	switch k {
	case "type":
		f.types = append(f.types, typeList(v)...)
	case "properties":
		props, _ := v.(map[string]any)
		for n, p := range props {
			f.props[n] = located{file, p}
		}
	case "required":
		for _, n := range stringList(v) {
			if !slices.Contains(f.required, n) {
				f.required = append(f.required, n)
			}
		}
	case "items":
		f.items = &located{file, v}
	case "additionalProperties":
		if _, isSchema := v.(map[string]any); isSchema {
			f.values = &located{file, v}
		}
	case "allOf":
		for _, sub := range list(v) {
			g, err := d.flatten(located{file, sub}, depth+1)
			if err != nil {
				return err
			}
			f.merge(g)
		}
	case "if":
		r, err := d.condition(located{file, m}, depth)
		if err != nil {
			return err
		}
		f.rules = append(f.rules, r)
	case "oneOf", "anyOf", "not":
		r, err := d.combination(file, k, v, depth)
		if err != nil {
			return err
		}
		f.rules = append(f.rules, r)
	default:
		if r := limit(k, v); r != "" {
			f.rules = append(f.rules, r)
		}
		if k == "enum" || k == "const" {
			f.enumKinds = valueKinds(k, v)
		}
	}
	return nil
}

// merge adds what an allOf's member says to f.
func (f *flat) merge(g flat) {
	if f.desc == "" {
		f.desc = g.desc
	}
	if len(f.types) == 0 {
		f.types = g.types
	}
	f.rules = append(f.rules, g.rules...)
	for n, p := range g.props {
		if _, ok := f.props[n]; !ok {
			f.props[n] = p
		}
	}
	for _, n := range g.required {
		if !slices.Contains(f.required, n) {
			f.required = append(f.required, n)
		}
	}
	if f.items == nil {
		f.items = g.items
	}
	if f.values == nil {
		f.values = g.values
	}
	if f.enumKinds == nil {
		f.enumKinds = g.enumKinds
	}
}

// condition says in words what the if, then and else of the schema s
// ask: "when `modalidade` is one of `1`, `2`: `descontoDataFixa`
// required, no `valorPerc`; otherwise …".
func (d *describer) condition(s located, depth int) (string, error) {
	m := s.node.(map[string]any)
	var parts []string
	for _, k := range []string{"if", "then", "else"} {
		sub, ok := m[k]
		if !ok {
			parts = append(parts, "")
			continue
		}
		var words string
		var err error
		if inner, nested := sub.(map[string]any); nested && k == "else" && inner["if"] != nil {
			words, err = d.condition(located{s.file, inner}, depth+1)
		} else {
			words, err = d.constraints(located{s.file, sub}, k == "if", depth+1)
		}
		if err != nil {
			return "", err
		}
		parts = append(parts, words)
	}
	out := "when " + parts[0] + ": " + parts[1]
	if parts[2] != "" {
		out += "; otherwise " + parts[2]
	}
	return out, nil
}

// constraints says in words what a schema that constrains an object's
// members asks: the members it requires, forbids, and bounds. In a
// condition (an if), a member it bounds is required only so that the
// condition needs it: that goes without saying.
func (d *describer) constraints(s located, condition bool, depth int) (string, error) {
	f, err := d.flatten(s, depth)
	if err != nil {
		return "", err
	}
	var out []string
	for _, n := range sortedKeys(f.props) {
		if f.props[n].node == false {
			out = append(out, "no `"+n+"`")
			continue
		}
		g, err := d.flatten(f.props[n], depth+1)
		if err != nil {
			return "", err
		}
		out = append(out, "`"+n+"` "+strings.Join(g.rules, ", "))
	}
	for _, n := range f.required {
		if _, bounded := f.props[n]; !condition || !bounded {
			out = append(out, "`"+n+"` required")
		}
	}
	out = append(out, f.rules...)
	return strings.Join(out, ", "), nil
}

// sortedKeys are a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// combination says in words what a oneOf, anyOf or not asks of a value.
func (d *describer) combination(file, k string, v any, depth int) (string, error) {
	subs := list(v)
	if k == "not" {
		subs = []any{v}
	}
	var alts []string
	requiredOnly := true
	for _, sub := range subs {
		g, err := d.flatten(located{file, sub}, depth+1)
		if err != nil {
			return "", err
		}
		only := len(g.types) == 0 && len(g.rules) == 0 && len(g.props) == 0 && g.items == nil && g.values == nil && len(g.required) > 0
		requiredOnly = requiredOnly && only
		alts = append(alts, g.summary())
	}
	switch {
	case k == "not" && requiredOnly:
		return "without " + alts[0], nil
	case k == "not":
		return "not: " + alts[0], nil
	case requiredOnly && k == "oneOf":
		return "exactly one of: " + strings.Join(alts, "; "), nil
	case requiredOnly:
		return "at least one of: " + strings.Join(alts, "; "), nil
	case k == "oneOf":
		return "exactly one of these: " + numbered(alts), nil
	}
	return "at least one of these: " + numbered(alts), nil
}

// summary is an alternative in a few words: the members it requires, or
// its type and rules.
func (f flat) summary() string {
	var parts []string
	if len(f.required) > 0 {
		names := make([]string, len(f.required))
		for i, n := range f.required {
			names[i] = "`" + n + "`"
		}
		parts = append(parts, strings.Join(names, " and "))
	}
	if len(f.types) > 0 || f.items != nil || len(f.props) > 0 {
		parts = append(parts, f.typeName())
	}
	parts = append(parts, f.rules...)
	if len(f.props) > 0 {
		names := make([]string, 0, len(f.props))
		for n := range f.props {
			names = append(names, "`"+n+"`")
		}
		sort.Strings(names)
		parts = append(parts, "members "+strings.Join(names, ", "))
	}
	if len(parts) == 0 {
		return "anything"
	}
	return strings.Join(parts, ", ")
}

func numbered(alts []string) string {
	for i, a := range alts {
		alts[i] = fmt.Sprintf("(%d) %s", i+1, a)
	}
	return strings.Join(alts, "; ")
}

// typeName is f's JSON type in words.
func (f flat) typeName() string {
	switch {
	case len(f.types) > 0:
		return joinTypes(f.types, "")
	case f.items != nil:
		return "array"
	case len(f.props) > 0 || f.values != nil || len(f.required) > 0:
		return "object"
	case len(f.enumKinds) > 0:
		return joinTypes(f.enumKinds, "")
	}
	return "any"
}

// isObject is whether f describes members.
func (f flat) isObject() bool { return len(f.props) > 0 || f.values != nil }

// joinTypes is a list of types in words; ifNone when it is empty.
func joinTypes(types []string, ifNone string) string {
	if len(types) == 0 {
		return ifNone
	}
	return strings.Join(types, " or ")
}

// limit says in words what a keyword asks of a value, "" for a keyword
// that asks nothing of it or that bounds says.
func limit(k string, v any) string {
	switch k {
	case "enum":
		return "one of " + values(list(v))
	case "const":
		return "always " + values([]any{v})
	case "pattern":
		return "pattern `" + fmt.Sprint(v) + "`"
	case "format":
		return "format " + fmt.Sprint(v)
	case "exclusiveMinimum":
		return fmt.Sprintf("> %v", v)
	case "exclusiveMaximum":
		return fmt.Sprintf("< %v", v)
	case "multipleOf":
		return fmt.Sprintf("a multiple of %v", v)
	case "uniqueItems":
		if v == true {
			return "no item twice"
		}
	case "propertyNames":
		if m, ok := v.(map[string]any); ok && m["pattern"] != nil {
			return "member names: pattern `" + fmt.Sprint(m["pattern"]) + "`"
		}
		return "member names are constrained (propertyNames)"
	case "default":
		return "default " + values([]any{v})
	}
	return ""
}

// values lists JSON values as code.
func values(vs []any) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		b, _ := json.Marshal(v)
		out[i] = "`" + string(b) + "`"
	}
	return strings.Join(out, ", ")
}

// valueKinds are the JSON types of an enum's or a const's values.
func valueKinds(k string, v any) []string {
	vs := list(v)
	if k == "const" {
		vs = []any{v}
	}
	var kinds []string
	for _, x := range vs {
		kind := "any"
		switch x.(type) {
		case string:
			kind = "string"
		case json.Number:
			kind = "number"
		case bool:
			kind = "boolean"
		case nil:
			kind = "null"
		case map[string]any:
			kind = "object"
		case []any:
			kind = "array"
		}
		if !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
	}
	return kinds
}

func typeList(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	return stringList(v)
}

func stringList(v any) []string {
	var out []string
	for _, x := range list(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}
