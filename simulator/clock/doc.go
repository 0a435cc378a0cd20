// Package clock holds the sandbox's time: a Clock runs in real time,
// accelerated, or frozen and moved by hand, and Clocks is the default
// clock, which every company follows, beside the clocks of the companies
// that moved their own. Every timestamp, expiry, retry and scenario delay
// of a company's resources reads its company's clock; credentials (tokens,
// sessions, certificates) and the webhook signature's t read the wall
// clock instead. Package jobs moves the clocks and runs what falls due.
package clock
