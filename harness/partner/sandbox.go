package partner

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"homologa/simulator/auth"
)

// Scopes is what the partner asks the token endpoint for: only what it
// uses of the flows a partner file declares by default. One that declares
// due-date charges (the cobv and lotecobv flows) adds DueDateScopes.
const Scopes = "cob.read cob.write pix.read pix.write webhook.read webhook.write " +
	"rec.write solicrec.write cobr.read cobr.write webhookrec.write webhookcobr.write " +
	"apiseguradora apicontroleacesso apibeneficio"

// DueDateScopes are what create-cobv and create-lotecobv need besides
// Scopes.
const DueDateScopes = "cobv.write lotecobv.write"

// permanentError is a failure that no retry of the same request can fix
// (the token endpoint refused the credentials, a request cannot be built).
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// answer is what one attempt got.
type answer struct {
	status int
	body   []byte
	header http.Header
}

// once sends one request to the sandbox, bounded by CallTimeout (body read
// included).
func (p *Partner) once(ctx context.Context, method, rawURL string, body []byte, header http.Header) (answer, error) {
	ctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, rd)
	if err != nil {
		return answer{}, &permanentError{err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return answer{}, err
	}
	return answer{status: resp.StatusCode, body: b, header: resp.Header}, nil
}

// retry runs try for attempt 1, 2, … until it gets an answer not worth
// retrying, MaxAttempts is reached (1 under no-retry) or ctx ends, pausing
// Backoff (or the answer's Retry-After, if longer) in between. It returns
// the last answer and how many attempts were made; err is set when the
// last attempt had no answer or still a retryable one.
func (p *Partner) retry(ctx context.Context, clientID, what string, try func(attempt int) (answer, error)) (answer, int, error) {
	limit := MaxAttempts
	if p.defect == NoRetry {
		limit = 1
	}
	for n := 1; ; n++ {
		ans, err := try(n)
		if err != nil {
			p.logf("client=%s %s attempt=%d error=%v", clientID, what, n, err)
		} else {
			p.logf("client=%s %s attempt=%d status=%d", clientID, what, n, ans.status)
		}
		if perm := (*permanentError)(nil); errors.As(err, &perm) {
			return ans, n, err
		}
		if !retryable(ans.status, ans.header, err) {
			return ans, n, nil
		}
		if n >= limit || ctx.Err() != nil {
			if err == nil {
				err = fmt.Errorf("%s answered %d after %d attempt(s): %s", what, ans.status, n, excerpt(ans.body))
			} else {
				err = fmt.Errorf("%s failed after %d attempt(s): %w", what, n, err)
			}
			return ans, n, err
		}
		wait := max(Backoff(n+1), retryAfter(ans.header, time.Now()))
		if p.defect == NoBackoff {
			wait = 0
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ans, n, fmt.Errorf("%s: %w", what, ctx.Err())
		case <-t.C:
		}
	}
}

// token returns a bearer token of the app, from the cache or the token
// endpoint. stale, when not empty, is a token the sandbox refused: a new
// one is fetched unless another caller already replaced it.
func (p *Partner) token(ctx context.Context, a *app, stale string) (string, error) {
	a.tokMu.Lock()
	defer a.tokMu.Unlock()
	a.mu.Lock()
	sandbox, secret := a.sandbox, a.secret
	a.mu.Unlock()
	if a.token != "" && a.token != stale && time.Now().Before(a.tokenExp) && p.defect != TokenPerCall {
		return a.token, nil
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	switch p.defect {
	case BroadScopes:
	case EveryScope:
		form.Set("scope", strings.Join(auth.Scopes, " "))
	default:
		form.Set("scope", p.scopes)
	}
	body := []byte(form.Encode())
	ans, _, err := p.retry(ctx, a.id, "POST /oauth/token", func(int) (answer, error) {
		h := http.Header{}
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		h.Set("Accept", "application/json")
		h.Set("Authorization", "Basic "+basic(a.id, secret))
		return p.once(ctx, http.MethodPost, sandbox+"/oauth/token", body, h)
	})
	if err != nil {
		return "", err
	}
	if ans.status != http.StatusOK {
		return "", &permanentError{fmt.Errorf("token endpoint answered %d: %s", ans.status, excerpt(ans.body))}
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := json.Unmarshal(ans.body, &tok); err != nil || tok.AccessToken == "" {
		return "", &permanentError{fmt.Errorf("token endpoint answered no access_token: %s", excerpt(ans.body))}
	}
	// expires_in counts real seconds; a token may still end sooner (a
	// revoked secret, the sandbox's expiry on purpose), which is why a
	// 401 also refreshes it. Keep a margin of a minute.
	life := time.Duration(tok.ExpiresIn) * time.Second
	if life > 2*time.Minute {
		life -= time.Minute
	}
	a.token, a.tokenExp = tok.AccessToken, time.Now().Add(life)
	return a.token, nil
}

// send makes one attempt of an API call with the app's token: a 401 gets a
// new token and is sent again once (the token may end before expires_in),
// unless the no-token-renewal defect keeps it.
func (p *Partner) send(ctx context.Context, a *app, method, path string, body []byte, extra http.Header) (answer, error) {
	a.mu.Lock()
	sandbox := a.sandbox
	a.mu.Unlock()
	tries := 2
	if p.defect == NoTokenRenewal {
		tries = 1
	}
	var tok string
	for range tries {
		t, err := p.token(ctx, a, tok)
		if err != nil {
			// token already retried what was worth retrying.
			if perm := (*permanentError)(nil); !errors.As(err, &perm) {
				err = &permanentError{err}
			}
			return answer{}, err
		}
		tok = t
		h := http.Header{}
		for k, v := range extra {
			h[k] = v
		}
		h.Set("Authorization", "Bearer "+tok)
		h.Set("Accept", "application/json")
		if body != nil {
			h.Set("Content-Type", "application/json")
		}
		ans, err := p.once(ctx, method, sandbox+path, body, h)
		if err != nil || ans.status != http.StatusUnauthorized || tries == 1 {
			return ans, err
		}
	}
	return answer{status: http.StatusUnauthorized}, nil
}

func basic(user, pass string) string {
	return base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(user) + ":" + url.QueryEscape(pass)))
}

// excerpt shortens a body for an error message.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
