package main

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The cores of a pinned run: the servers on one, the load generator on
// another, so neither steals the other's CPU and a server's figures are
// one core's.
const (
	serverCPU = "0"
	loadCPU   = "1"
)

// pinning says whether processes are pinned: two or more cores and
// taskset at hand (or, in the load generator that pinSelf started, that
// they were).
func pinning() (bool, string) {
	if os.Getenv("PIXBENCH_PINNED") != "" {
		return true, ""
	}
	if runtime.NumCPU() < 2 {
		return false, fmt.Sprintf("only %d core: server and load share it, so the figures flatter nothing and compare with no pinned run", runtime.NumCPU())
	}
	if _, err := exec.LookPath("taskset"); err != nil {
		return false, "taskset not found (util-linux): server and load run unpinned on every core"
	}
	return true, ""
}

// pinSelf runs this very command again on the load generator's core, as
// the process the bench really is, and returns its exit code; ok is false
// when it is already pinned (or cannot be), and the caller goes on.
func pinSelf() (code int, ok bool) {
	if os.Getenv("PIXBENCH_PINNED") != "" {
		return 0, false
	}
	if pin, _ := pinning(); !pin {
		return 0, false
	}
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	cmd := exec.Command("taskset", append([]string{"-c", loadCPU, exe}, os.Args[1:]...)...)
	cmd.Env = append(os.Environ(), "PIXBENCH_PINNED=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), true
		}
		fmt.Fprintln(os.Stderr, "pixbench:", err)
		return 1, true
	}
	return 0, true
}

// serverCmd is a server process on the servers' core, with GOMAXPROCS=1
// (unpinned when the machine cannot pin).
func serverCmd(env []string, name string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if pin, _ := pinning(); pin {
		cmd = exec.Command("taskset", append([]string{"-c", serverCPU, name}, args...)...)
	} else {
		cmd = exec.Command(name, args...)
	}
	cmd.Env = append(append(os.Environ(), "GOMAXPROCS=1"), env...)
	return cmd
}

// proc is a started server process.
type proc struct {
	cmd  *exec.Cmd
	addr string
	// started is when the process was started; up, when it first
	// answered.
	started, up time.Time
}

// startServer starts cmd, whose server listens on addr, and waits until
// GET path answers 200.
func startServer(cmd *exec.Cmd, addr, path string) (*proc, error) {
	p := &proc{cmd: cmd, addr: addr, started: time.Now()}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	deadline := p.started.Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if status, _, _, err := get(addr, "GET", path, "", "", ""); err == nil && status == 200 {
			p.up = time.Now()
			return p, nil
		}
		time.Sleep(500 * time.Microsecond)
	}
	p.stop()
	return nil, fmt.Errorf("%s did not answer GET %s within 30 s", cmd, path)
}

// stop ends the process gracefully (SIGTERM), and waits for it.
func (p *proc) stop() {
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

// rss is the process's resident set in MiB, from /proc.
func (p *proc) rss() (float64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024, err
		}
	}
	return 0, errors.New("no VmRSS")
}

// usage is what a process has spent so far: its minor page faults and
// its processor time, user and system (/proc/PID/stat, fields 10, 14
// and 15). Processor time per request is the figure this noisy kind of
// machine does not move much: a neighbour's load lowers a server's
// throughput, not what each of its requests costs.
type usage struct {
	faults int64
	cpu    time.Duration
}

// clockTick is the unit of /proc's times: USER_HZ, 100 on every Linux
// the kernel ABI exposes to programs.
const clockTick = 10 * time.Millisecond

// usageOf reads a process's usage; ok is false when it cannot.
func usageOf(pid int) (u usage, ok bool) {
	if pid == 0 {
		return u, false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return u, false
	}
	// The command (field 2) is in parentheses and may hold spaces; the
	// fields after it start at the state, field 3.
	_, rest, found := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !found || len(f) < 13 {
		return u, false
	}
	var n [3]int64
	for i, field := range []int{10, 14, 15} {
		if n[i], err = strconv.ParseInt(f[field-3], 10, 64); err != nil {
			return u, false
		}
	}
	return usage{faults: n[0], cpu: time.Duration(n[1]+n[2]) * clockTick}, true
}

// freeAddr is a loopback address nobody listens on now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
