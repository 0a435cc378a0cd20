package schema_test

import (
	"testing"
	"testing/fstest"

	"homologa/schemas"
	"homologa/simulator/schema"
)

func TestEmbeddedSchemasCompile(t *testing.T) {
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"platform/company.create", "platform/event", "pix/problema"} {
		if !reg.Has(name) {
			t.Errorf("no schema %s among %v", name, reg.Names())
		}
	}
}

func TestValidateNamesFields(t *testing.T) {
	fsys := fstest.MapFS{
		"a/money.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "string", "pattern": "^\\d{1,10}\\.\\d{2}$"}`)},
		"a/cob.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["valor"],
			"additionalProperties": false,
			"properties": {"valor": {"type": "object", "required": ["original"], "properties": {"original": {"$ref": "money.json"}}}, "chave": {"type": "string"}}}`)},
	}
	reg, err := schema.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		doc    string
		fields []string
	}{
		{`{"valor": {"original": "10.00"}}`, nil},
		{`{}`, []string{"valor"}},
		{`{"valor": {}}`, []string{"valor.original"}},
		{`{"valor": {"original": "10"}, "x": 1}`, []string{"valor.original", "x"}},
	}
	for _, tt := range tests {
		vs, err := reg.Validate("a/cob", []byte(tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, v := range vs {
			got = append(got, v.Field)
		}
		if len(got) != len(tt.fields) {
			t.Errorf("Validate(%s) fields %v, want %v", tt.doc, got, tt.fields)
			continue
		}
		for i := range got {
			if got[i] != tt.fields[i] {
				t.Errorf("Validate(%s) fields %v, want %v", tt.doc, got, tt.fields)
			}
		}
	}
	if _, err := reg.Validate("a/none", []byte(`{}`)); err == nil {
		t.Error("an unknown schema validated")
	}
}

func TestLoadRefusesOtherDrafts(t *testing.T) {
	_, err := schema.Load(fstest.MapFS{"x.json": {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema"}`)}})
	if err == nil {
		t.Fatal("a 2020-12 schema loaded; gojsonschema only speaks drafts 4, 6 and 7")
	}
}

// A lazy registry knows every schema at once and compiles each at its
// first use: a broken one fails there (and at Load, which the tests use).
func TestLoadLazyCompilesAtFirstUse(t *testing.T) {
	fsys := fstest.MapFS{
		"ok.json":     {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["a"]}`)},
		"broken.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "missing.json"}`)},
	}
	if _, err := schema.Load(fsys); err == nil {
		t.Fatal("Load compiled a schema whose $ref names no file")
	}
	reg, err := schema.LoadLazy(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if !reg.Has("broken") || !reg.Has("ok") || reg.Has("missing") {
		t.Fatalf("names = %v", reg.Names())
	}
	vs, err := reg.Validate("ok", []byte(`{}`))
	if err != nil || len(vs) != 1 || vs[0].Field != "a" {
		t.Fatalf("Validate(ok, {}) = %v, %v; want a violation naming a", vs, err)
	}
	if _, err := reg.Validate("broken", []byte(`{}`)); err == nil {
		t.Fatal("a schema that cannot compile validated")
	}
	if _, err := reg.Validate("missing", []byte(`{}`)); err == nil {
		t.Fatal("an unknown schema validated")
	}
}
