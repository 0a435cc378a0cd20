package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"homologa/harness"
	"homologa/simulator/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	server.TuneGC(ctx, os.Getenv)
	var code int
	// The homologation harness answers its own commands; everything else
	// is the sandbox's.
	if len(os.Args) > 1 && (os.Args[1] == "test" || os.Args[1] == "steps") {
		code = harness.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	} else {
		code = server.MainWith(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr, harness.SandboxRunner)
	}
	stop()
	os.Exit(code)
}
