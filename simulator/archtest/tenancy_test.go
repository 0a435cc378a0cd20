package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Tenancy fails closed: package tenant is the one place that decides
// whether a company id names a company (tenant.Named, Scope), and package
// auth, where the operator's token is read, the one place that grants the
// scope of every company. Anywhere else, `company == ""` is how a
// forgotten tenant.With became "every company" instead of an error.

// tenantHome is the one package that may compare a company id with "".
const tenantHome = "simulator/tenant"

// everyCompanyGranters are the packages that may call
// tenant.WithEveryCompany: where the operator's credential is read.
var everyCompanyGranters = map[string]bool{"simulator/auth": true}

// companyName is a name that holds a company id: company, companyID,
// CompanyID, ownerCompany, tenant…
var companyName = regexp.MustCompile(`(?i)compan(y|ies)|tenant`)

// companyCalls are the calls whose result is a company id (or a scope):
// a variable set from one holds a company id whatever its name.
var companyCalls = map[string]bool{"tenant.Of": true, "tenant.CompanyOf": true, "Company": true, "CompanyOf": true}

// emptyCompanyComparisons lists, as "file:line: expression", every
// comparison of a company id with "" in src: an == or != with the empty
// string on one side and, on the other, a name that holds a company id, a
// variable set from a call that answers one, or such a call itself; and
// a switch on one of those with a case "".
func emptyCompanyComparisons(fset *token.FileSet, f *ast.File) []string {
	var out []string
	report := func(n ast.Node, e ast.Expr) {
		out = append(out, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), exprText(e)))
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		tainted := companyVariables(fn.Body)
		isCompany := func(e ast.Expr) bool { return namesCompany(e, tainted) }
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if x.Op != token.EQL && x.Op != token.NEQ {
					return true
				}
				if isEmptyString(x.Y) && isCompany(x.X) {
					report(x, x.X)
				} else if isEmptyString(x.X) && isCompany(x.Y) {
					report(x, x.Y)
				}
			case *ast.SwitchStmt:
				if x.Tag != nil && isCompany(x.Tag) && hasEmptyCase(x) {
					report(x, x.Tag)
				}
			}
			return true
		})
	}
	return out
}

// companyVariables are the names a function sets from a call that
// answers a company id.
func companyVariables(body *ast.BlockStmt) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok || !companyCalls[callName(call)] {
			return true
		}
		// The first result is the id (or the scope); the others are an
		// error or a bool.
		if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
			names[id.Name] = true
		}
		return true
	})
	return names
}

func namesCompany(e ast.Expr, tainted map[string]bool) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return tainted[x.Name] || companyName.MatchString(x.Name)
	case *ast.SelectorExpr:
		return companyName.MatchString(x.Sel.Name)
	case *ast.CallExpr:
		return companyCalls[callName(x)] || companyName.MatchString(callName(x))
	case *ast.ParenExpr:
		return namesCompany(x.X, tainted)
	}
	return false
}

// callName is "pkg.Func" for a package's function, the method's or the
// function's name otherwise.
func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if pkg, ok := f.X.(*ast.Ident); ok && pkg.Name == "tenant" {
			return "tenant." + f.Sel.Name
		}
		return f.Sel.Name
	}
	return ""
}

func isEmptyString(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING && (lit.Value == `""` || lit.Value == "``")
}

func hasEmptyCase(s *ast.SwitchStmt) bool {
	for _, st := range s.Body.List {
		if cc, ok := st.(*ast.CaseClause); ok {
			for _, e := range cc.List {
				if isEmptyString(e) {
					return true
				}
			}
		}
	}
	return false
}

func exprText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.CallExpr:
		return callName(x) + "(…)"
	case *ast.ParenExpr:
		return exprText(x.X)
	}
	if s := exprString(e); s != "" {
		return s
	}
	return "…"
}

// notCompanyIDs are comparisons the check matches by name that are not
// of a company id, each with the reason.
var notCompanyIDs = map[string]string{
	"simulator/resource/resource.go: k.Company": "Table.Company is an SQL column expression, empty for the table's own company_id",
}

// TestNoEmptyCompanyComparison: no package but tenant compares a company
// id with "", so no code can read a missing company as every company.
func TestNoEmptyCompanyComparison(t *testing.T) {
	for _, path := range goFiles(t, "simulator") {
		if filepath.ToSlash(filepath.Dir(rel(path))) == tenantHome {
			continue
		}
		fset, f := parse(t, path)
		for _, c := range emptyCompanyComparisons(fset, f) {
			file, expr := rel(c[:strings.Index(c, ":")]), c[strings.LastIndex(c, ": ")+2:]
			if _, ok := notCompanyIDs[file+": "+expr]; ok {
				continue
			}
			t.Errorf("%s compares a company id with \"\": ask package tenant instead (tenant.Of, CompanyOf, Named, Scope.Company)", rel(c))
		}
	}
}

// TestEveryCompanyIsGrantedWhereTheCredentialIsRead: only package auth
// calls tenant.WithEveryCompany, when it reads the operator's token.
func TestEveryCompanyIsGrantedWhereTheCredentialIsRead(t *testing.T) {
	for _, path := range goFiles(t, "simulator") {
		dir := filepath.ToSlash(filepath.Dir(rel(path)))
		if dir == tenantHome || everyCompanyGranters[dir] {
			continue
		}
		fset, f := parse(t, path)
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && callName(c) == "tenant.WithEveryCompany" {
				t.Errorf("%s: tenant.WithEveryCompany outside package auth: the operator's scope is granted where its token is read", fset.Position(c.Pos()))
			}
			return true
		})
	}
}

// TestEmptyCompanyCheckFindsWhatItShould: the check flags each way a
// company id has been compared with "" and nothing else.
func TestEmptyCompanyCheckFindsWhatItShould(t *testing.T) {
	tests := []struct {
		name, body string
		flagged    bool
	}{
		{"Variable", `if company == "" {}`, true},
		{"Field", `if in.CompanyID != "" {}`, true},
		{"EmptyFirst", `if "" == companyID {}`, true},
		{"Call", `if tenant.Of(ctx) == "" {}`, true},
		{"SetFromTenant", `caller := tenant.Of(ctx); if caller == "" {}`, true},
		{"SetFromScope", `id, _ := sc.Company(); if id != "" {}`, true},
		{"Switch", `switch companyID { case "": }`, true},
		{"RawString", "if company == `` {}", true},
		{"OtherName", `if name == "" {}`, false},
		{"CompanyToCompany", `if a.CompanyID != company {}`, false},
		{"CompanyToValue", `if company == "c1" {}`, false},
		{"Named", `if !tenant.Named(company) {}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", "package x\nfunc f() {\n"+tt.body+"\n}\n", 0)
			if err != nil {
				t.Fatal(err)
			}
			got := emptyCompanyComparisons(fset, f)
			if (len(got) > 0) != tt.flagged {
				t.Fatalf("%s: flagged %v, want flagged %v", tt.body, got, tt.flagged)
			}
		})
	}
}
