// Command pixbench measures the Pix charge routes of the sandbox as a
// partner's load sees them, against a bare net/http server answering the
// same bytes, in one run. `make bench` runs it.
//
// Each server is a process of its own, pinned to one core (taskset -c 0,
// GOMAXPROCS=1), and the load generator is this command pinned to another
// (taskset -c 1); a machine with one core runs all unpinned and says so.
// The load is keep-alive connections, each a closed loop: GET
// /pix/v2/cob/{txid} and creations (PUT /pix/v2/cob/{txid}, a ~600-byte
// body, a new txid each) at 1 and 32 connections, p50/p99/max. Then the
// webhook latency of a state change (webhooks.go; `-only webhooks` runs it
// alone), the start of `homologa serve` to its first answer, and its RSS
// after 2 s idle.
//
// With -profile DIR it profiles instead (`make profile`): the sandbox runs
// as `pixbench server` (server.Main with net/http/pprof beside it), and
// the CPU and allocation profiles of creations and GETs at 32 connections,
// and an execution trace of creations, are written to DIR.
//
// The baseline is simulator/cmd/pixbench/bare, a command of its own;
// `pixbench server` is the profiled sandbox.
package main
