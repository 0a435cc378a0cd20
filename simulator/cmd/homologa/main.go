// Command homologa runs the Homologa sandbox; see homologa help.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"homologa/harness"
	"homologa/simulator/server"
)

func main() {
	// The sandbox idles at under 20 MiB; collecting less often buys about a
	// tenth of a request's CPU (pixbench) for a few MiB more. GOGC still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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
