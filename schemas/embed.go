package schemas

import "embed"

// FS holds the schema files, by path under schemas/ (e.g.
// "platform/company.create.json"). Each folder is named: a glob would also
// take testdata/.
//
//go:embed platform/*.json pix/*.json insurance/*.json scenario.json
var FS embed.FS
