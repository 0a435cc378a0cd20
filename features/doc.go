// Package features holds the Gherkin features: contract/ (the service's
// contract, which the sandbox's own tests run from the repository) and
// homologation/ (the partner's behaviour), which it embeds so that
// `homologa test` and the sandbox's own homologation runs need nothing else
// on disk. Package harness runs them; their steps are in harness/steps.go.
package features
