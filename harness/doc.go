// Package harness is the Gherkin (godog) step library of Homologa and its
// runners, the judge of a partner's integration.
//
// In contract mode a feature acts as the partner: it calls the sandbox's
// APIs, receives its webhooks on a real receiver or its websocket, and
// checks every answer against schemas/. In homologation mode the partner's
// own integration makes the calls, driven through its actions (a partner
// file, or the reference partner of package partner), and the steps judge
// what the sandbox recorded of them: retries with the same txid or
// Idempotency-Key, the pause a fault asked for, webhooks answered and
// deduplicated, the insurer's sale in its order. A check fails a partner
// only for a rule the service states (docs/reference/homologation.md).
//
// The homologa command's test and steps subcommands are Main (JUnit and
// summary reports); the sandbox's own homologation runs call
// SandboxRunner.
// README.md, written from the step definitions, is the step reference.
package harness
