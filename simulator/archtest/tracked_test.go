package archtest

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxTrackedBytes is the largest file the repository may track: the
// biggest source or fixture is a few hundred kilobytes, while anything
// built is megabytes.
const maxTrackedBytes = 1 << 20

// binaryMagic names the first bytes of executables and object archives:
// build output, which is never committed.
var binaryMagic = []struct {
	name  string
	magic []byte
}{
	{"ELF executable", []byte("\x7fELF")},
	{"Mach-O executable", []byte{0xfe, 0xed, 0xfa, 0xce}},
	{"Mach-O executable", []byte{0xfe, 0xed, 0xfa, 0xcf}},
	{"Mach-O executable", []byte{0xce, 0xfa, 0xed, 0xfe}},
	{"Mach-O executable", []byte{0xcf, 0xfa, 0xed, 0xfe}},
	{"Mach-O universal binary", []byte{0xca, 0xfe, 0xba, 0xbe}},
	{"PE executable", []byte("MZ")},
	{"WebAssembly module", []byte("\x00asm")},
	{"object archive", []byte("!<arch>\n")},
}

// trackedFiles lists the files git tracks, relative to root.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files (the repository's tracked files are checked from a git checkout): %v", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatal("git ls-files listed no file")
	}
	return files
}

// binaryKind names the executable format a file's first bytes announce,
// or "" when they announce none.
func binaryKind(head []byte) string {
	for _, m := range binaryMagic {
		if bytes.HasPrefix(head, m.magic) {
			return m.name
		}
	}
	return ""
}

// TestNoBuildOutputTracked: no tracked file is over maxTrackedBytes or
// is an executable binary.
func TestNoBuildOutputTracked(t *testing.T) {
	for _, name := range trackedFiles(t) {
		path := filepath.Join(root, name)
		info, err := os.Lstat(path)
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		if info.Size() > maxTrackedBytes {
			t.Errorf("%s is tracked and %d bytes (at most %d): build output or data belongs outside git", name, info.Size(), maxTrackedBytes)
		}
		head, err := readHead(path, 8)
		if err != nil {
			t.Fatal(err)
		}
		if kind := binaryKind(head); kind != "" {
			t.Errorf("%s is tracked and is an executable binary (%s): build output is never committed (git rm --cached it and list it in .gitignore)", name, kind)
		}
	}
}

// TestBinaryKind: the formats a build writes are recognised, and text
// (source, scripts) is not.
func TestBinaryKind(t *testing.T) {
	for _, tc := range []struct {
		head []byte
		want string
	}{
		{[]byte("\x7fELF\x02\x01\x01\x00"), "ELF executable"},
		{[]byte{0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1}, "Mach-O executable"},
		{[]byte("MZ\x90\x00\x03\x00\x00\x00"), "PE executable"},
		{[]byte("!<arch>\n"), "object archive"},
		{[]byte("package "), ""},
		{[]byte("#!/usr/b"), ""},
		{[]byte("{\"a\":1}"), ""},
		{nil, ""},
	} {
		if got := binaryKind(tc.head); got != tc.want {
			t.Errorf("binaryKind(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}

// readHead reads at most n bytes from the start of a file.
func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, int64(n)))
}
