package schema_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"homologa/schemas"
	"homologa/simulator/schema"
)

// TestDescribe: each keyword a request schema uses is said in words, on
// the field it is about: $ref followed (across files, the words beside
// it kept), allOf merged, a list's elements and a map's values under
// their own paths, oneOf and anyOf as the members an object needs, an
// if/then/else as a condition.
func TestDescribe(t *testing.T) {
	const draft = `"$schema": "http://json-schema.org/draft-07/schema#", `
	fsys := fstest.MapFS{
		"a/common.json": {Data: []byte(`{` + draft + `"definitions": {
			"money": {"type": "string", "pattern": "^\\d+\\.\\d{2}$", "description": "Money."},
			"pessoa": {"type": "object", "required": ["nome"], "properties": {"nome": {"type": "string", "minLength": 1, "maxLength": 200},
				"cpf": {"type": "string"}, "cnpj": {"type": "string"}}, "oneOf": [{"required": ["cpf"]}, {"required": ["cnpj"]}]}}}`)},
		"a/body.json": {Data: []byte(`{` + draft + `"type": "object", "description": "A body.", "required": ["valor", "pessoa"],
			"properties": {
				"valor": {"$ref": "common.json#/definitions/money", "description": "What is owed."},
				"pessoa": {"$ref": "common.json#/definitions/pessoa"},
				"docs": {"type": "array", "maxItems": 10, "items": {"type": "object", "required": ["tipo"], "properties": {"tipo": {"enum": ["RG", "CPF"]}}}},
				"tags": {"type": "array", "minItems": 1, "items": {"type": "string", "maxLength": 5}},
				"extra": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
				"n": {"type": ["integer", "string"], "minimum": 1, "maximum": 9},
				"fixo": {"const": "X"},
				"desconto": {"type": "object", "properties": {"modalidade": {"type": "integer"}, "data": {"type": "string", "format": "date"}},
					"if": {"required": ["modalidade"], "properties": {"modalidade": {"enum": [1, 2]}}}, "then": {"required": ["data"]}},
				"juntos": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"required": ["a"]}]}
			}, "anyOf": [{"required": ["docs"]}, {"required": ["tags"]}]}`)},
	}
	reg, err := schema.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	fields, err := reg.Describe("a/body")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var order []string
	for _, f := range fields {
		got[f.Path] = strings.Join([]string{f.Type, map[bool]string{true: "required", false: "optional"}[f.Required], strings.Join(f.Rules, "; "), f.Description}, " | ")
		order = append(order, f.Path)
	}
	tests := []struct{ path, want string }{
		{"", "object | required | at least one of: `docs`; `tags` | A body."},
		{"valor", "string | required | pattern `^\\d+\\.\\d{2}$` | What is owed."},
		{"pessoa", "object | required | exactly one of: `cpf`; `cnpj` | "},
		{"pessoa.nome", "string | required | 1 to 200 characters | "},
		{"pessoa.cpf", "string | optional |  | "},
		{"docs", "array of object | optional | at most 10 items | "},
		{"docs[].tipo", "string | required | one of `\"RG\"`, `\"CPF\"` | "},
		{"tags", "array of string | optional | at least 1 item; each: at most 5 characters | "},
		{"extra.*", "integer | optional | ≥ 0 | "},
		{"n", "integer or string | optional | 1 to 9 | "},
		{"fixo", "string | optional | always `\"X\"` | "},
		{"desconto", "object | optional | when `modalidade` one of `1`, `2`: `data` required | "},
		{"desconto.data", "string | optional | format date | "},
		{"juntos.a", "string | required |  | "},
	}
	for _, tt := range tests {
		if g, ok := got[tt.path]; !ok {
			t.Errorf("no field %q among %v", tt.path, order)
		} else if g != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.path, g, tt.want)
		}
	}
	if want := []string{"", "desconto", "desconto.data", "desconto.modalidade", "docs", "docs[].tipo", "extra", "extra.*", "fixo", "juntos", "juntos.a", "n", "pessoa", "pessoa.cnpj", "pessoa.cpf", "pessoa.nome", "tags", "valor"}; strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("fields in the order %v, want %v", order, want)
	}
	if _, err := reg.Describe("a/none"); err == nil {
		t.Error("a schema that is not there was described")
	}
}

// TestDescribeEveryRequestSchema: every schema of the folder is described
// without error (a reference that leads nowhere fails here, not in the
// request reference's test).
func TestDescribeEveryRequestSchema(t *testing.T) {
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range reg.Names() {
		fields, err := reg.Describe(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if len(fields) == 0 || fields[0].Path != "" {
			t.Errorf("%s: the document itself is not the first field: %v", name, fields)
		}
	}
}
