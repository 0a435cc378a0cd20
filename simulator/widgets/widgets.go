// Package widgets serves the insurer's embeddable widgets (credit card,
// forms, proposal timeline, answer pendings, benefit notice, benefit
// timeline, benefit pending), the host page that embeds them the way a
// partner does, and nothing else: plain HTML, CSS and JavaScript embedded in
// the binary, no build step. Each widget is an iframe that waits for the
// host page to post it a token ({event: "notify", property: "Auth" |
// "access_token" | "Token", value}) and then calls the public APIs with it,
// exactly as the real widgets do (insurance SUMMARY §3.10); it reports
// back to the host page by postMessage.
package widgets

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed static
var static embed.FS

// Files is the widgets' file tree (static/ stripped).
var Files, _ = fs.Sub(static, "static")

// Handler serves the widgets under prefix (e.g. "/widgets/"). Paths a
// widget takes parameters in (/widgets/questionario/v2/responder/{id}/…)
// are served the widget's index.html: the page reads its own location.
func Handler(prefix string) http.Handler {
	files := http.FileServerFS(Files)
	return http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/")
		if p == "" {
			p = "index.html"
		}
		if _, err := fs.Stat(Files, p); err != nil {
			// A parameterised path: the widget is its first segment.
			name, _, _ := strings.Cut(p, "/")
			if _, err := fs.Stat(Files, name+"/index.html"); err != nil {
				http.NotFound(w, r)
				return
			}
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/" + name + "/"
			r = r2
		}
		// Widgets are framed by partners' pages on other origins; they
		// hold no secret of their own (the token comes from the host).
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	}))
}
