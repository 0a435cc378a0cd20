package cli

import (
	"context"
	"fmt"
	"io"
	"os"
)

// Commands are the commands Main answers.
var Commands = []string{"listen", "trigger", "logs", "record"}

// Main runs one of the partner's commands (args[0] names it) and returns
// its exit code: 0 done, 1 failed, 2 usage errors.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return MainEnv(ctx, args, os.Getenv, stdout, stderr)
}

// MainEnv is Main reading its environment through getenv.
func MainEnv(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: homologa listen|trigger|logs tail|record [flags] (homologa help lists them)")
		return 2
	}
	switch args[0] {
	case "listen":
		return listenCmd(ctx, args[1:], getenv, stdout, stderr)
	case "trigger":
		return triggerCmd(ctx, args[1:], getenv, stdout, stderr)
	case "logs":
		return logsCmd(ctx, args[1:], getenv, stdout, stderr)
	case "record":
		return recordCmd(ctx, args[1:], getenv, stdout, stderr)
	}
	fmt.Fprintf(stderr, "homologa: unknown command %q\n", args[0])
	return 2
}
