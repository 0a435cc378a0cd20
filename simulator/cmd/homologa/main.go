// Command homologa runs the Homologa sandbox; see homologa help.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"homologa/simulator/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := server.Main(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
