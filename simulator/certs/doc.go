// Package certs is the sandbox's own public-key infrastructure, for TLS
// and mutual TLS as every Pix API uses them: a certificate authority made
// once and kept in the database (so that what it signed survives a
// restart with --db), the server certificate it signs at each start, and
// the client certificates the portal issues to apps, downloaded as a PEM
// bundle or a PKCS#12 file. Keys are ECDSA P-256: quick to make, and
// taken by every TLS stack a PSP SDK runs on. Certificates live on the
// wall clock, as TLS checks them, never on a sandbox clock.
package certs
