package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository, from this package's folder.
const root = "../.."

// goFiles lists the non-test Go files below dir (relative to root).
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func parse(t *testing.T, path string) (*token.FileSet, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f
}

// sqlCall is a call that runs SQL on a transaction or a database.
var sqlCall = regexp.MustCompile(`\.(ExecContext|QueryContext|QueryRowContext|Exec|Query|QueryRow)\(`)

// usesRequest reports whether a file names *http.Request.
func usesRequest(src string) bool { return strings.Contains(src, "http.Request") }

// TestDomainFilesAreHTTPOrStore: no file of a domain both handles an
// *http.Request and runs SQL, and no function takes both a *store.Tx and
// an *http.Request.
func TestDomainFilesAreHTTPOrStore(t *testing.T) {
	for _, dir := range []string{"simulator/pix", "simulator/insurance"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			for _, path := range goFiles(t, dir) {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				src := string(b)
				if usesRequest(src) && sqlCall.MatchString(src) {
					t.Errorf("%s handles *http.Request and runs SQL: split it into its HTTP and store files", rel(path))
				}
				fset, f := parse(t, path)
				for _, d := range f.Decls {
					fn, ok := d.(*ast.FuncDecl)
					if !ok {
						continue
					}
					var tx, req bool
					for _, p := range fn.Type.Params.List {
						s := exprString(p.Type)
						tx = tx || s == "*store.Tx"
						req = req || s == "*http.Request"
					}
					if tx && req {
						t.Errorf("%s: %s takes both a *store.Tx and an *http.Request", fset.Position(fn.Pos()), fn.Name.Name)
					}
				}
			}
		})
	}
}

// maxLines is the longest a non-test function may be.
const maxLines = 80

// TestFunctionsAreShort: no non-test function of the sandbox or the
// harness is longer than maxLines.
func TestFunctionsAreShort(t *testing.T) {
	for _, dir := range []string{"simulator", "harness", "cli"} {
		t.Run(dir, func(t *testing.T) {
			for _, path := range goFiles(t, dir) {
				fset, f := parse(t, path)
				ast.Inspect(f, func(n ast.Node) bool {
					fn, ok := n.(*ast.FuncDecl)
					if !ok || fn.Body == nil {
						return true
					}
					lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
					if lines > maxLines {
						t.Errorf("%s: %s is %d lines long (at most %d)", fset.Position(fn.Pos()), fn.Name.Name, lines, maxLines)
					}
					return false
				})
			}
		})
	}
}

// anyTenant is a query that treats an empty company id as every company.
var anyTenant = regexp.MustCompile(`\?\s*=\s*''\s*OR\s+[a-z_.]*company_id\s*=`)

// TestTenancyIsExplicit: no query reads "any company" from an empty
// company id; a caller that means every company says so.
func TestTenancyIsExplicit(t *testing.T) {
	for _, path := range goFiles(t, "simulator") {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if anyTenant.MatchString(line) {
				t.Errorf("%s:%d: an empty company id reads every company: %s", rel(path), i+1, strings.TrimSpace(line))
			}
		}
	}
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}

func rel(p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return r
}
