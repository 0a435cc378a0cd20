package schema

import (
	"bytes"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"homologa/schemas"
)

// candidates are the strings a generated document tries for a string
// field: the forms the sandbox's schemas ask for, and some they refuse.
var candidates = []string{"", "a", "12345678909", "52998224725", "12345678000195", "11444777000161", "2026-01-01",
	"2026-03-01T10:00:00Z", "2026-03-01T10:00:00.123-03:00", "2026-13-01", "10.00", "0.01", "123.45", "1.5", "-1.00",
	"fa3c1f0b9f5e4b0b8c2f7d1e3a4b5c6d7e", "abcdefghijklmnopqrstuvwxyz", "ABCDEF12345", "E12345678202603011000abcdef12345",
	"https://pix.example.com/qr/v2/9d36b84f", "http://127.0.0.1:8080/hook", "not a uri", "joao@example.com", "x@",
	"ATIVA", "CONCLUIDA", "REMOVIDA_PELO_USUARIO_RECEBEDOR", "MENSAL", "BOLETO", "MORTE", "VIDA", "cob", "cobv", "SIM", "NAO",
	"São Paulo", "01310100", "Francisco da Silva", strings.Repeat("x", 141), strings.Repeat("9", 36), "00000000000", "é", "1"}

var numbers = []string{"0", "1", "5", "30", "3600", "-1", "1.5", "0.01", "100000", "2", "12", "1e2", "99999999999"}

// generate makes a document for n: mostly one its keywords accept, with
// a value of another kind here and there (mutate).
type generator struct {
	rnd    *rand.Rand
	mutate float64
}

func (g *generator) value(n *check, depth int) any {
	if n.ref != nil {
		return g.value(n.ref, depth)
	}
	if g.rnd.Float64() < g.mutate || depth > 8 || n.pass != nil {
		return g.random(depth)
	}
	if n.constant != nil {
		return *n.constant
	}
	if len(n.enum) > 0 && g.rnd.IntN(8) > 0 {
		for s := range n.enum {
			if g.rnd.IntN(2) == 0 {
				return s
			}
		}
	}
	if n.types == 0 {
		for _, list := range [][]*check{n.oneOf, n.anyOf, n.allOf} {
			if len(list) > 0 {
				return g.value(list[g.rnd.IntN(len(list))], depth+1)
			}
		}
		if n.properties != nil || n.required != nil {
			return g.object(n, depth)
		}
		return g.random(depth)
	}
	var kinds []uint8
	for b := typeNull; b <= typeObject; b <<= 1 {
		if n.types&b != 0 {
			kinds = append(kinds, b)
		}
	}
	switch kinds[g.rnd.IntN(len(kinds))] {
	case typeNull:
		return nil
	case typeBoolean:
		return g.rnd.IntN(2) == 0
	case typeInteger, typeNumber:
		// The schema's own bounds, and a step either side of each.
		list := append([]string{}, numbers...)
		for _, r := range []*big.Rat{n.minimum, n.maximum, n.exclusiveMinimum} {
			if r != nil {
				for _, half := range []int64{-2, -1, 0, 1, 2} {
					list = append(list, new(big.Rat).Add(r, big.NewRat(half, 2)).FloatString(1))
				}
				list = append(list, r.RatString())
			}
		}
		if g.rnd.IntN(3) == 0 {
			return json.Number(list[g.rnd.IntN(len(list))])
		}
		for range 8 {
			num := json.Number(list[g.rnd.IntN(len(list))])
			r, _ := new(big.Rat).SetString(string(num))
			if n.number(r) == valid {
				return num
			}
		}
		return json.Number("1")
	case typeString:
		var fit []string
		for _, s := range candidates {
			if n.str(s) == valid && n.common(s) != invalid {
				fit = append(fit, s)
			}
		}
		if len(fit) > 0 && g.rnd.IntN(10) > 0 {
			return fit[g.rnd.IntN(len(fit))]
		}
		return candidates[g.rnd.IntN(len(candidates))]
	case typeArray:
		size := max(n.minItems, 0) + g.rnd.IntN(3)
		if n.maxItems >= 0 {
			size = min(size, n.maxItems)
		}
		a := make([]any, size)
		for i := range a {
			if n.items != nil {
				a[i] = g.value(n.items, depth+1)
			} else {
				a[i] = g.random(depth + 1)
			}
		}
		return a
	}
	return g.object(n, depth)
}

func (g *generator) object(n *check, depth int) map[string]any {
	m := map[string]any{}
	for _, s := range n.allOf {
		if sub, ok := g.value(s, depth+1).(map[string]any); ok {
			for k, v := range sub {
				m[k] = v
			}
		}
	}
	for p, s := range n.properties {
		if g.rnd.IntN(3) > 0 || contains(n.required, p) {
			m[p] = g.value(s, depth+1)
		}
	}
	if g.rnd.Float64() < g.mutate {
		m["campoDesconhecido"] = "x"
	}
	if g.rnd.Float64() < g.mutate && len(n.required) > 0 {
		delete(m, n.required[g.rnd.IntN(len(n.required))])
	}
	return m
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func (g *generator) random(depth int) any {
	switch g.rnd.IntN(7) {
	case 0:
		return nil
	case 1:
		return g.rnd.IntN(2) == 0
	case 2:
		return json.Number(numbers[g.rnd.IntN(len(numbers))])
	case 3:
		if depth < 8 {
			return []any{g.random(depth + 1)}
		}
	case 4:
		if depth < 8 {
			return map[string]any{"a": g.random(depth + 1)}
		}
	}
	return candidates[g.rnd.IntN(len(candidates))]
}

// TestCheckAgreesWithGojsonschema is the checks' proof: for every schema,
// documents made from it (valid ones, and ones with a wrong kind, an
// unknown field, a missing one here and there) and the Pix spec's
// examples get from each check the verdict gojsonschema gives, or none.
// A check that calls valid what gojsonschema refuses would let a bad
// body in; one that refuses what it accepts would, under a "not" or a
// "oneOf", let another in.
func TestCheckAgreesWithGojsonschema(t *testing.T) {
	reg, err := Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []any
	raw, err := os.ReadFile("../../schemas/testdata/pix-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var examples map[string]json.RawMessage
	json.Unmarshal(raw, &examples)
	for _, e := range examples {
		var ex struct{ Value json.RawMessage }
		if json.Unmarshal(e, &ex) == nil && ex.Value != nil {
			dec := json.NewDecoder(bytes.NewReader(ex.Value))
			dec.UseNumber()
			var doc any
			if dec.Decode(&doc) == nil {
				seeds = append(seeds, doc)
			}
		}
	}
	// 150 documents a schema (~22,000 in all, 6,000 of them valid) find
	// each wrong bound, type, pattern or combinator tried by hand, and
	// take 1 s, 5 under the race detector (make test).
	docs := 150
	var tallies = map[verdict]int{}
	for _, name := range reg.Names() {
		c := reg.check(name)
		if c == nil {
			continue
		}
		s, err := reg.schema(name)
		if err != nil {
			t.Fatal(err)
		}
		g := &generator{rnd: rand.New(rand.NewPCG(1, uint64(len(name)))), mutate: 0.04}
		list := append([]any{}, seeds...)
		for i := range docs {
			g.mutate = []float64{0, 0.02, 0.08}[i%3]
			list = append(list, g.value(c, 0))
		}
		for _, doc := range list {
			got := c.verdict(doc)
			tallies[got]++
			if got == unsure {
				continue
			}
			res, err := s.Validate(gojsonschema.NewRawLoader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if (got == valid) != res.Valid() {
				b, _ := json.Marshal(doc)
				t.Errorf("%s: check says %v, gojsonschema valid=%v %v\n%s", name, got, res.Valid(), res.Errors(), b)
			}
		}
	}
	t.Logf("verdicts: %d valid, %d invalid, %d unsure", tallies[valid], tallies[invalid], tallies[unsure])
	if tallies[valid] < len(reg.Names())*docs/20 || tallies[invalid] < len(reg.Names())*docs/20 {
		t.Errorf("too few documents of one verdict to prove anything: %v", tallies)
	}
}

func (v verdict) String() string { return [...]string{"unsure", "valid", "invalid"}[v] }

// TestEverySchemaHasACheck: a schema without a check is validated by
// gojsonschema alone, slower but the same; the list says which and why,
// so a new keyword in a schema is a choice, not an accident.
func TestEverySchemaHasACheck(t *testing.T) {
	reg, err := LoadLazy(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range reg.Names() {
		if _, err := compileCheck(schemas.FS, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
