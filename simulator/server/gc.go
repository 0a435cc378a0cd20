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
// gcLimit, then as often as it takes to stay under it. By ratio (GOGC)
// a busy sandbox collects many times a second, and the requests caught
// in a cycle make the tail of its latency; by size it collects rarely
// (decision record 0026 has the figures, and why 64 MiB).
//
// A limit alone would make the collector run without pause should the
// live heap ever come near it (a sandbox holding far more than ours
// does); once the live heap passes gcLiveCeiling the collector goes back
// to a ratio (GOGC=400, no limit) for good. And a heap let grow to the
// limit is kept by the runtime: once the sandbox falls idle (it
// allocated less than gcIdleAllocs in each of gcIdleTicks seconds) the
// heap is collected and given back, as at start. Not sooner: the heap
// given back is paid for again in page faults when requests return,
// and a pause of a few seconds between bursts is no idleness. GOGC or
// GOMEMLIMIT in the environment wins over all of it.
const (
	gcLimit       = 64 << 20
	gcLiveCeiling = gcLimit / 4
	gcRatio       = 400
	gcIdleAllocs  = 1 << 20
	gcIdleTicks   = 30
)

// TuneGC sets the collector as above unless the environment sets it, and
// watches the heap until ctx ends.
func TuneGC(ctx context.Context, getenv func(string) string) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcLimit)
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		var w gcWatch
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if w.tick(sample[0].Value.Uint64(), sample[1].Value.Uint64()) {
				debug.FreeOSMemory()
			}
		}
	}()
}

// gcWatch is what TuneGC's watcher remembers between its ticks.
type gcWatch struct {
	relaxed   bool
	allocs    uint64 // cumulative bytes allocated at the last tick
	idleTicks int    // seconds in a row with less than gcIdleAllocs allocated
	returned  bool   // the heap was given back since the last busy tick
}

// tick takes the live heap and the bytes allocated so far, relaxes the
// collector once the live heap has passed gcLiveCeiling, and says
// whether the heap should be given back now.
func (w *gcWatch) tick(live, allocs uint64) bool {
	if !w.relaxed && relaxGC(live) {
		w.relaxed = true
	}
	busy := allocs-w.allocs >= gcIdleAllocs
	w.allocs = allocs
	if busy {
		w.idleTicks, w.returned = 0, false
		return false
	}
	w.idleTicks++
	if w.idleTicks < gcIdleTicks || w.returned {
		return false
	}
	w.returned = true
	return true
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
