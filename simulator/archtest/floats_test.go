package archtest

import (
	"go/ast"
	"maps"
	"path/filepath"
	"slices"
	"testing"
)

// floatsAllowed are the declarations of simulator/insurance that may name
// float64, each with why: none holds money or a rate, which are
// money.Cents and money.Rate (decision record 0029). A declaration is
// "file name" for a function or method (by its name) and for a type or
// variable.
var floatsAllowed = map[string]string{
	"catalog/pricing.go tariff":                  "e^(0.085 × (age − 30)) has no exact decimal: computed once, returned as the eight-place Rate",
	"wire/values.go Str":                         "a JSON number of a decoded document (a code, a CEP) written as text",
	"wire/values.go Int":                         "a JSON number of a decoded document read as a whole number",
	"wire/values.go Decimal":                     "a questionnaire's weight or height, neither money nor a rate",
	"sale/token.go intField":                     "a JSON number of a decoded document read as a whole number",
	"sale/carddata.go looksLikeCardNumber":       "a card number sent as a JSON number, found to be refused",
	"sale/questionario.go checkValor":            "a questionnaire's VALOR answer (a weight, a height), as the partner sent it",
	"sale/questionario.go checkOpcao":            "a DOMINIO answer's option id, sent as a JSON number",
	"sale/questionario.go medida":                "a weight or a height, checked in its unit",
	"sale/http_simulacao.go v2Simulacoes":        "a coverage's causaId, an id, written as the v2 model's String",
	"sale/leniency.go wantString":                "a field the v2 model declares String, sent as a JSON number and told so",
	"sale/servicoquestionario.go valorDoServico": "the questionnaire service's answers, typed as checkValor takes them",
}

// TestNoFloatHoldsMoneyOrARate: in simulator/insurance, float64 appears
// only in the declarations floatsAllowed names, and each of those still
// has one (a stale entry would let a float back in unseen).
func TestNoFloatHoldsMoneyOrARate(t *testing.T) {
	dir := filepath.Join(root, "simulator/insurance")
	seen := map[string]bool{}
	for _, path := range goFiles(t, "simulator/insurance") {
		fset, f := parse(t, path)
		file, _ := filepath.Rel(dir, path)
		for _, d := range f.Decls {
			decl := file + " " + declName(d)
			ast.Inspect(d, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Name == "float64" {
					if _, ok := floatsAllowed[decl]; !ok {
						t.Errorf("%s: float64 in %s: money is money.Cents and a rate money.Rate; a float that is neither goes in floatsAllowed, with why",
							fset.Position(id.Pos()), decl)
					}
					seen[decl] = true
				}
				return true
			})
		}
	}
	for _, decl := range slices.Sorted(maps.Keys(floatsAllowed)) {
		if !seen[decl] {
			t.Errorf("floatsAllowed names %s, which has no float64 any more: take it off the list", decl)
		}
	}
}

// declName is a top-level declaration's name: a function's or method's,
// or the first name a type, variable or constant declaration declares.
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Name.Name
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				return s.Name.Name
			case *ast.ValueSpec:
				return s.Names[0].Name
			}
		}
	}
	return "import"
}
