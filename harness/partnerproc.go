package harness

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A partner file's start command runs the integration under test on this
// machine: one process for the run (the fixed mode) or one per scenario's
// app (the per-scenario mode), each on a free loopback port, with its
// environment templated from the app and the sandbox.

// partnerProcess is a started partner.
type partnerProcess struct {
	cmd   *exec.Cmd
	url   string
	ready ReadyProbe // the readiness probe under url
	out   *tailBuffer
	done  chan struct{}
}

// startPartner starts the partner with vars (app.clientId,
// app.clientSecret, app.webhookSecret, app.chave, sandbox.url) and waits
// until it answers its readiness probe.
func startPartner(ctx context.Context, p *Partner, vars map[string]string) (*partnerProcess, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	vars = withPort(vars, port)
	st := p.Start
	pp := &partnerProcess{url: expandVars(p.URL, vars), ready: st.Ready, out: &tailBuffer{max: 8 << 10}, done: make(chan struct{})}
	args := make([]string, len(st.Command))
	for i, a := range st.Command {
		args[i] = expandVars(a, vars)
	}
	pp.cmd = exec.Command(args[0], args[1:]...)
	pp.cmd.Dir = p.dirOf(st.Dir)
	pp.cmd.Env = os.Environ()
	for k, v := range st.Env {
		pp.cmd.Env = append(pp.cmd.Env, k+"="+expandVars(v, vars))
	}
	pp.cmd.Stdout, pp.cmd.Stderr = pp.out, pp.out
	if err := pp.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the partner (%s): %w", strings.Join(args, " "), err)
	}
	go func() { pp.cmd.Wait(); close(pp.done) }()
	if err := pp.waitReady(ctx, time.Duration(st.Timeout)); err != nil {
		pp.stop()
		return nil, err
	}
	return pp, nil
}

// waitReady polls the readiness probe (or the bare URL's port) until it
// answers, the process exits, or the timeout (default 15 s) passes.
func (pp *partnerProcess) waitReady(ctx context.Context, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: time.Second}
	for {
		if pp.answers(ctx, client) {
			return nil
		}
		select {
		case <-pp.done:
			return fmt.Errorf("the partner exited before it was ready (%v); its output:\n%s", pp.cmd.ProcessState, pp.out)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the partner did not say it was ready at %s%s%s within %s; its output:\n%s", pp.url, pp.ready.Path, pp.ready.whenText(), timeout, pp.out)
		}
	}
}

// answers reports whether the readiness probe says ready: a 2xx, and its
// condition on the answer when it has one.
func (pp *partnerProcess) answers(ctx context.Context, client *http.Client) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(pp.url, "/")+pp.ready.Path, nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return pp.ready.accepts(resp.StatusCode, body)
}

// stop ends the process: SIGTERM, then a kill after three seconds.
func (pp *partnerProcess) stop() {
	if pp == nil || pp.cmd.Process == nil {
		return
	}
	pp.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-pp.done:
	case <-time.After(3 * time.Second):
		pp.cmd.Process.Kill()
		<-pp.done
	}
}

// freePort asks the system for a free loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("a port for the partner: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func withPort(vars map[string]string, port int) map[string]string {
	out := map[string]string{"port": strconv.Itoa(port)}
	for k, v := range vars {
		out[k] = v
	}
	return out
}

// expandVars replaces {{name}} with vars' values.
func expandVars(s string, vars map[string]string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		if v, ok := vars[sub[1]+sub[2]]; ok {
			return v
		}
		return m
	})
}

// dirOf is where the start command runs: dir relative to the partner
// file's folder.
func (p *Partner) dirOf(dir string) string {
	base := p.dir
	if base == "" {
		base = "."
	}
	if dir == "" {
		return base
	}
	if filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(base, dir)
}

// tailBuffer keeps the last max bytes written to it: a partner's output
// for the error that says why it did not start.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
