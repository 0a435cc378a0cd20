// Package cli holds the partner's daily loop in a terminal: the commands
// homologa listen (the company's events forwarded to a local URL, signed
// as the sandbox signs webhooks), homologa trigger (any event the service
// emits, fired through the control API), homologa logs tail (the
// interaction log, live) and homologa record (a company's session turned
// into a Gherkin feature written with the harness's documented steps).
//
// Every command is a client of a sandbox, local or hosted, as one app:
// its client id and secret, over HTTP, TLS or mutual TLS. cmd/homologa
// hands these commands to Main.
package cli
