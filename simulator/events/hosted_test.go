package events_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"homologa/simulator/events"
)

// hostedGuard is a hosted sandbox's guard of allow and resolve with the
// test's lookup and hook, and own as the host's addresses.
func hostedGuard(t *testing.T, allow, resolve []string, table map[string][]string, own ...string) (*events.Guard, *hook) {
	t.Helper()
	g, err := events.NewHostedGuard(allow, resolve)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range own {
		g.Own = append(g.Own, netip.MustParseAddr(a))
	}
	h := &hook{}
	g.Lookup, g.Control = lookup(table), h.control
	return g, h
}

// TestHostedGuardAllows: a hosted sandbox admits no loopback by default,
// nothing special by name or "*", not the host's own addresses even when
// public, and each of them when the operator names the exact host:port.
func TestHostedGuardAllows(t *testing.T) {
	tests := []struct {
		allow []string
		host  string
		ip    string
		port  string
		ok    bool
	}{
		{nil, "", "127.0.0.1", "18463", false},
		{nil, "", "::1", "18463", false},
		{nil, "localhost", "127.0.0.1", "80", false},
		{[]string{"*"}, "rebound.example", "127.0.0.1", "80", false},
		{[]string{"*"}, "", "127.0.0.1", "80", false},
		{[]string{"*"}, "partner.example", "8.8.8.8", "443", true},
		{[]string{"*"}, "partner.example", "203.0.113.77", "443", false}, // documentation range: not public
		{[]string{"*"}, "partner.example", "198.51.100.200", "443", false},
		{[]string{"partner.example"}, "partner.example", "10.0.0.1", "443", false},
		{[]string{"*"}, "own.example", "93.184.215.14", "80", false}, // the host's own public address
		{[]string{"93.184.215.0/24"}, "", "93.184.215.14", "80", false},
		{[]string{"93.184.215.0/24"}, "", "93.184.215.15", "80", true},
		// Named exactly: that host:port, whatever it resolves to.
		{[]string{"127.0.0.1:18463"}, "", "127.0.0.1", "18463", true},
		{[]string{"127.0.0.1:18463"}, "", "127.0.0.1", "18464", false},
		{[]string{"127.0.0.1:18463"}, "", "127.0.0.2", "18463", false},
		{[]string{"[::1]:18463"}, "", "::1", "18463", true},
		{[]string{"hooks.internal:8443"}, "hooks.internal", "10.0.0.5", "8443", true},
		{[]string{"hooks.internal:8443"}, "hooks.internal", "10.0.0.5", "443", false},
		{[]string{"hooks.internal:8443"}, "other.internal", "10.0.0.5", "8443", false},
		{[]string{"93.184.215.14:80"}, "", "93.184.215.14", "80", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v/%s/%s:%s", tt.allow, tt.host, tt.ip, tt.port), func(t *testing.T) {
			g, _ := hostedGuard(t, tt.allow, nil, nil, "93.184.215.14")
			err := g.AllowsPort(tt.host, netip.MustParseAddr(tt.ip), tt.port)
			if (err == nil) != tt.ok {
				t.Fatalf("AllowsPort = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "nenhuma conexão foi aberta") {
				t.Fatalf("refusal %q does not say that nothing was dialled", err)
			}
		})
	}
}

func TestNewHostedGuard(t *testing.T) {
	for _, tt := range []struct {
		entry, err string
	}{
		{"10.0.0.0/8", "host:port"},
		{"127.0.0.1", "loopback"},
		{"169.254.169.254", "link-local"},
		{"0.0.0.0/0", "host:port"},
		{"[fd00::1]", "host:port"},
		{"partner.example:0", "port from 1 to 65535"},
		{"partner.example:http", "port from 1 to 65535"},
		{"8.8.8.0/24", ""},
		{"10.0.0.5:8443", ""},
		{"[fd00::1]:443", ""},
		{"partner.example", ""},
	} {
		t.Run(tt.entry, func(t *testing.T) {
			_, err := events.NewHostedGuard([]string{tt.entry}, nil)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("NewHostedGuard: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("NewHostedGuard = %v, want an error with %q", err, tt.err)
			}
		})
	}
}

// TestHostedCheckURL: registration refuses loopback, private and own
// addresses written literally, and a name of the operator's exact list
// on another port; the sandbox's own inbox is always accepted.
func TestHostedCheckURL(t *testing.T) {
	g, _ := hostedGuard(t, []string{"*", "hooks.internal:8443"}, nil, nil)
	g.Local = &events.Local{Hosts: []string{"sandbox.example:80"}, Paths: []string{"/sandbox/inbox/"}, Handler: http.NotFoundHandler()}
	for url, ok := range map[string]bool{
		"http://127.0.0.1:18463/admin":              false,
		"http://[::1]:18463/":                       false,
		"http://10.0.0.1/hooks":                     false,
		"https://hooks.internal:8443/x":             true,
		"https://partner.example/hooks":             true,
		"http://sandbox.example/sandbox/inbox/a":    true,
		"http://sandbox.example/portal/accounts":    true, // a name: checked when dialled
		"http://sandbox.example:81/sandbox/inbox/a": true,
	} {
		if err := g.CheckURL(url); (err == nil) != ok {
			t.Errorf("CheckURL(%s) = %v, want ok=%v", url, err, ok)
		}
	}
}

// TestHostedDeliveryNeverReachesLoopback is hole 2 of issue 36: a
// partner pointing its webhook at a service on the host's loopback (by
// address, or by a name resolving there under "*") gets a refused
// attempt that shows no answer; the service is never contacted. Named
// exactly by the operator, the same receiver gets the event.
func TestHostedDeliveryNeverReachesLoopback(t *testing.T) {
	var contacted atomic.Int32
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		contacted.Add(1)
		fmt.Fprint(w, `{"secret":"admin panel"}`)
	}))
	defer svc.Close()
	port := svc.Listener.Addr().(*net.TCPAddr).Port
	for _, tt := range []struct {
		name, url string
		allow     []string
		delivered bool
	}{
		{"Address", svc.URL + "/admin", nil, false},
		{"NameUnderStar", fmt.Sprintf("http://rebound.example:%d/admin", port), []string{"*"}, false},
		{"Named", svc.URL + "/admin", []string{fmt.Sprintf("127.0.0.1:%d", port)}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			contacted.Store(0)
			g, h := hostedGuard(t, tt.allow, nil, map[string][]string{"rebound.example": {"127.0.0.1"}})
			b, s := newGuardedBus(t, tt.url, g)
			emit(t, b, "A")
			if _, err := s.RunDue(context.Background()); err != nil {
				t.Fatal(err)
			}
			d := onlyDelivery(t, b)
			a := d.Attempts[0]
			if tt.delivered {
				if d.Status != "delivered" || contacted.Load() != 1 {
					t.Fatalf("delivery %s %+v, contacted %d; want delivered once", d.Status, a, contacted.Load())
				}
				return
			}
			if contacted.Load() != 0 {
				t.Fatalf("the loopback service was contacted %d times", contacted.Load())
			}
			if loop, other := h.seen(); len(loop)+len(other) != 0 {
				t.Fatalf("connect was attempted to %v %v", loop, other)
			}
			if d.Status != "pending" || a.StatusCode != 0 || a.Response != "" || !strings.HasPrefix(a.Error, "destino recusado:") || !strings.Contains(a.Error, "sandbox hospedado") {
				t.Fatalf("attempt %+v, want a hosted refusal with no answer", a)
			}
		})
	}
}

// TestFailedDeliveryShowsNoAnswer: a receiver that refuses a delivery
// (any non-2xx) has its status logged, never its body.
func TestFailedDeliveryShowsNoAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, "internal service banner v1.2.3")
	}))
	defer srv.Close()
	g, _ := guard(t, nil, nil, nil)
	b, s := newGuardedBus(t, srv.URL, g)
	emit(t, b, "A")
	if _, err := s.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	a := onlyDelivery(t, b).Attempts[0]
	if a.StatusCode != 403 || a.Response != "" || strings.Contains(a.Error, "banner") {
		t.Fatalf("attempt %+v, want 403 with no answer shown", a)
	}
}

// TestClosedAndFilteredPortsLookAlike: a port that refuses the
// connection at once and one that never answers (a dial hook failing as
// a timeout would) leave the same error and no latency in the log.
func TestClosedAndFilteredPortsLookAlike(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()                // nothing listens there now: connection refused
	filtered := "127.0.0.1:9" // the hook below fails it as a timeout
	var got []events.Attempt
	for _, addr := range []string{closed, filtered} {
		g, h := guard(t, nil, nil, nil)
		g.Control = func(network, address string, c syscall.RawConn) error {
			if address == filtered {
				return fmt.Errorf("dial %s: %w", address, os.ErrDeadlineExceeded)
			}
			return h.control(network, address, c)
		}
		b, s := newGuardedBus(t, "http://"+addr+"/hooks", g)
		emit(t, b, "A")
		if _, err := s.RunDue(context.Background()); err != nil {
			t.Fatal(err)
		}
		got = append(got, onlyDelivery(t, b).Attempts[0])
	}
	if got[0].Error != got[1].Error || got[0].Error == "" || got[0].LatencyMS != 0 || got[1].LatencyMS != 0 {
		t.Fatalf("closed: %+v\nfiltered: %+v\nwant the same error and no latency", got[0], got[1])
	}
}
