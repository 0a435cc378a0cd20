package scenarios

import "embed"

// FS holds the shipped *.yaml files.
//
//go:embed *.yaml
var FS embed.FS
