package clock

import (
	"context"
	"sort"
	"sync"
	"time"

	"homologa/simulator/tenant"
)

// Clocks is the sandbox's time: a default clock (--clock), which every
// company follows until it moves its own, and the clocks companies own.
// Moving one company's clock never moves another's; moving the default
// moves every company that follows it. It is safe for concurrent use.
type Clocks struct {
	Default *Clock

	mu        sync.RWMutex
	own       map[string]*Clock
	listeners []func()
}

// NewClocks returns the sandbox's clocks around its default clock.
func NewClocks(def *Clock) *Clocks {
	return &Clocks{Default: def, own: map[string]*Clock{}}
}

// Of returns the clock a company reads: its own, or the default.
func (cs *Clocks) Of(companyID string) *Clock {
	cs.mu.RLock()
	c, ok := cs.own[companyID]
	cs.mu.RUnlock()
	if ok {
		return c
	}
	return cs.Default
}

// In returns the clock a scope reads: one company's (its own, or the
// default it follows), or the default for every company's (the
// operator's).
func (cs *Clocks) In(s tenant.Scope) *Clock {
	id, _ := s.Company()
	return cs.Of(id)
}

// Now returns the time of the company ctx acts for, the default clock's
// for the operator. Work of no company reads the default clock too: an
// instant is no company's data, and whatever that work then reads or
// writes errs on its own.
func (cs *Clocks) Now(ctx context.Context) time.Time {
	s, _ := tenant.Of(ctx)
	return cs.In(s).Now()
}

// NowOf returns a company's time.
func (cs *Clocks) NowOf(companyID string) time.Time { return cs.Of(companyID).Now() }

// Owns reports whether a company has a clock of its own.
func (cs *Clocks) Owns(companyID string) bool {
	cs.mu.RLock()
	defer cs.mu.RUnlock()
	_, ok := cs.own[companyID]
	return ok
}

// Own returns the company's own clock, made from the default as it stands
// when the company first moves its time; created says it was just made.
func (cs *Clocks) Own(companyID string) (c *Clock, created bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c, ok := cs.own[companyID]; ok {
		return c, false
	}
	c = cs.Default.fork()
	c.listeners = append(c.listeners, cs.listeners...)
	cs.own[companyID] = c
	return c, true
}

// Restore gives a company the clock saved for it.
func (cs *Clocks) Restore(companyID string, st State) {
	c := FromState(st)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c.listeners = append(c.listeners, cs.listeners...)
	cs.own[companyID] = c
}

// Release makes a company follow the default clock again.
func (cs *Clocks) Release(companyID string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.own, companyID)
}

// Owners lists the companies with a clock of their own, sorted.
func (cs *Clocks) Owners() []string {
	cs.mu.RLock()
	defer cs.mu.RUnlock()
	out := make([]string, 0, len(cs.own))
	for id := range cs.own {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// OnChange registers f to be called whenever any clock, the default or a
// company's, is set or changes mode.
func (cs *Clocks) OnChange(f func()) {
	cs.mu.Lock()
	cs.listeners = append(cs.listeners, f)
	own := make([]*Clock, 0, len(cs.own))
	for _, c := range cs.own {
		own = append(own, c)
	}
	cs.mu.Unlock()
	cs.Default.OnChange(f)
	for _, c := range own {
		c.OnChange(f)
	}
}
