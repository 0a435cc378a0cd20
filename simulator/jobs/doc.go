// Package jobs runs scheduled work on the sandbox clocks. Jobs live in the
// database, so a restart loses none; each belongs to the company whose
// work scheduled it and falls due on that company's clock. They run one at
// a time in due order (the line), except the kinds registered with
// HandleInLanes (webhook deliveries), which run concurrently in a lane per
// company (lanes.go). Advancing a company's clock runs every job of that
// company due in the window, lanes' included, each at its own instant, and
// nothing of anyone else's.
package jobs
