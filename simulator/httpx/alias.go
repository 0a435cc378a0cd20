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
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	best := -1
	for _, a := range apis {
		bases := append([]Alias{{Prefix: a.Prefix, Style: a.Style}}, a.Aliases...)
		for _, b := range bases {
			n, matched := matchPrefix(b.Prefix, segs, a.CaseInsensitive)
			if matched && n > best {
				best, api, style = n, a, b.Style
			}
		}
	}
	if best < 0 {
		return path, API{}, "", false
	}
	rest := segs[best:]
	if api.CaseInsensitive {
		rest = append([]string(nil), rest...)
		for i, s := range rest {
			if c, known := api.Segments[strings.ToLower(s)]; known {
				rest[i] = c
			}
		}
	}
	canon = api.Prefix
	if len(rest) > 0 {
		canon += "/" + strings.Join(rest, "/")
	}
	return canon, api, style, true
}

// matchPrefix reports whether the path's segments start with the base
// path's, and how many segments the base path has.
func matchPrefix(prefix string, segs []string, fold bool) (int, bool) {
	want := strings.Split(strings.TrimPrefix(prefix, "/"), "/")
	if prefix == "" || len(want) > len(segs) {
		return 0, false
	}
	for i, w := range want {
		s := segs[i]
		switch {
		case strings.HasPrefix(w, "{") && strings.HasSuffix(w, "}"):
			if s == "" {
				return 0, false
			}
		case fold && strings.EqualFold(w, s), w == s:
		default:
			return 0, false
		}
	}
	return len(want), true
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
