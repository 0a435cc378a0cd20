package clock_test

import (
	"testing"
	"time"

	"homologa/simulator/clock"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in     string
		mode   clock.Mode
		factor float64
		ok     bool
	}{
		{"", clock.Real, 1, true},
		{"real", clock.Real, 1, true},
		{"frozen", clock.Frozen, 0, true},
		{"60x", clock.Accelerated, 60, true},
		{"0.5x", clock.Accelerated, 0.5, true},
		{"0x", "", 0, false},
		{"-2x", "", 0, false},
		{"fast", "", 0, false},
		{"x", "", 0, false},
	}
	for _, tt := range tests {
		mode, factor, err := clock.Parse(tt.in)
		if (err == nil) != tt.ok || mode != tt.mode || factor != tt.factor {
			t.Errorf("Parse(%q) = %v, %v, %v; want %v, %v, ok=%v", tt.in, mode, factor, err, tt.mode, tt.factor, tt.ok)
		}
	}
}

func TestModes(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	wall := time.Date(2030, 5, 5, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return wall }

	t.Run("Frozen", func(t *testing.T) {
		c := clock.NewWithWall(clock.Frozen, 0, start, now)
		wall = wall.Add(time.Hour)
		if got := c.Now(); !got.Equal(start) {
			t.Fatalf("frozen Now = %v, want %v", got, start)
		}
		if got := c.Advance(36 * time.Hour); !got.Equal(start.Add(36 * time.Hour)) {
			t.Fatalf("Advance = %v", got)
		}
		if _, ok := c.WallUntil(start.Add(48 * time.Hour)); ok {
			t.Fatal("frozen clock claims it will reach a future instant")
		}
	})
	t.Run("Real", func(t *testing.T) {
		c := clock.NewWithWall(clock.Real, 0, start, now)
		wall = wall.Add(90 * time.Second)
		if got, want := c.Now(), start.Add(90*time.Second); !got.Equal(want) {
			t.Fatalf("real Now = %v, want %v", got, want)
		}
	})
	t.Run("Accelerated", func(t *testing.T) {
		c := clock.NewWithWall(clock.Accelerated, 60, start, now)
		wall = wall.Add(time.Minute)
		if got, want := c.Now(), start.Add(time.Hour); !got.Equal(want) {
			t.Fatalf("60x Now = %v, want %v", got, want)
		}
		d, ok := c.WallUntil(start.Add(2 * time.Hour))
		if !ok || d != time.Minute {
			t.Fatalf("WallUntil = %v, %v; want 1m", d, ok)
		}
		changed := 0
		c.OnChange(func() { changed++ })
		c.Set(start)
		if changed != 1 || !c.Now().Equal(start) {
			t.Fatalf("Set: changed=%d now=%v", changed, c.Now())
		}
	})
}

// TestRunningClockStopsAtTheBound: a clock at 1,000,000x passes 2200 in
// days of wall time; it stops at the last instant a set may reach, and
// says it is frozen there, instead of running on past the store's
// instants (2262).
func TestRunningClockStopsAtTheBound(t *testing.T) {
	wall := time.Date(2030, 5, 5, 0, 0, 0, 0, time.UTC)
	c := clock.NewWithWall(clock.Accelerated, 1e6, time.Date(2199, 12, 1, 0, 0, 0, 0, time.UTC), func() time.Time { return wall })
	wall = wall.Add(3 * time.Second) // 34.7 days of sandbox time
	if got := c.Now(); !got.Equal(clock.Last) || clock.CheckInstant(got) != nil {
		t.Fatalf("Now = %v, want the last instant %v", got, clock.Last)
	}
	if mode, factor := c.Mode(); mode != clock.Frozen || factor != 0 {
		t.Fatalf("mode %s ×%g at the bound, want frozen", mode, factor)
	}
	wall = wall.Add(365 * 24 * time.Hour)
	if got := c.Now(); !got.Equal(clock.Last) {
		t.Fatalf("a year of wall time later: %v", got)
	}
	if _, ok := c.WallUntil(clock.Latest); ok {
		t.Fatal("a stopped clock claims it will reach the bound")
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"36h", 36 * time.Hour, true},
		{"90s", 90 * time.Second, true},
		{"2d", 48 * time.Hour, true},
		{"1w", 168 * time.Hour, true},
		{"1d12h", 36 * time.Hour, true},
		{"1.5h", 90 * time.Minute, true},
		{"250ms", 250 * time.Millisecond, true},
		{"365d", 365 * 24 * time.Hour, true},
		{"", 0, false},
		{"36", 0, false},
		{"h", 0, false},
		{"1y", 0, false},
		{"-1h", 0, false},
		{"1h-", 0, false},
		{"101000d", 0, false},
	}
	for _, tt := range tests {
		got, err := clock.ParseDuration(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
