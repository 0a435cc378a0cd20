package httpx

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Proxies are the reverse proxies a sandbox trusts to say where a request
// came from (--trusted-proxy): a request whose peer is one of them is
// taken as from the address its X-Forwarded-For names last, past every
// trusted hop, and its RemoteAddr says so from then on (the throttles,
// the registration limit and the log read it). A request from anyone
// else keeps its peer's address, whatever it claims: a forwarded header
// is only as true as whoever wrote it. With none, every client is its
// peer.
type Proxies []netip.Prefix

// ParseProxies reads --trusted-proxy entries: addresses or CIDR ranges.
func ParseProxies(list []string) (Proxies, error) {
	var out Proxies
	for _, e := range list {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if !strings.Contains(e, "/") {
			ip, err := netip.ParseAddr(strings.Trim(e, "[]"))
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: want an IP address or a CIDR range such as 10.0.0.0/8", e)
			}
			ip = ip.WithZone("").Unmap()
			out = append(out, netip.PrefixFrom(ip, ip.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(e)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want an IP address or a CIDR range such as 10.0.0.0/8", e)
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func (ps Proxies) trusts(ip netip.Addr) bool {
	ip = ip.WithZone("").Unmap()
	for _, p := range ps {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// Client is the address r came from: its peer, or, when the peer is a
// trusted proxy, the rightmost X-Forwarded-For address that is not one
// (the leftmost, should every hop be trusted). ok is false when the
// peer is no proxy of ours, or named no client.
func (ps Proxies) Client(r *http.Request) (netip.Addr, bool) {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil || len(ps) == 0 || !ps.trusts(peer.Addr()) {
		return netip.Addr{}, false
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	var last netip.Addr
	for i := len(hops) - 1; i >= 0; i-- {
		ip, err := netip.ParseAddr(strings.Trim(strings.TrimSpace(hops[i]), "[]"))
		if err != nil {
			return netip.Addr{}, false // a hop we cannot read: stop trusting the chain there
		}
		last = ip.WithZone("").Unmap()
		if !ps.trusts(last) {
			return last, true
		}
	}
	return last, last.IsValid()
}

// Middleware gives every request behind a trusted proxy its client's
// address as RemoteAddr.
func (ps Proxies) Middleware(next http.Handler) http.Handler {
	if len(ps) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ip, ok := ps.Client(r); ok {
			r = r.WithContext(r.Context())
			r.RemoteAddr = net.JoinHostPort(ip.String(), "0")
		}
		next.ServeHTTP(w, r)
	})
}
