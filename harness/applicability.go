package harness

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/cucumber/godog"
)

// A scenario that needs what this sandbox, or this partner, does not
// have is not applicable: it is neither passed nor failed. It stops at
// the step that finds out (godog skips the rest), and the report counts
// it apart with the reason, so a feature that needs --webhook-resolve is
// "not applicable: needs --webhook-resolve" on a sandbox started without
// it, never a failure of the sandbox or of the partner.

// notApplicable ends the scenario as not applicable for reason.
func (w *World) notApplicable(reason string) error {
	w.na = reason
	return fmt.Errorf("%w: not applicable: %s", godog.ErrSkip, reason)
}

// NotApplicable is the reason the scenario did not apply, "" if it did.
func (w *World) NotApplicable() string { return w.na }

// sandboxSettings reads the settings the sandbox's index advertises.
func (w *World) sandboxSettings() (settings, error) {
	req, _ := http.NewRequest(http.MethodGet, w.BaseURL+"/", nil)
	req.Header.Set("Accept", "application/json")
	resp, err := w.ctl.client.Do(req)
	if err != nil {
		return settings{}, fmt.Errorf("read the sandbox's index: %w", err)
	}
	defer resp.Body.Close()
	var idx struct {
		Settings *settings `json:"settings"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&idx); err != nil || idx.Settings == nil {
		return settings{}, fmt.Errorf("the sandbox's index (GET /) advertises no settings: is %s a Homologa sandbox of this version?", w.BaseURL)
	}
	return *idx.Settings, nil
}

// settings is the part of the index's settings the steps read.
type settings struct {
	WebhookAllow   []string `json:"webhookAllow"`
	WebhookResolve []string `json:"webhookResolve"`
	TLS            bool     `json:"tls"`
	MTLS           bool     `json:"mtls"`
}

// sandboxStartedWith goes on when the sandbox has the setting, and ends
// the scenario as not applicable otherwise.
func (w *World) sandboxStartedWith(flag, value string) error {
	s, err := w.sandboxSettings()
	if err != nil {
		return err
	}
	has := false
	switch flag {
	case "--webhook-allow":
		has = slices.Contains(s.WebhookAllow, value)
	case "--webhook-resolve":
		has = slices.Contains(s.WebhookResolve, value)
	case "--tls":
		has = s.TLS
	case "--mtls":
		has = s.MTLS
	default:
		return fmt.Errorf("the steps know --webhook-allow, --webhook-resolve, --tls and --mtls, not %s", flag)
	}
	if has {
		return nil
	}
	if value != "" {
		return w.notApplicable(fmt.Sprintf("needs a sandbox started with %s %s", flag, value))
	}
	return w.notApplicable("needs a sandbox started with " + flag)
}

// sandboxRefusesWebhooksTo goes on when the sandbox's allow-list does not
// admit host by name, and ends the scenario as not applicable otherwise.
func (w *World) sandboxRefusesWebhooksTo(host string) error {
	s, err := w.sandboxSettings()
	if err != nil {
		return err
	}
	if slices.Contains(s.WebhookAllow, "*") || slices.Contains(s.WebhookAllow, host) {
		return w.notApplicable(fmt.Sprintf("needs a sandbox whose --webhook-allow does not admit %s", host))
	}
	return nil
}
