// Command cyclebench measures the customer cycle's time travel: an
// in-process sandbox with a frozen clock sells N enrollments of the demo
// company through the public APIs, then advances the company's clock by
// one year, which issues every charge, payment, commission, payout and
// readjustment of that year. It prints the wall time, the events per second, and the ratio to a baseline
// measured in the same run: emitting as many events, one transaction each,
// through the same event bus (the floor an event costs). The app has no
// webhook, so the figure is the engine's, not loopback HTTP's. `make bench`
// runs it.
package main
