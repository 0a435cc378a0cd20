package auth

import (
	"context"
	"runtime"
	"time"

	"golang.org/x/crypto/bcrypt"

	"homologa/simulator/errs"
)

// Password hashing is bcrypt's, a deliberate tenth of a second of a
// processor or so each time. Logins, registrations and Basic-authenticated portal calls
// take turns for it, PasswordHashers at once (by default half the
// processors, at least one), so that a flood of them, right or wrong,
// holds at most those processors and every other request keeps the
// rest. A call that waits longer than hashWait for its turn is answered
// 429 with Retry-After.

// hashWait is the longest a password check waits for its turn.
const hashWait = 2 * time.Second

// hashers answers the channel of hashing turns, made on first use.
func (s *Service) hashers() chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hashTurns == nil {
		n := s.PasswordHashers
		if n <= 0 {
			n = max(1, runtime.GOMAXPROCS(0)/2)
		}
		s.hashTurns = make(chan struct{}, n)
	}
	return s.hashTurns
}

// withHashTurn runs f in a hashing turn.
func (s *Service) withHashTurn(ctx context.Context, f func()) error {
	turns := s.hashers()
	t := time.NewTimer(hashWait)
	defer t.Stop()
	select {
	case turns <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return errs.Errorf(errs.TooManyRequests, "muitas verificações de senha ao mesmo tempo; tente de novo em 1 s (Retry-After)").WithHeader("Retry-After", "1")
	}
	defer func() { <-turns }()
	f()
	return nil
}

// compare is bcrypt's comparison in a hashing turn: nil when password
// matches hash.
func (s *Service) compare(ctx context.Context, hash []byte, password string) error {
	var err error
	if terr := s.withHashTurn(ctx, func() { err = bcrypt.CompareHashAndPassword(hash, []byte(password)) }); terr != nil {
		return terr
	}
	return err
}

// hash checks the password rules and hashes it, in a hashing turn.
func (s *Service) hash(ctx context.Context, password string) (string, error) {
	var h string
	var err error
	if terr := s.withHashTurn(ctx, func() { h, err = hashPassword(password) }); terr != nil {
		return "", terr
	}
	return h, err
}
