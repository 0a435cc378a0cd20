package auth

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/tenant"
)

// CheckLogin is CheckPassword behind throttles on guessing, for the
// portal's logins (POST /portal/login, HTTP Basic on /portal/tokens): an
// email past its failures from an address, or an address past its
// failures with any email, is answered 429 without the password being
// checked at all. Failures from one address never refuse the right
// password from another.
func (s *Service) CheckLogin(r *http.Request, email, password string) (Account, error) {
	emails, addrs := s.loginThrottles()
	ekey := sourced(tenant.Namespace(r.Context())+"/"+strings.ToLower(strings.TrimSpace(email)), r)
	akey := addrKey(r)
	if wait := max(emails.Wait(ekey), addrs.Wait(akey)); wait > 0 {
		secs := max(1, int(math.Ceil(wait.Seconds())))
		return Account{}, errs.Errorf(errs.TooManyRequests, "tentativas demais com senha errada; tente de novo em %d s (Retry-After)", secs).
			WithHeader("Retry-After", strconv.Itoa(secs))
	}
	a, err := s.CheckPassword(r.Context(), email, password)
	switch {
	case err == nil:
		emails.Succeed(ekey)
	case errs.CodeOf(err) == errs.Unauthorized:
		emails.Fail(ekey)
		addrs.Fail(akey)
	}
	return a, err
}

// loginThrottles answers the login throttles, made on first use.
func (s *Service) loginThrottles() (emails, addrs *Throttle) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.LoginGuesses == nil {
		s.LoginGuesses = &Throttle{}
	}
	if s.LoginAddrs == nil {
		// One address may hold many people (an office; a proxy not named
		// with --trusted-proxy): only a flood of failures from it is a
		// search.
		s.LoginAddrs = &Throttle{Limit: 50, Lockout: 30 * time.Second}
	}
	return s.LoginGuesses, s.LoginAddrs
}
