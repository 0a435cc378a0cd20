package events

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DefaultWebhookAllow is what every allow-list of a developer's sandbox
// holds: this machine, where partners run their receivers during
// homologation and where the built-in inbox is. --webhook-allow adds to
// it, never replaces it. A hosted sandbox has no such default
// (NewHostedGuard): there this machine is the host's, and its loopback
// services are nobody's webhook.
var DefaultWebhookAllow = []string{"localhost", "127.0.0.0/8", "::1"}

// Guard decides where webhooks may go. It is checked twice: on the URL's
// literal host when a webhook is registered (CheckURL), and on every
// address the sandbox is about to connect to when it delivers (Client),
// after name resolution, so a name that later resolves elsewhere, or a
// redirect, cannot turn a delivery against the network the sandbox runs
// in.
//
// The rule (Allows) for an address ip reached through host:
//   - ip in an IP or CIDR entry of the allow-list: allowed, whatever name
//     led there (the loopback default is such entries);
//   - host a name on the list, or the list holding "*": allowed only when
//     ip is a public unicast address. A name never admits loopback,
//     private (RFC 1918, ULA), link-local (169.254.0.0/16, where cloud
//     metadata answers, and fe80::/10), CGNAT (100.64.0.0/10), multicast,
//     unspecified or reserved addresses, nor IPv6 forms that embed an IPv4
//     address (NAT64, 6to4): those need an IP or CIDR entry of their own;
//   - a literal public address in a URL: allowed with "*" only;
//   - anything else: refused.
//
// A hosted sandbox (NewHostedGuard: --public-url, or a listen address
// beyond loopback) has no loopback default, and its IP and CIDR entries
// may name public addresses only: no name, "*", address or range admits
// loopback, private, link-local or other special addresses, nor the
// host's own (Own). The one way to such a receiver is an entry naming it
// exactly, host:port ("10.0.0.5:8443", "hooks.internal:443"): that host
// on that port, whatever it resolves to. The sandbox's own inbox is not
// reached through the network at all (Local).
//
// A Guard is safe for concurrent use once made; its fields are set before
// the first delivery.
type Guard struct {
	// Lookup resolves a host name when a delivery connects; nil is the
	// system resolver. Pins (--webhook-resolve) are answered before it.
	// Tests answer forbidden addresses here without real DNS.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// Control, when set, runs after the guard's own check and just before
	// connect(2). Tests put a hook here that records and refuses anything
	// not loopback, so that a broken guard still sends no packet.
	Control func(network, address string, c syscall.RawConn) error
	// RootCAs are the certificate authorities deliveries trust; nil is
	// the system's. A sandbox serving TLS adds its own CA, so its
	// built-in inbox is reached over its TLS.
	RootCAs *x509.CertPool
	// Own are the host's own addresses, refused to a hosted sandbox's
	// deliveries whatever their class (a public address of the host
	// reaches its services as loopback does). NewHostedGuard fills it
	// from the host's interfaces; tests add theirs.
	Own []netip.Addr
	// Local, when set, is the sandbox itself: requests to its own inbox
	// are served in the process, never dialled (local.go).
	Local *Local

	hosted   bool
	any      bool
	names    map[string]bool
	prefixes []netip.Prefix
	exact    map[string]bool // host:port entries, as exactKey writes them
	pins     map[string][]netip.Addr
	entries  []string
}

// NewGuard makes a guard of the loopback default plus allow (host names,
// IP addresses, CIDR ranges, or "*"), with resolve pinning names to
// addresses ("host=ip", as curl's --resolve). An entry that is none of
// these is an error naming it.
func NewGuard(allow, resolve []string) (*Guard, error) {
	return newGuard(false, append(append([]string(nil), DefaultWebhookAllow...), allow...), resolve)
}

// NewHostedGuard makes the guard of a hosted sandbox: allow alone, with
// no loopback default; an IP or CIDR entry naming a non-public address is
// an error (name it exactly, host:port, instead); Own holds the host's
// interface addresses.
func NewHostedGuard(allow, resolve []string) (*Guard, error) {
	g, err := newGuard(true, allow, resolve)
	if err != nil {
		return nil, err
	}
	g.Own = ownAddrs()
	return g, nil
}

func newGuard(hosted bool, allow, resolve []string) (*Guard, error) {
	g := &Guard{hosted: hosted, names: map[string]bool{}, exact: map[string]bool{}, pins: map[string][]netip.Addr{}}
	for _, e := range allow {
		if err := g.add(strings.TrimSpace(e)); err != nil {
			return nil, err
		}
	}
	for _, r := range resolve {
		name, ip, err := ParsePin(r)
		if err != nil {
			return nil, err
		}
		g.pins[name] = append(g.pins[name], ip)
	}
	return g, nil
}

// ownAddrs are the addresses of the host's interfaces; none when they
// cannot be read (the special ranges are refused anyway).
func ownAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, plain(p.Addr()))
		}
	}
	return out
}

// Hosted reports whether the guard is a hosted sandbox's.
func (g *Guard) Hosted() bool { return g.hosted }

// DefaultGuard is a guard of the loopback default alone.
func DefaultGuard() *Guard {
	g, err := NewGuard(nil, nil)
	if err != nil {
		panic(fmt.Sprintf("the default webhook allow-list: %v", err)) // a bug in DefaultWebhookAllow
	}
	return g
}

// add puts one allow-list entry in the guard.
func (g *Guard) add(e string) error {
	switch {
	case e == "":
		return nil
	case e == "*":
		g.any = true
	case strings.Contains(e, "://"):
		return fmt.Errorf("webhook allow-list entry %q: want a host name, an IP address, a CIDR range or *, not a URL", e)
	case strings.Contains(e, "/"):
		p, err := netip.ParsePrefix(e)
		if err != nil {
			return fmt.Errorf("webhook allow-list entry %q: not a CIDR range such as 10.1.0.0/16", e)
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		if err := g.checkHostedPrefix(e, p.Masked()); err != nil {
			return err
		}
		g.prefixes = append(g.prefixes, p.Masked())
	case isHostPort(e):
		key, ok := exactKey(e)
		if !ok {
			return fmt.Errorf("webhook allow-list entry %q: want host:port with a host name or an IP address and a port from 1 to 65535", e)
		}
		g.exact[key] = true
	default:
		if ip, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
			ip = plain(ip)
			p := netip.PrefixFrom(ip, ip.BitLen())
			if err := g.checkHostedPrefix(e, p); err != nil {
				return err
			}
			g.prefixes = append(g.prefixes, p)
			break
		}
		name, ok := hostName(e)
		if !ok {
			return fmt.Errorf("webhook allow-list entry %q: want a host name, an IP address, a CIDR range or *", e)
		}
		g.names[name] = true
	}
	if !slices.Contains(g.entries, e) {
		g.entries = append(g.entries, e)
	}
	return nil
}

// checkHostedPrefix refuses, on a hosted sandbox, an IP or CIDR entry
// that holds a non-public address: such an entry would admit whatever a
// partner points at in it, the host's neighbours included.
func (g *Guard) checkHostedPrefix(e string, p netip.Prefix) error {
	if !g.hosted {
		return nil
	}
	for _, r := range nonPublic {
		if r.prefix.Overlaps(p) {
			return fmt.Errorf("webhook allow-list entry %q: a hosted sandbox admits a %s address only when named exactly as host:port (such as 10.0.0.5:8443)", e, r.what)
		}
	}
	return nil
}

// isHostPort tells a host:port entry from an address or a name: an IPv6
// address has colons too, but no port unless bracketed.
func isHostPort(e string) bool {
	if strings.HasPrefix(e, "[") {
		return strings.Contains(e, "]:")
	}
	return strings.Count(e, ":") == 1
}

// exactKey is a host:port in the form the guard compares: a lower-case
// name without its final dot, or a plain address, joined to the port.
func exactKey(hostport string) (string, bool) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", false
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return net.JoinHostPort(plain(ip).String(), port), true
	}
	name, ok := hostName(host)
	if !ok {
		return "", false
	}
	return net.JoinHostPort(name, port), true
}

// named reports whether the operator named host (a name, or "" for an
// address written literally) or ip, on port, exactly.
func (g *Guard) named(host string, ip netip.Addr, port string) bool {
	if len(g.exact) == 0 || port == "" {
		return false
	}
	if host != "" && g.exact[net.JoinHostPort(host, port)] {
		return true
	}
	return ip.IsValid() && g.exact[net.JoinHostPort(plain(ip).String(), port)]
}

// ParsePin reads one --webhook-resolve entry, "host=ip".
func ParsePin(s string) (string, netip.Addr, error) {
	host, addr, ok := strings.Cut(strings.TrimSpace(s), "=")
	name, okName := hostName(strings.TrimSpace(host))
	ip, err := netip.ParseAddr(strings.Trim(strings.TrimSpace(addr), "[]"))
	if !ok || !okName || err != nil {
		return "", netip.Addr{}, fmt.Errorf("webhook resolve entry %q: want host=ip, such as partner.example=127.0.0.1", s)
	}
	return name, plain(ip), nil
}

// hostName is h as a lower-case DNS name without its final dot, if it is
// one.
func hostName(h string) (string, bool) {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "" || len(h) > 253 {
		return "", false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return "", false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", false
			}
		}
	}
	return h, true
}

// plain is ip without a zone and, when it is an IPv4 address written as
// IPv6 (::ffff:a.b.c.d), as IPv4: the forms a connection can take must not
// slip past the prefixes.
func plain(ip netip.Addr) netip.Addr {
	return ip.WithZone("").Unmap()
}

// nonPublic are the ranges a name never admits, with what they are, in
// the partner's language (the delivery log shows it). Special ranges come
// before the wide ones that hold them.
var nonPublic = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "não especificado (0.0.0.0/8 alcança a própria máquina)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("10.0.0.0/8"), "privado (RFC 1918)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "privado (RFC 1918)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "privado (RFC 1918)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "CGNAT (100.64.0.0/10)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local (169.254.0.0/16, onde respondem os metadados de nuvem)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "reservado (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "reservado para documentação"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reservado para testes de desempenho"},
	{netip.MustParsePrefix("198.51.100.0/24"), "reservado para documentação"},
	{netip.MustParsePrefix("203.0.113.0/24"), "reservado para documentação"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reservado (240.0.0.0/4 e broadcast)"},
	{netip.MustParsePrefix("::/128"), "não especificado"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::/96"), "reservado (IPv4 compatível)"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64 (alcança endereços IPv4 internos)"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "NAT64 (alcança endereços IPv4 internos)"},
	{netip.MustParsePrefix("100::/64"), "reservado (descarte)"},
	{netip.MustParsePrefix("2001:db8::/32"), "reservado para documentação"},
	{netip.MustParsePrefix("2002::/16"), "6to4 (alcança endereços IPv4 internos)"},
	{netip.MustParsePrefix("fc00::/7"), "privado (ULA, fc00::/7)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local (fe80::/10)"},
	{netip.MustParsePrefix("fec0::/10"), "site-local (fec0::/10)"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// Public is the Class of a public unicast address.
const Public = "público"

// Class says what kind of address ip is, in Portuguese: Public, or the
// range it falls in.
func Class(ip netip.Addr) string {
	ip = plain(ip)
	if !ip.IsValid() {
		return "inválido"
	}
	for _, r := range nonPublic {
		if r.prefix.Contains(ip) {
			return r.what
		}
	}
	if !ip.IsGlobalUnicast() {
		return "reservado"
	}
	return Public
}

// Allows reports why ip, reached through host (a lower-case name, or ""
// for an address written literally), may not be connected to, or nil.
// This is the rule of the Guard's doc comment.
func (g *Guard) Allows(host string, ip netip.Addr) error { return g.AllowsPort(host, ip, "") }

// AllowsPort is Allows for a connection to port ("" when unknown): an
// entry naming host, or ip, on that port exactly allows it whatever the
// address is.
func (g *Guard) AllowsPort(host string, ip netip.Addr, port string) error {
	ip = plain(ip)
	if g.named(host, ip, port) {
		return nil
	}
	class := Class(ip)
	if g.hosted && class == Public && slices.Contains(g.Own, ip) {
		return &RefusedError{Host: host, Addr: ip, Class: "público da própria máquina do sandbox", Hosted: true, Own: true}
	}
	for _, p := range g.prefixes {
		if p.Contains(ip) && (!g.hosted || class == Public) {
			return nil
		}
	}
	listed := g.any || (host != "" && g.names[host])
	if class == Public && listed {
		return nil
	}
	return &RefusedError{Host: host, Addr: ip, Class: class, Listed: listed, Hosted: g.hosted}
}

// RefusedError is a connection the guard refused, before anything was
// sent.
type RefusedError struct {
	Host   string
	Addr   netip.Addr
	Class  string
	Listed bool
	// Hosted says the sandbox is hosted: only an exact host:port entry
	// admits what is not public, or is the host's own (Own).
	Hosted, Own bool
}

func (e *RefusedError) Error() string {
	target := e.Addr.String()
	if e.Host != "" {
		target = fmt.Sprintf("%s (resolvido para %s)", e.Host, e.Addr)
	}
	why := fmt.Sprintf("é um endereço %s", e.Class)
	switch {
	case e.Hosted && (e.Class != Public || e.Own):
		why += ", que um sandbox hospedado nunca alcança: só o operador o permite, nomeando host:porta exatos em --webhook-allow"
	case e.Listed:
		why += ", que um nome ou * nunca admite: só uma entrada IP ou CIDR de --webhook-allow o permite"
	default:
		why += ", fora da lista de destinos de webhook permitidos"
	}
	return fmt.Sprintf("destino recusado: %s %s; nenhuma conexão foi aberta", target, why)
}

// CheckURL reports why a webhook URL may not be registered, or nil. It
// sees only the URL: a name on the list (or "*") passes here and is
// checked again, address by address, at every delivery. The text is
// Portuguese, for the partner.
func (g *Guard) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q não é uma URL http(s) absoluta", raw)
	}
	if u.User != nil {
		return fmt.Errorf("credenciais na URL não são permitidas")
	}
	if g.Local.serves(u) {
		return nil
	}
	host, port := u.Hostname(), portOf(u)
	if ip, err := netip.ParseAddr(host); err == nil {
		if err := g.AllowsPort("", ip, port); err != nil {
			if g.hosted && Class(ip) != Public {
				return fmt.Errorf("o host %q é um endereço %s, que um sandbox hospedado não alcança (só o operador o permite, nomeando %s em --webhook-allow)", host, Class(ip), net.JoinHostPort(host, port))
			}
			return fmt.Errorf("o host %q (endereço %s) não está na lista de destinos de webhook permitidos (%s); inicie o sandbox com --webhook-allow para incluí-lo", host, Class(ip), g.list())
		}
		return nil
	}
	name, ok := hostName(host)
	if !ok {
		return fmt.Errorf("o host %q não é um nome válido", host)
	}
	if g.any || g.names[name] || g.named(name, netip.Addr{}, port) {
		return nil
	}
	// A name pinned with --webhook-resolve may be used when one of its
	// addresses is allowed: it is never looked up.
	for _, ip := range g.pins[name] {
		if g.AllowsPort(name, ip, port) == nil {
			return nil
		}
	}
	return fmt.Errorf("o host %q não está na lista de destinos de webhook permitidos (%s); inicie o sandbox com --webhook-allow para incluí-lo", host, g.list())
}

func (g *Guard) list() string {
	if len(g.entries) == 0 {
		return "nenhum"
	}
	return strings.Join(g.entries, ", ")
}

// portOf is a URL's port, or its scheme's.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// resolve is where host leads: itself if it is an address, its pins, or
// what Lookup answers. name is host as a name, "" for an address.
func (g *Guard) resolve(ctx context.Context, host string) (name string, ips []netip.Addr, err error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return "", []netip.Addr{ip}, nil
	}
	name, ok := hostName(host)
	if !ok {
		return "", nil, fmt.Errorf("o host %q não é um nome válido", host)
	}
	if pins, ok := g.pins[name]; ok {
		return name, pins, nil
	}
	lookup := g.Lookup
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	ips, err = lookup(ctx, name)
	if err != nil {
		return name, nil, fmt.Errorf("não foi possível resolver %s: %w", name, err)
	}
	if len(ips) == 0 {
		return name, nil, fmt.Errorf("não foi possível resolver %s: nenhum endereço", name)
	}
	return name, ips, nil
}

// dialHost carries the name a connection was resolved from to the Control
// check, which sees only the address.
type dialHost struct{}

// DialContext connects to addr ("host:port") as a delivery may: it
// resolves the host itself, keeps the addresses the rule allows, and dials
// them one by one as literal addresses, each checked again in the dialer's
// Control just before connect(2).
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("guarded dial %q: %w", addr, err)
	}
	name, ips, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var allowed []netip.Addr
	var refused error
	for _, ip := range ips {
		if err := g.AllowsPort(name, ip, port); err != nil {
			refused = cmp.Or(refused, err)
			continue
		}
		allowed = append(allowed, ip)
	}
	if len(allowed) == 0 {
		return nil, refused
	}
	d := g.Dialer()
	ctx = context.WithValue(ctx, dialHost{}, name)
	var first error
	for _, ip := range allowed {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		first = cmp.Or(first, err)
	}
	return nil, first
}

// Dialer is the dialer the guard connects with. Its Control refuses any
// address the rule does not allow, on the socket about to connect, so a
// refused connection sends not a packet. Given a name, dial through
// DialContext: the dialer alone judges addresses as if written literally.
func (g *Guard) Dialer() *net.Dialer {
	return &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, ControlContext: g.control}
}

// control is the last check, on the socket about to connect: whatever
// reached the dialer, by whatever path, must be an address the rule
// allows for the name it came from.
func (g *Guard) control(ctx context.Context, network, address string, c syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("destino recusado: %q não é um endereço; nenhuma conexão foi aberta", address)
	}
	name, _ := ctx.Value(dialHost{}).(string)
	if err := g.AllowsPort(name, ap.Addr(), strconv.Itoa(int(ap.Port()))); err != nil {
		return err
	}
	if g.Control != nil {
		return g.Control(network, address, c)
	}
	return nil
}

// Client is the one HTTP client that reaches partners: every connection
// goes through the guard, no proxy is used (a proxy would connect for us,
// beyond the guard), and redirects are answered, never followed.
func (g *Guard) Client(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: localFirst{g: g, next: &http.Transport{
			Proxy:                 nil,
			DialContext:           g.DialContext,
			TLSClientConfig:       &tls.Config{RootCAs: g.RootCAs},
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: timeout,
			MaxIdleConnsPerHost:   4,
			IdleConnTimeout:       90 * time.Second,
		}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Refusal is the guard's refusal inside err, if there is one.
func Refusal(err error) (*RefusedError, bool) {
	var r *RefusedError
	ok := errors.As(err, &r)
	return r, ok
}
