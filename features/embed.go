// Package features embeds the homologation suite, so `homologa test` runs
// it with nothing else on disk. (The contract features test the sandbox
// and run from the repository.)
package features

import "embed"

// Homologation holds features/homologation/*.feature.
//
//go:embed homologation/*.feature
var Homologation embed.FS
