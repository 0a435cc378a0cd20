package archtest

import (
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
