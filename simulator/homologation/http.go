package homologation

import (
	"net/http"

	"github.com/gorilla/mux"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/tenant"
)

// Routes is the homologation runs and the publish gate (portal), and an
// app's last report (control).
func (s *Service) Routes() []httpx.Route {
	portal := func(method, path string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "portal", Method: method, Path: path, Auth: httpx.Account, Handler: f, Doc: doc}
	}
	begin := portal(http.MethodPost, "/apps/{id}/homologations", s.begin, "run the homologation suite against the partner the file (YAML) describes; 202, then poll the run")
	begin.RawBody = true
	return []httpx.Route{
		begin,
		portal(http.MethodGet, "/apps/{id}/homologations", s.list, "the app's homologation runs, newest first"),
		portal(http.MethodGet, "/apps/{id}/homologations/{run}", s.get, "one run and its report"),
		portal(http.MethodPost, "/apps/{id}/publish", s.publish, "publish an app after a passing homologation run"),
		{API: "sandbox", Method: http.MethodGet, Path: "/homologation/reports/{clientId}", Auth: httpx.Tenant, Handler: httpx.HandlerFunc(s.lastReport),
			Doc: "the company's app's last homologation run"},
	}
}

// app is the portal's app of the request, if the caller owns it.
func (s *Service) app(r *http.Request) (auth.App, error) {
	return s.Auth.OwnedApp(r.Context(), auth.OwnerOf(r.Context()), mux.Vars(r)["id"])
}

// begin is POST /portal/apps/{id}/homologations.
func (s *Service) begin(r *http.Request) (*httpx.Reply, error) {
	a, err := s.app(r)
	if err != nil {
		return nil, err
	}
	body, err := httpx.ReadBody(r, 256<<10)
	if err != nil {
		return nil, err
	}
	run, err := s.Begin(r.Context(), a, body)
	if err != nil {
		return nil, err
	}
	run.Partner = ""
	rep := &httpx.Reply{Status: http.StatusAccepted, Body: run,
		Header: http.Header{"Location": {"/portal/apps/" + a.ID + "/homologations/" + run.ID}}}
	return rep, nil
}

// list is GET /portal/apps/{id}/homologations.
func (s *Service) list(r *http.Request) (*httpx.Reply, error) {
	a, err := s.app(r)
	if err != nil {
		return nil, err
	}
	runs, err := s.Runs(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"runs": runs}), nil
}

// get is GET /portal/apps/{id}/homologations/{run}.
func (s *Service) get(r *http.Request) (*httpx.Reply, error) {
	a, err := s.app(r)
	if err != nil {
		return nil, err
	}
	run, err := s.Get(r.Context(), a.ID, mux.Vars(r)["run"])
	if err != nil {
		return nil, err
	}
	return httpx.OK(run), nil
}

// publish is POST /portal/apps/{id}/publish.
func (s *Service) publish(r *http.Request) (*httpx.Reply, error) {
	a, err := s.app(r)
	if err != nil {
		return nil, err
	}
	run, err := s.Publish(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	return httpx.OK(map[string]any{"published": true, "run": run.ID, "summary": run.Report.Summary, "products": run.Report.Products,
		"note": "the sandbox cannot publish to production itself; this is the gate's answer the real portal gives"}), nil
}

// lastReport is GET /sandbox/homologation/reports/{clientId}: the last
// finished run of one of the caller company's apps.
func (s *Service) lastReport(r *http.Request) (*httpx.Reply, error) {
	sc, err := tenant.Of(r.Context())
	if err != nil {
		return nil, err
	}
	key := mux.Vars(r)["clientId"]
	a, err := s.Auth.App(r.Context(), key)
	if err != nil || !sc.Includes(a.CompanyID) {
		return nil, errs.Errorf(errs.NotFound, "nenhum app %q na sua empresa", key)
	}
	run, err := s.Last(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	if run == nil {
		return nil, errs.Errorf(errs.NotFound, "o app %s ainda não tem homologação feita pelo sandbox", key)
	}
	run.Partner = ""
	return httpx.OK(run), nil
}
