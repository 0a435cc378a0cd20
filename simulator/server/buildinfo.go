package server

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
)

// Commit and BuildDate are set by make dist (-ldflags -X); a plain go
// build reads the commit and its time from the VCS information Go embeds.
var (
	Commit    = ""
	BuildDate = ""
)

// versionLine is what homologa version prints: the version, the commit
// (marked dirty when built from a tree with changes) and the build date.
func versionLine() string {
	commit, date, dirty := Commit, BuildDate, false
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if commit == "" {
					commit = s.Value
				}
			case "vcs.time":
				if date == "" {
					date = s.Value
				}
			case "vcs.modified":
				dirty = s.Value == "true" && Commit == ""
			}
		}
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if commit == "" {
		commit = "unknown"
	}
	if dirty {
		commit += "-dirty"
	}
	if date == "" {
		date = "unknown"
	}
	return fmt.Sprintf("homologa %s (commit %s, built %s)", Version, commit, date)
}

// healthCmd is homologa health [--url URL] [--wait D]: exit 0 when the
// sandbox at URL (default: the one HOMOLOGA_ADDR names, on loopback)
// answers its index as a Homologa sandbox within two seconds, 1
// otherwise; --wait asks again until D has passed. A container's
// HEALTHCHECK runs it (the image has no shell, curl or wget), and a CI
// step waits with it for the sandbox it started.
func healthCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("health", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := getenv("HOMOLOGA_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	target := fs.String("url", "", "the sandbox's base URL (default: http:// and HOMOLOGA_ADDR, on loopback)")
	wait := fs.Duration("wait", 0, "keep asking until the sandbox answers or this long has passed (30s: a CI step that starts it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *target == "" {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			fmt.Fprintf(stderr, "homologa health: HOMOLOGA_ADDR %q is not host:port\n", addr)
			return 2
		}
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "127.0.0.1"
		}
		scheme := "http"
		if getenv("HOMOLOGA_TLS") == "true" || getenv("HOMOLOGA_MTLS") == "true" {
			scheme = "https"
		}
		*target = scheme + "://" + net.JoinHostPort(host, port)
	}
	deadline := time.Now().Add(*wait)
	for {
		err := probe(ctx, *target)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			fmt.Fprintln(stderr, "homologa health: unhealthy:", err)
			return 1
		}
		select {
		case <-ctx.Done():
			return 1
		case <-time.After(250 * time.Millisecond):
		}
	}
	fmt.Fprintln(stdout, "healthy:", *target)
	return 0
}

// probe asks the sandbox's index once: healthy is a 200 listing its APIs.
func probe(ctx context.Context, target string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(target, "/")+"/", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var idx struct {
		APIs map[string]string `json:"apis"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&idx) != nil || len(idx.APIs) == 0 {
		return fmt.Errorf("GET %s/ answered %d", target, resp.StatusCode)
	}
	return nil
}
