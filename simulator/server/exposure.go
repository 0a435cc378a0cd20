package server

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
)

// checkExposure refuses to listen beyond this machine unless the sandbox
// is told it is hosted (--public-url): on loopback only the developer
// reaches it; anywhere else anyone who reaches the address reaches the
// portal's registration, every partner API and the control API, so the
// one starting it must say so, and name the URL partners use.
func checkExposure(addr, publicURL string) error {
	if publicURL != "" {
		u, err := url.Parse(publicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return fmt.Errorf("--public-url %q: want an http(s) URL with no path, such as https://homologa.example.com", publicURL)
		}
		return nil
	}
	if exposed(addr) {
		return fmt.Errorf("--addr %s listens beyond this machine: whoever reaches it reaches the portal, every partner API and the control API; "+
			"to host a sandbox for partners, give --public-url with the URL they use (e.g. --public-url https://homologa.example.com), "+
			"or listen on loopback (--addr 127.0.0.1:8080)", addr)
	}
	return nil
}

// exposed reports whether addr listens on more than loopback.
func exposed(addr string) bool {
	if addr == "" {
		return false // the default, 127.0.0.1:8080
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "" {
		return true // ":8080": every interface
	}
	if strings.EqualFold(host, "localhost") {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// exposureWarning is the banner's warning for a hosted sandbox: what is
// reachable, and by whom.
func (s *Server) exposureWarning(w io.Writer) {
	if !exposed(s.Config.Addr) {
		return
	}
	fmt.Fprintf(w, "WARNING: listening on %s, beyond this machine; partners reach it at %s.\n"+
		"  Exposed: portal registration and login (anyone may register an account), the partner APIs (app tokens),\n"+
		"  the control API (app tokens or portal logins, each seeing its own company), the operator token below (keep it secret).\n"+
		"  The demo account and app have secrets made up at this start, shown below.\n\n", s.Config.Addr, s.Config.PublicURL)
}
