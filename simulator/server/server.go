package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/mux"

	"homologa/scenarios"
	"homologa/schemas"
	"homologa/simulator/auth"
	"homologa/simulator/certs"
	"homologa/simulator/clock"
	"homologa/simulator/control"
	"homologa/simulator/dashboard"
	"homologa/simulator/events"
	"homologa/simulator/homologation"
	"homologa/simulator/httpx"
	"homologa/simulator/idempotency"
	"homologa/simulator/insurance/benefit"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/customer"
	"homologa/simulator/insurance/sale"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/jobs"
	"homologa/simulator/pix"
	"homologa/simulator/quota"
	"homologa/simulator/recorder"
	"homologa/simulator/redact"
	"homologa/simulator/retention"
	"homologa/simulator/scenario"
	"homologa/simulator/schema"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
	"homologa/simulator/tenant"
)

// Config is everything the sandbox can be told; the zero value (plus an
// address) is the zero-configuration sandbox.
type Config struct {
	Addr       string
	DBPath     string
	Clock      string
	ClockStart time.Time
	AppsFile   string
	LogFormat  string
	// WebhookAllow adds hosts, IPs, CIDRs or "*" to the loopback default
	// of where webhooks may go (--webhook-allow); WebhookResolve pins
	// names to addresses for deliveries, "host=ip" (--webhook-resolve).
	WebhookAllow   []string
	WebhookResolve []string
	// WebhookLookup resolves webhook hosts at delivery; nil is the
	// system resolver. WebhookDialControl, when set, runs after the
	// webhook guard's check just before a delivery connects. The harness
	// sets both so that its sandbox never asks real DNS and refuses any
	// dial not loopback: a broken guard would still send nothing out.
	WebhookLookup      func(ctx context.Context, host string) ([]netip.Addr, error)
	WebhookDialControl func(network, address string, c syscall.RawConn) error
	// WebhookOwn adds to the host's own addresses, which a hosted
	// sandbox never delivers to (tests name an address of theirs).
	WebhookOwn []netip.Addr
	BodyLimit  int64
	TokenTTL   time.Duration
	// HeaderTimeout, BodyTimeout and IdleTimeout bound a slow client: the
	// time to send a request's headers, then its body, and how long a
	// kept-alive connection may sit idle between requests. MaxHeaderBytes
	// bounds the headers. Zero values take the defaults below.
	HeaderTimeout  time.Duration
	BodyTimeout    time.Duration
	IdleTimeout    time.Duration
	MaxHeaderBytes int
	// NoDemo skips the demo company and app.
	NoDemo bool
	Log    io.Writer
	IDs    store.IDSource
	// Backoff, DeliveryTimeout and PingEvery tune the dispatcher and the
	// websocket; zero values take the defaults.
	Backoff         []time.Duration
	DeliveryTimeout time.Duration
	PingEvery       time.Duration
	// Retention bounds what each company keeps (--retention-age, -rows,
	// -log, -every); the zero value keeps everything.
	Retention retention.Config
	// Quotas bound what each company may take (--quota-*); zero fields
	// take quota.Defaults.
	Quotas quota.Config
	// TrustedProxies are the reverse proxies whose X-Forwarded-For says
	// where a request came from (--trusted-proxy): addresses or CIDR
	// ranges. Without them every client is its connection's peer.
	TrustedProxies []string
	// PasswordHashers is how many password hashes run at once; 0 is
	// half the processors, at least one.
	PasswordHashers int
	// QuotaEvery is how often the quotas' counts and the storage are read
	// again; zero is a second for a company's counts and five for the
	// storage.
	QuotaEvery time.Duration
	// ClockBudget is how long a move of the clock waits for its jobs
	// before answering their progress (202) and going on in the
	// background; zero fields take control.DefaultJumpBudget's.
	ClockBudget jobs.Budget
	// ScenariosDir is --scenarios: a folder of scenario files beside the
	// shipped ones (same id: the folder's wins).
	ScenariosDir string
	// OperatorToken is the operator's credential (--operator-token); one
	// is made up at start when empty.
	OperatorToken string
	// Homologate runs the homologation suite inside the sandbox (POST
	// /portal/apps/{id}/homologations): cmd/homologa gives it the
	// harness's runner; without it the sandbox answers that it cannot.
	Homologate homologation.Runner
	// Export renders a company's session as a Gherkin feature for the
	// dashboard's export (GET /sandbox/recording): cmd/homologa gives the
	// partner CLI's recorder; without it the sandbox answers that it
	// cannot.
	Export dashboard.Exporter
	// TLS serves every API over HTTPS (--tls), with a certificate signed
	// at start by the sandbox CA, or TLSCert and TLSKey (--tls-cert,
	// --tls-key, which imply TLS). TLSDir is where ca.pem and server.pem
	// are written (--tls-dir; default beside --db, else a temporary
	// folder). MTLS (--mtls, which implies TLS) makes the API Pix and the
	// token endpoint take the app's client certificate, and tokens bound
	// to it.
	TLS     bool
	TLSCert string
	TLSKey  string
	TLSDir  string
	MTLS    bool
	// Strict (--strict) refuses what the partner APIs in production
	// accept beyond their specification (unknown members, a trailing
	// slash, token parameters in the query string…), which the sandbox
	// otherwise accepts and records as findings (httpx.Tolerate).
	Strict bool
	// PublicURL is where the sandbox is reached when it is hosted
	// (--public-url): it is then served under that name too, its session
	// cookies are Secure over https, and the demo account and app get
	// secrets of their own instead of the documented ones.
	PublicURL string

	// envErr is an environment variable that could not be read.
	envErr error
}

// The demo company and app that a zero-configuration sandbox registers. The
// credentials are fixed so the README's commands work verbatim; they are
// sandbox credentials and open nothing else.
const (
	DemoCNPJ          = "11222333000181"
	DemoCompany       = "Homologa Demo Corretora Ltda"
	DemoClientID      = "homologa-demo"
	DemoClientSecret  = "homologa-demo-secret"
	DemoWebhookSecret = "whsec_homologa_demo_signing_secret"
	// The demo account, which owns the demo company, logs in to the portal
	// with these.
	DemoEmail    = "demo@homologa.test"
	DemoPassword = "homologa-demo-senha"
	// demoPasswordHash is DemoPassword's bcrypt hash (cost 10), computed
	// once: bcrypt is slow on purpose, and every start and every
	// namespace's copy of the demo account would otherwise pay for it.
	demoPasswordHash = "$2a$10$Reik735a4OPsbKZGdw8AeeWkzXI1sY4IT0qre/rIA84PNfIwzHaUS"
)

// APIs is the table of mounted APIs: base path, name, title, error dialect
// and the schema its errors follow.
//
// The insurer's APIs are also served where its real clients call them
// (insurance CLIENTS §2.1): the swagger-codegen v2 client's
// /api/{version}/… (PascalCase resources), /apiseguradora/v2 and v3, the
// underwriting, questionnaire and access-management services; and, as the
// real gateway does, without regard to the case of the path.
var APIs = withTokenAliases([]httpx.API{
	{Prefix: "/insurer/v1", Name: "insurer", Title: "Insurer (sale cycle)", Dialect: httpx.Insurer{}, Record: true, ErrorSchema: "platform/insurer-envelope",
		CaseInsensitive: true, Lenient: true, Aliases: []httpx.Alias{
			{Prefix: "/apiseguradora/v3", Style: httpx.StyleV3},
			{Prefix: "/apiseguradora/v2", Style: httpx.StyleV2},
			{Prefix: "/api/{version}", Style: httpx.StyleV2},
			{Prefix: "/api.underwriting/v1", Style: httpx.StyleV3},
		}},
	{Prefix: "/api.questionario/v2", Name: "questionnaire", Title: "Questionnaire service", Dialect: httpx.Insurer{}, Record: true, ErrorSchema: "platform/insurer-envelope",
		CaseInsensitive: true, Lenient: true, Style: httpx.StyleV3},
	{Prefix: "/access/v1", Name: "access", Title: "Access management", Dialect: httpx.Insurer{}, Record: true, ErrorSchema: "platform/insurer-envelope",
		CaseInsensitive: true, Lenient: true, Aliases: []httpx.Alias{{Prefix: "/gestao-acesso/v1", Style: httpx.StyleV3}}},
	{Prefix: "/benefits/v1", Name: "benefits", Title: "Benefits", Dialect: httpx.Insurer{}, Record: true, ErrorSchema: "platform/insurer-envelope", CaseInsensitive: true, Lenient: true},
	{Prefix: "/customer/v1", Name: "customer", Title: "Customer", Dialect: httpx.Insurer{}, Record: true, ErrorSchema: "platform/insurer-envelope", CaseInsensitive: true, Lenient: true},
	{Prefix: "/pix/v2", Name: "pix", Title: "Pix (API Pix 2.9.0)", Dialect: httpx.Pix{}, Record: true, ErrorSchema: "pix/problema", Lenient: true,
		Undeclared: pix.Undeclared},
	{Prefix: "/qr/v2", Name: "pix-payload", Title: "Pix payloads (QR)", Dialect: httpx.Pix{}, Record: true},
	{Prefix: "/oauth/token", Name: "oauth", Title: "OAuth2 token", Dialect: httpx.OAuth{}, Record: true, ErrorSchema: "platform/oauth-error", Lenient: true},
	{Prefix: "/portal", Name: "portal", Title: "Onboarding portal", Dialect: httpx.Problem{}, Record: true, ErrorSchema: "platform/problem"},
	{Prefix: "/sandbox", Name: "sandbox", Title: "Sandbox control", Dialect: httpx.Problem{}, ErrorSchema: "platform/problem"},
	{Prefix: "/events", Name: "events", Title: "Live events", Dialect: httpx.Problem{}},
})

// withTokenAliases gives the token endpoint the paths the insurer's
// clients ask for a token at: /connect/token under the host, as the 2019
// hackathon app does, and under every base URL of the insurer's APIs,
// as the 2025 client builds it from the same base as every other call
// (insurance CLIENTS §2.2, and the additions' item 1). The longest base
// matches first, so /apiseguradora/v3/connect/token is the token
// endpoint, not an insurer route.
func withTokenAliases(apis []httpx.API) []httpx.API {
	var aliases []httpx.Alias
	aliases = append(aliases, httpx.Alias{Prefix: "/connect/token"})
	for _, a := range apis {
		if _, insurer := a.Dialect.(httpx.Insurer); !insurer {
			continue
		}
		aliases = append(aliases, httpx.Alias{Prefix: a.Prefix + "/connect/token"})
		for _, al := range a.Aliases {
			aliases = append(aliases, httpx.Alias{Prefix: al.Prefix + "/connect/token"})
		}
	}
	for i := range apis {
		if apis[i].Name == "oauth" {
			apis[i].Aliases = append(apis[i].Aliases, aliases...)
		}
	}
	return apis
}

// The defaults of the limits on a slow or greedy client. A partner's
// request has a few KiB of headers and at most a MiB of body: 10 s and
// 30 s are generous on any real link, and short enough that a client
// trickling bytes cannot hold connections for long. Two minutes idle keeps
// a partner's connection pool warm between calls.
const (
	DefaultHeaderTimeout  = 10 * time.Second
	DefaultBodyTimeout    = 30 * time.Second
	DefaultIdleTimeout    = 2 * time.Minute
	DefaultMaxHeaderBytes = 64 << 10
)

// orDefault is v, or def when v is not set.
func orDefault[T time.Duration | int](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Server is a running sandbox.
type Server struct {
	Config Config
	Log    *slog.Logger
	DB     *store.DB
	// Clocks is the sandbox's time: the default clock and the companies'
	// own.
	Clocks   *clock.Clocks
	Jobs     *jobs.Scheduler
	Auth     *auth.Service
	Hub      *events.Hub
	Bus      *events.Bus
	Machines *statemachine.Applier
	Recorder *recorder.Recorder
	Keys     *idempotency.Keys
	Schemas  *schema.Registry
	Pix      *pix.Service
	// Sale, Customer and Benefit are the insurer's cycles: the sale
	// (insurer and access APIs), the customer API, the benefits API.
	Sale     *sale.Service
	Customer *customer.Service
	Benefit  *benefit.Service
	// Scenarios runs the scenario catalogue; Faults injects its faults.
	Scenarios *scenario.Engine
	Faults    *scenario.Faults
	Router    *mux.Router
	routeTree routeTree
	Handler   http.Handler
	// Pruner bounds what the sandbox keeps; nil when Config.Retention
	// keeps everything.
	Pruner *retention.Pruner
	// Homologation runs the homologation suite for apps and gates
	// publishing on its runs.
	Homologation *homologation.Service
	// Usage keeps what each company holds and refuses writes past its
	// quotas, and every write past the storage budget.
	Usage *quota.Usage
	// Demo is the demo app, with its secret, once Start has run.
	Demo *auth.App
	demo demoSecrets
	// CA is the sandbox's certificate authority: it signs the apps'
	// client certificates, and the server's under --tls.
	CA  *certs.CA
	tls *tlsState

	logDB     *store.DB
	guard     *events.Guard
	proxies   httpx.Proxies
	inboxKey  []byte
	http      *http.Server
	ln        net.Listener
	cancel    context.CancelFunc
	jobsDone  chan struct{} // closed when the jobs runner has stopped
	pruneDone chan struct{} // closed when the pruner has stopped
	wg        sync.WaitGroup
	streamEnd chan struct{}
	// routeTable is Routes, made once; ns and ctl are the namespace and
	// control handlers it holds.
	routeTable []httpx.Route
	ns         *control.Namespaces
	ctl        *control.Handlers
	closeOnce  sync.Once
}

// New builds a sandbox from cfg: database, clock, scheduler, events, the
// domains, routes. On an error, what it opened is closed again.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Log == nil {
		cfg.Log = os.Stderr
	}
	if err := checkExposure(cfg.Addr, cfg.PublicURL); err != nil {
		return nil, err
	}
	s := &Server{Config: cfg, streamEnd: make(chan struct{})}
	log, err := newLogger(cfg)
	if err != nil {
		return nil, err
	}
	s.Log = log
	if s.demo, err = s.newDemoSecrets(); err != nil {
		return nil, err
	}
	if s.Schemas, err = embeddedSchemas(); err != nil {
		return nil, err
	}
	if err := s.openStores(ctx); err != nil {
		return nil, err
	}
	steps := []func(context.Context) error{s.loadCA, func(context.Context) error { return s.setupTLS() }, s.platform, s.domains, s.quotas, s.retention, s.startScenarios, s.loadApps, s.loadInboxKey,
		func(context.Context) error { return s.mountRoutes() }}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			s.closeStores()
			return nil, err
		}
	}
	return s, nil
}

// newLogger makes the sandbox's logger in the configured format.
func newLogger(cfg Config) (*slog.Logger, error) {
	switch {
	case cfg.Log == io.Discard:
		// Formatting access-log lines for nobody would be a share of
		// every request.
		return slog.New(slog.DiscardHandler), nil
	case cfg.LogFormat == "" || cfg.LogFormat == "text":
		return slog.New(redact.Handler(slog.NewTextHandler(cfg.Log, nil))), nil
	case cfg.LogFormat == "json":
		return slog.New(redact.Handler(slog.NewJSONHandler(cfg.Log, nil))), nil
	}
	return nil, fmt.Errorf("log format %q: want text or json", cfg.LogFormat)
}

// openStores opens the database and the interaction log's own database.
func (s *Server) openStores(ctx context.Context) error {
	var err error
	if s.DB, err = store.Open(ctx, s.Config.DBPath); err != nil {
		return err
	}
	if s.Config.IDs != nil {
		s.DB.IDs = s.Config.IDs
	}
	if err := guardStatuses(ctx, s.DB); err != nil {
		s.DB.Close()
		return err
	}
	// The interaction log has a database of its own (in memory for an
	// in-memory sandbox): its batched writes would otherwise hold the one
	// connection while requests wait behind them.
	logPath := ""
	if s.Config.DBPath != "" {
		logPath = s.Config.DBPath + ".interactions"
	}
	if s.logDB, err = store.Open(ctx, logPath); err != nil {
		s.DB.Close()
		return err
	}
	return nil
}

// closeStores closes what openStores and platform opened, after a failed
// start.
func (s *Server) closeStores() {
	if s.Recorder != nil {
		s.Recorder.Close()
	}
	if s.logDB != nil {
		s.logDB.Close()
	}
	s.DB.Close()
}

// platform makes the shared plumbing: clock, scheduler, auth, events, the
// interaction log, idempotency keys, faults and the scenario engine.
func (s *Server) platform(ctx context.Context) error {
	cfg := s.Config
	mode, factor, err := clock.Parse(cfg.Clock)
	if err != nil {
		return err
	}
	if !cfg.ClockStart.IsZero() {
		if err := clock.CheckInstant(cfg.ClockStart); err != nil {
			return err
		}
	}
	s.Clocks = clock.NewClocks(clock.New(mode, factor, cfg.ClockStart))
	if err := restoreClocks(ctx, s.DB, s.Clocks, cfg.ClockStart.IsZero()); err != nil {
		return err
	}
	s.Jobs = jobs.New(s.DB, s.Clocks, s.Log)
	s.Jobs.AfterMove = func(ctx context.Context, sc tenant.Scope) {
		if err := saveClock(ctx, s.DB, s.Clocks, sc); err != nil {
			s.Log.Error("save clock", "scope", sc.String(), "err", err)
		}
		// What the company made may now be past the retention age on
		// its clock: a year's advance sees its old rows go at once.
		if s.Pruner != nil {
			s.Pruner.Poke(sc)
		}
	}
	if s.Config.OperatorToken == "" {
		s.Config.OperatorToken = "op_" + s.DB.IDs.Token(16)
	}
	newGuard := events.NewGuard
	if s.Hosted() {
		newGuard = events.NewHostedGuard
	}
	guard, err := newGuard(cfg.WebhookAllow, cfg.WebhookResolve)
	if err != nil {
		return err
	}
	guard.Lookup, guard.Control = cfg.WebhookLookup, cfg.WebhookDialControl
	guard.Own = append(guard.Own, cfg.WebhookOwn...)
	// The sandbox's own inbox is served in the process (Start names
	// where it listens): never dialled, so a hosted sandbox needs no
	// way into its host's loopback for it.
	guard.Local = &events.Local{Paths: []string{"/sandbox/inbox/", "/sandbox/hooks/"},
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.Handler.ServeHTTP(w, r) })}
	s.guard = guard
	if s.tls != nil {
		guard.RootCAs = s.trustedRoots()
	}
	if s.proxies, err = httpx.ParseProxies(cfg.TrustedProxies); err != nil {
		return err
	}
	s.Auth = &auth.Service{DB: s.DB, Clocks: s.Clocks, TokenTTL: cfg.TokenTTL, Webhooks: auth.WebhookPolicy{Guard: guard}, PasswordHashers: cfg.PasswordHashers,
		SecureCookies: strings.HasPrefix(cfg.PublicURL, "https://") || s.tls != nil,
		OperatorToken: s.Config.OperatorToken, CA: s.CA, MutualTLS: cfg.MTLS, Registrations: s.registrations()}
	s.Hub = events.NewHub()
	s.Bus = &events.Bus{
		DB: s.DB, Clocks: s.Clocks, Jobs: s.Jobs, Hub: s.Hub, Log: s.Log, Backoff: cfg.Backoff,
		Guard: guard, Timeout: cfg.DeliveryTimeout, AppOf: s.Auth.EventApp,
	}
	s.Bus.Register()
	s.Machines = &statemachine.Applier{Bus: s.Bus}
	q := cfg.Quotas.WithDefaults()
	s.Recorder = &recorder.Recorder{DB: s.logDB, Clocks: s.Clocks, Log: s.Log, Keep: s.Config.Retention.Log, MaxBytes: int(q.LogBytes),
		BodyLimit: int(cmp.Or(q.LogBody, 1<<20))} // no quota on bodies: as much as a request may send
	s.Recorder.Start()
	s.Keys = &idempotency.Keys{DB: s.DB, Clocks: s.Clocks}
	s.Faults = &scenario.Faults{Clocks: s.Clocks, Apps: s.Auth}
	s.Scenarios = &scenario.Engine{DB: s.DB, Clocks: s.Clocks, Jobs: s.Jobs, Log: s.Log, Schemas: s.Schemas, Kinds: Kinds(),
		Shipped: scenarios.FS, Dir: cfg.ScenariosDir, Faults: s.Faults}
	s.Machines.Observe(s.Scenarios.Observe)
	s.Bus.Faults = s.Faults
	s.Homologation = &homologation.Service{DB: s.DB, Auth: s.Auth, Log: s.Log, Runner: cfg.Homologate, URL: s.URL, OperatorToken: s.Config.OperatorToken,
		CheckURL: s.Auth.Webhooks.Check, Transport: guard.Client(30 * time.Second).Transport}
	return nil
}

// domains makes the Pix and insurance services and gives them their jobs
// and scenario runners. The insurer's cycles share one platform; the
// sale opens enrollments through the customer cycle, which the benefit
// cycle reads and ends.
func (s *Server) domains(context.Context) error {
	s.Pix = &pix.Service{DB: s.DB, Clocks: s.Clocks, Auth: s.Auth, Bus: s.Bus, Machines: s.Machines, Jobs: s.Jobs, Schemas: s.Schemas, Log: s.Log, Scenarios: s.Scenarios}
	s.Pix.RegisterJobs()
	s.Pix.ScenarioRunners(s.Scenarios)
	offers, err := insuranceCatalog()
	if err != nil {
		return fmt.Errorf("insurance catalogue: %w", err)
	}
	platform := wire.Platform{DB: s.DB, Clocks: s.Clocks, Auth: s.Auth, Bus: s.Bus, Machines: s.Machines, Schemas: s.Schemas,
		Scenarios: s.Scenarios, Catalog: offers}
	s.Customer = &customer.Service{Platform: platform}
	s.Sale = &sale.Service{Platform: platform, Enrollments: s.Customer}
	s.Benefit = &benefit.Service{Platform: platform, Customer: s.Customer, Sale: s.Sale}
	s.Sale.ScenarioRunners(s.Scenarios)
	s.Customer.ScenarioRunners(s.Scenarios)
	s.Benefit.ScenarioRunners(s.Scenarios)
	s.Customer.RegisterJobs(s.Jobs)
	return nil
}

// quotas makes the usage that keeps each company to its quotas of
// resources, events and deliveries, and the sandbox to its storage
// budget (package quota); the interaction log records nothing new while
// the stores are past it.
func (s *Server) quotas(context.Context) error {
	s.Usage = &quota.Usage{DB: s.DB, Config: s.Config.Quotas.WithDefaults(), Log: s.Log, Storage: s.storageBytes,
		Every: s.Config.QuotaEvery, StorageEvery: s.Config.QuotaEvery,
		Counters: map[string][]quota.Counter{
			quota.Resources:  {s.Pix.CountResources, s.Sale.CountResources, s.Customer.CountResources, s.Benefit.CountResources},
			quota.Events:     {s.Bus.CountEvents},
			quota.Deliveries: {s.Bus.CountDeliveries},
		}}
	s.Recorder.Full = s.Usage.Full
	return nil
}

// storageBytes is what the sandbox's databases take: their pages (in a
// file or in memory) and their write-ahead logs.
func (s *Server) storageBytes(ctx context.Context) (int64, error) {
	var total int64
	for _, db := range []*store.DB{s.DB, s.logDB} {
		if db == nil {
			continue
		}
		var pages, size int64
		err := db.Read(ctx, func(tx *store.Tx) error {
			if err := tx.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
				return err
			}
			return tx.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&size)
		})
		if err != nil {
			return 0, fmt.Errorf("measure the database: %w", err)
		}
		total += pages * size
		if db.Path() != "" {
			if st, err := os.Stat(db.Path() + "-wal"); err == nil {
				total += st.Size()
			}
		}
	}
	return total, nil
}

// retention makes the pruner, unless Config.Retention keeps everything,
// and registers what it prunes: the event log and its deliveries, the
// interaction log (in its own database, capped by Log), finished Pix and
// ended scenario bindings. The insurer's cycles are not pruned (package
// retention says why).
func (s *Server) retention(context.Context) error {
	cfg := s.Config.Retention
	if !cfg.On() {
		return nil
	}
	s.Pruner = &retention.Pruner{Config: cfg, Clocks: s.Clocks, Log: s.Log, Companies: s.Auth.CompanyIDs}
	s.Pruner.Add("events", s.DB, cfg.Rows, s.Bus)
	s.Pruner.Add("interactions", s.logDB, cfg.Log, s.Recorder)
	s.Pruner.Add("pix", s.DB, cfg.Rows, s.Pix)
	s.Pruner.Add("scenarios", s.DB, cfg.Rows, s.Scenarios)
	return nil
}

// startScenarios loads the scenario catalogue.
func (s *Server) startScenarios(ctx context.Context) error {
	if err := s.Scenarios.Start(ctx); err != nil {
		return fmt.Errorf("scenarios:\n%w", err)
	}
	return nil
}

// loadApps registers the companies and apps of --apps.
func (s *Server) loadApps(ctx context.Context) error {
	if s.Config.AppsFile == "" {
		return nil
	}
	return LoadApps(ctx, s.Auth, s.Config.AppsFile)
}

var catalogOnce struct {
	sync.Once
	c   *catalog.Catalog
	err error
}

// insuranceCatalog loads the embedded offer catalogue once per process.
func insuranceCatalog() (*catalog.Catalog, error) {
	catalogOnce.Do(func() { catalogOnce.c, catalogOnce.err = catalog.Load() })
	return catalogOnce.c, catalogOnce.err
}

var schemasOnce struct {
	sync.Once
	reg *schema.Registry
	err error
}

// embeddedSchemas reads the embedded schemas once per process (each is
// compiled at its first use: schema.LoadLazy): they never change, and
// tests start many sandboxes.
func embeddedSchemas() (*schema.Registry, error) {
	schemasOnce.Do(func() { schemasOnce.reg, schemasOnce.err = schema.LoadLazy(schemas.FS) })
	return schemasOnce.reg, schemasOnce.err
}

// guardStatuses lets only the state machines change the status of the
// resources they govern.
func guardStatuses(ctx context.Context, db *store.DB) error {
	seen := map[string]bool{}
	var tables []string
	for _, m := range slices.Concat(pix.Machines(), sale.Machines(), customer.Machines(), benefit.Machines()) {
		if m.Table == "" {
			return fmt.Errorf("state machine %s names no table", m.Resource)
		}
		if !seen[m.Table] {
			seen[m.Table] = true
			tables = append(tables, m.Table)
		}
	}
	return db.GuardStatus(ctx, tables...)
}

// Kinds are the resource kinds scenarios can drive, from every domain.
func Kinds() scenario.Kinds {
	ks := scenario.Kinds{}
	for _, kinds := range []scenario.Kinds{pix.ScenarioKinds, pix.RecKinds} {
		for name, k := range kinds {
			ks[name] = k
		}
	}
	for _, kinds := range []scenario.Kinds{sale.Kinds, customer.Kinds, benefit.Kinds} {
		for name, k := range kinds {
			ks[name] = k
		}
	}
	return ks
}

// Start binds the address, registers the demo app and serves in the
// background until Close.
func (s *Server) Start(ctx context.Context) error {
	addr := s.Config.Addr
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	s.ln = ln
	s.guard.Local.Hosts = s.selfHosts()
	if !s.Config.NoDemo {
		if err := s.seedDemo(ctx); err != nil {
			ln.Close()
			return err
		}
	}
	if err := s.Homologation.Start(ctx); err != nil {
		ln.Close()
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.jobsDone = make(chan struct{})
	go func() {
		defer close(s.jobsDone)
		s.Jobs.Run(runCtx)
	}()
	if s.Pruner != nil {
		s.pruneDone = make(chan struct{})
		go func() {
			defer close(s.pruneDone)
			s.Pruner.Run(runCtx)
		}()
	}
	// No ReadTimeout or WriteTimeout: they would bound the websockets'
	// whole lives. The body's deadline is set per request (BodyDeadline,
	// in the handler), and the streams keep their own.
	s.http = &http.Server{Handler: s.Handler, ErrorLog: slog.NewLogLogger(s.Log.Handler(), slog.LevelWarn),
		ReadHeaderTimeout: orDefault(s.Config.HeaderTimeout, DefaultHeaderTimeout),
		IdleTimeout:       orDefault(s.Config.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    orDefault(s.Config.MaxHeaderBytes, DefaultMaxHeaderBytes)}
	serve := func() error { return s.http.Serve(ln) }
	if s.tls != nil {
		s.http.TLSConfig = s.tls.config
		serve = func() error { return s.http.ServeTLS(ln, "", "") }
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := serve(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.Log.Error("serve", "err", err)
		}
	}()
	return nil
}

// registrations is the limit of portal registrations per address and
// hour: a hosted sandbox's quota; none on a developer's machine, where
// the one client is the developer (and a test suite registering).
func (s *Server) registrations() *auth.Window {
	n := s.Config.Quotas.WithDefaults().Registrations
	if n == 0 || !s.Hosted() {
		n = math.MaxInt32
	}
	return &auth.Window{Limit: n, Per: time.Hour}
}

// Hosted reports whether the sandbox is hosted for partners
// (--public-url, which listening beyond loopback requires): its webhooks
// then never reach the host's loopback or private networks unless the
// operator names the exact host:port (SECURITY.md).
func (s *Server) Hosted() bool { return s.Config.PublicURL != "" }

// selfHosts are the host:port pairs the sandbox is reached at: where it
// listens (loopback's names and addresses too, when it listens on every
// address) and its public URL's.
func (s *Server) selfHosts() []string {
	ap, err := netip.ParseAddrPort(s.ln.Addr().String())
	if err != nil {
		return nil
	}
	port := strconv.Itoa(int(ap.Port()))
	hosts := []string{net.JoinHostPort(ap.Addr().Unmap().String(), port)}
	if ap.Addr().IsUnspecified() || ap.Addr().IsLoopback() {
		hosts = append(hosts, net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("::1", port), net.JoinHostPort("localhost", port))
	}
	if u, err := url.Parse(s.Config.PublicURL); err == nil && u.Host != "" {
		p := u.Port()
		if p == "" {
			p = map[bool]string{true: "443", false: "80"}[u.Scheme == "https"]
		}
		hosts = append(hosts, net.JoinHostPort(strings.ToLower(u.Hostname()), p))
	}
	return hosts
}

// URL is the base URL of the running sandbox: https under --tls.
func (s *Server) URL() string { return s.scheme() + "://" + s.ln.Addr().String() }

// scheme is the sandbox's: https under --tls, http otherwise.
func (s *Server) scheme() string {
	if s.tls != nil {
		return "https"
	}
	return "http"
}

// seedDemo registers the demo company and app unless they exist. Its
// webhook points at the built-in inbox, so a ping is delivered at once.
func (s *Server) seedDemo(ctx context.Context) error {
	a, _, err := s.demoIn(ctx, s.demo)
	if err != nil {
		return err
	}
	s.Demo = &a
	return nil
}

// demoSecrets are the demo account's and app's: the documented ones on a
// developer's machine, new ones at every start of a hosted sandbox
// (--public-url), where documented credentials would be everyone's.
type demoSecrets struct {
	password, passwordHash, clientSecret, webhookSecret string
}

func (s *Server) newDemoSecrets() (demoSecrets, error) {
	if s.Config.PublicURL == "" {
		return demoSecrets{DemoPassword, demoPasswordHash, DemoClientSecret, DemoWebhookSecret}, nil
	}
	d := demoSecrets{password: store.RandomIDs{}.Token(12), clientSecret: store.RandomIDs{}.Token(24), webhookSecret: "whsec_" + store.RandomIDs{}.Token(24)}
	var err error
	d.passwordHash, err = auth.HashPassword(d.password)
	return d, err
}

// namespaceDemo seeds a namespace's copy of the demo company. On a
// hosted sandbox its app's secrets are its own: the sandbox's would let
// whoever makes a namespace act as the real demo company, and one shared
// by every namespace would leave a namespace's id its only lock. The
// account keeps the sandbox's demo password hash (no namespace answer
// carries the password; the copy is used with the portal token it
// answers), which spares a password hash a scenario.
func (s *Server) namespaceDemo(ctx context.Context) (auth.App, auth.Account, error) {
	d := s.demo
	if s.Hosted() {
		d.clientSecret, d.webhookSecret = store.RandomIDs{}.Token(24), "whsec_"+store.RandomIDs{}.Token(24)
	}
	return s.demoIn(ctx, d)
}

// demoIn registers the demo account, company, app and Pix keys in the
// namespace ctx names, unless they exist, with secrets d, and answers the
// app with its secret, and the account.
func (s *Server) demoIn(ctx context.Context, d demoSecrets) (auth.App, auth.Account, error) {
	c, err := s.Auth.Company(ctx, DemoCNPJ)
	if err != nil {
		if c, err = s.Auth.CreateCompany(ctx, DemoCNPJ, DemoCompany); err != nil {
			return auth.App{}, auth.Account{}, fmt.Errorf("demo company: %w", err)
		}
	}
	acct, err := s.Auth.SeedAccount(ctx, auth.NewAccount{Email: DemoEmail, Name: "Demo", PasswordHash: d.passwordHash}, c.ID)
	if err != nil {
		return auth.App{}, auth.Account{}, err
	}
	a, err := s.Auth.App(ctx, DemoClientID)
	if err != nil {
		a, err = s.Auth.CreateApp(ctx, auth.NewApp{
			Company: DemoCNPJ, Name: "Demo app", ClientID: DemoClientID, ClientSecret: d.clientSecret,
			WebhookSecret: d.webhookSecret, WebhookURL: s.demoInbox(),
		})
		if err != nil {
			return auth.App{}, auth.Account{}, fmt.Errorf("demo app: %w", err)
		}
	}
	for _, k := range pix.DemoKeys {
		if _, err := s.Pix.AddKey(tenant.With(ctx, a.CompanyID), a.ID, k); err != nil {
			return auth.App{}, auth.Account{}, fmt.Errorf("demo Pix key %s: %w", k, err)
		}
	}
	a.ClientSecret = d.clientSecret
	return a, acct, nil
}

// demoInbox is the demo app's webhook: the built-in inbox, at the
// sandbox's public URL when it is hosted, else at its loopback address.
// Either is served in the process (events.Local). A developer's sandbox
// listening on every address (0.0.0.0, [::]) gives 127.0.0.1, since
// webhooks never go to an unspecified address.
func (s *Server) demoInbox() string {
	u := s.URL() + "/sandbox/inbox/demo"
	switch ap, err := netip.ParseAddrPort(s.ln.Addr().String()); {
	case s.Hosted():
		// Where partners see the sandbox; served in the process all the same.
		u = strings.TrimSuffix(s.Config.PublicURL, "/") + "/sandbox/inbox/demo"
	case err == nil && ap.Addr().IsUnspecified():
		u = s.scheme() + "://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(int(ap.Port()))) + "/sandbox/inbox/demo"
	}
	if err := s.Auth.Webhooks.Check(u); err != nil {
		s.Log.Warn("demo app without a webhook: the sandbox listens on no loopback address", "url", u, "err", err)
		return ""
	}
	return u
}

// Close stops the sandbox gracefully: no new connections, in-flight
// requests finish (until ctx ends), websockets are told to go away, the job
// loop stops, pending interaction records are written, the database closes.
func (s *Server) Close(ctx context.Context) error {
	var errs []error
	s.closeOnce.Do(func() {
		// Scheduled work stops first: a webhook delivery to the sandbox's
		// own inbox that opened a connection just before the HTTP shutdown
		// would hold it for net/http's 5 s grace on new connections. A
		// delivery cut short stays due and runs at the next start.
		// Homologation runs stop before them: they talk to the sandbox.
		if s.Homologation != nil {
			s.Homologation.Stop()
		}
		if s.cancel != nil {
			s.cancel()
			<-s.jobsDone
			// A batch cut short rolls back; what it would have deleted
			// goes at the next start's first pass.
			if s.pruneDone != nil {
				<-s.pruneDone
			}
		}
		if s.http != nil {
			if err := s.http.Shutdown(ctx); err != nil {
				errs = append(errs, fmt.Errorf("shutdown http: %w", err))
			}
		}
		close(s.streamEnd)
		s.wg.Wait()
		s.Recorder.Close()
		if s.logDB != nil {
			if err := s.logDB.Close(); err != nil {
				errs = append(errs, fmt.Errorf("close interaction log: %w", err))
			}
		}
		if err := saveClocks(context.WithoutCancel(ctx), s.DB, s.Clocks); err != nil {
			errs = append(errs, err)
		}
		if err := s.DB.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close database: %w", err))
		}
	})
	return errors.Join(errs...)
}

// Banner writes what a person needs to start: the base URL of every API
// and the demo app's credentials.
func (s *Server) Banner(w io.Writer) {
	mode, factor := s.Clocks.Default.Mode()
	db := "in-memory (state is lost on exit; --db FILE keeps it)"
	if s.DB.Path() != "" {
		db = s.DB.Path()
	}
	clk := string(mode)
	if mode == clock.Accelerated {
		clk = fmt.Sprintf("%gx", factor)
	}
	u := s.URL()
	scen := fmt.Sprintf("%d loaded (GET /sandbox/scenarios)", len(s.Scenarios.Catalogue().All()))
	if s.Config.ScenariosDir != "" {
		scen += ", with the folder " + s.Config.ScenariosDir
	}
	fmt.Fprintf(w, "Homologa sandbox on %s\n  dashboard: %s/#operator=%s (in a browser)\n  widgets: %s/widgets/ (the example host page)\n  clock: %s (now %s; each company may move its own)\n  database: %s\n  scenarios: %s\n\n",
		u, u, s.Config.OperatorToken, u, clk, s.Clocks.Default.Now().Format(time.RFC3339), db, scen)
	s.exposureWarning(w)
	s.tlsBanner(w)
	fmt.Fprintf(w, "Operator (sandbox-wide control: the default clock, every company's data, shared scenarios)\n  token           %s\n\n", s.Config.OperatorToken)
	fmt.Fprintf(w, "Base URLs\n")
	for _, a := range APIs {
		switch a.Name {
		case "events":
			fmt.Fprintf(w, "  %-22s %s://%s/events/ws\n", a.Title, map[bool]string{false: "ws", true: "wss"}[s.tls != nil], s.ln.Addr())
		case "pix-payload":
			// Payload locations are handed out by the Pix API itself.
		default:
			fmt.Fprintf(w, "  %-22s %s%s\n", a.Title, u, a.Prefix)
			for _, al := range a.Aliases {
				fmt.Fprintf(w, "  %-22s %s%s\n", "", u, al.Prefix)
			}
		}
	}
	fmt.Fprintln(w)
	if s.Demo != nil {
		fmt.Fprintf(w, "Demo account (portal login; owns the demo company)\n  email           %s\n  password        %s\n\n", DemoEmail, s.demo.password)
		fmt.Fprintf(w, "Demo app (company %s, CNPJ %s)\n", DemoCompany, DemoCNPJ)
		fmt.Fprintf(w, "  client id       %s\n  client secret   %s\n  webhook secret  %s\n  webhook URL     %s\n",
			s.Demo.ClientID, s.Demo.ClientSecret, s.Demo.WebhookSecret, s.Demo.WebhookURL)
		fmt.Fprintf(w, "  Pix keys        %s\n\n", strings.Join(pix.DemoKeys, ", "))
		curl := "curl -s"
		if s.tls != nil {
			curl += " --cacert " + filepath.Join(s.tls.dir, CAFile)
			if s.Config.MTLS {
				fmt.Fprintf(w, "The demo app's client certificate (mutual TLS), with a portal token of the demo account:\n"+
					"  PORTAL=$(%s -u %s:%s -X POST %s/portal/tokens | sed -E 's/.*\"token\":\"([^\"]+)\".*/\\1/')\n"+
					"  %s -H \"Authorization: Bearer $PORTAL\" -X POST %s/portal/apps/%s/certificates -o demo.pem\n\n",
					curl, DemoEmail, s.demo.password, u, curl, u, s.Demo.ClientID)
				curl += " --cert demo.pem"
			}
		}
		fmt.Fprintf(w, "Get a token:\n  %s -u %s:%s -d grant_type=client_credentials %s/oauth/token\n\n", curl, s.Demo.ClientID, s.Demo.ClientSecret, u)
	}
}
