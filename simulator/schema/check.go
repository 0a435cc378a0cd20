package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/big"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/xeipuuv/gojsonschema"
)

// A check is a schema compiled to tell, cheaply, that a document is
// valid. gojsonschema builds a result, a context per field and, for every
// enum, marshals the value to JSON, unmarshals and marshals it again,
// on every request of the partner APIs. A check gives
// the same verdict as gojsonschema (Validate with the draft-07 loader,
// checked against it by TestCheckAgreesWithGojsonschema) or says it
// cannot tell; only a document it finds valid skips gojsonschema, so
// every error a partner reads is gojsonschema's.
//
// A check knows the keywords the sandbox's schemas use; a schema that
// uses another has no check (compileCheck fails) and is validated by
// gojsonschema alone.
type check struct {
	ref  *check // a $ref: gojsonschema ignores the keywords beside it
	pass *bool  // a boolean schema

	types uint8 // typeNull|…; 0 when untyped

	minLength, maxLength int // -1 when absent
	pattern              *regexp.Regexp
	format               string

	minimum, maximum, exclusiveMinimum *big.Rat
	intBounds                          *intBounds // nil unless each bound is an int64

	properties    map[string]*check
	required      []string
	noAdditional  bool
	additional    *check
	minProperties int
	propertyNames *check

	items              *check
	minItems, maxItems int
	uniqueItems        bool

	// constant and enum, of strings only; otherNonString when one of
	// them is another kind of value (then a non-string document value
	// cannot be told).
	constant        *string
	hasConst        bool
	enum            map[string]bool
	hasEnum         bool
	otherNonString  bool
	allOf, anyOf    []*check
	oneOf           []*check
	not             *check
	ifS, thenS, els *check
}

const (
	typeNull uint8 = 1 << iota
	typeBoolean
	typeInteger
	typeNumber
	typeString
	typeArray
	typeObject
)

var typeBits = map[string]uint8{"null": typeNull, "boolean": typeBoolean, "integer": typeInteger, "number": typeNumber,
	"string": typeString, "array": typeArray, "object": typeObject}

// verdict is what a check says of a document.
type verdict uint8

const (
	unsure verdict = iota
	valid
	invalid
)

// annotations are keywords that validate nothing (draft-07, and
// gojsonschema reads none of them).
var annotations = map[string]bool{"$schema": true, "$comment": true, "title": true, "description": true, "examples": true,
	"default": true, "definitions": true, "contentEncoding": true, "contentMediaType": true, "readOnly": true, "writeOnly": true}

// checkCompiler compiles the checks of one schema and the files it
// refers to; nodes holds each by its absolute reference, made before its
// children so that a schema referring to itself ends.
type checkCompiler struct {
	mu    sync.Mutex
	files schemaFolder
	nodes map[string]*check
	done  map[string]checked
}

// newCheckCompiler makes a registry's compiler of checks: one for all
// its schemas, so a file many refer to (common.json) is read and
// compiled once, as gojsonschema's loader pool does.
func newCheckCompiler(fsys fs.FS) *checkCompiler {
	return &checkCompiler{files: schemaFolder{fsys: fsys, docs: map[string]any{}}, nodes: map[string]*check{}, done: map[string]checked{}}
}

// checked is a compilation's outcome.
type checked struct {
	c   *check
	err error
}

// compile compiles, once, the check of the schema named name (a path
// under the schemas' folder without ".json"). A failed compilation may
// leave nodes behind; no check is made of them, only of a name whose
// compilation succeeded.
func (c *checkCompiler) compile(name string) (*check, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.done[name]; ok {
		return d.c, d.err
	}
	n, err := c.ref("file:///schemas/"+name+".json", "")
	c.done[name] = checked{n, err}
	return n, err
}

// compileCheck compiles one schema's check with a compiler of its own.
func compileCheck(fsys fs.FS, name string) (*check, error) {
	return newCheckCompiler(fsys).compile(name)
}

// ref compiles what an absolute reference names: a file and a JSON
// pointer in it.
func (c *checkCompiler) ref(base, ref string) (*check, error) {
	file, pointer, err := resolveRef(base, ref)
	if err != nil {
		return nil, err
	}
	key := file + "#" + pointer
	if n, ok := c.nodes[key]; ok {
		return n, nil
	}
	node, err := c.files.node(file, pointer)
	if err != nil {
		return nil, err
	}
	n := &check{}
	c.nodes[key] = n
	return n, c.fill(n, file, node)
}

// resolveRef is the absolute file and the JSON pointer that ref names,
// read from the file base.
func resolveRef(base, ref string) (file, pointer string, err error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", "", err
	}
	abs := b.ResolveReference(r)
	pointer = abs.Fragment
	abs.Fragment = ""
	if abs.Scheme != "file" || !strings.HasPrefix(abs.Path, "/schemas/") {
		return "", "", fmt.Errorf("reference %s is not a schema of the folder", abs)
	}
	return abs.String(), pointer, nil
}

// schemaFolder reads the schema files of a folder, each once, and finds
// the schema a reference names in them.
type schemaFolder struct {
	fsys fs.FS
	docs map[string]any
}

// node is the schema at the JSON pointer in file (file:///schemas/…).
func (f *schemaFolder) node(file, pointer string) (any, error) {
	doc, ok := f.docs[file]
	if !ok {
		raw, err := fs.ReadFile(f.fsys, strings.TrimPrefix(file, "file:///schemas/"))
		if err != nil {
			return nil, err
		}
		// Numbers as json.Number, as gojsonschema reads a schema: a
		// minimum of 0.01 is exactly a hundredth, not the float64 near it.
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		f.docs[file] = doc
	}
	node := doc
	if pointer != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			m, ok := node.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: no %s", file, pointer)
			}
			if node, ok = m[tok]; !ok {
				return nil, fmt.Errorf("%s: no %s", file, pointer)
			}
		}
	}
	return node, nil
}

// fill compiles the schema s, found in file, into n.
func (c *checkCompiler) fill(n *check, file string, s any) error {
	n.minLength, n.maxLength, n.minItems, n.maxItems = -1, -1, -1, -1
	if b, ok := s.(bool); ok {
		n.pass = &b
		return nil
	}
	m, ok := s.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: a schema is an object or a boolean", file)
	}
	if ref, ok := m["$ref"].(string); ok {
		r, err := c.ref(file, ref)
		n.ref = r
		return err
	}
	f := filler{c: c, file: file}
	for k, v := range m {
		if err := f.keyword(n, k, v); err != nil {
			return err
		}
	}
	n.integerBounds()
	return nil
}

// filler compiles the keywords of one schema of file.
type filler struct {
	c    *checkCompiler
	file string
}

// keyword compiles one keyword of a schema into n.
func (f filler) keyword(n *check, k string, v any) (err error) {
	switch k {
	case "type":
		return f.types(n, v)
	case "minLength":
		n.minLength, err = f.count(v)
	case "maxLength":
		n.maxLength, err = f.count(v)
	case "pattern":
		s, _ := v.(string)
		n.pattern, err = regexp.Compile(s)
	case "format":
		n.format, _ = v.(string)
	case "minimum":
		n.minimum, err = f.rat(v)
	case "maximum":
		n.maximum, err = f.rat(v)
	case "exclusiveMinimum":
		n.exclusiveMinimum, err = f.rat(v)
	case "properties", "required", "additionalProperties", "minProperties", "propertyNames":
		return f.object(n, k, v)
	case "items":
		if _, tuple := v.([]any); tuple {
			return fmt.Errorf("%s: items as a list has no check", f.file)
		}
		n.items, err = f.sub(v)
	case "minItems":
		n.minItems, err = f.count(v)
	case "maxItems":
		n.maxItems, err = f.count(v)
	case "uniqueItems":
		n.uniqueItems, _ = v.(bool)
	case "const", "enum":
		return f.values(n, k, v)
	case "allOf":
		n.allOf, err = f.subs(v)
	case "anyOf":
		n.anyOf, err = f.subs(v)
	case "oneOf":
		n.oneOf, err = f.subs(v)
	case "not":
		n.not, err = f.sub(v)
	case "if":
		n.ifS, err = f.sub(v)
	case "then":
		n.thenS, err = f.sub(v)
	case "else":
		n.els, err = f.sub(v)
	default:
		if !annotations[k] {
			return fmt.Errorf("%s: keyword %s has no check", f.file, k)
		}
	}
	return err
}

func (f filler) types(n *check, v any) error {
	switch t := v.(type) {
	case string:
		n.types |= typeBits[t]
	case []any:
		for _, e := range t {
			s, _ := e.(string)
			n.types |= typeBits[s]
		}
	}
	if n.types == 0 {
		return fmt.Errorf("%s: type %v", f.file, v)
	}
	return nil
}

func (f filler) object(n *check, k string, v any) (err error) {
	switch k {
	case "properties":
		props, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: properties is an object", f.file)
		}
		n.properties = make(map[string]*check, len(props))
		for p, ps := range props {
			if n.properties[p], err = f.sub(ps); err != nil {
				return err
			}
		}
	case "required":
		list, _ := v.([]any)
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("%s: required lists names", f.file)
			}
			n.required = append(n.required, s)
		}
	case "additionalProperties":
		if b, ok := v.(bool); ok {
			n.noAdditional = !b
		} else {
			n.additional, err = f.sub(v)
		}
	case "minProperties":
		n.minProperties, err = f.count(v)
	case "propertyNames":
		n.propertyNames, err = f.sub(v)
	}
	return err
}

func (f filler) values(n *check, k string, v any) error {
	if k == "const" {
		n.hasConst = true
		if s, ok := v.(string); ok {
			n.constant = &s
		} else {
			n.otherNonString = true
		}
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s: enum is a list", f.file)
	}
	n.hasEnum, n.enum = true, map[string]bool{}
	for _, e := range list {
		if s, ok := e.(string); ok {
			n.enum[s] = true
		} else {
			n.otherNonString = true
		}
	}
	return nil
}

func (f filler) sub(v any) (*check, error) {
	child := &check{}
	return child, f.c.fill(child, f.file, v)
}

func (f filler) subs(v any) ([]*check, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: a list of schemas expected", f.file)
	}
	out := make([]*check, len(list))
	for i, e := range list {
		var err error
		if out[i], err = f.sub(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (f filler) count(v any) (int, error) {
	num, _ := v.(json.Number)
	i, err := num.Int64()
	if err != nil || i < 0 {
		return 0, fmt.Errorf("%s: a count expected, got %v", f.file, v)
	}
	return int(i), nil
}

func (f filler) rat(v any) (*big.Rat, error) {
	num, _ := v.(json.Number)
	r, ok := new(big.Rat).SetString(string(num))
	if !ok {
		return nil, fmt.Errorf("%s: a number expected, got %v", f.file, v)
	}
	return r, nil
}

// verdict checks v, a document decoded with json.Number, as
// gojsonschema's validateRecursive does, stopping at the first failure.
func (n *check) verdict(v any) verdict {
	if n.pass != nil {
		if *n.pass {
			return valid
		}
		return invalid
	}
	if n.ref != nil {
		return n.ref.verdict(v)
	}
	switch x := v.(type) {
	case nil:
		if n.types != 0 && n.types&typeNull == 0 {
			return invalid
		}
		return all(n.combined(v), n.common(v))
	case json.Number:
		num := n.numeric(x)
		if num == invalid {
			return invalid
		}
		return all(num, n.combined(v), n.common(v))
	case bool:
		if n.types != 0 && n.types&typeBoolean == 0 {
			return invalid
		}
		return all(n.combined(v), n.common(v))
	case string:
		if n.types != 0 && n.types&typeString == 0 {
			return invalid
		}
		return all(n.combined(v), n.common(v), n.str(x))
	case []any:
		if n.types != 0 && n.types&typeArray == 0 {
			return invalid
		}
		return all(n.combined(v), n.array(x), n.common(v))
	case map[string]any:
		if n.types != 0 && n.types&typeObject == 0 {
			return invalid
		}
		return all(n.combined(v), n.object(x), n.common(v))
	}
	return unsure // a float64, an int: gojsonschema validates none of them
}

// all is the verdict of checks that must each hold.
func all(vs ...verdict) verdict {
	out := valid
	for _, v := range vs {
		switch v {
		case invalid:
			return invalid
		case unsure:
			out = unsure
		}
	}
	return out
}

// combined is validateSchema: anyOf, oneOf, allOf, not, if/then/else.
func (n *check) combined(v any) verdict {
	out := valid
	if len(n.anyOf) > 0 {
		some := invalid
		for _, s := range n.anyOf {
			if r := s.verdict(v); r == valid {
				some = valid
				break
			} else if r == unsure {
				some = unsure
			}
		}
		if out = all(out, some); out == invalid {
			return invalid
		}
	}
	if len(n.oneOf) > 0 {
		matched, unknown := 0, false
		for _, s := range n.oneOf {
			switch s.verdict(v) {
			case valid:
				matched++
			case unsure:
				unknown = true
			}
		}
		switch {
		case matched > 1:
			return invalid
		case unknown:
			out = unsure
		case matched == 0:
			return invalid
		}
	}
	for _, s := range n.allOf {
		if out = all(out, s.verdict(v)); out == invalid {
			return invalid
		}
	}
	if n.not != nil {
		switch n.not.verdict(v) {
		case valid:
			return invalid
		case unsure:
			out = unsure
		}
	}
	if n.ifS != nil {
		switch n.ifS.verdict(v) {
		case valid:
			if n.thenS != nil {
				out = all(out, n.thenS.verdict(v))
			}
		case invalid:
			if n.els != nil {
				out = all(out, n.els.verdict(v))
			}
		default:
			return unsure
		}
	}
	return out
}

// common is validateCommon: const and enum, which gojsonschema compares
// as JSON text. A string's text equals another string's only when they
// are the same, and never a number's, a boolean's, null's, an object's
// or an array's.
func (n *check) common(v any) verdict {
	if !n.hasConst && !n.hasEnum {
		return valid
	}
	s, isString := v.(string)
	if !isString {
		if n.otherNonString {
			return unsure
		}
		return invalid
	}
	if n.hasConst && (n.constant == nil || *n.constant != s) {
		return invalid
	}
	if n.hasEnum && !n.enum[s] {
		return invalid
	}
	return valid
}

// str is validateString; lengths count runes.
func (n *check) str(s string) verdict {
	if n.minLength >= 0 || n.maxLength >= 0 {
		runes := utf8.RuneCountInString(s)
		if n.minLength >= 0 && runes < n.minLength || n.maxLength >= 0 && runes > n.maxLength {
			return invalid
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		return invalid
	}
	if n.format != "" && !gojsonschema.FormatCheckers.IsFormat(n.format, s) {
		return invalid
	}
	return valid
}

// numeric is the type check and validateNumber of a number. An integer
// that fits in an int64, against bounds that are such integers too (a
// charge's expiracao, a day of the month), is compared as one: making
// the exact value, a big.Rat, for every number would cost more than the
// rest of the check.
func (n *check) numeric(x json.Number) verdict {
	if n.intBounds != nil && n.format == "" {
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			if n.types != 0 && n.types&(typeNumber|typeInteger) == 0 {
				return invalid
			}
			b := n.intBounds
			if b.hasMax && i > b.max || b.hasMin && i < b.min || b.hasExclusiveMin && i <= b.exclusiveMin {
				return invalid
			}
			return valid
		}
	}
	r, ok := new(big.Rat).SetString(string(x))
	if !ok {
		return unsure
	}
	if n.types != 0 && n.types&typeNumber == 0 && !(r.IsInt() && n.types&typeInteger != 0) {
		return invalid
	}
	return n.number(r)
}

// intBounds are a check's numeric bounds when each is an integer that
// fits in an int64.
type intBounds struct {
	min, max, exclusiveMin          int64
	hasMin, hasMax, hasExclusiveMin bool
}

// integerBounds sets n.intBounds when every bound of n is an int64.
func (n *check) integerBounds() {
	b := &intBounds{}
	for _, bound := range []struct {
		r   *big.Rat
		v   *int64
		has *bool
	}{{n.minimum, &b.min, &b.hasMin}, {n.maximum, &b.max, &b.hasMax}, {n.exclusiveMinimum, &b.exclusiveMin, &b.hasExclusiveMin}} {
		if bound.r == nil {
			continue
		}
		if !bound.r.IsInt() || !bound.r.Num().IsInt64() {
			return
		}
		*bound.v, *bound.has = bound.r.Num().Int64(), true
	}
	n.intBounds = b
}

// number is validateNumber, on the number's exact value.
func (n *check) number(r *big.Rat) verdict {
	if n.maximum != nil && r.Cmp(n.maximum) > 0 ||
		n.minimum != nil && r.Cmp(n.minimum) < 0 ||
		n.exclusiveMinimum != nil && r.Cmp(n.exclusiveMinimum) <= 0 {
		return invalid
	}
	if n.format != "" && !gojsonschema.FormatCheckers.IsFormat(n.format, r) {
		return invalid
	}
	return valid
}

// array is validateArray.
func (n *check) array(a []any) verdict {
	if n.minItems >= 0 && len(a) < n.minItems || n.maxItems >= 0 && len(a) > n.maxItems {
		return invalid
	}
	out := valid
	if n.items != nil {
		for _, e := range a {
			if out = all(out, n.items.verdict(e)); out == invalid {
				return invalid
			}
		}
	}
	if n.uniqueItems {
		seen := make(map[string]bool, len(a))
		for _, e := range a {
			s, ok := e.(string)
			if !ok {
				return unsure
			}
			if seen[s] {
				return invalid
			}
			seen[s] = true
		}
	}
	return out
}

// object is validateObject, then each property's schema.
func (n *check) object(m map[string]any) verdict {
	if len(m) < n.minProperties {
		return invalid
	}
	for _, p := range n.required {
		if _, ok := m[p]; !ok {
			return invalid
		}
	}
	out := valid
	for k, e := range m {
		if s, ok := n.properties[k]; ok {
			out = all(out, s.verdict(e))
		} else if n.noAdditional {
			return invalid
		} else if n.additional != nil {
			out = all(out, n.additional.verdict(e))
		}
		if n.propertyNames != nil {
			out = all(out, n.propertyNames.verdict(k))
		}
		if out == invalid {
			return invalid
		}
	}
	return out
}
