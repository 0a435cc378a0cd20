package dashboard

import (
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
)

//go:embed static
var static embed.FS

// Files is the dashboard's file tree (static/ stripped).
var Files, _ = fs.Sub(static, "static")

// Prefix is where the dashboard's files are served; the page names its
// assets under it, so the same page works at / and at Prefix.
const Prefix = "/dashboard/"

// Handler serves the page at / and at /dashboard/, and its assets under
// /dashboard/. /dashboard alone is redirected to /dashboard/.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, Prefix)
		switch {
		case r.URL.Path == strings.TrimSuffix(Prefix, "/"):
			http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
			return
		case r.URL.Path == "/" || ok && name == "":
			name = "index.html"
		case !ok:
			httpx.WriteError(w, r, errs.Errorf(errs.NotFound, "página inexistente; o painel fica em %s", Prefix))
			return
		}
		if _, err := fs.Stat(Files, name); err != nil {
			httpx.WriteError(w, r, errs.Errorf(errs.NotFound, "o painel não tem o arquivo %q", name))
			return
		}
		// The page is rebuilt with the binary; a stale cached script
		// talking to a newer server is worse than a revalidation.
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		// Nothing inline and nothing from elsewhere: data shown on the
		// page comes from partners (paths, bodies) and must never run.
		w.Header().Set("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		w.Header().Set("Referrer-Policy", "no-referrer")
		http.ServeFileFS(w, r, Files, name)
	})
}

// WantsHTML is a route matcher for GET /: browsers ask for text/html and get
// the dashboard; curl, tests and SDKs keep the JSON index.
func WantsHTML(r *http.Request, _ *mux.RouteMatch) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || mt != "text/html" && mt != "application/xhtml+xml" {
			continue
		}
		if q, err := strconv.ParseFloat(params["q"], 64); err == nil && q <= 0 {
			continue
		}
		return true
	}
	return false
}
