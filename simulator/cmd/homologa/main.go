// Command homologa runs the Homologa sandbox; see homologa help.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"homologa/simulator/server"
)

func main() {
	// The sandbox idles at under 20 MiB; collecting less often buys about a
	// tenth of a request's CPU (pixbench) for a few MiB more. GOGC still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := server.Main(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
