// Package homologation keeps the reports of `homologa test` per app and
// gates publishing: the portal's publish answers with the failed checks
// unless the app's last report passed (onboarding step 7).
package homologation

import (
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

// Service holds the reports.
type Service struct {
	DB     *store.DB
	Clocks *clock.Clocks
	Auth   *auth.Service
}

// Report is what the runner posts.
type Report struct {
	ClientID string           `json:"clientId"`
	Ready    bool             `json:"ready"`
	Summary  string           `json:"summary"`
	Passed   int              `json:"passed"`
	Failed   []map[string]any `json:"failed"`
	// Complete is false for a run filtered by tags or of other features:
	// it is kept and shown, but only a run of the whole suite opens the
	// gate (a single passing scenario must not publish an integration).
	Complete *bool `json:"complete,omitempty"`
}

func (r *Report) complete() bool { return r.Complete == nil || *r.Complete }

// Routes is the homologation reports (control) and the publish gate
// (portal).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{API: "sandbox", Method: http.MethodPost, Path: "/homologation/reports", Auth: httpx.Public, Handler: httpx.HandlerFunc(s.postReport), Doc: "record a homologation report"},
		{API: "sandbox", Method: http.MethodGet, Path: "/homologation/reports/{clientId}", Auth: httpx.Tenant, Handler: httpx.HandlerFunc(s.lastReport), Doc: "an app's last report"},
		{API: "portal", Method: http.MethodPost, Path: "/apps/{id}/publish", Auth: httpx.Public, Handler: httpx.HandlerFunc(s.publish), Doc: "publish an app after a passing homologation"},
	}
}

func (s *Service) postReport(r *http.Request) (*httpx.Reply, error) {
	var in Report
	if err := httpx.DecodeJSON(r, nil, "", &in); err != nil {
		return nil, err
	}
	a, err := s.Auth.App(r.Context(), in.ClientID)
	if err != nil {
		return nil, errs.Invalidf("clientId", "nenhum app %q", in.ClientID)
	}
	if in.Failed == nil {
		in.Failed = []map[string]any{}
	}
	b, _ := json.Marshal(in)
	err = s.DB.Tx(r.Context(), func(tx *store.Tx) error {
		_, err := tx.ExecContext(r.Context(), `INSERT INTO homologation_reports (app_id, ready, body, created_at, complete) VALUES (?, ?, ?, ?, ?)`,
			a.ID, in.Ready, string(b), s.Clocks.Now(r.Context()).UnixNano(), in.complete())
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Created(in), nil
}

// last is the app's last report; onlyComplete skips partial runs.
func (s *Service) last(r *http.Request, key string, onlyComplete bool) (*Report, error) {
	a, err := s.Auth.App(r.Context(), key)
	if err != nil {
		return nil, err
	}
	var body string
	err = s.DB.Read(r.Context(), func(tx *store.Tx) error {
		return tx.QueryRowContext(r.Context(), `SELECT body FROM homologation_reports WHERE app_id = ? AND (complete = 1 OR ?) ORDER BY id DESC LIMIT 1`,
			a.ID, !onlyComplete).Scan(&body)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rep Report
	return &rep, json.Unmarshal([]byte(body), &rep)
}

func (s *Service) lastReport(r *http.Request) (*httpx.Reply, error) {
	rep, err := s.last(r, mux.Vars(r)["clientId"], false)
	if err != nil {
		return nil, err
	}
	if rep == nil {
		return nil, errs.Errorf(errs.NotFound, "ainda não há relatório de homologação de %s: rode homologa test", mux.Vars(r)["clientId"])
	}
	return httpx.OK(rep), nil
}

// publish is POST /portal/apps/{id}/publish: production is opened only to
// an app whose last homologation report passed; otherwise the answer lists
// what failed.
func (s *Service) publish(r *http.Request) (*httpx.Reply, error) {
	rep, err := s.last(r, mux.Vars(r)["id"], true)
	if err != nil {
		return nil, err
	}
	if rep == nil {
		e := errs.Errorf(errs.Conflict, "o app não tem relatório de homologação da suíte inteira: rode homologa test --partner <arquivo> com o clientId dele, sem --tags nem --features")
		return nil, e
	}
	if !rep.Ready {
		e := errs.Errorf(errs.Conflict, "%s", rep.Summary)
		for _, f := range rep.Failed {
			name, _ := f["scenario"].(string)
			why, _ := f["failure"].(string)
			e.Violations = append(e.Violations, errs.Violation{Field: name, Reason: why})
		}
		return nil, e
	}
	return httpx.OK(map[string]any{"published": true, "summary": rep.Summary,
		"note": "the sandbox cannot publish to production itself; this is the gate's answer the real portal gives"}), nil
}
