package archtest

import (
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDependenciesAsPublished: go.mod replaces no module and nothing is
// vendored under third_party/, so every dependency is the version its
// authors published and an upgrade is `go get`.
func TestDependenciesAsPublished(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "replace" || strings.HasPrefix(f[0], "replace(")) {
			t.Errorf("go.mod:%d replaces a module (%s): use the published version", i+1, strings.TrimSpace(line))
		}
	}
	if _, err := os.Stat(filepath.Join(root, "third_party")); err == nil {
		t.Error("third_party/ holds a copy of a dependency: use the published version")
	}
}

// reflectAllowed are the reflect functions that compare values without
// reading any of their unexported parts.
var reflectAllowed = map[string]bool{"DeepEqual": true}

// TestNoReachingIntoDependencies: no code of ours uses cgo or unsafe,
// and reflect only compares: a dependency's unexported fields and C
// symbols are not its API, and its next version may change them without
// a compile error.
func TestNoReachingIntoDependencies(t *testing.T) {
	for _, dir := range []string{"simulator", "harness", "schemas", "scenarios", "features"} {
		for _, path := range goFiles(t, dir) {
			fset, f := parse(t, path)
			for _, imp := range f.Imports {
				switch p := strings.Trim(imp.Path.Value, `"`); p {
				case "C", "unsafe":
					t.Errorf("%s imports %q: no cgo or unsafe of our own (the SQLite driver's cgo is its own)", fset.Position(imp.Pos()), p)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "reflect" && !reflectAllowed[sel.Sel.Name] {
					t.Errorf("%s: reflect.%s: reflect only compares values here (reflect.DeepEqual)", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
	}
}
