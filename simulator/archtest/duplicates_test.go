package archtest

import (
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Copy-paste fails the build: two places of non-test Go code that share
// a run of copyLines lines, the same but for white space and comments,
// are one piece of logic written twice, and the next fix will reach only
// one of them. Fold them into one function, or into data.

// copyLines is the shortest run of shared lines that counts as a copy.
// Lines that carry no logic of their own (the package clause, imports, a
// lone brace or parenthesis) are not counted, so a run is copyLines lines
// of code. Go's ticker loop shares six lines wherever it is written
// (Stop, for, select, Done, return, the tick): nobody should fold that.
const copyLines = 7

// copyTrees are the trees whose non-test code must not repeat itself, or
// repeat another's.
var copyTrees = []string{"simulator", "schemas", "scenarios", "features", "harness"}

// apart says whether a copy between two files is one the rule lets
// stand: the reference partner (harness/partner) plays a partner's own
// code, which the judge (the rest of the harness) must not share, so
// that one side's misreading of the service cannot hide the other's;
// the two read the same answers, each its own way.
func apart(a, b string) bool {
	ref := func(f string) bool { return strings.HasPrefix(f, "harness/partner/") }
	judge := func(f string) bool { return strings.HasPrefix(f, "harness/") && !ref(f) }
	return ref(a) && judge(b) || judge(a) && ref(b)
}

// codeLine is one line of code as the check compares it: its tokens,
// white space and comments gone.
type codeLine struct {
	n    int
	text string
}

// codeLines reads a Go file's lines of code, in order.
func codeLines(path string, src []byte) ([]codeLine, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	skip := map[int]bool{fset.Position(f.Package).Line: true}
	for _, d := range f.Decls {
		for l := fset.Position(d.Pos()).Line; l <= fset.Position(d.End()).Line; l++ {
			skip[l] = true
		}
	}
	var s scanner.Scanner
	file := fset.AddFile(path, -1, len(src))
	s.Init(file, src, nil, 0)
	words := map[int][]string{}
	var order []int
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at a line's end
		}
		l := file.Line(pos)
		if skip[l] {
			continue
		}
		w := lit
		if w == "" {
			w = tok.String()
		}
		if _, ok := words[l]; !ok {
			order = append(order, l)
		}
		words[l] = append(words[l], w)
	}
	var out []codeLine
	for _, l := range order {
		if thin(words[l]) {
			continue
		}
		out = append(out, codeLine{n: l, text: strings.Join(words[l], " ")})
	}
	return out, nil
}

// thin is a line of punctuation alone: a closing brace, a parenthesis.
func thin(words []string) bool {
	for _, w := range words {
		if !strings.ContainsAny(w, "{}()[],;") || len(w) > 1 {
			return false
		}
	}
	return true
}

// place is where a run of lines starts: a file and an index into its
// lines of code.
type place struct {
	file string
	i    int
}

// copied is a run of lines of code two places share.
type copied struct {
	a, b string // the files
	text string
	n    int
}

// copies finds the runs of at least min lines of code that two places of
// files share, each reported once, longest first.
func copies(files map[string][]codeLine, min int) []copied {
	windows := map[string][]place{}
	for name, lines := range files {
		for i := 0; i+min <= len(lines); i++ {
			var b strings.Builder
			for _, l := range lines[i : i+min] {
				b.WriteString(l.text)
				b.WriteByte('\n')
			}
			windows[b.String()] = append(windows[b.String()], place{name, i})
		}
	}
	same := func(a, b place) bool {
		la, lb := files[a.file], files[b.file]
		return a.i >= 0 && b.i >= 0 && a.i < len(la) && b.i < len(lb) && la[a.i].text == lb[b.i].text
	}
	var out []copied
	for _, ps := range windows {
		for x := 0; x < len(ps); x++ {
			for y := x + 1; y < len(ps); y++ {
				a, b := ps[x], ps[y]
				if a.file > b.file || a.file == b.file && a.i > b.i {
					a, b = b, a
				}
				if a.file == b.file && b.i-a.i < min {
					continue // a run overlapping itself
				}
				if same(place{a.file, a.i - 1}, place{b.file, b.i - 1}) {
					continue // reported from where the run starts
				}
				n := min
				for same(place{a.file, a.i + n}, place{b.file, b.i + n}) {
					n++
				}
				la, lb := files[a.file], files[b.file]
				out = append(out, copied{a: a.file, b: b.file, n: n, text: fmt.Sprintf("%s:%d-%d ~ %s:%d-%d (%d lines of code)",
					a.file, la[a.i].n, la[a.i+n-1].n, b.file, lb[b.i].n, lb[b.i+n-1].n, n)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].text < out[j].text
	})
	return out
}

// TestNoCopiedCode: no run of copyLines lines of code stands twice in
// the non-test code of the repository, but between the judge and the
// reference partner (apart).
func TestNoCopiedCode(t *testing.T) {
	all := map[string][]codeLine{}
	for _, dir := range copyTrees {
		for _, path := range goFiles(t, dir) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines, err := codeLines(path, src)
			if err != nil {
				t.Fatal(err)
			}
			all[filepath.ToSlash(rel(path))] = lines
		}
	}
	for _, c := range copies(all, copyLines) {
		if !apart(c.a, c.b) {
			t.Errorf("copied code: %s; fold it into one function, or into data", c.text)
		}
	}
}

// TestCopyCheckFindsACopy: the check finds a run copied with other white
// space and comments, reports it once with its length, and leaves apart
// code that differs in one token.
func TestCopyCheckFindsACopy(t *testing.T) {
	body := func(name, op string) string {
		return "package x\n\nimport \"fmt\"\n\nfunc " + name + "(a, b int) int {\n" +
			"\tc := a + b\n\tif c > 10 {\n\t\tc = 10\n\t}\n\tfmt.Println(c)\n" +
			"\td := c * 2 // twice\n\te := d " + op + " 1\n\tf := e + a\n\tg := f * b\n\treturn g\n}\n"
	}
	read := func(src string) []codeLine {
		lines, err := codeLines("x.go", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return lines
	}
	files := map[string][]codeLine{
		"a.go": read(body("f", "+")),
		"b.go": read(strings.ReplaceAll(body("f", "+"), "\t", "  ")),
		"c.go": read(body("f", "-")),
	}
	got := copies(files, 8)
	if len(got) != 1 || got[0].text != "a.go:5-15 ~ b.go:5-15 (10 lines of code)" {
		t.Fatalf("copies = %+v, want a.go ~ b.go, 10 lines, and c.go (one token differs) apart", got)
	}
}

// TestApart: only a copy between the judge and the reference partner
// stands; within either, or with the simulator, it is a copy.
func TestApart(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"harness/insurance.go", "harness/partner/insurance.go", true},
		{"harness/partner/actions.go", "harness/homologation.go", true},
		{"harness/partner/actions.go", "harness/partner/pixauto.go", false},
		{"harness/homologation.go", "harness/insurance.go", false},
		{"harness/partner/actions.go", "simulator/pix/cob.go", false},
		{"simulator/pix/cob.go", "simulator/insurance/sale/venda.go", false},
	} {
		if got := apart(c.a, c.b); got != c.want {
			t.Errorf("apart(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
