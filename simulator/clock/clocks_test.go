package clock_test

import (
	"context"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/tenant"
)

// A company that moves its clock moves only its own; the others follow
// the default, and moving the default moves them.
func TestClocksPerCompany(t *testing.T) {
	start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	cs := clock.NewClocks(clock.New(clock.Frozen, 0, start))
	a, created := cs.Own("A")
	if !created || !a.Now().Equal(start) {
		t.Fatalf("A's own clock: created %v at %s, want a copy of the default at %s", created, a.Now(), start)
	}
	a.Advance(365 * 24 * time.Hour)
	if got := cs.NowOf("B"); !got.Equal(start) {
		t.Errorf("B reads %s after A moved a year, want %s", got, start)
	}
	if got := cs.Now(tenant.With(context.Background(), "A")); !got.Equal(start.AddDate(1, 0, 0)) {
		t.Errorf("A reads %s, want a year on", got)
	}
	cs.Default.Advance(time.Hour)
	if got := cs.NowOf("B"); !got.Equal(start.Add(time.Hour)) {
		t.Errorf("B, following the default, reads %s after it moved an hour", got)
	}
	if got := cs.NowOf("A"); !got.Equal(start.AddDate(1, 0, 0)) {
		t.Errorf("A, with its own clock, moved with the default: %s", got)
	}
	if again, created := cs.Own("A"); created || again != a {
		t.Errorf("Own made a second clock for A")
	}
	cs.Release("A")
	if got := cs.NowOf("A"); !got.Equal(start.Add(time.Hour)) {
		t.Errorf("A released reads %s, want the default's", got)
	}
}

// Listeners hear every clock, including ones made after they registered.
func TestClocksListeners(t *testing.T) {
	cs := clock.NewClocks(clock.New(clock.Frozen, 0, time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)))
	n := 0
	cs.OnChange(func() { n++ })
	a, _ := cs.Own("A")
	a.Advance(time.Minute)
	cs.Default.Advance(time.Minute)
	if n != 2 {
		t.Fatalf("heard %d changes, want 2", n)
	}
}

func TestStateRoundTrip(t *testing.T) {
	at := time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)
	c := clock.New(clock.Frozen, 0, at)
	back := clock.FromState(c.State())
	if m, _ := back.Mode(); m != clock.Frozen || !back.Now().Equal(at) {
		t.Fatalf("frozen clock restored as %s at %s", m, back.Now())
	}
	run := clock.New(clock.Accelerated, 60, at)
	st := run.State()
	st.Wall = st.Wall.Add(-time.Second) // saved a second ago, wall time
	got := clock.FromState(st).Now()
	if d := got.Sub(st.At); d < 59*time.Second || d > 2*time.Minute {
		t.Fatalf("a 60x clock saved a second ago restored %s ahead, want about a minute", d)
	}
}

func TestCheckInstant(t *testing.T) {
	for _, tc := range []struct {
		t  time.Time
		ok bool
	}{
		{time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC), true},
		{time.Date(2263, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC), false},
	} {
		if err := clock.CheckInstant(tc.t); (err == nil) != tc.ok {
			t.Errorf("CheckInstant(%s) = %v, want ok %v", tc.t, err, tc.ok)
		}
	}
}
