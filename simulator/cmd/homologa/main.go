package main

import (
	"context"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"homologa/cli"
	"homologa/harness"
	"homologa/simulator/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	server.TuneGC(ctx, os.Getenv)
	var code int
	// The homologation harness and the partner's daily loop answer their
	// own commands; everything else is the sandbox's.
	switch {
	case len(os.Args) > 1 && (os.Args[1] == "test" || os.Args[1] == "steps"):
		code = harness.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	case len(os.Args) > 1 && slices.Contains(cli.Commands, os.Args[1]):
		code = cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	default:
		code = server.MainWith(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr, server.Hooks{Homologate: harness.SandboxRunner, Export: cli.Export})
	}
	stop()
	os.Exit(code)
}
