// Package schema compiles the JSON Schemas (draft-07) of the schemas/ folder
// once and validates documents against them. The server validates request
// bodies with it, the scenario loader scenario files, the harness responses.
// Describe says in words what a schema asks of each field, which the
// request reference (docs/reference/requests.md) is written from.
package schema
