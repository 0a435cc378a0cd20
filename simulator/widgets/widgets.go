package widgets

import (
	"embed"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
)

//go:embed static
var static embed.FS

// Files is the widgets' file tree (static/ stripped).
var Files, _ = fs.Sub(static, "static")

// Policy says which pages may frame the widgets and talk to them.
type Policy struct {
	// Origins answers the widget origins of the app whose client id a
	// widget is framed with (?clientId=); ok is false when there is no
	// such app.
	Origins func(r *http.Request, clientID string) (origins []string, ok bool)
	// AnyOrigin lets any page frame a widget framed for no app, or for
	// an app with no widget origins: a developer's sandbox on loopback.
	AnyOrigin bool
}

// allowed is the origins a request's widget may be framed by and talk
// to, besides the sandbox's own pages: nil for none, ["*"] for any.
func (p Policy) allowed(r *http.Request) []string {
	if id := r.URL.Query().Get("clientId"); id != "" && p.Origins != nil {
		if origins, ok := p.Origins(r, id); ok && len(origins) > 0 {
			return origins
		}
	}
	if p.AnyOrigin {
		return []string{"*"}
	}
	return nil
}

// csp is the Content-Security-Policy of a widget page framed by origins.
func csp(origins []string) string {
	ancestors := "'self'"
	if len(origins) > 0 {
		ancestors += " " + strings.Join(origins, " ")
	}
	return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors " + ancestors
}

// originsMeta is the page's statement of the origins it may talk to,
// which widget.js reads: the HTML the sandbox serves says it, no script
// of another origin can.
const originsMeta = `<meta name="homologa-widget-origins" content="`

// Handler serves the widgets under prefix (e.g. "/widgets/"). Paths a
// widget takes parameters in (/widgets/questionario/v2/responder/{id}/…)
// are served the widget's index.html: the page reads its own location.
func Handler(prefix string, p Policy) http.Handler {
	files := http.FileServerFS(Files)
	return http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p0 := strings.TrimPrefix(r.URL.Path, "/")
		page := ""
		switch {
		case p0 == "":
			page = "index.html"
		case strings.HasSuffix(p0, "/") && isFile(p0+"index.html"):
			page = p0 + "index.html"
		case strings.HasSuffix(p0, ".html") && isFile(p0):
			page = p0
		case !isFile(p0):
			// A parameterised path: the widget is its first segment.
			name, _, _ := strings.Cut(p0, "/")
			if !isFile(name + "/index.html") {
				http.NotFound(w, r)
				return
			}
			page = name + "/index.html"
		}
		origins := p.allowed(r)
		w.Header().Set("Content-Security-Policy", csp(origins))
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		if page == "" {
			files.ServeHTTP(w, r)
			return
		}
		servePage(w, r, page, origins)
	}))
}

func isFile(name string) bool {
	st, err := fs.Stat(Files, name)
	return err == nil && !st.IsDir()
}

// servePage writes a widget's page with the origins it may talk to.
func servePage(w http.ResponseWriter, r *http.Request, page string, origins []string) {
	b, err := fs.ReadFile(Files, page)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	html := strings.Replace(string(b), "<head>", "<head>\n"+originsMeta+strings.Join(origins, " ")+`">`, 1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(html)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write([]byte(html))
	}
}
