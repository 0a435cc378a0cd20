package archtest

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// docTrees are the trees whose packages keep their documentation in a
// doc.go.
var docTrees = []string{"simulator", "schemas", "scenarios", "features", "harness"}

// TestEveryPackageHasItsDoc: each package's documentation is in its
// doc.go, begins "Package <name>" (or "Command <name>" for a command),
// and no other file carries a package comment that go doc would merge
// into it.
func TestEveryPackageHasItsDoc(t *testing.T) {
	dirs := map[string][]string{}
	for _, tree := range docTrees {
		for _, path := range goFiles(t, tree) {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
	}
	for dir, files := range dirs {
		var doc string
		for _, path := range files {
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if f.Doc == nil {
				continue
			}
			if filepath.Base(path) != "doc.go" {
				t.Errorf("%s: a package comment outside doc.go", rel(path))
				continue
			}
			doc = f.Doc.Text()
			want := "Package " + f.Name.Name + " "
			if f.Name.Name == "main" {
				want = "Command " + filepath.Base(dir) + " "
			}
			if !strings.HasPrefix(doc, want) {
				t.Errorf("%s: the package comment should begin %q", rel(path), want)
			}
		}
		if doc == "" {
			t.Errorf("%s: no doc.go with the package's documentation (what it holds, who uses it)", rel(dir))
		}
	}
}
