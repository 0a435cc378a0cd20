package events

import (
	"fmt"
	"strings"
	"sync"
)

// Hub fans envelopes out to live subscribers. Publish never blocks: a
// subscriber whose buffer is full is dropped (its channel closed), so one
// slow websocket cannot hold up the writer that committed the event.
type Hub struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// Subscription is one live subscriber.
type Subscription struct {
	C      chan Envelope
	filter Filter
	once   sync.Once
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[*Subscription]struct{}{}} }

// Subscribe registers a subscriber with a buffer of n envelopes.
func (h *Hub) Subscribe(f Filter, n int) *Subscription {
	s := &Subscription{C: make(chan Envelope, n), filter: f}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	return s
}

// Unsubscribe removes s and closes its channel.
func (h *Hub) Unsubscribe(s *Subscription) {
	h.mu.Lock()
	delete(h.subs, s)
	h.mu.Unlock()
	s.once.Do(func() { close(s.C) })
}

// Publish hands e to every matching subscriber.
func (h *Hub) Publish(e Envelope) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if !s.filter.Match(e) {
			continue
		}
		select {
		case s.C <- e:
		default:
			delete(h.subs, s)
			s.once.Do(func() { close(s.C) })
		}
	}
}

// Len returns the number of subscribers.
func (h *Hub) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Filter selects events for a subscriber. Zero values match everything.
type Filter struct {
	// CompanyID limits events to one company (tenant isolation); Every
	// (the operator's stream) takes every company's, and may filter by
	// CNPJ.
	CompanyID string
	Every     bool
	CNPJ      string
	// Types are exact types or prefixes ending in ".*" ("proposta.*").
	Types []string
	// Subject is "key:value" (a top-level subject field equals value, or
	// is a list holding it) or "value" (any subject field does).
	Subject string
}

// Match reports whether e passes the filter.
func (f Filter) Match(e Envelope) bool {
	if !f.Every && e.CompanyID != f.CompanyID {
		return false
	}
	if f.CNPJ != "" && e.CNPJ != f.CNPJ {
		return false
	}
	if len(f.Types) > 0 {
		ok := false
		for _, t := range f.Types {
			if p, wild := strings.CutSuffix(t, "*"); wild && strings.HasPrefix(e.Type, p) || t == e.Type {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if f.Subject == "" {
		return true
	}
	key, val, keyed := strings.Cut(f.Subject, ":")
	if !keyed {
		key, val = "", f.Subject
	}
	for k, v := range e.Subject {
		if (!keyed || k == key) && holds(v, val) {
			return true
		}
	}
	return false
}

func holds(v any, want string) bool {
	if list, ok := v.([]any); ok {
		for _, x := range list {
			if holds(x, want) {
				return true
			}
		}
		return false
	}
	if list, ok := v.([]int64); ok {
		for _, x := range list {
			if fmt.Sprint(x) == want {
				return true
			}
		}
		return false
	}
	return v != nil && fmt.Sprint(v) == want
}
