package features

import "embed"

// Homologation holds features/homologation/*.feature.
//
//go:embed homologation/*.feature
var Homologation embed.FS
