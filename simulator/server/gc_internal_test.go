package server

import (
	"context"
	"runtime/debug"
	"testing"
)

// TuneGC sets the collector by size, leaves it to the environment when
// GOGC or GOMEMLIMIT is set, and goes back to a ratio once the live heap
// is large.
func TestTuneGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	current := func() (int, int64) {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, tc := range []struct {
		name    string
		env     map[string]string
		percent int
		limit   int64
	}{
		{"unset", nil, -1, gcLimit},
		{"GOGC set", map[string]string{"GOGC": "100"}, 100, 1<<63 - 1},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, 100, 1<<63 - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(1<<63 - 1)
			TuneGC(ctx, func(k string) string { return tc.env[k] })
			if p, l := current(); p != tc.percent || l != tc.limit {
				t.Fatalf("GOGC %d, limit %d; want %d, %d", p, l, tc.percent, tc.limit)
			}
		})
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcLimit)
	if relaxGC(gcLiveCeiling) {
		t.Fatal("relaxed at the ceiling")
	}
	if p, l := current(); p != -1 || l != gcLimit {
		t.Fatalf("GOGC %d, limit %d below the ceiling", p, l)
	}
	if !relaxGC(gcLiveCeiling + 1) {
		t.Fatal("not relaxed past the ceiling")
	}
	if p, l := current(); p != gcRatio || l != 1<<63-1 {
		t.Fatalf("GOGC %d, limit %d past the ceiling; want %d, none", p, l, gcRatio)
	}
}

// The watcher gives the heap back once per idle stretch: after
// gcIdleTicks quiet seconds, not while requests allocate, and again only
// after they have.
func TestGCWatchGivesTheHeapBackWhenIdle(t *testing.T) {
	const mb = 1 << 20
	var w gcWatch
	w.relaxed = true // relaxGC is TestTuneGC's
	var allocs uint64
	tick := func(allocated uint64) bool {
		allocs += allocated
		return w.tick(0, allocs)
	}
	for round := range 2 {
		for i := range 3 {
			if tick(50 * mb) {
				t.Fatalf("round %d: given back while busy (second %d)", round, i)
			}
		}
		for i := 1; i < gcIdleTicks; i++ {
			if tick(10) {
				t.Fatalf("round %d: given back after %d idle seconds, before %d", round, i, gcIdleTicks)
			}
		}
		if !tick(10) {
			t.Fatalf("round %d: not given back after %d idle seconds", round, gcIdleTicks)
		}
		if tick(0) || tick(10) {
			t.Fatalf("round %d: given back twice in one idle stretch", round)
		}
	}
}
