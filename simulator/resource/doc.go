// Package resource is how the domains show their resources to the
// dashboard: each domain lists its own tables, newest first, with a status
// and a line of detail, and counts them by status. The dashboard merges
// what the domains answer; it never reads a domain's tables itself.
package resource
