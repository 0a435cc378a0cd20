// Package quota bounds what each company of a hosted sandbox may take:
// its interaction log's bytes, its resources, events and deliveries,
// its inbox, and the sandbox's storage as a whole. A company at a quota
// is refused (429 with Retry-After, in the called API's dialect), or
// loses its own oldest records; it never takes from another company.
// Config is the settings (--quota-* flags); Usage (usage.go) counts what
// companies hold and refuses their writes past a quota.
package quota
