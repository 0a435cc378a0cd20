package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"homologa/simulator/homologation"
)

// SandboxRunner is the homologation runner the sandbox itself runs (POST
// /portal/apps/{id}/homologations): the embedded suite against the
// partner the file describes, the app under homologation named by the
// run, namespaces made with the operator's token, requests to the partner
// through the sandbox's guarded transport. cmd/homologa gives it to the
// sandbox; the sandbox cannot import the harness, which starts sandboxes.
func SandboxRunner(ctx context.Context, job homologation.Job) (*homologation.Report, error) {
	p, err := ParseHostedPartner("arquivo do parceiro", job.PartnerFile)
	if err != nil {
		return nil, fmt.Errorf("arquivo do parceiro inválido: %w", err)
	}
	if err := p.hostable(job.App.ClientID); err != nil {
		return nil, fmt.Errorf("arquivo do parceiro: %w", err)
	}
	if job.CheckURL != nil {
		if err := job.CheckURL(p.URL); err != nil {
			return nil, fmt.Errorf("url do parceiro: %w", err)
		}
	}
	p.ClientID = job.App.ClientID
	rep, err := RunHomologation(ctx, HomologationOptions{Partner: p, SandboxURL: job.SandboxURL, Output: io.Discard,
		Maker: &Maker{Token: job.OperatorToken}, Context: ctx, PartnerTransport: job.Transport})
	if err != nil {
		return nil, err
	}
	return storedReport(rep), nil
}

// storedReport is the part of a report the sandbox keeps.
func storedReport(r *Report) *homologation.Report {
	out := &homologation.Report{Ready: r.Ready, Summary: r.Summary, Passed: r.Passed, Failed: r.Failed, Products: r.Products, Checks: []homologation.Check{}}
	for _, c := range r.Checks {
		out.Checks = append(out.Checks, homologation.Check{Scenario: c.Scenario, Rules: c.Rules, Onboarding: c.Onboarding, Passed: c.Passed, Failure: c.Failure})
	}
	return out
}

// recordRun asks the sandbox at base to run the suite for the app
// clientID against the partner file, with a portal token of the app's
// account, and waits for the run: the run that opens the publish gate.
func recordRun(ctx context.Context, base, token, clientID string, partnerFile []byte, out io.Writer) (*homologation.Run, error) {
	base = strings.TrimSuffix(base, "/")
	path := base + "/portal/apps/" + url.PathEscape(clientID) + "/homologations"
	var run homologation.Run
	status, err := portalCall(ctx, http.MethodPost, path, token, partnerFile, &run)
	if err != nil {
		return nil, err
	}
	if status != http.StatusAccepted {
		return nil, fmt.Errorf("the sandbox refused the run (%d)", status)
	}
	fmt.Fprintf(out, "the sandbox is running homologation %s for %s", run.ID, clientID)
	for run.Status == homologation.Running {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
		fmt.Fprint(out, ".")
		if _, err := portalCall(ctx, http.MethodGet, path+"/"+run.ID, token, nil, &run); err != nil {
			return nil, err
		}
	}
	fmt.Fprintln(out)
	if run.Status == homologation.Failed {
		return &run, fmt.Errorf("the run could not be made: %s", run.Error)
	}
	return &run, nil
}

// portalCall sends a portal request with a portal token and decodes a 2xx
// answer into v; anything else is an error carrying the answer.
func portalCall(ctx context.Context, method, u, token string, body []byte, v any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/yaml")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("%s %s answered %d: %s", method, u, resp.StatusCode, b)
	}
	return resp.StatusCode, json.Unmarshal(b, v)
}
