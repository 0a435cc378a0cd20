package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// profile runs the sandbox as `pixbench server` on the servers' core and,
// for creations and then GETs at 32 connections, fetches its CPU profile
// and its allocations (net/http/pprof's delta over the same window) while
// the load runs; then an execution trace of 2 s of creations, where the
// tail shows (collector, scheduler, the writer's waits).
func profile(cfg config) error {
	if pin, why := pinning(); !pin {
		fmt.Printf("pixbench: WARNING: %s\n", why)
	}
	if err := os.MkdirAll(cfg.profile, 0o755); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	debugAddr, err := freeAddr()
	if err != nil {
		return err
	}
	cmd := serverCmd(nil, exe, "server", "-addr", addr, "-debug", debugAddr)
	p, err := startServer(cmd, addr, "/")
	if err != nil {
		return err
	}
	defer p.stop()
	t, _, _, _, err := prepare(addr)
	if err != nil {
		return err
	}
	t.op("get", 32, cfg.warm)
	t.op("create", 32, cfg.warm)
	secs := max(1, int(cfg.dur.Seconds()))
	for _, op := range []string{"create", "get"} {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, kind := range []string{"profile", "allocs"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := map[string]string{"profile": "cpu", "allocs": "allocs"}[kind]
				errs[i] = fetch(fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", debugAddr, kind, secs), filepath.Join(cfg.profile, op+"."+name+".pprof"))
			}()
		}
		// The load outlasts the profiles' window by a little, so the
		// window is under load from end to end.
		r := t.op(op, 32, time.Duration(secs)*time.Second+300*time.Millisecond)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		fmt.Printf("%-6s c=32 while profiled: %.0f req/s, p50 %s, p99 %s, max %s, %d errors\n", op, r.perSec, ms(r.p50), ms(r.p99), ms(r.maxd), r.errors)
	}
	var traceErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		traceErr = fetch(fmt.Sprintf("http://%s/debug/pprof/trace?seconds=2", debugAddr), filepath.Join(cfg.profile, "create.trace"))
	}()
	r := t.op("create", 32, 2300*time.Millisecond)
	<-done
	if traceErr != nil {
		return traceErr
	}
	fmt.Printf("create c=32 while traced: %.0f req/s, p99 %s, max %s\n", r.perSec, ms(r.p99), ms(r.maxd))
	fmt.Printf("profiles in %s (go tool pprof -top …; go tool trace %s)\n", cfg.profile, filepath.Join(cfg.profile, "create.trace"))
	return nil
}

// fetch writes what url answers to file.
func fetch(url, file string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %d %s", url, resp.StatusCode, b)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
