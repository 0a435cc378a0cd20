package httpx

import (
	"mime"
	"net"
	"net/http"
	"strings"

	"homologa/simulator/errs"
)

// The defences against other sites' pages a browser visits: what a page of
// evil.example can make the browser send to the sandbox without asking
// (a form post, a fetch without preflight), and a name of its own that it
// makes resolve to the sandbox (DNS rebinding).

// CheckHost refuses a request whose Host is not a name the sandbox serves:
// after DNS rebinding, a page of attacker.example reaches a sandbox on
// loopback under its own name, and would read the answers as same-origin.
// The refusal is a 421 in the API's dialect.
func CheckHost(serves func(host string) bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !serves(r.Host) {
			WriteError(w, r, errs.Errorf(errs.Misdirected, "este sandbox não atende o host %q; use o endereço que ele mostra ao iniciar (ou inicie-o com --public-url)", r.Host))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// HostServer says which Host headers a sandbox serves: loopback names and
// addresses on any port, and the host of each of names (its --addr, its
// --public-url).
func HostServer(names ...string) func(host string) bool {
	allowed := map[string]bool{}
	for _, n := range names {
		if h := hostOnly(n); h != "" && !isUnspecified(h) {
			allowed[h] = true
		}
	}
	return func(host string) bool {
		h := hostOnly(host)
		if h == "" {
			return false
		}
		if h == "localhost" || strings.HasSuffix(h, ".localhost") || allowed[h] {
			return true
		}
		ip := net.ParseIP(h)
		return ip != nil && ip.IsLoopback()
	}
}

// hostOnly is the lower-cased host of a Host header or URL authority,
// without port or brackets.
func hostOnly(hostport string) string {
	if i := strings.Index(hostport, "://"); i >= 0 {
		hostport = hostport[i+3:]
		if j := strings.IndexAny(hostport, "/?#"); j >= 0 {
			hostport = hostport[:j]
		}
	}
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

func isUnspecified(h string) bool {
	ip := net.ParseIP(h)
	return ip != nil && ip.IsUnspecified()
}

// formTypes are the content types an HTML form (or a fetch without CORS
// preflight) can send from any site.
var formTypes = map[string]bool{"application/x-www-form-urlencoded": true, "multipart/form-data": true, "text/plain": true}

// RefuseForms refuses, with a 415, a request that changes state and
// declares a content type a cross-site form can send: the portal and the
// control API take JSON, so such a request can only be a forgery (or a
// mistake worth a clear answer).
func RefuseForms(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
			if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); formTypes[mt] {
				WriteError(w, r, errs.Errorf(errs.UnsupportedMedia, "este endpoint recebe application/json, não %s", mt))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
