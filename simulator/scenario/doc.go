// Package scenario loads the YAML scenarios of the sandbox and runs them:
// steps that move a bound resource through its state machine on the
// sandbox clock (or when something happens to it), and faults injected into
// the partner's requests and webhooks. A file is checked against
// schemas/scenario.json and against the machine of the resource it drives
// when it is loaded, so a scenario that loads can run.
package scenario
