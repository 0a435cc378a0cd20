package httpx_test

import (
	"net/http/httptest"
	"testing"

	"homologa/simulator/httpx"
)

func TestProxiesClient(t *testing.T) {
	ps, err := httpx.ParseProxies([]string{"10.0.0.0/8", "192.168.1.7", " "})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, peer, xff, want string
	}{
		{"NoProxy", "203.0.113.7:5000", "198.51.100.1", ""}, // an untrusted peer's claim is ignored
		{"OneHop", "10.1.2.3:5000", "198.51.100.1", "198.51.100.1"},
		{"TwoTrustedHops", "10.1.2.3:5000", "198.51.100.1, 192.168.1.7", "198.51.100.1"},
		{"SpoofedLeft", "10.1.2.3:5000", "1.1.1.1, 198.51.100.1", "198.51.100.1"},
		{"AllTrusted", "10.1.2.3:5000", "10.9.9.9", "10.9.9.9"},
		{"Garbage", "10.1.2.3:5000", "not-an-ip", ""},
		{"NoHeader", "10.1.2.3:5000", "", ""},
		{"IPv6", "10.1.2.3:5000", "[2001:db8::1]", "2001:db8::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/portal/login", nil)
			r.RemoteAddr = tt.peer
			if tt.xff != "" {
				r.Header.Set("X-Forwarded-For", tt.xff)
			}
			ip, ok := ps.Client(r)
			got := ""
			if ok {
				got = ip.String()
			}
			if got != tt.want {
				t.Fatalf("Client = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := httpx.ParseProxies([]string{"proxy.example"}); err == nil {
		t.Fatal("a name was taken as a trusted proxy")
	}
}
