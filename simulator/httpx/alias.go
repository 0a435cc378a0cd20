package httpx

import (
	"strings"
)

// The answer styles of the insurer's APIs: which shape a client of one
// path style reads. The sandbox's own base paths answer in StyleSandbox.
const (
	// StyleSandbox is the sandbox's own base paths (/insurer/v1, …).
	StyleSandbox = ""
	// StyleV2 is apiseguradora v2: the swagger-codegen client's
	// /api/{version}/… and the /apiseguradora/v2/… paths. Its models
	// declare Mensagens as strings.
	StyleV2 = "v2"
	// StyleV3 is the 2025 clients' APIs (/apiseguradora/v3, the
	// underwriting, questionnaire and access-management services):
	// Mensagens as objects.
	StyleV3 = "v3"
)

// Alias is another base path an API is served under, as its real clients
// call it. A segment written {name} in Prefix stands for any one segment
// (/api/{version}).
type Alias struct {
	Prefix string
	Style  string
}

// Styled is an answer body that is written differently for the clients
// of a style (the insurer's envelope: Mensagens as strings in v2).
type Styled interface {
	ForStyle(style string) any
}

// Canonical maps a request path to the path the router knows: a path
// under an API's alias is rewritten under the API's own base path, and
// under an API that matches without regard to case (the insurer's, as the
// real gateway does), each segment spelled like a literal segment of the
// API's routes takes that spelling. It returns the path, the API and the
// style of the base path the request used; ok is false when no API
// matches, and the path is then unchanged.
func Canonical(apis []API, path string) (canon string, api API, style string, ok bool) {
	best, rest := -1, ""
	for _, a := range apis {
		for i := -1; i < len(a.Aliases); i++ {
			base := Alias{Prefix: a.Prefix, Style: a.Style}
			if i >= 0 {
				base = a.Aliases[i]
			}
			if n, r, matched := matchPrefix(base.Prefix, path, a.CaseInsensitive); matched && n > best {
				best, rest, api, style = n, r, a, base.Style
			}
		}
	}
	if best < 0 {
		return path, API{}, "", false
	}
	if api.CaseInsensitive && rest != "" {
		segs := strings.Split(rest[1:], "/")
		for i, s := range segs {
			if c, known := api.Segments[strings.ToLower(s)]; known {
				segs[i] = c
			}
		}
		rest = "/" + strings.Join(segs, "/")
	}
	// Most requests use the API's own path as the router knows it: the
	// path is its own canonical form, and nothing is allocated (this
	// runs twice per request).
	if len(path) == len(api.Prefix)+len(rest) && strings.HasPrefix(path, api.Prefix) && strings.HasSuffix(path, rest) {
		return path, api, style, true
	}
	return api.Prefix + rest, api, style, true
}

// matchPrefix reports whether the path's segments start with the base
// path's, how many segments the base path has, and the rest of the path
// after them ("" or from a "/").
func matchPrefix(prefix, path string, fold bool) (int, string, bool) {
	if prefix == "" {
		return 0, "", false
	}
	want, i := strings.TrimPrefix(prefix, "/"), 0
	if strings.HasPrefix(path, "/") {
		i = 1
	}
	for n := 1; ; n++ {
		w, nextWant, more := strings.Cut(want, "/")
		end := strings.IndexByte(path[i:], '/')
		if end < 0 {
			end = len(path)
		} else {
			end += i
		}
		s := path[i:end]
		switch {
		case strings.HasPrefix(w, "{") && strings.HasSuffix(w, "}"):
			if s == "" {
				return 0, "", false
			}
		case fold && strings.EqualFold(w, s), w == s:
		default:
			return 0, "", false
		}
		if !more {
			return n, path[end:], true
		}
		if end == len(path) {
			return 0, "", false // the path has fewer segments
		}
		want, i = nextWant, end+1
	}
}

// RouteSegments lists the literal segments of the paths given (mux
// syntax; variables are left out), lower-cased, with the spelling the
// routes use: what Canonical matches a case-insensitive API's paths by.
func RouteSegments(paths []string) map[string]string {
	out := map[string]string{}
	for _, p := range paths {
		for _, s := range strings.Split(p, "/") {
			if s != "" && !strings.Contains(s, "{") {
				out[strings.ToLower(s)] = s
			}
		}
	}
	return out
}
