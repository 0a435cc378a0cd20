package auth

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"homologa/simulator/errs"
)

// Window counts what each key did in the last Per of wall time, and
// refuses a key past Limit until its oldest falls out of the window:
// registrations per address and hour. At most MaxKeys keys are
// remembered, the least recently used forgotten first. The zero value
// allows nothing to be counted past 10 an hour.
type Window struct {
	// Limit is how many a key may do in Per; 0 means 10. Per is 0 for an
	// hour.
	Limit int
	Per   time.Duration
	// MaxKeys bounds the keys remembered; 0 means 10,000.
	MaxKeys int
	// Now is the wall clock; nil means time.Now.
	Now func() time.Time

	mu   sync.Mutex
	keys lru[window] // the most recently used in front
}

type window struct {
	times []time.Time // within the window, oldest first
}

// Take counts one more for key and answers 0, or how long key must wait
// when it is past its limit (and the attempt is not counted).
func (w *Window) Take(key string) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	if w.Now != nil {
		now = w.Now()
	}
	per := orDefault(w.Per, time.Hour)
	k := w.keys.touch(key, orDefault(w.MaxKeys, 10_000))
	for len(k.times) > 0 && now.Sub(k.times[0]) >= per {
		k.times = k.times[1:]
	}
	if len(k.times) >= orDefault(w.Limit, 10) {
		return k.times[0].Add(per).Sub(now)
	}
	k.times = append(k.times, now)
	return 0
}

// AllowRegistration counts a registration from r's address, or refuses
// it (429 with Retry-After) past the address's registrations of the hour
// (Registrations).
func (s *Service) AllowRegistration(r *http.Request) error {
	s.mu.Lock()
	if s.Registrations == nil {
		s.Registrations = &Window{}
	}
	w := s.Registrations
	s.mu.Unlock()
	if wait := w.Take(addrKey(r)); wait > 0 {
		secs := max(1, int(math.Ceil(wait.Seconds())))
		return errs.Errorf(errs.TooManyRequests, "cadastros demais deste endereço na última hora; tente de novo em %d s (Retry-After)", secs).
			WithHeader("Retry-After", strconv.Itoa(secs))
	}
	return nil
}
