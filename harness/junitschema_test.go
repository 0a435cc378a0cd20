package harness_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The Jenkins JUnit schema (dtkit's junit-4.xsd, MIT) is the one Jenkins
// and the tools that validate JUnit read. It is not copied into this
// repository: the test takes it from a published Go module that ships it
// (kubeconform's fixtures/junit.xsd, from the Go module proxy, cached by
// Go like any module), and validates with xmllint (libxml2-utils, which
// .ci/run installs).
const (
	schemaModule = "github.com/yannh/kubeconform@v0.8.0"
	schemaFile   = "fixtures/junit.xsd"
)

var (
	schemaOnce sync.Once
	schemaPath string
	schemaErr  error
)

func jenkinsJUnitSchema(t *testing.T) string {
	t.Helper()
	schemaOnce.Do(func() {
		cmd := exec.Command("go", "mod", "download", "-json", schemaModule)
		cmd.Dir = os.TempDir() // outside this module: a download, not a dependency
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on")
		out, err := cmd.Output()
		var mod struct{ Dir, Error string }
		if jerr := json.Unmarshal(out, &mod); err != nil || jerr != nil || mod.Dir == "" {
			schemaErr = &downloadError{err: err, msg: mod.Error}
			return
		}
		schemaPath = filepath.Join(mod.Dir, schemaFile)
	})
	if schemaErr != nil {
		t.Skipf("NOT VALIDATED: the Jenkins JUnit schema could not be fetched from the Go module proxy (%v); this test needs the proxy", schemaErr)
	}
	return schemaPath
}

type downloadError struct {
	err error
	msg string
}

func (e *downloadError) Error() string { return strings.TrimSpace(e.msg + " " + errString(e.err)) }

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// validateJUnit fails the test when the JUnit file at path does not
// validate against the Jenkins JUnit schema; a copy with an attribute
// the schema does not have must not validate, so the check is known to
// bite.
func validateJUnit(t *testing.T, path string) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Fatalf("validating JUnit needs xmllint (apt-get install libxml2-utils; .ci/run installs it): %v", err)
	}
	xsd := jenkinsJUnitSchema(t)
	if out, err := exec.Command("xmllint", "--noout", "--schema", xsd, path).CombinedOutput(); err != nil {
		b, _ := os.ReadFile(path)
		t.Fatalf("the JUnit report does not validate against the Jenkins JUnit schema: %v\n%s\n%s", err, out, b)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.xml")
	os.WriteFile(bad, []byte(strings.Replace(string(b), "<testsuite ", `<testsuite file="qa.feature" `, 1)), 0o644)
	if err := exec.Command("xmllint", "--noout", "--schema", xsd, bad).Run(); err == nil {
		t.Fatal("xmllint took a testsuite with a file attribute, which the schema does not have: the check would not catch a report it rejects")
	}
}
