package auth

import (
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"homologa/simulator/errs"
)

// Throttle slows down guessing: after Limit failed attempts in a row for
// one key, it refuses the key's attempts for a lockout that doubles with
// each further failure, up to MaxLockout. Only failures count, so a
// partner that asks for many tokens, in parallel, never trips it; a
// success resets the count. Time is the wall clock's: a sandbox clock may
// be frozen or a year ahead, a guesser's pace is real. At most MaxKeys keys
// are remembered, the least recently failed forgotten first, so a flood of
// keys costs bounded memory. The zero value is ready to use.
type Throttle struct {
	// Limit is the failures allowed before the first lockout; 0 means 10.
	Limit int
	// Lockout is the first lockout, doubled by each failure after it;
	// 0 means 10 s. MaxLockout caps it; 0 means 10 minutes.
	Lockout    time.Duration
	MaxLockout time.Duration
	// Forget is how long after its last failure a key starts afresh;
	// 0 means 15 minutes.
	Forget time.Duration
	// MaxKeys is how many keys are remembered; 0 means 10,000.
	MaxKeys int
	// Now is the wall clock; nil means time.Now.
	Now func() time.Time

	mu   sync.Mutex
	keys lru[strikes] // the most recently failed in front
}

// strikes is what a throttle remembers of one key.
type strikes struct {
	failures int
	last     time.Time // the last failure
	until    time.Time // the end of the lockout, zero when none
}

func (t *Throttle) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Wait is how long key must wait before its next attempt; 0 when it may
// try now.
func (t *Throttle) Wait(key string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.keys.get(key)
	if !ok {
		return 0
	}
	return max(0, s.until.Sub(t.now()))
}

// Fail records a failed attempt of key and answers the wait it now has
// before its next one.
func (t *Throttle) Fail(key string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.forgetOld(now)
	s := t.keys.touch(key, orDefault(t.MaxKeys, 10_000))
	s.failures++
	s.last = now
	if over := s.failures - orDefault(t.Limit, 10); over >= 0 {
		s.until = now.Add(lockout(orDefault(t.Lockout, 10*time.Second), orDefault(t.MaxLockout, 10*time.Minute), over))
	}
	return max(0, s.until.Sub(now))
}

// lockout is first doubled n times, capped at most.
func lockout(first, most time.Duration, n int) time.Duration {
	if n >= 62 || first > most>>min(n, 62) {
		return most
	}
	return first << n
}

// Succeed forgets key's failures.
func (t *Throttle) Succeed(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.keys.forget(key)
}

// forgetOld drops, from the least recently failed, the keys whose last
// failure is older than Forget and whose lockout is over.
func (t *Throttle) forgetOld(now time.Time) {
	forget := orDefault(t.Forget, 15*time.Minute)
	for key, s, ok := t.keys.oldest(); ok; key, s, ok = t.keys.oldest() {
		if now.Sub(s.last) < forget || now.Before(s.until) {
			return
		}
		t.keys.forget(key)
	}
}

// Len is how many keys the throttle remembers.
func (t *Throttle) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.keys.len()
}

// addrKey is the throttle key of a request's remote address: the address
// itself for IPv4, its /64 for IPv6, where one host commonly holds a
// whole /64.
func addrKey(r *http.Request) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	a := ap.Addr().Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.Prefix(64)
	if err != nil {
		return a.String()
	}
	return p.String()
}

// throttled is the token endpoint's 429: when to try again, in whole
// seconds (Retry-After), and why, in the OAuth dialect.
func throttled(wait time.Duration, why string) *errs.Error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	return errs.Errorf(errs.TooManyRequests, "%s; tente de novo em %d s (Retry-After)", why, secs).
		WithType("temporarily_unavailable").WithHeader("Retry-After", strconv.Itoa(secs))
}

// sourced is a throttle key of a credential as guessed from one source:
// failures count per credential and address, so that nobody guessing
// from elsewhere can lock a credential's owner out.
func sourced(credential string, r *http.Request) string {
	return credential + "|" + addrKey(r)
}

// guesses answers the throttles of the token endpoint, made on first use:
// one per app and address, and one per address for client ids no app
// has, so a flood of addresses never pushes an app's lockout out of
// memory.
func (s *Service) guesses() (clients, addrs *Throttle) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ClientGuesses == nil {
		s.ClientGuesses = &Throttle{}
	}
	if s.AddrGuesses == nil {
		// An address may mistype several client ids; only a flood of
		// them is a search.
		s.AddrGuesses = &Throttle{Limit: 20}
	}
	return s.ClientGuesses, s.AddrGuesses
}

// issueThrottled is IssueToken behind the throttles: a client past its
// failures from an address, or an address past its failures with unknown
// client ids, is answered 429 without its secret being checked at all; a
// wrong secret or an unknown client id counts one failure, the right
// secret resets the client's count at that address. Another address's
// failures never refuse the right secret. A client certificate that is not the app's is refused
// before the secret is checked (it is no guess of the secret); the token
// is bound to the app's.
func (s *Service) issueThrottled(r *http.Request, clientID, secret, scope string) (Token, error) {
	a, hash, found, err := s.client(r.Context(), clientID)
	if err != nil {
		return Token{}, err
	}
	clients, addrs := s.guesses()
	th, key, why := clients, sourced(a.ID, r), fmt.Sprintf("tentativas demais com credenciais erradas do cliente %s deste endereço", clientID)
	if !found {
		th, key, why = addrs, addrKey(r), "tentativas demais com client_id desconhecido deste endereço"
	}
	if wait := th.Wait(key); wait > 0 {
		return Token{}, throttled(wait, why)
	}
	var cnf string
	if found {
		if cnf, err = s.bindingOf(r, a); err != nil {
			return Token{}, err
		}
	}
	if !found || !secretMatches(hash, secret) {
		th.Fail(key)
		return Token{}, invalidClient()
	}
	th.Succeed(key)
	return s.grant(r.Context(), a, scope, cnf)
}
