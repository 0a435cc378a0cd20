package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"syscall"

	"homologa/simulator/server"
)

// serverMain is `pixbench server`: the sandbox exactly as `homologa serve`
// runs it (server.Main, the same collector setting as cmd/homologa), with
// net/http/pprof on a second loopback address, so `make profile` reads
// its CPU and allocation profiles while the bench loads it.
func serverMain(args []string) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "the sandbox's address")
	debugAddr := fs.String("debug", "127.0.0.1:6060", "net/http/pprof's address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	go func() {
		if err := http.ListenAndServe(*debugAddr, mux); err != nil {
			fmt.Fprintln(os.Stderr, "pixbench server: pprof:", err)
		}
	}()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	server.TuneGC(ctx, os.Getenv) // as cmd/homologa
	if code := server.Main(ctx, append([]string{"serve", "--addr", *addr}, benchQuotas...), os.Getenv, io.Discard, os.Stderr); code != 0 {
		return fmt.Errorf("the sandbox ended with %d", code)
	}
	return nil
}
