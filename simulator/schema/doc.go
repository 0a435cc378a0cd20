// Package schema compiles the JSON Schemas (draft-07) of the schemas/ folder
// once and validates documents against them. The server validates request
// bodies with it, the scenario loader scenario files, the harness responses.
package schema
