package clock

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Mode is how sandbox time relates to wall time.
type Mode string

// The clock modes accepted by --clock.
const (
	Real        Mode = "real"
	Frozen      Mode = "frozen"
	Accelerated Mode = "accelerated"
)

// Clock is the sandbox clock. Sandbox time is anchor + factor·(wall − wallAnchor);
// a frozen clock has factor 0. Advance and Set move the anchor, so every mode
// can be moved by hand. It is safe for concurrent use.
type Clock struct {
	mu         sync.Mutex
	mode       Mode
	factor     float64
	anchor     time.Time
	wallAnchor time.Time
	wall       func() time.Time
	listeners  []func()
}

// Parse reads a --clock value: "real", "frozen" or "<N>x" (e.g. "60x").
func Parse(s string) (Mode, float64, error) {
	switch s {
	case "", "real":
		return Real, 1, nil
	case "frozen":
		return Frozen, 0, nil
	}
	if n, ok := strings.CutSuffix(s, "x"); ok {
		f, err := strconv.ParseFloat(n, 64)
		if err == nil && f > 0 && f <= 1e6 {
			return Accelerated, f, nil
		}
	}
	return "", 0, fmt.Errorf("relógio %q: use real, frozen ou <N>x com 0 < N ≤ 1000000 (como 60x)", s)
}

// New returns a clock in the given mode starting at start (the wall time when
// start is zero). factor is used by Accelerated only.
func New(mode Mode, factor float64, start time.Time) *Clock {
	return newClock(mode, factor, start, time.Now)
}

// NewWithWall is New with an injected wall clock, for tests of the real and
// accelerated modes.
func NewWithWall(mode Mode, factor float64, start time.Time, wall func() time.Time) *Clock {
	return newClock(mode, factor, start, wall)
}

func newClock(mode Mode, factor float64, start time.Time, wall func() time.Time) *Clock {
	switch mode {
	case Real:
		factor = 1
	case Frozen:
		factor = 0
	}
	w := wall()
	if start.IsZero() {
		start = w
	}
	return &Clock{mode: mode, factor: factor, anchor: start.UTC(), wallAnchor: w, wall: wall}
}

// Now returns sandbox time in UTC.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	if c.factor == 0 {
		return c.anchor
	}
	elapsed := c.wall().Sub(c.wallAnchor)
	ahead := float64(elapsed) * c.factor
	if ahead >= float64(Latest.Sub(c.anchor)) {
		// A running clock stops at the last instant a set may reach,
		// frozen there: at 1,000,000x it would otherwise pass the bound
		// in days of wall time and, past 2262, overflow the instants
		// the store keeps.
		c.mode, c.factor, c.anchor, c.wallAnchor = Frozen, 0, Last, c.wall()
		return c.anchor
	}
	return c.anchor.Add(time.Duration(ahead))
}

// Mode returns the clock's mode and its speed factor.
func (c *Clock) Mode() (Mode, float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nowLocked() // a running clock past the bound has stopped
	return c.mode, c.factor
}

// Set moves sandbox time to t. Callers that must run scheduled work in order
// go through the job scheduler, which calls Set step by step.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.anchor = t.UTC()
	c.wallAnchor = c.wall()
	ls := c.listeners
	c.mu.Unlock()
	for _, f := range ls {
		f()
	}
}

// Advance moves sandbox time forward by d.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	t := c.nowLocked().Add(d)
	c.mu.Unlock()
	c.Set(t)
	return t
}

// OnChange registers f to be called after every Set or Advance, so that
// sleepers waiting on sandbox time wake up.
func (c *Clock) OnChange(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.listeners = append(c.listeners, f)
}

// WallUntil converts a sandbox instant into the wall duration until the clock
// reaches it; ok is false when the clock is frozen and never will.
func (c *Clock) WallUntil(t time.Time) (d time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.nowLocked()
	if c.factor == 0 {
		return 0, false
	}
	return time.Duration(float64(t.Sub(now)) / c.factor), true
}

// The instants a clock may show. Instants are stored as nanoseconds since
// 1970 in an int64, which ends in April 2262; time must stay well inside,
// with room for what is scheduled after it (a year of cycles, a token's
// hour).
var (
	Earliest = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	Latest   = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
	// Last is the last instant a clock shows, the bound's eve: where a
	// running clock stops.
	Last = Latest.Add(-time.Second)
)

// CheckInstant reports why a clock may not show t, or nil.
func CheckInstant(t time.Time) error {
	if t.Before(Earliest) || !t.Before(Latest) {
		return fmt.Errorf("o relógio vai de %s a %s (exclusive); %s está fora", Earliest.Format("2006-01-02"), Latest.Format("2006-01-02"), t.UTC().Format(time.RFC3339))
	}
	return nil
}

// State is a clock's settings, to keep it across restarts.
type State struct {
	Mode   Mode      `json:"mode"`
	Factor float64   `json:"factor"`
	At     time.Time `json:"at"`   // sandbox time when saved
	Wall   time.Time `json:"wall"` // wall time when saved
}

// State returns the clock's settings now.
func (c *Clock) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	at := c.nowLocked()
	return State{Mode: c.mode, Factor: c.factor, At: at, Wall: c.wall().UTC()}
}

// FromState makes a clock from saved settings: a frozen clock at the same
// instant; a running one as if it had kept running while nobody looked.
func FromState(st State) *Clock {
	c := newClock(st.Mode, st.Factor, st.At, time.Now)
	if st.Factor > 0 && !st.Wall.IsZero() {
		c.anchor = st.At.Add(time.Duration(float64(time.Since(st.Wall)) * st.Factor))
	}
	return c
}

// SetMode changes how the clock runs from now on: frozen where it stands,
// real time, or accelerated by factor.
func (c *Clock) SetMode(mode Mode, factor float64) {
	c.mu.Lock()
	now := c.nowLocked()
	switch mode {
	case Real:
		factor = 1
	case Frozen:
		factor = 0
	}
	c.mode, c.factor, c.anchor, c.wallAnchor = mode, factor, now, c.wall()
	ls := c.listeners
	c.mu.Unlock()
	for _, f := range ls {
		f()
	}
}

// fork returns a new clock showing what c shows now, running as c runs.
func (c *Clock) fork() *Clock {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &Clock{mode: c.mode, factor: c.factor, anchor: c.nowLocked(), wallAnchor: c.wall(), wall: c.wall}
}
