package server

// SectionTitle is sectionTitle, for the request reference's test: its
// sections are ROUTES.md's.
var SectionTitle = sectionTitle
