package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrowserTestsCloseTheirChromium: a package whose tests take a tab of
// the shared Chromium (browsertest.Browser) ends it in its TestMain
// (browsertest.Close): the tabs share one browser per test binary, and
// one left running outlives the binary with its renderers, a tree of
// processes per run that the next benchmark meets.
func TestBrowserTestsCloseTheirChromium(t *testing.T) {
	uses, closes := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") || strings.Contains(p, "archtest") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dir := rel(filepath.Dir(p))
		uses[dir] = uses[dir] || strings.Contains(string(src), "browsertest.Browser(")
		closes[dir] = closes[dir] || strings.Contains(string(src), "browsertest.Close()")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(uses) == 0 {
		t.Fatal("found no test files")
	}
	for dir, use := range uses {
		if use && !closes[dir] {
			t.Errorf("%s: its tests use browsertest.Browser but no TestMain calls browsertest.Close(): the shared Chromium outlives the test binary", dir)
		}
	}
}
