package homologation

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/store"
)

// Run is one run of the suite for an app.
type Run struct {
	ID         string     `json:"id"`
	AppID      string     `json:"appId"`
	ClientID   string     `json:"clientId"`
	Status     string     `json:"status"`
	Ready      bool       `json:"ready"`
	Error      string     `json:"error,omitempty"`
	Report     *Report    `json:"report,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	FinishedAt *time.Time `json:"finishedAt,omitempty"`
	// Partner is the partner file the run used.
	Partner string `json:"partner,omitempty"`
}

// The statuses of a run.
const (
	Running  = "running"
	Finished = "finished"
	Failed   = "failed" // the run could not be made (a bad partner file, a stop)
)

// Report is what a run found: the harness's report, as stored.
type Report struct {
	Ready   bool    `json:"readyForProduction"`
	Summary string  `json:"summary"`
	Passed  int     `json:"passed"`
	Failed  int     `json:"failed"`
	Checks  []Check `json:"checks"`
	// Products are what the run homologated: publishing opens for them.
	Products []string `json:"products"`
}

// Check is one scenario of a report.
type Check struct {
	Scenario   string   `json:"scenario"`
	Rules      []string `json:"regras"`
	Onboarding []string `json:"onboarding"`
	Passed     bool     `json:"passed"`
	Failure    string   `json:"failure,omitempty"`
}

// Job is what a runner is given: the app under homologation, its partner
// file, and the sandbox to run against (this one, over loopback) with the
// operator's token, which the suite makes its namespaces with.
type Job struct {
	App           auth.App
	PartnerFile   []byte
	SandboxURL    string
	OperatorToken string
	// Transport carries the requests to the partner, refusing what the
	// webhook allow-list refuses; CheckURL checks the partner's URL.
	Transport http.RoundTripper
	CheckURL  func(string) error
}

// Runner runs the suite. The harness provides it (cmd/homologa wires it),
// since the harness, which starts sandboxes of its own, cannot be imported
// by the sandbox.
type Runner func(ctx context.Context, job Job) (*Report, error)

// How many runs may go at once, sandbox-wide: a run is a few dozen
// scenarios against the partner, and the sandbox serves others meanwhile.
const maxRunning = 2

// Service runs and keeps the runs.
type Service struct {
	DB     *store.DB
	Auth   *auth.Service
	Log    *slog.Logger
	Runner Runner
	// URL is the sandbox's own base URL; OperatorToken its operator's.
	URL           func() string
	OperatorToken string
	// Transport and CheckURL guard the requests to partners (Job).
	Transport http.RoundTripper
	CheckURL  func(string) error
	// Timeout bounds one run (default 15 minutes).
	Timeout time.Duration

	mu      sync.Mutex
	running int
	ctx     context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup
}

// Start marks the runs a stopped sandbox left running as failed, and makes
// the context later runs stop with.
func (s *Service) Start(ctx context.Context) error {
	s.ctx, s.stop = context.WithCancel(context.WithoutCancel(ctx))
	return s.DB.Tx(ctx, func(tx *store.Tx) error { return failInterrupted(ctx, tx, time.Now()) })
}

// Stop cancels the runs in progress and waits for them.
func (s *Service) Stop() {
	if s.stop != nil {
		s.stop()
	}
	s.wg.Wait()
}

// Begin starts a run for an app: at most one per app, and maxRunning in
// all. The run goes on in the background; its record says how it ends.
func (s *Service) Begin(ctx context.Context, app auth.App, partnerFile []byte) (Run, error) {
	if s.Runner == nil || s.ctx == nil {
		return Run{}, errs.Errorf(errs.Unavailable, "este sandbox não roda a suíte de homologação")
	}
	if len(partnerFile) == 0 {
		return Run{}, errs.Invalidf("body", "envie o arquivo do parceiro (YAML) no corpo")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running >= maxRunning {
		return Run{}, errs.Errorf(errs.TooManyRequests, "%d homologações já estão rodando neste sandbox; tente de novo em um minuto", s.running).
			WithHeader("Retry-After", "60")
	}
	run := Run{ID: "hrun_" + s.DB.IDs.Token(10), AppID: app.ID, ClientID: app.ClientID, Status: Running, CreatedAt: time.Now().UTC(), Partner: string(partnerFile)}
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		busy, err := runningFor(ctx, tx, app.ID)
		if err != nil {
			return err
		}
		if busy != "" {
			return errs.Errorf(errs.Conflict, "a homologação %s deste app ainda está rodando", busy)
		}
		return insertRun(ctx, tx, run)
	})
	if err != nil {
		return Run{}, fmt.Errorf("begin homologation: %w", err)
	}
	s.running++
	s.wg.Add(1)
	go s.execute(app, run)
	return run, nil
}

// execute runs the suite and records how it ended.
func (s *Service) execute(app auth.App, run Run) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		s.running--
		s.mu.Unlock()
	}()
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 15 * time.Minute
	}
	ctx, cancel := context.WithTimeout(s.ctx, timeout)
	defer cancel()
	rep, err := s.Runner(ctx, Job{App: app, PartnerFile: []byte(run.Partner), SandboxURL: s.URL(), OperatorToken: s.OperatorToken,
		Transport: s.Transport, CheckURL: s.CheckURL})
	now := time.Now().UTC()
	run.FinishedAt, run.Report = &now, rep
	switch {
	case err != nil:
		run.Status, run.Error = Failed, err.Error()
	case rep == nil:
		run.Status, run.Error = Failed, "a suíte não devolveu relatório"
	default:
		run.Status, run.Ready = Finished, rep.Ready
	}
	// The sandbox may be stopping: the record is written regardless.
	if err := s.DB.Tx(context.Background(), func(tx *store.Tx) error { return finishRun(context.Background(), tx, run) }); err != nil && s.Log != nil {
		s.Log.Error("record homologation run", "run", run.ID, "err", err)
	}
}

// Runs lists an app's runs, newest first, without their reports.
func (s *Service) Runs(ctx context.Context, appID string) ([]Run, error) {
	var out []Run
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		out, err = runsOf(ctx, tx, appID, 50)
		return err
	})
	if out == nil {
		out = []Run{}
	}
	return out, err
}

// Get returns one of an app's runs, with its report.
func (s *Service) Get(ctx context.Context, appID, id string) (Run, error) {
	var r *Run
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		r, err = findRun(ctx, tx, appID, id)
		return err
	})
	if err != nil {
		return Run{}, err
	}
	if r == nil {
		return Run{}, errs.Errorf(errs.NotFound, "nenhuma homologação %q deste app", id)
	}
	return *r, nil
}

// Last returns an app's newest finished run, nil when there is none.
func (s *Service) Last(ctx context.Context, appID string) (*Run, error) {
	var r *Run
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		var err error
		r, err = lastFinished(ctx, tx, appID)
		return err
	})
	return r, err
}

// Publish is the gate: production opens only to an app whose newest
// finished run passed; otherwise the error lists what failed.
func (s *Service) Publish(ctx context.Context, appID string) (*Run, error) {
	r, err := s.Last(ctx, appID)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errs.Errorf(errs.Conflict, "o app ainda não tem homologação feita pelo sandbox: POST /portal/apps/{id}/homologations com o arquivo do parceiro")
	}
	if !r.Ready {
		return nil, notReady(r)
	}
	return r, nil
}

// notReady is the gate's refusal: the run's summary, a violation per
// failed check.
func notReady(r *Run) error {
	e := errs.Errorf(errs.Conflict, "a homologação %s não passou", r.ID)
	if r.Report != nil {
		e.Message = r.Report.Summary
		for _, c := range r.Report.Checks {
			if !c.Passed {
				e.Violations = append(e.Violations, errs.Violation{Field: c.Scenario, Reason: c.Failure})
			}
		}
	}
	return e
}
