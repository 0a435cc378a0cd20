// Command homologa is the sandbox's one binary: `homologa serve` runs the
// sandbox, `homologa test` runs the homologation suite against a partner,
// and the rest of its subcommands are listed by `homologa help`. It is
// thin: server.MainWith does the work, given the harness's runner (which
// package server cannot import).
package main
