package server

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The served sandbox's collector. Its Go heap is small (a few MB live:
// the data is SQLite's, outside it) and its garbage is per request, so
// the collector runs by size, not by ratio: none until the heap reaches
// gcLimit, then as often as it takes to stay under it. At GOGC=400 a
// sandbox serving 15,000 GETs a second collected every ~50 ms, and the
// requests caught in a cycle were GET's p99 (pixbench, alternating runs:
// GET c=32 p99 4.3–5.3 ms against 5.2–6.2; creations 240–282 µs of
// processor each against 264–313).
//
// A limit alone would make the collector run without pause should the
// live heap ever come near it (a sandbox holding far more than ours
// does); once the live heap passes gcLiveCeiling the collector goes back
// to a ratio (GOGC=400, no limit) for good. GOGC or GOMEMLIMIT in the
// environment wins over both.
const (
	gcLimit       = 128 << 20
	gcLiveCeiling = gcLimit / 4
	gcRatio       = 400
)

// TuneGC sets the collector as above unless the environment sets it, and
// watches the live heap until ctx ends.
func TuneGC(ctx context.Context, getenv func(string) string) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcLimit)
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if relaxGC(sample[0].Value.Uint64()) {
				return
			}
		}
	}()
}

// relaxGC puts the collector back to a ratio when live (the heap's live
// bytes at the last collection) has passed gcLiveCeiling, and says
// whether it did.
func relaxGC(live uint64) bool {
	if live <= gcLiveCeiling {
		return false
	}
	debug.SetGCPercent(gcRatio)
	debug.SetMemoryLimit(1<<63 - 1)
	return true
}
