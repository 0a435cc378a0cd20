package httpx

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"homologa/simulator/errs"
	"homologa/simulator/redact"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gorilla/mux"
)

// API is one mounted API: its base path, its name in logs and the
// interaction log, and the dialect of its errors.
type API struct {
	Prefix string
	Name   string
	// Title names the API for people (the start-up banner).
	Title   string
	Dialect Dialect
	// ErrorSchema is the schema every error body of the API follows.
	ErrorSchema string
	// Record puts the API's requests in the interaction log.
	Record bool
	// Style is the answer style of the API's own base path; Aliases are
	// the other base paths it is served under (its real clients' paths),
	// each with its own style.
	Style   string
	Aliases []Alias
	// CaseInsensitive APIs match the path below their base path without
	// regard to case, as the real gateway does; Segments are the literal
	// segments of their routes, lower-cased, with the routes' spelling
	// (RouteSegments).
	CaseInsensitive bool
	Segments        map[string]string
	// Undeclared are answers every route of the API may give that its
	// specification does not declare, each with its reason; the route
	// reference lists them.
	Undeclared []string
	// Lenient APIs accept what their real counterparts accept beyond the
	// specification, recording each finding (Tolerate): the partner APIs
	// a real server answers, not the sandbox's own.
	Lenient bool
}

// APIFor returns the API whose prefix matches path, longest prefix first;
// the zero API (problem+json) when none does.
func APIFor(apis []API, path string) API {
	best := API{Name: "other", Dialect: Problem{}}
	for _, a := range apis {
		if (path == a.Prefix || strings.HasPrefix(path, strings.TrimSuffix(a.Prefix, "/")+"/")) && len(a.Prefix) > len(best.Prefix) {
			best = a
		}
	}
	return best
}

// Outer is the middleware every request passes before routing: it maps a
// path under an API's alias (or in another case) to the path the router
// knows (Canonical), assigns or accepts X-Request-Id, chooses the error
// dialect by path, limits the body, recovers panics as 500s, and writes
// the access log.
func Outer(apis []API, bodyLimit int64, log *slog.Logger, next http.Handler) http.Handler {
	if bodyLimit <= 0 {
		bodyLimit = DefaultBodyLimit
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 128 {
			id = newRequestID()
		}
		info := &Info{RequestID: id, Logger: log, BodyLimit: bodyLimit}
		api := APIFor(apis, r.URL.Path)
		if canon, a, style, ok := Canonical(apis, r.URL.Path); ok {
			api, info.Style = a, style
			if canon != r.URL.Path {
				info.SentPath = r.URL.Path
				u := *r.URL
				u.Path, u.RawPath = canon, ""
				r = r.Clone(r.Context())
				r.URL = &u
			}
		}
		info.API, info.Dialect = api.Name, api.Dialect
		r = r.WithContext(WithInfo(r.Context(), info))
		w.Header().Set("X-Request-Id", id)
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, bodyLimit)
		}
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				log.Error("panic", "request_id", id, "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if !sw.wrote {
					WriteError(sw, r, &errs.Error{Code: errs.Internal, Message: "erro interno; request id " + id})
				}
			}
			// Attributes, not alternating arguments: each request writes
			// this line, and slog boxes and converts the other form.
			log.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("request_id", id), slog.String("api", api.Name), slog.String("app", info.AppID),
				slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("query", redact.Query(r.URL.RawQuery)),
				slog.Int("status", sw.status), slog.Int("bytes", sw.n), slog.Duration("duration", time.Since(start)))
			info.RunFinally()
		}()
		next.ServeHTTP(sw, r)
	})
}

// LimitDeclared answers 413 at once to a request whose Content-Length
// passes the body limit Outer set, whether or not its route reads a body:
// nothing of it is read, and a route that takes no body answers an
// oversized one as every other route does. A body without a declared
// length (chunked) is cut at the limit by whoever reads it (ReadBody).
// The server mounts it behind authentication, so the interaction log
// files the 413 under the caller's app.
func LimitDeclared(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if limit := InfoOf(r.Context()).BodyLimit; limit > 0 && r.ContentLength > limit {
			WriteError(w, r, TooLarge(limit))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// BodyDeadline gives a request's body d to arrive, counted from the end of
// its headers (which http.Server.ReadHeaderTimeout bounds): without it, a
// client trickling a byte now and then holds a connection and a goroutine
// for as long as it likes. A read past the deadline fails, and the reader
// answers 408 (BodyError).
//
// The deadline is set only on requests that carry a body. net/http clears
// it itself once the body has been read to its end (its background read
// of the connection starts then), so a handler may take as long as it
// needs afterwards; on a request without a body that background read is
// already waiting, and a deadline would cancel the request's context
// mid-handler. A websocket upgrade has no body and its connection
// outlives the request: its deadline is cleared, and the stream keeps its
// own (pings and pongs).
func BodyDeadline(d time.Duration, next http.Handler) http.Handler {
	if d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		switch {
		case isUpgrade(r):
			rc.SetReadDeadline(time.Time{})
		case r.Body != nil && r.Body != http.NoBody:
			// Not supported only where there is no connection to
			// bound (httptest's recorder): nothing to do there.
			rc.SetReadDeadline(time.Now().Add(d))
		}
		next.ServeHTTP(w, r)
	})
}

// isUpgrade reports a request asking to switch protocols (a websocket).
func isUpgrade(r *http.Request) bool {
	if r.Header.Get("Upgrade") == "" {
		return false
	}
	for _, v := range r.Header.Values("Connection") {
		for _, tok := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "upgrade") {
				return true
			}
		}
	}
	return false
}

func newRequestID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type statusWriter struct {
	http.ResponseWriter
	status int
	n      int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.n += n
	return n, err
}

// Hijack hands the connection to a websocket upgrade; gorilla/websocket
// asserts http.Hijacker on the writer itself rather than unwrapping it.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("the response writer cannot be hijacked")
	}
	w.status, w.wrote = http.StatusSwitchingProtocols, true
	return h.Hijack()
}

// Unwrap lets http.ResponseController and the websocket upgrader reach the
// underlying writer (its Hijacker and Flusher).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Unrouted answers a request no route took: 405 with the Allow header when
// the path takes other methods, 404 otherwise, in the API's dialect.
// gorilla/mux 1.8.1 cannot say which: inside subrouters it reports a method
// mismatch as a miss, or as a match, depending on the routes around it. So
// each leaf route is asked directly whether it takes the path.
func Unrouted(router *mux.Router) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if retryWithoutSlash(router, w, r) {
			return
		}
		allowed := map[string]bool{}
		router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
			ms, err := route.GetMethods()
			if err != nil {
				return nil // a prefix or subrouter, not a leaf
			}
			for _, m := range ms {
				probe := r.Clone(r.Context())
				probe.Method = m
				var match mux.RouteMatch
				if route.Match(probe, &match) && match.MatchErr == nil {
					allowed[m] = true
				}
			}
			return nil
		})
		path := r.URL.Path
		if sent := InfoOf(r.Context()).SentPath; sent != "" {
			path = sent
		}
		if len(allowed) == 0 {
			WriteError(w, r, errs.Errorf(errs.NotFound, "não há rota %s %s", r.Method, path))
			return
		}
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
			if allowed[m] {
				allow = append(allow, m)
			}
		}
		e := errs.Errorf(errs.MethodNotAllowed, "%s não é aceito em %s; aceitos: %s", r.Method, path, strings.Join(allow, ", "))
		e.WithHeader("Allow", strings.Join(allow, ", "))
		WriteError(w, r, e)
	})
}

// retryWithoutSlash serves a request whose path has a trailing slash that
// no route has (GET /pix/v2/cobv/, as Efí's SDKs send it) by the route of
// the path without it, as the real servers do, and records the finding.
// It reports whether it served the request: not under --strict, not on
// an API that is not lenient, not when no route takes the path without
// the slash either.
func retryWithoutSlash(router *mux.Router, w http.ResponseWriter, r *http.Request) bool {
	info := InfoOf(r.Context())
	trimmed, ok := trimSlash(r.URL.Path)
	if !ok || !info.Lenient {
		return false
	}
	retry := r.Clone(r.Context())
	u := *r.URL
	u.Path, u.RawPath = trimmed, ""
	retry.URL = &u
	var match mux.RouteMatch
	if !router.Match(retry, &match) || match.MatchErr != nil {
		return false
	}
	sent := r.URL.Path
	if info.SentPath != "" {
		sent = info.SentPath
	}
	info.AddFinding(Finding{Kind: FindingTrailingSlash, Field: sent,
		Detail: fmt.Sprintf("o caminho %s termina em barra, que a especificação não tem (%s); aceito como em produção, onde nem todo servidor o aceita", sent, strings.TrimRight(sent, "/"))})
	router.ServeHTTP(w, retry)
	return true
}
