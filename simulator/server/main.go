package server

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"homologa/simulator/clock"
	"homologa/simulator/dashboard"
	"homologa/simulator/events"
	"homologa/simulator/homologation"
	"homologa/simulator/httpx"
	"homologa/simulator/quota"
	"homologa/simulator/retention"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// Version is the version of the homologa command (make dist sets it from
// the release tag).
var Version = "0.1.0"

const usage = `homologa: a sandbox of the insurance and payment-collection service, for homologation

Usage:
  homologa [serve] [flags]    start the sandbox (the default)
  homologa scenario validate FILE...
                              check scenario files; errors as file:line: field: message
  homologa scenario list [--scenarios DIR]
                              list the shipped scenarios (and a folder's)
  homologa test --partner FILE [--sandbox URL] [--features DIR] [--tags EXPR] [--report DIR]
                [--junit FILE] [--cucumber FILE] [--format progress|pretty] [--concurrency N]
                              run the homologation suite against a partner's integration
  homologa steps              print the Gherkin step reference
  homologa listen --forward-to URL [--events TYPES] [--secret S] [--since SEQ]
                              forward your company's events to a local URL, signed as webhooks are
  homologa trigger EVENT [--resource ID] [--field k=v]... | --list
                              fire any event the service emits, on your company
  homologa logs tail [--app ID] [--method M] [--path P] [--status S] [--json]
                              the interaction log, live
  homologa record [--since T | --last 30m] [--out FILE]
                              your company's session as a Gherkin feature
                              (these four take --sandbox URL --client-id ID --client-secret S
                              [--cacert FILE] [--cert FILE]; homologa listen -h lists a command's flags)
  homologa version            print the version, commit and build date
  homologa health [--url URL] [--wait 30s]
                              exit 0 when the sandbox answers (a container's HEALTHCHECK; --wait: until it does)

Flags of serve (each also read from the environment variable named):
`

// Main runs the homologa command with args (without the program name) and
// returns its exit code. ctx ending (SIGINT, SIGTERM) stops the sandbox
// gracefully.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	return MainWith(ctx, args, getenv, stdout, stderr, Hooks{})
}

// Hooks are what cmd/homologa gives the sandbox from the packages above
// it, which the sandbox cannot import: the homologation runner it runs
// for POST /portal/apps/{id}/homologations (the harness's) and the
// recorder behind the dashboard's export as feature (the partner CLI's).
type Hooks struct {
	Homologate homologation.Runner
	Export     dashboard.Exporter
}

// MainWith is Main with the hooks.
func MainWith(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, hooks Hooks) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, getenv, stdout, stderr, hooks)
	case "scenario":
		return scenarioCmd(args, getenv, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, versionLine())
		return 0
	case "health":
		return healthCmd(ctx, args, getenv, stdout, stderr)
	case "help":
		fs := serveFlags(new(Config), getenv, stderr)
		fmt.Fprint(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0
	default:
		fmt.Fprintf(stderr, "homologa: unknown command %q; try homologa help\n", cmd)
		return 2
	}
}

func serveFlags(cfg *Config, getenv func(string) string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	fs.StringVar(&cfg.Addr, "addr", env("HOMOLOGA_ADDR", "127.0.0.1:8080"), "listen address (HOMOLOGA_ADDR)")
	fs.StringVar(&cfg.DBPath, "db", env("HOMOLOGA_DB", ""), "SQLite file; state survives restarts (HOMOLOGA_DB; default in memory)")
	fs.StringVar(&cfg.Clock, "clock", env("HOMOLOGA_CLOCK", "real"), "sandbox clock: real, frozen or <N>x such as 60x (HOMOLOGA_CLOCK)")
	start := func(v string) error {
		if v == "" {
			return nil
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return fmt.Errorf("want an RFC 3339 instant such as 2026-01-05T12:00:00Z")
		}
		if err := clock.CheckInstant(t); err != nil {
			return err
		}
		cfg.ClockStart = t
		return nil
	}
	fs.Func("clock-start", "instant the default clock starts at, RFC 3339; a --db resumes from where it stood otherwise (HOMOLOGA_CLOCK_START)", start)
	if err := start(getenv("HOMOLOGA_CLOCK_START")); err != nil {
		cfg.envErr = fmt.Errorf("HOMOLOGA_CLOCK_START: %w", err)
	}
	fs.StringVar(&cfg.AppsFile, "apps", env("HOMOLOGA_APPS", ""), "YAML of companies and apps to pre-register (HOMOLOGA_APPS)")
	fs.StringVar(&cfg.OperatorToken, "operator-token", env("HOMOLOGA_OPERATOR_TOKEN", ""), "the operator's credential for sandbox-wide control; made up at each start when empty (HOMOLOGA_OPERATOR_TOKEN)")
	fs.StringVar(&cfg.ScenariosDir, "scenarios", env("HOMOLOGA_SCENARIOS", ""), "folder of scenario files beside the shipped ones; POST /sandbox/scenarios/reload rereads it (HOMOLOGA_SCENARIOS)")
	fs.StringVar(&cfg.LogFormat, "log-format", env("HOMOLOGA_LOG_FORMAT", "text"), "log format: text or json (HOMOLOGA_LOG_FORMAT)")
	fs.BoolVar(&cfg.Strict, "strict", envBool(cfg, getenv, "HOMOLOGA_STRICT"), "refuse what the partner APIs in production accept beyond their specification (unknown members, a trailing slash, token parameters in the query string…), which the sandbox otherwise accepts and records as findings in the interaction log and the homologation report (HOMOLOGA_STRICT)")
	fs.StringVar(&cfg.PublicURL, "public-url", env("HOMOLOGA_PUBLIC_URL", ""), "the URL partners reach a hosted sandbox at, e.g. https://homologa.example.com; required to listen beyond loopback (HOMOLOGA_PUBLIC_URL)")
	proxyFlag := false // the flag takes the environment's place
	fs.Func("trusted-proxy", "comma-separated addresses or CIDR ranges of the reverse proxies in front of a hosted sandbox, whose X-Forwarded-For names the client that throttles count (HOMOLOGA_TRUSTED_PROXY)", func(v string) error {
		if _, err := httpx.ParseProxies(splitList(v)); err != nil {
			return err
		}
		if !proxyFlag {
			proxyFlag, cfg.TrustedProxies = true, nil
		}
		cfg.TrustedProxies = append(cfg.TrustedProxies, splitList(v)...)
		return nil
	})
	if v := getenv("HOMOLOGA_TRUSTED_PROXY"); v != "" {
		if _, err := httpx.ParseProxies(splitList(v)); err != nil && cfg.envErr == nil {
			cfg.envErr = fmt.Errorf("HOMOLOGA_TRUSTED_PROXY: %w", err)
		}
		cfg.TrustedProxies = splitList(v)
	}
	tlsFlags(fs, cfg, getenv)
	webhookFlags(fs, cfg, getenv)
	retentionFlags(fs, cfg, getenv)
	quotaFlags(fs, cfg, getenv)
	return fs
}

// quotaFlags are the --quota-* flags: what each company may take of a
// hosted sandbox (package quota). Each defaults to quota.Defaults; 0
// means no quota.
func quotaFlags(fs *flag.FlagSet, cfg *Config, getenv func(string) string) {
	q := &cfg.Quotas
	size := func(field *int64) func(string) error {
		return func(v string) error {
			n, err := quota.ParseBytes(v)
			if err != nil {
				return err
			}
			*field = cmp.Or(n, -1)
			return nil
		}
	}
	count := func(field *int) func(string) error {
		return func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return errors.New("want a whole number, 0 for no quota")
			}
			*field = cmp.Or(n, -1)
			return nil
		}
	}
	count64 := func(field *int64) func(string) error {
		return func(v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return errors.New("want a whole number, 0 for no quota")
			}
			*field = cmp.Or(n, -1)
			return nil
		}
	}
	d := quota.Defaults
	for _, f := range []struct {
		name, env, def, usage string
		set                   func(string) error
	}{
		{"quota-resources", "HOMOLOGA_QUOTA_RESOURCES", strconv.FormatInt(d.Resources, 10), "most resources (charges, Pix, recurrences, proposals, enrollments, benefits) a company holds; past it its writes are a 429 with Retry-After", count64(&q.Resources)},
		{"quota-events", "HOMOLOGA_QUOTA_EVENTS", strconv.FormatInt(d.Events, 10), "most events a company holds; past it its writes are a 429 with Retry-After", count64(&q.Events)},
		{"quota-deliveries", "HOMOLOGA_QUOTA_DELIVERIES", strconv.FormatInt(d.Deliveries, 10), "most webhook deliveries a company holds; past it its writes are a 429 with Retry-After", count64(&q.Deliveries)},
		{"quota-storage", "HOMOLOGA_QUOTA_STORAGE", quota.FormatBytes(d.Storage), "most the sandbox's databases take, in files or in memory; past it every write is a 429 and nothing new is logged", size(&q.Storage)},
		{"quota-log-bytes", "HOMOLOGA_QUOTA_LOG_BYTES", quota.FormatBytes(d.LogBytes), "most bytes a company's interaction log keeps, in a file or in memory, its own oldest requests dropped first", size(&q.LogBytes)},
		{"quota-log-body", "HOMOLOGA_QUOTA_LOG_BODY", quota.FormatBytes(d.LogBody), "how much of each request's and answer's body the interaction log keeps; a longer one is kept cut and marked truncated", size(&q.LogBody)},
		{"quota-registrations", "HOMOLOGA_QUOTA_REGISTRATIONS", strconv.Itoa(d.Registrations), "portal registrations one address may make in an hour (behind a proxy, see --trusted-proxy)", count(&q.Registrations)},
		{"quota-inbox-boxes", "HOMOLOGA_QUOTA_INBOX_BOXES", strconv.Itoa(d.InboxBoxes), "most built-in inbox boxes a company keeps; a new one drops its own oldest", count(&q.InboxBoxes)},
		{"quota-inbox-bytes", "HOMOLOGA_QUOTA_INBOX_BYTES", quota.FormatBytes(d.InboxBytes), "most bytes a company's inbox boxes keep (100 requests a box), its own oldest dropped first", size(&q.InboxBytes)},
	} {
		fs.Func(f.name, f.usage+" ("+f.env+"; default "+f.def+")", f.set)
		if v := getenv(f.env); v != "" {
			if err := f.set(v); err != nil && cfg.envErr == nil {
				cfg.envErr = fmt.Errorf("%s: %w", f.env, err)
			}
		}
	}
}

// envBool reads a boolean environment variable; one that is set to
// something else is an error of the configuration.
func envBool(cfg *Config, getenv func(string) string, name string) bool {
	v, err := strconv.ParseBool(getenv(name))
	if err != nil && getenv(name) != "" && cfg.envErr == nil {
		cfg.envErr = fmt.Errorf("%s: want true or false", name)
	}
	return v
}

// tlsFlags are --tls, --tls-cert, --tls-key, --tls-dir and --mtls.
func tlsFlags(fs *flag.FlagSet, cfg *Config, getenv func(string) string) {
	boolEnv := func(name string) bool { return envBool(cfg, getenv, name) }
	fs.BoolVar(&cfg.TLS, "tls", boolEnv("HOMOLOGA_TLS"), "serve every API over HTTPS, with a certificate the sandbox CA signs at start (HOMOLOGA_TLS)")
	fs.StringVar(&cfg.TLSCert, "tls-cert", getenv("HOMOLOGA_TLS_CERT"), "PEM certificate (chain) to serve instead of the one made at start; implies --tls (HOMOLOGA_TLS_CERT)")
	fs.StringVar(&cfg.TLSKey, "tls-key", getenv("HOMOLOGA_TLS_KEY"), "the PEM private key of --tls-cert (HOMOLOGA_TLS_KEY)")
	fs.StringVar(&cfg.TLSDir, "tls-dir", getenv("HOMOLOGA_TLS_DIR"), "folder where ca.pem and server.pem are written; default beside --db, else a temporary folder (HOMOLOGA_TLS_DIR)")
	fs.BoolVar(&cfg.MTLS, "mtls", boolEnv("HOMOLOGA_MTLS"), "mutual TLS: the Pix API and the token endpoint take the app's client certificate (from the portal) and tokens bound to it; implies --tls (HOMOLOGA_MTLS)")
}

// webhookFlags are --webhook-allow and --webhook-resolve. Each entry is
// checked as it is read, so a typo stops the start with its name. The
// flag, given once or more, takes the place of the environment variable;
// either adds to the loopback default, which is always allowed.
func webhookFlags(fs *flag.FlagSet, cfg *Config, getenv func(string) string) {
	list := func(field *[]string, check func([]string) error) (func(string) error, func(string) error) {
		fromFlag := false
		set := func(v string) error {
			if err := check(splitList(v)); err != nil {
				return err
			}
			*field = append(*field, splitList(v)...)
			return nil
		}
		return func(v string) error {
			if !fromFlag {
				fromFlag, *field = true, nil
			}
			return set(v)
		}, set
	}
	allow, allowEnv := list(&cfg.WebhookAllow, func(l []string) error { _, err := events.NewGuard(l, nil); return err })
	resolve, resolveEnv := list(&cfg.WebhookResolve, func(l []string) error { _, err := events.NewGuard(nil, l); return err })
	fs.Func("webhook-allow", "comma-separated hosts, IPs, CIDRs or exact host:port webhooks may target, * for any public address; a developer's sandbox adds loopback, a hosted one (--public-url) reaches loopback, private and its own addresses only at an exact host:port listed; checked again after DNS at every delivery (HOMOLOGA_WEBHOOK_ALLOW)", allow)
	fs.Func("webhook-resolve", "comma-separated host=ip pins for deliveries, as curl's --resolve: the host is never looked up (HOMOLOGA_WEBHOOK_RESOLVE)", resolve)
	for _, e := range []struct {
		name string
		set  func(string) error
	}{{"HOMOLOGA_WEBHOOK_ALLOW", allowEnv}, {"HOMOLOGA_WEBHOOK_RESOLVE", resolveEnv}} {
		if err := e.set(getenv(e.name)); err != nil && cfg.envErr == nil {
			cfg.envErr = fmt.Errorf("%s: %w", e.name, err)
		}
	}
}

// retentionFlags are --retention-age, --retention-rows, --retention-log
// and --retention-every: how much each company keeps (package retention).
// The defaults keep a sandbox under steady load at a few hundred MB; a
// 0 age or cap keeps rows forever.
func retentionFlags(fs *flag.FlagSet, cfg *Config, getenv func(string) string) {
	r := &cfg.Retention
	r.Age, r.Rows, r.Log, r.Every = retention.DefaultAge, retention.DefaultRows, retention.DefaultLog, retention.DefaultEvery
	age := func(v string) (err error) { r.Age, err = parseRetentionAge(v); return err }
	rows := func(field *int) func(string) error {
		return func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return errors.New("want a whole number of rows, 0 for no cap")
			}
			*field = n
			return nil
		}
	}
	every := func(v string) error {
		d, err := clock.ParseDuration(v)
		if err != nil || d < time.Second {
			return errors.New("want a duration of a second or more, such as 30s or 5m")
		}
		r.Every = d
		return nil
	}
	for _, f := range []struct {
		name, env, def, usage string
		set                   func(string) error
	}{
		{"retention-age", "HOMOLOGA_RETENTION_AGE", "7d", "how long finished events, deliveries, requests and resources are kept, on their company's clock, e.g. 7d or 36h; 0 keeps them forever", age},
		{"retention-rows", "HOMOLOGA_RETENTION_ROWS", "20000", "most events, charges, Pix and scenario bindings a company keeps of each kind, the oldest finished going first; 0 for no cap", rows(&r.Rows)},
		{"retention-log", "HOMOLOGA_RETENTION_LOG", "50000", "most recorded requests (the interaction log) a company keeps; 0 for no cap", rows(&r.Log)},
		{"retention-every", "HOMOLOGA_RETENTION_EVERY", "30s", "how often every company is pruned; a company whose clock moves is pruned at once", every},
	} {
		fs.Func(f.name, f.usage+" ("+f.env+"; default "+f.def+")", f.set)
		if v := getenv(f.env); v != "" {
			if err := f.set(v); err != nil && cfg.envErr == nil {
				cfg.envErr = fmt.Errorf("%s: %w", f.env, err)
			}
		}
	}
}

// parseRetentionAge reads --retention-age: a sandbox duration (Go's
// units, d and w), or 0 for forever.
func parseRetentionAge(v string) (time.Duration, error) {
	if v == "0" {
		return 0, nil
	}
	d, err := clock.ParseDuration(v)
	if err != nil {
		return 0, errors.New("want a duration such as 7d, 36h or 90m, or 0 to keep rows forever")
	}
	return d, nil
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, hooks Hooks) int {
	cfg := Config{Homologate: hooks.Homologate, Export: hooks.Export}
	fs := serveFlags(&cfg, getenv, stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "homologa serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if cfg.envErr != nil {
		fmt.Fprintln(stderr, "homologa:", cfg.envErr)
		return 2
	}
	// The log, and whatever else serve writes to stderr, through one
	// buffer, so the lines keep their order (logbuffer.go).
	logOut := newLogBuffer(stderr)
	defer logOut.Flush()
	stderr = logOut
	cfg.Log = stderr
	s, err := New(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "homologa:", err)
		return 1
	}
	if err := s.Start(ctx); err != nil {
		fmt.Fprintln(stderr, "homologa:", err)
		s.Close(context.Background())
		return 1
	}
	s.Banner(stdout)
	// Starting leaves garbage (the schema documents, the templates'
	// parse trees) that the GC, at GOGC=400, would keep until requests
	// come: an idle sandbox gives it back now, and answers meanwhile.
	go debug.FreeOSMemory()
	<-ctx.Done()
	s.Log.Info("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := s.Close(shutdown); err != nil {
		fmt.Fprintln(stderr, "homologa:", err)
		return 1
	}
	s.Log.Info("stopped")
	return 0
}
