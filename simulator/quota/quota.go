package quota

import (
	"fmt"
	"strconv"
	"strings"
)

// Config is every quota. A zero field takes its default (Defaults); a
// negative one means no quota.
type Config struct {
	// LogBytes is the most a company's interaction log holds, in bytes,
	// in a file or in memory: beyond it its oldest requests go.
	LogBytes int64
	// LogBody is how much of each request's and response's body the log
	// keeps; a longer one is kept truncated, and marked so.
	LogBody int64
	// Resources, Events and Deliveries are the most of each a company
	// holds: past one, its writes are refused until retention (or a
	// reset) makes room.
	Resources, Events, Deliveries int64
	// InboxBoxes, InboxPerBox and InboxBytes bound a company's built-in
	// inbox: boxes, requests kept in a box, bytes in all its boxes.
	// InboxTotal bounds every company's together: past it, the inbox
	// refuses new records rather than drop anyone's.
	InboxBoxes, InboxPerBox int
	InboxBytes, InboxTotal  int64
	// Storage is the most the sandbox's databases (and the in-memory
	// log) take in all: past it, writes are refused.
	Storage int64
	// Registrations is how many portal accounts one address may register
	// in an hour.
	Registrations int
}

// Defaults are sized for a hosted sandbox of a few hundred companies on
// a machine with a few GB to spare: a company's log keeps ~4,000
// typical requests (~2 KB each) in 8 MiB, well past a homologation's
// few hundred; 50,000 resources, 200,000 events and as many deliveries
// are years of a busy integration's sandbox time (retention prunes
// finished ones long before); 20 inbox boxes of 100 requests in 2 MiB
// are more than a walkthrough and a test suite use.
var Defaults = Config{
	LogBytes: 8 << 20, LogBody: 16 << 10,
	Resources: 50_000, Events: 200_000, Deliveries: 200_000,
	InboxBoxes: 20, InboxPerBox: 100, InboxBytes: 2 << 20, InboxTotal: 256 << 20,
	Storage:       8 << 30,
	Registrations: 10,
}

// WithDefaults is c with each zero field set to its default, and each
// negative one to 0 (no quota).
func (c Config) WithDefaults() Config {
	d := Defaults
	pick64 := func(v, def int64) int64 {
		switch {
		case v < 0:
			return 0
		case v == 0:
			return def
		}
		return v
	}
	pick := func(v, def int) int { return int(pick64(int64(v), int64(def))) }
	return Config{
		LogBytes: pick64(c.LogBytes, d.LogBytes), LogBody: pick64(c.LogBody, d.LogBody),
		Resources: pick64(c.Resources, d.Resources), Events: pick64(c.Events, d.Events), Deliveries: pick64(c.Deliveries, d.Deliveries),
		InboxBoxes: pick(c.InboxBoxes, d.InboxBoxes), InboxPerBox: pick(c.InboxPerBox, d.InboxPerBox),
		InboxBytes: pick64(c.InboxBytes, d.InboxBytes), InboxTotal: pick64(c.InboxTotal, d.InboxTotal),
		Storage: pick64(c.Storage, d.Storage), Registrations: pick(c.Registrations, d.Registrations),
	}
}

// ParseBytes reads a size: a whole number of bytes, or one with a unit
// (KiB, MiB, GiB, TiB; KB, MB, GB, TB as the same powers of 1024, since
// nobody sizing a sandbox means otherwise); "0" means no quota.
func ParseBytes(s string) (int64, error) {
	v := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			v, mult = strings.TrimSpace(n), u.m
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q: want a size such as 16MiB, 512KiB or 2GiB (0 for no quota)", s)
	}
	return n * mult, nil
}

// FormatBytes writes a size as ParseBytes reads it, in the largest unit
// that divides it.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.m && n%u.m == 0 {
			return strconv.FormatInt(n/u.m, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}
