package auth

import (
	"net/http/httptest"
	"testing"
	"time"
)

func TestLockout(t *testing.T) {
	tests := []struct {
		n    int
		want time.Duration
	}{
		{0, 10 * time.Second}, {1, 20 * time.Second}, {5, 320 * time.Second}, {6, 10 * time.Minute}, {62, 10 * time.Minute}, {1000, 10 * time.Minute},
	}
	for _, tt := range tests {
		if got := lockout(10*time.Second, 10*time.Minute, tt.n); got != tt.want {
			t.Errorf("lockout after %d more failures = %v, want %v", tt.n, got, tt.want)
		}
	}
}

func TestAddrKey(t *testing.T) {
	tests := map[string]string{
		"203.0.113.7:5000":           "203.0.113.7",
		"[::ffff:203.0.113.7]:5000":  "203.0.113.7",
		"[2001:db8:1:2:aaaa::1]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:bbbb::9]:443": "2001:db8:1:2::/64",
		"pipe":                       "pipe",
	}
	for remote, want := range tests {
		r := httptest.NewRequest("POST", "/oauth/token", nil)
		r.RemoteAddr = remote
		if got := addrKey(r); got != want {
			t.Errorf("addrKey(%q) = %q, want %q", remote, got, want)
		}
	}
}
