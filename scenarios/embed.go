// Package scenarios embeds the shipped scenario files, so the binary
// carries its catalogue; scenarios/README.md documents them (generated).
package scenarios

import "embed"

// FS holds the shipped *.yaml files.
//
//go:embed *.yaml
var FS embed.FS
