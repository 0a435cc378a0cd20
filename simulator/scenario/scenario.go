package scenario

import (
	"fmt"
	"sort"
	"time"

	"homologa/simulator/statemachine"
)

// Scenario is one loaded file.
type Scenario struct {
	ID          string  `json:"id"`
	Title       string  `json:"title"`
	Description string  `json:"description,omitempty"`
	AppliesTo   string  `json:"applies_to"`
	Default     bool    `json:"default,omitempty"`
	Select      *Rule   `json:"select,omitempty"`
	Seed        int64   `json:"seed,omitempty"`
	Steps       []Step  `json:"steps,omitempty"`
	Faults      []Fault `json:"faults,omitempty"`
	// File is where it was loaded from ("embedded:x.yaml", a path, or
	// "upload"); Source is the YAML as written.
	File   string `json:"file"`
	Source string `json:"-"`
}

// Rule matches a field of a JSON body: a magic value, like a test card
// number.
type Rule struct {
	Field  string `json:"field"`
	Equals any    `json:"equals,omitempty"`
	In     []any  `json:"in,omitempty"`
}

// Match reports whether body's field has one of the rule's values; numbers
// and strings compare by their text, so 1.5 matches "1.5".
func (r *Rule) Match(body map[string]any) bool {
	v, ok := lookup(body, r.Field)
	if !ok {
		return false
	}
	want := r.In
	if r.Equals != nil {
		want = []any{r.Equals}
	}
	for _, w := range want {
		if text(w) == text(v) {
			return true
		}
	}
	return false
}

func text(v any) string {
	switch x := v.(type) {
	case string: // fmt.Sprint's answer, without its allocation: every creation asks
		return x
	case float64:
		return fmt.Sprint(x)
	case int:
		return fmt.Sprint(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// Step is one thing the scenario does to its resource. Exactly one action
// (Verb) is set; it runs After the previous step, or After the named
// instant At, or After the trigger When fires (with both, once the trigger
// has fired, at the instant: a retry's date is known only then).
type Step struct {
	After  time.Duration `json:"after,omitempty"`
	Jitter time.Duration `json:"jitter,omitempty"`
	At     string        `json:"at,omitempty"`
	When   string        `json:"when,omitempty"`
	// Verb is status, pay, refuse, settle, fail, pending, create or emit.
	Verb string `json:"verb"`
	// Status is the target of a status step.
	Status string `json:"status,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Args are the verb's fields (pay's valor, emit's type and data, …).
	Args map[string]any `json:"args,omitempty"`
	Line int            `json:"line"`
}

// Event reads an emit step: the event's type, display name and data.
func (st Step) Event() (typ, name string, data map[string]any) {
	typ, _ = st.Args["type"].(string)
	name, _ = st.Args["name"].(string)
	data, _ = st.Args["data"].(map[string]any)
	return typ, name, data
}

// Fault is one injected failure: an HTTP fault (Match) or a webhook fault
// (Webhook), limited by Times and Window.
type Fault struct {
	Match   *Match        `json:"match,omitempty"`
	Webhook *WebhookMatch `json:"webhook,omitempty"`
	Phase   string        `json:"phase,omitempty"` // before (default) or after
	Times   int           `json:"times,omitempty"` // 0: unlimited
	Window  time.Duration `json:"window,omitempty"`
	// HTTP actions.
	Respond *Respond      `json:"respond,omitempty"`
	Latency time.Duration `json:"latency,omitempty"`
	Timeout time.Duration `json:"timeout,omitempty"`
	Reset   bool          `json:"reset,omitempty"`
	// Webhook actions.
	Drop         bool          `json:"drop,omitempty"`
	Delay        time.Duration `json:"delay,omitempty"`
	Duplicate    bool          `json:"duplicate,omitempty"`
	OutOfOrder   bool          `json:"out_of_order,omitempty"`
	BadSignature bool          `json:"bad_signature,omitempty"`
	// StaleSignature and Unsigned send a delivery signed ten minutes ago,
	// or not signed; the retry is right.
	StaleSignature bool `json:"stale_signature,omitempty"`
	Unsigned       bool `json:"unsigned,omitempty"`
	Line           int  `json:"line"`
}

// Match selects requests.
type Match struct {
	Method string            `json:"method,omitempty"`
	Path   string            `json:"path"`
	App    string            `json:"app,omitempty"`
	Header map[string]string `json:"header,omitempty"`
	Body   *Rule             `json:"body,omitempty"`
}

// WebhookMatch selects deliveries.
type WebhookMatch struct {
	Event string `json:"event,omitempty"`
	App   string `json:"app,omitempty"`
}

// Respond is the answer of an HTTP fault, in the called API's dialect.
type Respond struct {
	Status     int            `json:"status"`
	Message    string         `json:"message,omitempty"`
	RetryAfter time.Duration  `json:"retry_after,omitempty"`
	Body       map[string]any `json:"body,omitempty"`
}

// Action names what the fault does, for logs and the control API.
func (f *Fault) Action() string {
	switch {
	case f.Respond != nil:
		return fmt.Sprintf("respond %d", f.Respond.Status)
	case f.Reset:
		return "reset"
	case f.Timeout > 0:
		return "timeout " + f.Timeout.String()
	case f.Latency > 0:
		return "latency " + f.Latency.String()
	case f.Drop:
		return "drop"
	case f.Duplicate:
		return "duplicate"
	case f.OutOfOrder:
		return "out_of_order"
	case f.BadSignature:
		return "bad_signature"
	case f.StaleSignature:
		return "stale_signature"
	case f.Unsigned:
		return "unsigned"
	case f.Delay > 0:
		return "delay " + f.Delay.String()
	}
	return "none"
}

// Kind is what the engine knows of a kind of resource, as data: its
// machine, which verbs it accepts and the state each leads to, the
// triggers it fires (and the state after each, "" when it does not say),
// and its named instants. Loading checks scenarios against it; the domain
// package that owns the resource provides it and a Runner.
type Kind struct {
	Name     string
	Machine  *statemachine.Machine
	Verbs    map[string]string
	Triggers map[string]string
	Instants []string
}

// Kinds is the set of resource kinds scenarios may drive.
type Kinds map[string]Kind

// Names lists the kinds, sorted.
func (ks Kinds) Names() []string {
	var out []string
	for n := range ks {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
