package events_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"homologa/simulator/events"
	"homologa/simulator/tenant"
)

// These tests never send a packet beyond loopback, even when the guard is
// broken: names resolve through the test's own lookup (and real DNS is
// refused for the whole test binary, below), and every guard carries a
// dial hook after its own check that records and refuses anything not
// loopback. Each test proves the hook is on the path by seeing its
// loopback dials, so a forbidden dial the guard let through would have
// been caught there, recorded and refused before connect(2).

var dnsDials struct {
	sync.Mutex
	to []string
}

func TestMain(m *testing.M) {
	// A stray real lookup would be a packet to the system's DNS server:
	// refuse it before it is sent, and fail the run.
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(_ context.Context, network, address string) (net.Conn, error) {
		dnsDials.Lock()
		dnsDials.to = append(dnsDials.to, address)
		dnsDials.Unlock()
		return nil, fmt.Errorf("events tests: DNS to %s refused", address)
	}}
	code := m.Run()
	if len(dnsDials.to) > 0 {
		fmt.Fprintf(os.Stderr, "a test tried real DNS (refused): %v\n", dnsDials.to)
		code = 1
	}
	os.Exit(code)
}

// hook is the test's dial hook: it records every address that reached
// connect and refuses any not loopback.
type hook struct {
	mu    sync.Mutex
	dials []string
}

func (h *hook) control(network, address string, _ syscall.RawConn) error {
	h.mu.Lock()
	h.dials = append(h.dials, address)
	h.mu.Unlock()
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !ap.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("test hook: refused a dial to %s, which the guard let through", address)
	}
	return nil
}

// seen reports the hook's dials: loopback ones, and any other (which the
// guard should have refused first).
func (h *hook) seen() (loopback, other []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, d := range h.dials {
		if ap, err := netip.ParseAddrPort(d); err == nil && ap.Addr().Unmap().IsLoopback() {
			loopback = append(loopback, d)
		} else {
			other = append(other, d)
		}
	}
	return loopback, other
}

// lookup answers names from a table, as DNS would, and nothing else.
func lookup(table map[string][]string) func(context.Context, string) ([]netip.Addr, error) {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		addrs, ok := table[host]
		if !ok {
			return nil, fmt.Errorf("test lookup: no such host %s", host)
		}
		var out []netip.Addr
		for _, a := range addrs {
			out = append(out, netip.MustParseAddr(a))
		}
		return out, nil
	}
}

// guard is a guard of allow and resolve with the test's lookup and hook.
func guard(t *testing.T, allow, resolve []string, table map[string][]string) (*events.Guard, *hook) {
	t.Helper()
	g, err := events.NewGuard(allow, resolve)
	if err != nil {
		t.Fatal(err)
	}
	h := &hook{}
	g.Lookup, g.Control = lookup(table), h.control
	return g, h
}

func TestGuardAllows(t *testing.T) {
	tests := []struct {
		allow []string
		host  string
		ip    string
		ok    bool
		class string
	}{
		// The loopback default, whatever name leads there.
		{nil, "", "127.0.0.1", true, "loopback"},
		{nil, "", "127.9.9.9", true, "loopback"},
		{nil, "", "::1", true, "loopback"},
		{nil, "", "::ffff:127.0.0.1", true, "loopback"},
		{nil, "localhost", "127.0.0.1", true, "loopback"},
		{nil, "rebound.example", "127.0.0.1", true, "loopback"},
		{[]string{"partner.example"}, "", "127.0.0.1", true, "loopback"},
		// Nothing else by default.
		{nil, "", "8.8.8.8", false, events.Public},
		{nil, "partner.example", "8.8.8.8", false, events.Public},
		{nil, "localhost", "10.0.0.1", false, "privado"},
		// A listed name admits public unicast addresses only.
		{[]string{"partner.example"}, "partner.example", "8.8.8.8", true, events.Public},
		{[]string{"partner.example"}, "partner.example", "2606:4700::1111", true, events.Public},
		{[]string{"partner.example"}, "other.example", "8.8.8.8", false, events.Public},
		{[]string{"partner.example"}, "", "8.8.8.8", false, events.Public},
		{[]string{"partner.example"}, "partner.example", "169.254.169.254", false, "link-local"},
		{[]string{"partner.example"}, "partner.example", "10.0.0.1", false, "privado"},
		{[]string{"partner.example"}, "partner.example", "172.16.5.4", false, "privado"},
		{[]string{"partner.example"}, "partner.example", "192.168.1.1", false, "privado"},
		{[]string{"partner.example"}, "partner.example", "100.64.0.1", false, "CGNAT"},
		{[]string{"partner.example"}, "partner.example", "100.100.100.200", false, "CGNAT"},
		{[]string{"partner.example"}, "partner.example", "0.0.0.0", false, "não especificado"},
		{[]string{"partner.example"}, "partner.example", "224.0.0.1", false, "multicast"},
		{[]string{"partner.example"}, "partner.example", "255.255.255.255", false, "reservado"},
		{[]string{"partner.example"}, "partner.example", "::", false, "não especificado"},
		{[]string{"partner.example"}, "partner.example", "fe80::1", false, "link-local"},
		{[]string{"partner.example"}, "partner.example", "fe80::1%eth0", false, "link-local"},
		{[]string{"partner.example"}, "partner.example", "fd00:ec2::254", false, "ULA"},
		{[]string{"partner.example"}, "partner.example", "ff02::1", false, "multicast"},
		{[]string{"partner.example"}, "partner.example", "::ffff:169.254.169.254", false, "link-local"},
		{[]string{"partner.example"}, "partner.example", "64:ff9b::a9fe:a9fe", false, "NAT64"},
		{[]string{"partner.example"}, "partner.example", "2002:a9fe:a9fe::1", false, "6to4"},
		// "*" admits any name and any public address, nothing internal.
		{[]string{"*"}, "anything.example", "8.8.8.8", true, events.Public},
		{[]string{"*"}, "", "8.8.8.8", true, events.Public},
		{[]string{"*"}, "", "127.0.0.1", true, "loopback"},
		{[]string{"*"}, "anything.example", "169.254.169.254", false, "link-local"},
		{[]string{"*"}, "", "169.254.169.254", false, "link-local"},
		{[]string{"*"}, "anything.example", "10.0.0.1", false, "privado"},
		// IP and CIDR entries admit their addresses, by any name.
		{[]string{"10.1.0.0/16"}, "partner.internal", "10.1.2.3", true, "privado"},
		{[]string{"10.1.0.0/16"}, "", "10.1.2.3", true, "privado"},
		{[]string{"10.1.0.0/16"}, "", "10.2.0.1", false, "privado"},
		{[]string{"169.254.169.254"}, "metadata.example", "169.254.169.254", true, "link-local"},
		{[]string{"fd00::/8"}, "", "fd00::5", true, "ULA"},
		{[]string{"::ffff:10.0.0.0/104"}, "", "10.9.9.9", true, "privado"},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%v/%s/%s", tt.allow, tt.host, tt.ip)
		t.Run(name, func(t *testing.T) {
			g, err := events.NewGuard(tt.allow, nil)
			if err != nil {
				t.Fatal(err)
			}
			ip := netip.MustParseAddr(tt.ip)
			err = g.Allows(tt.host, ip)
			if (err == nil) != tt.ok {
				t.Errorf("Allows(%q, %s) = %v, want ok=%v", tt.host, tt.ip, err, tt.ok)
			}
			if got := events.Class(ip); !strings.Contains(got, tt.class) {
				t.Errorf("Class(%s) = %q, want %q in it", tt.ip, got, tt.class)
			}
			var r *events.RefusedError
			if err != nil && !errors.As(err, &r) {
				t.Errorf("refusal %v is not a *RefusedError", err)
			}
		})
	}
}

func TestNewGuard(t *testing.T) {
	tests := []struct {
		name           string
		allow, resolve []string
		err            string
	}{
		{"OK", []string{"partner.example", "Partner.Example.", "10.0.0.0/8", "192.168.1.7", "[fd00::1]", "*", " "}, []string{"partner.example=127.0.0.1", "partner.example=::1"}, ""},
		{"ErrSpace", []string{"partner example"}, nil, `entry "partner example"`},
		{"ErrWildcardName", []string{"*.partner.example"}, nil, `entry "*.partner.example"`},
		{"ErrCIDR", []string{"10.0.0.0/33"}, nil, `entry "10.0.0.0/33"`},
		{"ErrURL", []string{"http://partner.example"}, nil, `entry "http://partner.example"`},
		{"ErrPinNoIP", nil, []string{"partner.example"}, `resolve entry "partner.example"`},
		{"ErrPinName", nil, []string{"partner.example=partner.other"}, `resolve entry`},
		{"ErrPinNoHost", nil, []string{"=127.0.0.1"}, `resolve entry`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := events.NewGuard(tt.allow, tt.resolve)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("NewGuard: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("NewGuard = %v, want an error with %q", err, tt.err)
			}
		})
	}
}

// TestGuardDialer: the dialer's Control refuses a forbidden address before
// connect(2); the hook behind it never sees it.
func TestGuardDialer(t *testing.T) {
	g, h := guard(t, []string{"*"}, nil, nil)
	ctx := context.Background()
	for _, addr := range []string{"169.254.169.254:80", "10.0.0.1:80", "[fd00:ec2::254]:80", "0.0.0.0:80"} {
		c, err := g.Dialer().DialContext(ctx, "tcp", addr)
		if err == nil {
			c.Close()
			t.Fatalf("dialled %s", addr)
		}
		if _, ok := events.Refusal(err); !ok {
			t.Errorf("dial %s: %v, want the guard's refusal", addr, err)
		}
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, err := g.Dialer().DialContext(ctx, "tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatalf("dial loopback: %v", err)
	}
	c.Close()
	if loop, other := h.seen(); len(loop) != 1 || len(other) != 0 {
		t.Fatalf("the hook saw loopback %v and other %v, want the one loopback dial only", loop, other)
	}
}

// attempts runs the due deliveries and answers the only delivery.
func onlyDelivery(t *testing.T, b *events.Bus) events.Delivery {
	t.Helper()
	ds, err := b.Deliveries(context.Background(), events.DeliveryFilter{EveryCompany: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 {
		t.Fatalf("%d deliveries, want 1", len(ds))
	}
	return ds[0]
}

// TestDeliveryToForbiddenAddressIsRefused: a listed name that resolves,
// at delivery time, to cloud metadata or a private address is refused
// before any connection; the attempt says why, shows no answer, and is
// retried on the backoff like any failure.
func TestDeliveryToForbiddenAddressIsRefused(t *testing.T) {
	tests := []struct {
		name, url, addr string
	}{
		{"Metadata", "http://metadata.test/latest/meta-data", "169.254.169.254"},
		{"Private", "http://internal.test:8080/hooks", "10.0.0.1"},
		{"PrivateIPv6", "http://ula.test/hooks", "fd00:ec2::254"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			g, h := guard(t, []string{"metadata.test", "internal.test", "ula.test"}, nil, map[string][]string{
				"metadata.test": {"169.254.169.254"}, "internal.test": {"10.0.0.1"}, "ula.test": {"fd00:ec2::254"},
			})
			b, s := newGuardedBus(t, tt.url, g)
			emit(t, b, "A")
			if _, err := s.RunDue(ctx); err != nil {
				t.Fatal(err)
			}
			d := onlyDelivery(t, b)
			if d.Status != "pending" || len(d.Attempts) != 1 {
				t.Fatalf("delivery %s with %d attempts, want pending after 1", d.Status, len(d.Attempts))
			}
			a := d.Attempts[0]
			if !strings.HasPrefix(a.Error, "destino recusado:") || !strings.Contains(a.Error, tt.addr) || a.StatusCode != 0 || a.Response != "" {
				t.Fatalf("attempt %+v, want the refusal naming %s and no answer", a, tt.addr)
			}
			if _, err := s.AdvanceTo(tenant.WithEveryCompany(ctx), start.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			if d := onlyDelivery(t, b); len(d.Attempts) != 2 || !strings.HasPrefix(d.Attempts[1].Error, "destino recusado:") {
				t.Fatalf("after the first backoff: %+v, want a second refused attempt", d.Attempts)
			}
			if _, err := b.Replay(ctx, d.ID); err != nil {
				t.Fatal(err)
			}
			if loop, other := h.seen(); len(loop)+len(other) != 0 {
				t.Fatalf("connect was attempted to %v %v", loop, other)
			}
		})
	}
}

// TestDeliveryDialsOnlyAllowedAddresses: a name answering a forbidden and
// a loopback address is delivered to the loopback one alone; a pinned
// name is never looked up.
func TestDeliveryDialsOnlyAllowedAddresses(t *testing.T) {
	tg := newTarget(t)
	port := tg.srv.Listener.Addr().(*net.TCPAddr).Port
	tests := []struct {
		name    string
		url     string
		resolve []string
	}{
		{"Loopback", tg.srv.URL, nil},
		{"MixedAnswer", fmt.Sprintf("http://mixed.test:%d/hooks", port), nil},
		{"Pinned", fmt.Sprintf("http://pinned.test:%d/hooks", port), []string{"pinned.test=127.0.0.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, h := guard(t, []string{"mixed.test"}, tt.resolve, map[string][]string{
				"mixed.test": {"169.254.169.254", "10.0.0.1", "127.0.0.1"},
			})
			b, s := newGuardedBus(t, tt.url, g)
			before := len(tg.sequences())
			emit(t, b, "A")
			if _, err := s.RunDue(context.Background()); err != nil {
				t.Fatal(err)
			}
			if d := onlyDelivery(t, b); d.Status != "delivered" {
				t.Fatalf("delivery %s: %+v", d.Status, d.Attempts)
			}
			if got := len(tg.sequences()) - before; got != 1 {
				t.Fatalf("the receiver got %d requests, want 1", got)
			}
			if loop, other := h.seen(); len(loop) != 1 || len(other) != 0 {
				t.Fatalf("dials: loopback %v, other %v; want one loopback dial", loop, other)
			}
		})
	}
}

// TestRedirectIsNotFollowed: a loopback receiver answering 307 towards
// cloud metadata (or, with "*", a public address the guard would allow)
// is a failed attempt, retried on the backoff; nothing dials the
// Location.
func TestRedirectIsNotFollowed(t *testing.T) {
	tests := []struct {
		name, allow, location string
	}{
		{"Metadata", "", "http://169.254.169.254/latest/meta-data"},
		{"PublicWithStar", "*", "http://93.184.215.14/collect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			var mu sync.Mutex
			got := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				got++
				mu.Unlock()
				http.Redirect(w, r, tt.location, http.StatusTemporaryRedirect)
			}))
			defer srv.Close()
			g, h := guard(t, []string{tt.allow}, nil, nil)
			b, s := newGuardedBus(t, srv.URL+"/hooks", g)
			emit(t, b, "A")
			if _, err := s.RunDue(ctx); err != nil {
				t.Fatal(err)
			}
			d := onlyDelivery(t, b)
			want := "redirecionamento não seguido: 307 para " + tt.location
			if d.Status != "pending" || len(d.Attempts) != 1 || d.Attempts[0].StatusCode != 307 || !strings.HasPrefix(d.Attempts[0].Error, want) {
				t.Fatalf("delivery %s, attempts %+v; want pending after one 307 with %q", d.Status, d.Attempts, want)
			}
			if _, err := s.AdvanceTo(tenant.WithEveryCompany(ctx), start.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			if d := onlyDelivery(t, b); len(d.Attempts) != 2 || d.Attempts[1].StatusCode != 307 {
				t.Fatalf("after the first backoff: %+v, want a second 307", d.Attempts)
			}
			mu.Lock()
			defer mu.Unlock()
			if got != 2 {
				t.Fatalf("the receiver got %d requests, want 2", got)
			}
			if loop, other := h.seen(); len(loop) == 0 || len(other) != 0 {
				t.Fatalf("dials: loopback %v, other %v; want loopback only", loop, other)
			}
		})
	}
}
