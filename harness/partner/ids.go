package partner

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"
)

// TxidPattern is what the Pix API accepts for a txid the partner chooses.
var TxidPattern = regexp.MustCompile(`^[a-zA-Z0-9]{26,35}$`)

// RefundIDPattern is what the Pix API accepts for a refund id.
var RefundIDPattern = regexp.MustCompile(`^[a-zA-Z0-9]{1,35}$`)

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// randomAlnum returns n characters drawn uniformly from [A-Za-z0-9] with
// crypto/rand (bytes ≥ 248 are rejected so that 62 divides the range).
func randomAlnum(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/2)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic(err) // crypto/rand does not fail on supported platforms
		}
		for _, b := range buf {
			if b >= 248 {
				continue
			}
			out = append(out, alnum[int(b)%len(alnum)])
			if len(out) == n {
				break
			}
		}
	}
	return string(out)
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Retry policy of every call to the sandbox.
const (
	// MaxAttempts is how many times one logical request is sent at most.
	MaxAttempts = 4
	// BaseBackoff is the pause before the first retry; it doubles after.
	BaseBackoff = 200 * time.Millisecond
	// MaxRetryAfter caps how long a Retry-After header makes the partner wait.
	MaxRetryAfter = 3 * time.Second
	// CallTimeout bounds each attempt.
	CallTimeout = 3 * time.Second
)

// Backoff is the pause before attempt n (n ≥ 2): 200 ms, 400 ms, 800 ms.
// Attempt 1 and anything beyond MaxAttempts have none.
func Backoff(attempt int) time.Duration {
	if attempt < 2 || attempt > MaxAttempts {
		return 0
	}
	return BaseBackoff << (attempt - 2)
}

// retryAfter reads a Retry-After header (seconds or an HTTP date), capped.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	var d time.Duration
	if s, err := strconv.Atoi(v); err == nil {
		d = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	return max(0, min(d, MaxRetryAfter))
}

// retryable tells whether an answer (or the lack of one) is worth another
// attempt of the same request: a network error or timeout, a 5xx, a 429,
// or a 409 that asks to come back later (an Idempotency-Key in flight).
func retryable(status int, h http.Header, err error) bool {
	if err != nil {
		return true
	}
	return status >= 500 || status == http.StatusTooManyRequests ||
		(status == http.StatusConflict && h.Get("Retry-After") != "")
}

// newLoteID is a batch's id, a positive number of the partner's (the API
// Pix's lotecobv id is an integer the receiver chooses).
func (p *Partner) newLoteID() int64 {
	var b [8]byte
	rand.Read(b[:])
	return int64(binary.BigEndian.Uint64(b[:])>>12) + 1
}
