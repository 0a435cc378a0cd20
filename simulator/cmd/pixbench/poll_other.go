//go:build !linux

package main

import "time"

// measurePolling needs epoll; elsewhere the load generator sleeps between
// answers (measure), which is what -client sleep measures anyway.
func measurePolling(addr string, conns int, dur time.Duration, rq request) result {
	return measure(addr, conns, dur, rq)
}
