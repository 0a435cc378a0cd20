// Package schemas holds the JSON Schemas (draft-07) of every request,
// response, event and scenario file, and embeds them, so the binary
// carries them. Package schema compiles them; the server validates request
// bodies with them, the scenario loader scenario files, and the harness
// the sandbox's answers.
package schemas
