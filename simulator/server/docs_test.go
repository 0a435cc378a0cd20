package server_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The documentation is run, so none of it can rot. Every fenced block
// of the README, the guides (docs/*.md) and the reference
// (docs/reference/*.md) whose info string starts with "sh" is a command
// block, and each file's blocks run in order in one bash session, as a
// reader following the page runs them: in a clone (the repository for
// the README, a fresh copy of it for the others), the homologa binary
// built from this tree on PATH, and a sandbox address of its own. The words
// after the language say how a block runs:
//
//	sh                        run; it must exit 0
//	sh background ready=url   started and left running (stopped when the
//	                          page ends); ready=url waits until the page's
//	                          sandbox answers, ready=TEXT until TEXT is in
//	                          the block's output
//	sh ci                     what CI runs itself: each line must be a
//	                          command of .ci/run (make test runs this test)
//	sh release                run by make release-test, on what make dist
//	                          and make image built
//	sh container              a container runtime's command, which cannot
//	                          run here: checked against the image
//	LANG file=NAME            not a command: written to NAME in the
//	                          session's folder before the blocks after it
//	text output               what the command block before printed:
//	                          each line must be in its output ("…"
//	                          stands for anything); output=background:
//	                          what the last background block printed;
//	                          output=WORD: the last background block
//	                          whose command has WORD
//
// The pages name the sandbox http://127.0.0.1:8080 and a partner's
// receiver port 3000, as a reader's machine has them; the session gives
// each a free port and the blocks are rewritten to them.

// docFiles are the pages whose command blocks run, from the
// repository's root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md"}
	for _, glob := range []string{"docs/*.md", "docs/reference/*.md"} {
		m, err := filepath.Glob(filepath.Join("../..", glob))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel("../..", f)
			files = append(files, rel)
		}
	}
	return files
}

// docBlock is one fenced block of a page.
type docBlock struct {
	Line  int // of the opening fence
	Lang  string
	Attrs map[string]string // "background": "", "ready": "url", "file": "receiver.py"
	Body  string
}

var fenceRe = regexp.MustCompile("^(```+)(.*)$")

// readBlocks reads a page's fenced blocks.
func readBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docBlock
	var cur *docBlock
	var fence string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if cur != nil {
			if strings.TrimSpace(line) == fence {
				out = append(out, *cur)
				cur = nil
				continue
			}
			cur.Body += line + "\n"
			continue
		}
		m := fenceRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		words := strings.Fields(m[2])
		b := docBlock{Line: n, Attrs: map[string]string{}}
		if len(words) > 0 {
			b.Lang = words[0]
			for _, w := range words[1:] {
				k, v, _ := strings.Cut(w, "=")
				b.Attrs[k] = v
			}
		}
		cur, fence = &b, m[1]
	}
	if cur != nil {
		t.Fatalf("%s:%d: a block is never closed", path, cur.Line)
	}
	return out
}

// blockKinds are the words a command block may carry.
var blockKinds = []string{"", "background", "ci", "release", "container"}

func commandKind(b docBlock) string {
	for _, k := range blockKinds[1:] {
		if _, ok := b.Attrs[k]; ok {
			return k
		}
	}
	return ""
}

var (
	homologaOnce sync.Once
	homologaBin  string
	homologaErr  error
)

// homologaOnPath builds homologa once for every page's session.
func homologaOnPath(t *testing.T) string {
	t.Helper()
	homologaOnce.Do(func() {
		dir, err := os.MkdirTemp("", "homologa-docs-bin")
		if err != nil {
			homologaErr = err
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "homologa"), "homologa/simulator/cmd/homologa").CombinedOutput()
		if err != nil {
			homologaErr = fmt.Errorf("build homologa: %v\n%s", err, out)
		}
		homologaBin = dir
	})
	if homologaErr != nil {
		t.Fatal(homologaErr)
	}
	return homologaBin
}

// TestDocCommands runs every page's command blocks.
func TestDocCommands(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "sed", "python3", "make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the documentation's blocks need %s (.ci/run installs it): %v", tool, err)
		}
	}
	for _, page := range docFiles(t) {
		blocks := readBlocks(t, filepath.Join("../..", page))
		if !slices.ContainsFunc(blocks, func(b docBlock) bool { return b.Lang == "sh" || b.Attrs["file"] != "" }) {
			continue
		}
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			runPage(t, page, blocks)
		})
	}
}

// runPage runs one page's blocks as one bash session.
func runPage(t *testing.T, page string, blocks []docBlock) {
	bin := homologaOnPath(t)
	// The reader has a clone: make works, and the examples are there.
	// The README's reader is in it (its make run compiles where every
	// other build of this tree did, so it is a link, not a build), and
	// its blocks must leave nothing behind but what make builds; the
	// guides' readers write files, in a copy.
	dir, before := t.TempDir(), ""
	if page == "README.md" {
		root, err := filepath.Abs("../..")
		if err != nil {
			t.Fatal(err)
		}
		dir, before = root, gitStatus(t)
		defer func() {
			if after := gitStatus(t); after != before {
				t.Errorf("README.md's blocks left files in the repository:\n%s", after)
			}
		}()
	} else {
		copyRepository(t, dir)
	}
	logDir := t.TempDir() // the background blocks' output, outside the reader's folder
	sandboxPort, receiverPort := freePort(t), freePort(t)
	rewrite := strings.NewReplacer(
		"127.0.0.1:8080", "127.0.0.1:"+sandboxPort, "localhost:8080", "localhost:"+sandboxPort,
		"127.0.0.1:3000", "127.0.0.1:"+receiverPort, "localhost:3000", "localhost:"+receiverPort,
	)
	sandboxURL := "http://127.0.0.1:" + sandboxPort
	ciRun, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}

	var script strings.Builder
	// Job control puts each background block in a process group of its
	// own, so the page's end stops it and whatever it started.
	script.WriteString("set -euo pipefail\nset -m\n__bg=()\n")
	script.WriteString("__stop() { for p in \"${__bg[@]:-}\"; do [ -n \"$p\" ] && kill -- -\"$p\" 2>/dev/null; done; return 0; }\ntrap __stop EXIT\n")
	var lastOut int // the index of the last block that printed
	outputs := map[int]string{}
	ran := 0
	for i, b := range blocks {
		where := fmt.Sprintf("%s:%d", page, b.Line)
		if name := b.Attrs["file"]; name != "" {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(rewrite.Replace(b.Body)), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, ok := b.Attrs["output"]; ok {
			outputs[i] = where
			continue
		}
		if b.Lang != "sh" {
			continue
		}
		body := rewrite.Replace(b.Body)
		switch commandKind(b) {
		case "ci":
			for _, line := range commandLines(b.Body) {
				if !strings.Contains(string(ciRun), "\n"+line+"\n") {
					t.Errorf("%s: %q is a command CI runs, but .ci/run does not run it", where, line)
				}
			}
			continue
		case "release":
			releaseTest, _ := os.ReadFile("../../scripts/release-test.sh")
			if !bytes.Contains(releaseTest, []byte(page)) {
				t.Errorf("%s: a release block, but scripts/release-test.sh does not run %s's", where, page)
			}
			continue
		case "container":
			checkContainerBlock(t, where, b.Body)
			continue
		case "background":
			log := filepath.Join(logDir, fmt.Sprintf("block-%d.log", b.Line))
			fmt.Fprintf(&script, "echo '### %s (background)' >&2\n( %s\n) > %s 2>&1 &\n__bg+=($!)\n__pid=$!\n", where, body, log)
			switch ready := b.Attrs["ready"]; ready {
			case "":
				t.Errorf("%s: a background block says when it is ready: ready=url, or ready=TEXT it prints", where)
			case "url":
				// Over plain HTTP, or over TLS (serve --tls), whose CA the
				// reader has not taken yet.
				up := fmt.Sprintf("{ curl -s -o /dev/null %s/ || curl -sk -o /dev/null https://127.0.0.1:%s/; }", sandboxURL, sandboxPort)
				fmt.Fprintf(&script, "for __i in $(seq 600); do %s && break; kill -0 $__pid 2>/dev/null || break; sleep 0.2; done\n%s || { echo '%s never answered:'; cat %s; exit 1; }\n", up, up, where, log)
			default:
				fmt.Fprintf(&script, "for __i in $(seq 600); do grep -qF -- %s %s && break; kill -0 $__pid 2>/dev/null || break; sleep 0.2; done\ngrep -qF -- %s %s || { echo '%s never printed %s:'; cat %s; exit 1; }\n", shellQuote(ready), log, shellQuote(ready), log, where, ready, log)
			}
			fmt.Fprintf(&script, "echo '### end %d'\n", i)
			lastOut = i
		default:
			fmt.Fprintf(&script, "echo '### %s' >&2\n%s\necho '### end %d'\n", where, body, i)
			lastOut = i
		}
		ran++
		_ = lastOut
	}
	if ran == 0 && len(outputs) == 0 {
		return
	}
	// The background blocks' output, for the output blocks after them.
	fmt.Fprintf(&script, "for f in %s/block-*.log; do [ -f \"$f\" ] && { echo \"### log $(basename $f)\"; cat \"$f\"; }; done; true\n", logDir)

	cmd := exec.Command("bash", "-c", script.String())
	cmd.Dir = dir
	// A home of its own, so nothing a block runs writes in the reader's;
	// Go's caches stay the machine's (make run builds).
	cmd.Env = append(os.Environ(), goCaches(t)...)
	cmd.Env = append(cmd.Env,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+t.TempDir(),
		"HOMOLOGA_ADDR=127.0.0.1:"+sandboxPort,
		"HOMOLOGA_SANDBOX="+sandboxURL,
		"PORT="+receiverPort,
	)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(4 * time.Minute):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = fmt.Errorf("timed out")
		<-done
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what a block left behind
	if err != nil {
		t.Fatalf("%s: its blocks failed (%v); the last block started is the last ### line:\n%s", page, err, tail(out.String(), 60))
	}
	checkOutputs(t, page, blocks, outputs, out.String(), rewrite)
}

// checkOutputs matches each output block against what the command block
// before it printed.
func checkOutputs(t *testing.T, page string, blocks []docBlock, outputs map[int]string, all string, rewrite *strings.Replacer) {
	for i, where := range outputs {
		// output: the command block before; output=background: the last
		// background block; output=WORD: the last background block
		// whose command has WORD (homologa listen's, of two).
		of := blocks[i].Attrs["output"]
		prev := -1
		for j := i - 1; j >= 0; j-- {
			b := blocks[j]
			if b.Lang != "sh" {
				continue
			}
			kind := commandKind(b)
			if (of == "" && (kind == "" || kind == "background")) ||
				(of == "background" && kind == "background") ||
				(of != "" && of != "background" && kind == "background" && strings.Contains(b.Body, of)) {
				prev = j
				break
			}
		}
		if prev < 0 {
			t.Errorf("%s: an output block after no command", where)
			continue
		}
		printed := blockOutput(all, prev, blocks[prev].Line)
		for _, want := range strings.Split(strings.TrimSpace(rewrite.Replace(blocks[i].Body)), "\n") {
			if strings.TrimSpace(want) == "" {
				continue
			}
			if !outputLineRe(want).MatchString(printed) {
				t.Errorf("%s: %q is not in what %s:%d printed:\n%s", where, want, page, blocks[prev].Line, tail(printed, 40))
			}
		}
	}
}

// blockOutput is what block i printed: between its start and end marks,
// or for a background block its log.
func blockOutput(all string, i, line int) string {
	if k := strings.Index(all, fmt.Sprintf("### log block-%d.log\n", line)); k >= 0 {
		rest := all[k:]
		rest = rest[strings.Index(rest, "\n")+1:]
		if e := strings.Index(rest, "### log "); e >= 0 {
			rest = rest[:e]
		}
		return rest
	}
	end := strings.Index(all, fmt.Sprintf("### end %d\n", i))
	if end < 0 {
		return ""
	}
	start := strings.LastIndex(all[:end], "### ")
	if start < 0 {
		return all[:end]
	}
	return all[start:end]
}

// outputLineRe matches a documented output line: spaces as any run of
// spaces, "…" as anything.
func outputLineRe(line string) *regexp.Regexp {
	var b strings.Builder
	for i, part := range strings.Split(strings.TrimSpace(line), "…") {
		if i > 0 {
			b.WriteString(".*")
		}
		for j, word := range strings.Fields(part) {
			if j > 0 {
				b.WriteString(`\s+`)
			}
			b.WriteString(regexp.QuoteMeta(word))
		}
		if strings.HasSuffix(part, " ") && i < len(strings.Split(line, "…"))-1 {
			b.WriteString(`\s*`)
		}
		if strings.HasPrefix(part, " ") && i > 0 {
			// the space after "…" is part of what "…" stands for
		}
	}
	return regexp.MustCompile(b.String())
}

// commandLines are a block's commands, comments and blank lines left out.
func commandLines(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if i := strings.Index(l, " #"); i >= 0 {
			l = strings.TrimSpace(l[:i])
		}
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// checkContainerBlock holds a container command to the image make image
// builds: its name, the port it exposes, the volume, and environment
// variables homologa reads.
func checkContainerBlock(t *testing.T, where, body string) {
	t.Helper()
	containerfile, err := os.ReadFile("../../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile("../../docs/reference/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range commandLines(strings.ReplaceAll(body, "\\\n", " ")) {
		words := strings.Fields(line)
		if len(words) < 2 || (words[0] != "podman" && words[0] != "docker") {
			t.Errorf("%s: %q: a container block holds podman or docker commands", where, line)
			continue
		}
		for i, w := range words {
			next := ""
			if i+1 < len(words) {
				next = words[i+1]
			}
			switch w {
			case "-p", "--publish":
				_, inside, _ := strings.Cut(next, ":")
				if !bytes.Contains(containerfile, []byte("EXPOSE "+inside)) {
					t.Errorf("%s: publishes %s, but the image exposes no %s", where, next, inside)
				}
			case "-v", "--volume":
				_, inside, _ := strings.Cut(next, ":")
				if !bytes.Contains(containerfile, []byte(`VOLUME ["`+inside+`"]`)) {
					t.Errorf("%s: mounts %s, but the image's volume is not %s", where, next, inside)
				}
			case "-e", "--env":
				name, _, _ := strings.Cut(next, "=")
				if !bytes.Contains(config, []byte("`"+name+"`")) && name != "SSL_CERT_FILE" {
					t.Errorf("%s: sets %s, which docs/reference/configuration.md does not list", where, name)
				}
			}
			if strings.HasPrefix(w, "homologa:") || strings.HasPrefix(w, "localhost/homologa:") {
				if !regexp.MustCompile(`^(localhost/)?homologa:[0-9A-Za-z.-]+$`).MatchString(w) {
					t.Errorf("%s: image %s is not a tag make image writes (homologa:VERSION)", where, w)
				}
			}
		}
	}
}

// copyRepository copies the repository's tracked files into dir: the
// README's reader has a clone.
func copyRepository(t *testing.T, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", "../..", "ls-files", "-z").Output()
	if err != nil {
		// Not a git checkout (an unpacked archive): every file but the
		// built ones.
		t.Fatalf("the README's session copies the repository's tracked files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join("../..", name)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, b, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// goCaches pins Go's module and build caches where they are, whatever
// HOME a session has.
func goCaches(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(v) != 3 {
		t.Fatalf("go env: %q", out)
	}
	return []string{"GOPATH=" + v[0], "GOMODCACHE=" + v[1], "GOCACHE=" + v[2]}
}

// gitStatus is what git sees changed or new in the repository.
func gitStatus(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "-C", "../..", "status", "--porcelain").Output()
	if err != nil {
		t.Fatalf("git status: %v", err)
	}
	return string(out)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func tail(s string, lines int) string {
	ls := strings.Split(s, "\n")
	if len(ls) > lines {
		ls = ls[len(ls)-lines:]
	}
	return strings.Join(ls, "\n")
}

// TestDocLinks: every relative link of the documentation leads to a file
// of the repository, and every #anchor to a heading of its page.
func TestDocLinks(t *testing.T) {
	pages := docFiles(t)
	pages = append(pages, "SECURITY.md", "harness/README.md", "scenarios/README.md", "docs/decisions/README.md")
	linkRe := regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	for _, page := range pages {
		b, err := os.ReadFile(filepath.Join("../..", page))
		if err != nil {
			continue // a page a test above does not need
		}
		text := string(fencedRe.ReplaceAll(b, nil))
		for _, m := range linkRe.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := page
			if path != "" {
				file = filepath.Join(filepath.Dir(page), path)
				if _, err := os.Stat(filepath.Join("../..", file)); err != nil {
					t.Errorf("%s: the link %s leads nowhere", page, target)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(file, ".md") && !slices.Contains(headingAnchors(t, file), anchor) {
				t.Errorf("%s: the link %s names no heading of %s", page, target, file)
			}
		}
	}
}

var fencedRe = regexp.MustCompile("(?ms)^```.*?^```")

// headingAnchors are the anchors GitHub gives a page's headings.
func headingAnchors(t *testing.T, page string) []string {
	b, err := os.ReadFile(filepath.Join("../..", page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	seen := map[string]int{}
	for _, line := range strings.Split(string(fencedRe.ReplaceAll(b, nil)), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		a := strings.ToLower(h)
		a = regexp.MustCompile(`[^\p{L}\p{N}\- _]`).ReplaceAllString(a, "")
		a = strings.ReplaceAll(a, " ", "-")
		if n := seen[a]; n > 0 {
			out = append(out, a+"-"+strconv.Itoa(n))
		}
		seen[a]++
		out = append(out, a)
	}
	return out
}

// freeTCP is unused by the pages; kept out.
var _ = net.Listen
var _ = http.Get
