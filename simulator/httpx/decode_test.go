package httpx_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/schema"
)

// A body decoded into a map is parsed once (the schema validates the
// decoded document) and comes out as json.Unmarshal would have made it;
// what json.Unmarshal refuses is refused, naming the field.
func TestDecodeJSONIntoAMap(t *testing.T) {
	reg, err := schema.Load(fstest.MapFS{"thing.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#",
		"type": "object", "required": ["valor"],
		"properties": {"valor": {"type": "object", "properties": {"original": {"type": "string"}}}, "n": {"type": "number"}}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	valid := []string{
		`{"valor":{"original":"1.00"}}`,
		`{"valor":{"original":"1.00","juros":{"modalidade":2,"valorPerc":1.5}},"n":12345678901234567890,"list":[1,2.5,-3e2,[4,{"x":5}]],"ok":true,"z":null}`,
	}
	for _, body := range valid {
		var got, want map[string]any
		if err := httpx.DecodeJSONBytes([]byte(body), reg, "thing", &got); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if err := json.Unmarshal([]byte(body), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s decoded as %#v, want %#v", body, got, want)
		}
	}
	refused := []struct{ body, field, says string }{
		{`{"n":1}`, "valor", "obrigatório"},
		{`{"valor":{"original":1}}`, "valor.original", ""},
		{`{"valor":{"original":"1.00"},"big":{"x":[1,1e400]}}`, "big.x.1", "float64"},
		{`{"valor":{"original":"1.00"},"deep":[0,[1,-1e999]]}`, "deep.1.1", "float64"},
		{`{"valor":{"original":"1.00"},"a":[{"b":2},{"b":{"c":1e309}}]}`, "a.1.b.c", "float64"},
	}
	for _, c := range refused {
		var got map[string]any
		err := httpx.DecodeJSONBytes([]byte(c.body), reg, "thing", &got)
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.Invalid {
			t.Fatalf("%s: %v, want a 400", c.body, err)
		}
		found := false
		for _, v := range e.Violations {
			found = found || (v.Field == c.field && strings.Contains(v.Reason, c.says))
		}
		if !found {
			t.Errorf("%s: violations %+v, want one of %s saying %q", c.body, e.Violations, c.field, c.says)
		}
	}
}

// A body that is not JSON is refused in the service's language, saying
// where it breaks and at which character: the parser's English words
// never reach a partner.
func TestCheckSyntaxSpeaksPortuguese(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"{\n  \"a\": 1,\n  Abc: 2}", "JSON malformado na linha 3, coluna 3: caractere 'A' inesperado"},
		{`{"a": 1}}`, "JSON malformado na linha 1, coluna 9: há dados depois do valor principal"},
		{`{"a": [1, 2`, "o documento acaba antes do fim"},
		{`{"nome": "João" ç}`, "caractere 'ç' inesperado"},
	} {
		err := httpx.CheckSyntax([]byte(c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.body, err, c.want)
		}
		for _, english := range []string{"invalid character", "looking for", "after"} {
			if err != nil && strings.Contains(err.Error(), english) {
				t.Errorf("%q: %v speaks English", c.body, err)
			}
		}
	}
}
